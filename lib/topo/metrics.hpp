// Graph metrics computed exactly with Boost.Graph (families add closed forms on top).
#pragma once
#include "topo/network.hpp"

#include <cstdint>

namespace icnkit::topo {

// Largest hop distance from `src` to any node (BFS over the undirected multigraph).
std::int64_t eccentricity(const Network& n, std::int64_t src);
// Exact diameter: BFS from every node. O(V * E): for small networks and tests.
std::int64_t exact_diameter(const Network& n);

} // namespace icnkit::topo
