// Dimension-order routing on a HyperX (Ahn et al., SC 2009): every dimension is a complete graph
// of switches, so a packet finishes the dimensions in a fixed order with one switch-to-switch hop
// in each dimension where its switch and the destination's differ (BookSim's flattened
// butterfly routes so: min_flatfly, lowest dimension first). One VC: hops are taken in
// dimension order, so the channel-dependency graph is acyclic. Parallel links (lanes) and a
// chip's parallel links to its switch are chosen by destination (source-independent). No fault
// avoidance: pairs whose path crosses a failed link are reported unreachable.
#pragma once
#include "route/chip_links.hpp"
#include "route/routing.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

class HyperxDorRouting : public RoutingFunction {
public:
  // dimension_order: a permutation of 0..L-1. Error(Infeasible) for a network that is not a
  // HyperX; Error(Input) when its switches or links disagree with its family_attrs.
  HyperxDorRouting(const topo::Network& n, std::vector<int> dimension_order);

  int vc_count() const override { return 1; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  const topo::Network& n_;
  std::vector<int> order_, S_;
  std::vector<std::int64_t> stride_, slot_begin_; // per dimension: switch stride, first slot
  std::int64_t first_switch_ = 0;                 // node id of switch 0 (switches follow chips)
  ChipLinks chips_;                               // each chip's switch and its links to it
  // Per switch and slot (dimension d, coordinate y: slot_begin_[d] + y): the channels to the
  // switch that differs from it in d only, at coordinate y.
  std::vector<std::vector<std::vector<std::int64_t>>> hop_;
};

} // namespace icnkit::route
