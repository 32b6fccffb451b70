// D-mod-k routing on PGFT fat-trees (Zahavi 2010; docs/algorithms.md §D-mod-k on PGFT fat-trees),
// on the ports of the chips. The PGFT in family_attrs (w_levels, p_levels: parents and parallel
// links per level) gives a chip R = p_1 parallel links to its leaf / ToR (chip radix R; boards of C
// chips add C R lanes to every switch link). Each link of a chip is a port: destination D has ports
// D' = D R + j, j < R, and a packet for D is routed to one of them by the D-mod-k rule on the
// port-level tree: going up from a node at level l (chips are level 0) that is not an ancestor of
// D, take up-port
//     q = floor(D' / prod_{i<=l} w_i) mod (w_{l+1} p_{l+1})
// port q being parent q mod w_{l+1}, parallel link floor(q / w_{l+1}); going down, the unique
// child toward D, on the parallel link the port's own up-port rule names at the child's level, and
// into D on link j. The divisor counts parents only (the digits of D' in the mixed radix
// w_2, w_3 name its way up), not parents x parallel links as SimGrid's FatTreeZone does (and
// this code did): with the lanes counted, the destinations of a leaf went to 1/R of the spines,
// down one lane of each.
//
// Parallel links. The source picks j = (src + D) mod R (its own link j goes up, D's link j
// comes down), so a chip's N-1 destinations, and a destination's N-1 sources, are spread over
// its R links, N/R or one fewer on each (R | N): on a non-blocking tree the all-to-all throughput
// bound is (N-1) / ceil((N-1)/R) link bandwidths per chip, the best one path per pair can do (1,
// then 2 (N-1)/N and 4 (N-1)/N at radix 2 and 4; ECMP's fluid split reaches R). On the way j is
// read back from the channel the packet came in on (the up-port its lower end took names D' modulo
// at least R), so the choice depends on (node, in_channel, D) only: source-independent, with no
// header state. A chip-level shift dst = src + s is part of the port-level shift D' + s R,
// which D-mod-k keeps contention-free on non-blocking trees (osr 1; tested on 2 and 3 layers,
// boards of 1, 2 and 4 chips, chip radix 1, 2 and 4: tests/unit/route/test_routing_paths.cpp).
// Deterministic, one VC: a packet goes up, then down, never up again, so the channel-dependency
// graph is acyclic. No fault avoidance: pairs whose path crosses a failed link are reported
// unreachable. A packet starting at a switch (--emit tables) takes j = D mod R.
#pragma once
#include "route/routing.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

class DmodkRouting : public RoutingFunction {
public:
  // Error(Infeasible) for a network that is not a fat-tree; Error(Input) when its structure
  // disagrees with its family_attrs.
  explicit DmodkRouting(const topo::Network& n);

  int vc_count() const override { return 1; }
  bool source_independent() const override { return true; }
  // Every chip below a leaf / ToR: the way up reaches a common ancestor, the way down exists
  // in a PGFT (the constructor checks the up links of every node).
  bool delivers_every_pair_fault_free() const override { return every_chip_attached_; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  // The lane j of D's port D' = D R + j that a packet arriving on in_channel is bound for.
  std::int64_t port_of(std::int64_t in_channel, std::int64_t D) const;

  const topo::Network& n_;
  int layers_ = 2;
  std::vector<std::int64_t> level_;                   // per node: 0 chip, 1 leaf/ToR, 2, 3
  std::int64_t ports_ = 1;                            // R = p_1: links per chip
  std::vector<std::int64_t> w_, p_, divisor_;         // per level l: w_{l+1}, p_{l+1}, prod w
  std::vector<std::vector<std::int64_t>> up_;         // per node: up channels, parent-major
  std::vector<std::vector<std::int64_t>> down_child_; // per node: the child of each down channel
  std::vector<std::vector<std::int64_t>> down_;       // per node: down channels, child-major
  std::vector<std::int64_t> leaf_of_;                 // per chip: its leaf / ToR
  bool every_chip_attached_ = false;
  std::vector<std::int64_t> low_;     // per node: D' mod divisor of the ports routed up through it
  std::vector<std::int64_t> up_from_; // per link: its lower node (-1: a board link)
  std::vector<std::int64_t> up_pos_;  // per link: its place in up_ of the lower node
};

} // namespace icnkit::route
