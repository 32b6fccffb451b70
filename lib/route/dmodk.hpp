// D-mod-k routing on PGFT fat-trees (Zahavi 2010; algorithms.md §10), as SimGrid's
// FatTreeZone does it. Going up from a node at level l (chips are level 0) that is not an
// ancestor of destination D, take up-port
//     q = floor(D / prod_{i<=l} (w_i p_i)) mod (w_{l+1} p_{l+1})
// of the PGFT in family_attrs (w_levels, p_levels: parents and parallel links per level),
// port q being parent q mod w_{l+1}, parallel link floor(q / w_{l+1}). Going down, the unique
// child toward D, on the parallel link D's own up-port rule names at the child's level (by
// destination, so the routing stays source-independent; SimGrid takes src mod p): the
// destinations that share an up-port parent come down on distinct links. Shift permutations
// are contention-free with one chip per board and on 2-layer trees; on 3-layer trees with
// parallel links two flows can meet (tests/unit/test_routing_families.cpp). Deterministic, one VC:
// a packet goes up, then down, never up again, so the channel-dependency graph is acyclic. No fault
// avoidance: pairs whose path crosses a failed link are reported unreachable.
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
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  const topo::Network& n_;
  int layers_ = 2;
  std::vector<std::int64_t> level_;                   // per node: 0 chip, 1 leaf/ToR, 2, 3
  std::vector<std::int64_t> w_, p_, divisor_;         // per level l: w_{l+1}, p_{l+1}, prod
  std::vector<std::vector<std::int64_t>> up_;         // per node: up channels, parent-major
  std::vector<std::vector<std::int64_t>> down_child_; // per node: the child of each down channel
  std::vector<std::vector<std::int64_t>> down_;       // per node: down channels, child-major
  std::vector<std::int64_t> leaf_of_;                 // per chip: its leaf / ToR
};

} // namespace icnkit::route
