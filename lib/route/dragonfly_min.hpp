// The dragonfly's minimal routing (Kim et al., ISCA 2008: MIN; BookSim's min_dragonflynew): at
// most one global link. Within the source group a local hop to a router holding a global link to
// the destination's group (none when the packet's router holds one), the global hop, then a
// local hop to the destination's router. Hop-count minimal routing (`minimal`) may instead take
// two global links where that saves a local hop; MIN never does. VC classes by phase, as
// BookSim's: class 0 up to the global hop, class 1 from it on, so the channel-dependency graph
// is acyclic (class 0 holds at most one local hop, class 1 a global hop then a local one). A
// chip injects on either class (BookSim picks a random VC; a source takes the one with more
// room), and its router starts the packet in class 0 whichever it came on: no channel waits on a
// chip's link, so this adds no cycle.
// Where several global links join two groups, and for a chip's parallel links, the choice is by
// destination (source-independent). No fault avoidance: pairs whose path crosses a failed link
// are reported unreachable.
#pragma once
#include "route/chip_links.hpp"
#include "route/routing.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

class DragonflyMinRouting : public RoutingFunction {
public:
  // Error(Infeasible) for a network that is not a dragonfly; Error(Input) when its switches or
  // links disagree with its family_attrs.
  explicit DragonflyMinRouting(const topo::Network& n);

  int vc_count() const override { return 2; }
  bool source_independent() const override { return true; }
  // Every chip on a router, the routers of a group pairwise linked, every two groups linked:
  // checked when built.
  bool delivers_every_pair_fault_free() const override { return complete_; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  const topo::Network& n_;
  std::int64_t a_ = 1, groups_ = 1; // routers per group, groups
  ChipLinks chips_;                 // each chip's router and its links to it
  bool complete_ = false;           // see delivers_every_pair_fault_free()
  // Per router and router of its group (by index within the group): the local channels.
  std::vector<std::vector<std::vector<std::int64_t>>> local_;
  // Per (group, group): the global channels leaving the first toward the second.
  std::vector<std::vector<std::int64_t>> global_;
  std::int64_t router_index(std::int64_t node) const { return node - n_.n_chip; }
};

} // namespace icnkit::route
