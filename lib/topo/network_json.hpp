// The network section as JSON text, written straight into a string: byte for byte what
// to_json(n).dump() gives (sorted keys, nlohmann's number format), without building the JSON
// tree, which for a network of 100,000 links costs more than generating it.
#pragma once
#include "topo/network.hpp"

#include <string>

namespace icnkit::topo {

void append_network_json(std::string& out, const Network& n);

} // namespace icnkit::topo
