// Verification and uniform link load of minimal routing (minimal.hpp) on a network with
// switches, per attachment instead of per pair: the same results as verify_routing_all_pairs()
// and uniform_load_all_pairs(), in time near-linear in chips x attachments (a 16,384-chip
// fat-tree in seconds, where every pair is 268M of them).
//
// Why it is exact. Chips do not forward, so the route to a chip dst is decided by dst's column
// (the distances of the switches from its attachment: the live switches it has a live link to)
// everywhere but at the switches one hop from dst, where the choices are dst's own channels.
// Call the chips of one attachment its members. For one column:
// - a source chip x's choices are the same toward every member but itself (its channels to the
//   switches one hop nearer), and a member is 2 hops from the other members: the packets at a
//   switch 2 or more hops from dst never came from a member (nor from dst), so which states
//   (channel, hops taken) are held there, and the choices taken from them, are the same for
//   every member; they are found once per column, switches in decreasing distance;
// - at a switch one hop from dst (in the attachment), the states held are those of the
//   switches above plus the injections of every chip but dst, and the choices are dst's
//   channels: done per member, a few channels each.
// A dependency is a state held at a switch followed by one of its choices there, with the VC
// classes of the hops taken (k-th hop on VC min(k, vcs - 1) with hop VCs, else 0). For each
// switch the states held are merged per distinct set of choices, and the products of the two are
// the dependencies: built as a set of edges (dependency_graph.hpp), so the counts and the cycle
// reported are those of the walks. Walks never exceed the hop limit (checked: the longest
// minimal path is below it).
// Reachability and hops follow from the distances alone (a minimal route's hops are its source's
// distance; no route exactly when that is infinite): per pair of chip classes (live attachment,
// fault-free attachment), counted into the same exact tally as the all-pairs path
// (hop_tally.hpp), which gives the same statistics whatever the order of the pairs.
// The load: a node's inflow splits evenly over its choices, so the load of a channel is the
// node-level flow summed over destinations: per column the flow from the non-members (the same for
// every member) times the members, plus per member its last hop. Computed in exact integer units
// of 2^-E, which equals the all-pairs path's doubles only when each of those is exact: every split
// a power of two and the finest share times the largest sum below 2^53; otherwise the caller
// computes the load pair by pair. Tests compare both paths on small networks.
#pragma once
#include "route/load.hpp"
#include "route/minimal.hpp"
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <optional>

namespace icnkit::route {

// MinimalRouting::symmetric_analysis() (symmetric.hpp) runs these. std::nullopt when the
// symmetric path does not apply: the network has no switches, chips are linked to chips, the
// longest path reaches the hop limit, or (the load) a split is not a power of two or too fine for
// exact doubles (the caller then walks every pair).
std::optional<Verification> verify_minimal_symmetric(const MinimalRouting& fn,
                                                     const topo::Network& n, const topo::Faults& f);
std::optional<LoadReport> uniform_load_minimal_symmetric(const MinimalRouting& fn,
                                                         const topo::Network& n,
                                                         const topo::Faults& f);

} // namespace icnkit::route
