// Symmetries of a network beyond the torus's DOR translations (symmetry.hpp), for programs of
// flows between chips on any family: a group G of automorphisms of the network that acts freely
// on its chips, maps every link onto a link of the same bandwidth and latency, and that the
// routing respects (the spread of a flow from g(s) to g(d) is g applied to the spread from s to
// d). A program whose every step G maps onto itself (the same flows, with the same bytes) is
// then simulated one flow per orbit, exactly as symmetry.hpp argues for the torus.
//
// The groups found, on fault-free networks only:
//  - torus (a ring network too: the torus of one dimension): the DOR translations (symmetry.hpp),
//    or with minimal ECMP routing the translations
//    the links allow (minimal routing depends only on hop distances, which every automorphism
//    keeps);
//  - hypercube, minimal ECMP: every XOR translation c -> c ^ x (one link per chip and bit);
//  - HyperX, minimal ECMP: the translations of the switch coordinates (each switch's chips
//    following it), and where the sizes are powers of two their XOR translations, each checked
//    to map every link onto a link and to act freely;
//  - full mesh (one link per pair) and single switch (every chip the same number of links to
//    the one switch), minimal ECMP: the rotations c -> c + k mod n, the switch fixed, and, for
//    n a power of two, the XOR translations c -> c ^ x too (any permutation of their chips is
//    an automorphism; these two groups are the ones the schedules' shift and xor peers keep).
//  - mesh, dimension-order or minimal ECMP routing: the reflections of its dimensions of even
//    size (each mapping every link onto a link of the same bandwidth and latency).
//  - composed, rail routing with ECMP as a split: the rotations of the domains inside each unit
//    and, where every unit's leaves reach the spines alike, of the units (chips keep their
//    position in the domain). These fix some channels (the within-unit rotations every
//    leaf-spine channel): such a channel's stabilizer is larger than one, and a quotient gives
//    its representative 1/stabilizer of the bandwidth (FlowOrbits::stabilizer).
// Minimal routing counts only with ECMP as a split (deterministic or random choices, or ECMP
// by hash, pick among the equal paths by id or by a hash, which no translation keeps).
#pragma once
#include "route/routing.hpp"
#include "route/spread.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace icnkit::sim {

struct ChipGroup {
  std::int64_t order = 1;
  std::vector<std::int64_t> sources; // one chip per orbit of chips, ascending
  // Chip permutations (chip c -> generators[k][c]) that generate G.
  std::vector<std::vector<std::int64_t>> generators;
  std::vector<std::uint32_t> channel_rep; // per directed channel: its orbit's representative
  // Per directed channel: how many elements of G fix it (order / its orbit's size); empty when
  // G acts freely on channels (every one 1).
  std::vector<std::uint32_t> channel_stabilizer;
};

// The groups found, in the order to try them (none: no symmetry is known).
std::vector<ChipGroup> chip_groups(const topo::Network& n, const topo::Faults& f,
                                   const route::RoutingFunction& fn, route::Ecmp ecmp);

} // namespace icnkit::sim
