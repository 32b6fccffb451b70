// Verification of a routing function on a network with faults: reachability (which pairs it
// delivers, and why not the others), hop statistics, and the deadlock check (cdg.hpp).
#pragma once
#include "route/routing.hpp"
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

// Walks longer than this count as routing loops: four times the diameter plus slack, far above
// any minimal or fault-avoiding detour, small enough that a looping function cannot hang the run.
std::int64_t default_hop_limit(const topo::Network& n);

struct Reachability {
  std::int64_t pairs = 0; // ordered pairs of distinct live chips
  std::int64_t unreachable_pairs = 0;
  std::vector<UnreachablePair> unreachable; // the first kMaxListedUnreachable by (src, dst)
  HopStats hops;
};

// Follows trace()'s rule (the first permitted choice whose link and next chip are up) for every
// pair of live chips. Pairs with a failed endpoint are not demand. Source-independent functions
// share the work per destination (a state's remaining hops are remembered), so 16.7M pairs of a
// 16x16x16 torus cost a few tens of millions of routing calls.
Reachability check_reachability(const RoutingFunction& fn, const topo::Network& n,
                                const topo::Faults& f, std::int64_t hop_limit);

// Error(Infeasible) when the faults split the live chips into several connected parts (no
// routing can serve that); the message names each part by its size and lowest chips.
void require_connected(const topo::Network& n, const topo::Faults& f);

// Everything the routing section records: deadlock check, reachability, hop statistics. Where the
// routing function offers an analysis by symmetry that applies (symmetric.hpp; DOR on a torus,
// dor_symmetry.hpp; minimal routing on a network with switches, per attachment,
// minimal_symmetry.hpp), without walking every pair; the result is the same as
// verify_routing_all_pairs()'s.
// `threads`: workers of the all-pairs walk (0: default_threads(), core/threads.hpp); the result
// is the same bytes whatever their number.
Verification verify_routing(const RoutingFunction& fn, const topo::Network& n,
                            const topo::Faults& f, int threads = 0);
// The straightforward computation: every pair of live chips walked. The reference the symmetric
// paths are tested against, and what verify_routing() does where they do not apply.
Verification verify_routing_all_pairs(const RoutingFunction& fn, const topo::Network& n,
                                      const topo::Faults& f, int threads = 0);

} // namespace icnkit::route
