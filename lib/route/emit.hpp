// Explicit routing output on request (topo-route --emit): next-hop tables or every pair's path.
#pragma once
#include "route/routing.hpp"
#include "route/routing_section.hpp"

namespace icnkit::route {

// Most entries (nodes x destinations, or pairs) an emitted table or path list may hold.
inline constexpr std::int64_t kMaxEmitted = std::int64_t{1} << 22;

// tables: for every node and destination chip, the first permitted channel whose link and far
// node are up for a packet starting at that node (-1: none, or the node is the destination).
// paths: trace()'s path of every ordered pair of live chips. Error(Infeasible) above
// kMaxEmitted.
Emitted emit_routing(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                     bool paths);

} // namespace icnkit::route
