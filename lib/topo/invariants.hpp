// The spec's post-processing invariants (@tbl-spec-topo-20a), checked after every generate and
// on every network a tool reads. A violation throws Error(kind) at `where`.
#pragma once
#include "core/error.hpp"
#include "topo/network.hpp"

namespace icnkit::topo {

void check_invariants(const Network& n, ErrorKind kind, const std::string& where);

} // namespace icnkit::topo
