// The spec's post-processing invariants (@tbl-spec-topo-20a), checked after every generate and
// on every network a tool reads. A violation throws Error(kind) at `where`.
#pragma once
#include "core/error.hpp"
#include "topo/network.hpp"

namespace icnkit::topo {

void check_invariants(const Network& n, ErrorKind kind, const std::string& where);

// The network against its own family's structure (Family::check_network, topo/structure.hpp):
// family_attrs as the family writes them and agreeing with the network, chip (and switch)
// coordinates, the links of the coordinate families against their geometry. Run after
// check_invariants on every network a tool reads. Error(Input) at source:pointer/...
void check_family_structure(const Network& n, const std::string& source,
                            const std::string& pointer);

} // namespace icnkit::topo
