// Deadlock check: the channel-dependency graph (CDG) of the routes actually taken.
// Vertices are (channel, vc); a packet holding (c, v) that may ask for (c', v') next adds the edge
// (c, v) -> (c', v'), for every choice the routing function permits (adaptive functions give
// several). The routing is deadlock-free when the graph is acyclic (Dally & Seitz 1987; for
// adaptive functions this is the sufficient, not the necessary, condition).
#pragma once
#include "route/routing.hpp"
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <cstdint>

namespace icnkit::route {

// Walks the routing function from every live source to every live destination (pairs with a
// failed endpoint carry no traffic; hops onto failed links or chips are never taken, so they add
// no dependency). For source-independent functions the walks to one destination share their
// states, which makes a 16x16x16 torus take well under a second. Walks longer than hop_limit stop
// and are counted (livelock guard). Returns the counts and, if there is one, a cycle.
CdgSummary check_deadlock(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                          std::int64_t hop_limit);

} // namespace icnkit::route
