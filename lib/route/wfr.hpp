// TPU v4 wild-first routing (WFR) on a torus with faults, as the MICRO'25 artifact reimplements it
// (docs/algorithms.md §Wild-first routing; the artifact's outportComputeSANDWICH / SANDWICHES):
// plain DOR unless the DOR path from the packet's current node crosses a failed link, re-evaluated
// at every hop. Let k be the dimension of the first failed link on that path and j the dimension
// the packet is about to move in:
// - k after j: keep to DOR (the deviation happens when the packet reaches dimension k);
// - k = j, not the last dimension of the order: one "wild" hop in dimension k', the first later
//   dimension in which the packet still has to move, else the next one (yXYZ / zXZ / yXY for an
//   X fault, XzYZ / zYZ for a Y fault); in its DOR-minimal direction if the packet has to move
//   in k', else + from an even coordinate and - from an odd one (the artifact's source parity;
//   at the wild hop the coordinate in k' is still the source's);
// - k = j, the last dimension: go the long way round in it.
// VC classes: 0 and 1 are DOR's dateline classes, 2 the wild hop's own class
// (docs/algorithms.md §Wild-first routing: a wild channel always feeds a DOR channel, so the
// dependency graph stays acyclic; the checker, not this comment, decides). No flags: the decision
// is a function of the current node, the destination and the arrival channel, so the verification
// shares work per destination.
#pragma once
#include "route/dor.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

class WfrRouting : public RoutingFunction {
public:
  WfrRouting(const topo::Network& n, const topo::Faults& f, DorOptions o);

  int vc_count() const override { return 3; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

  static constexpr int kWildVc = 2;

private:
  struct Fault {
    std::int64_t from; // the chip the failed link leaves in + direction
    int dim;
  };
  // DOR's direction in dimension d from coordinate x toward t (x != t).
  int dor_dir(int d, int x, int t) const;
  // The leg (index into the dimension order) of the first failed link on the DOR path from
  // `node` to `dst`, or -1 when the path is clean.
  int first_faulty_leg(std::int64_t node, std::int64_t dst) const;
  Choice hop(std::int64_t node, int d, int dir, const PacketState& p, bool wild) const;

  topo::TorusGeometry geo_;
  DorOptions opt_;
  int dims_;
  topo::GridTables tab_;
  std::vector<Fault> faults_;
  std::vector<char> link_down_; // per link
};

} // namespace icnkit::route
