// Verification and uniform link load of dimension-order routing on a torus from its symmetry,
// without walking every pair: the same results as verify_routing_all_pairs() and the all-pairs
// uniform load, in time near-linear in the number of chips.
//
// Why it is exact. A DOR route is a sequence of legs, one per dimension in dimension_order; while
// the packet is in the leg of dimension a (position i of the order), the dimensions before a
// already hold the destination's coordinates and those after it still hold the source's. DorRouting
// decides a hop from the current and destination coordinates of the dimension it moves in and
// from whether it arrived in that dimension, nothing else (dor.hpp), so a leg from coordinate x to
// t takes the same hops, directions and VCs on every line of dimension a. Hence:
// - the leg table: walking the routing function once from every x to every t on one line of each
//   dimension gives, for each hop (position, direction, VC), the legs (x, t) that take it;
// - a state (channel c from u to w in dimension a, VC v) is held by some pair whose route reaches
//   it without a failed link iff some leg (x, t) of the table takes that hop and the arc of w's
//   line from x to w has no failed link (the source (w's coordinates, x in a) injects straight
//   into leg a; any other source only adds hops before it);
// - its successors are the routing function's answer for one destination per class: t in
//   dimension a while t != w[a], else each later dimension e and each value y != w[e] there (the
//   next hop depends on nothing else), kept unless the next channel's link is down;
// - fault-free hops are the sum of ring distances (every leg is a shortest one), and a pair is
//   unreachable iff its fault-free route crosses a failed link: those pairs are enumerated from
//   the leg table (a hop in dimension a fixes the source's later and the destination's earlier
//   coordinates), counted out of the closed-form histogram and, for the load, their units are
//   taken off the channels from the failed one on;
// - a channel's fault-free load is the number of legs over its hop times N / size(a).
// The dependency graph is built as a set of edges (dependency_graph.hpp), so its counts and the
// cycle it reports are those of the walks. Tests compare both paths on small networks.
#pragma once
#include "route/dor.hpp"
#include "route/load.hpp"
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <optional>

namespace icnkit::route {

// DorRouting::symmetric_analysis() (symmetric.hpp) runs these. std::nullopt when the symmetric
// path does not apply: the network is not the function's torus, a chip has failed, or the rings
// or the pairs the failed links cut are too many for the tables (the caller then walks every
// pair).
std::optional<Verification> verify_dor_symmetric(const DorRouting& fn, const topo::Network& n,
                                                 const topo::Faults& f);
std::optional<LoadReport> uniform_load_dor_symmetric(const DorRouting& fn, const topo::Network& n,
                                                     const topo::Faults& f);

} // namespace icnkit::route
