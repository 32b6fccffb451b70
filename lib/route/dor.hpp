// Dimension-order routing (DOR) on the torus, with dateline virtual channels
// (Dally and Seitz's dateline; docs/models.md).
#pragma once
#include "route/routing.hpp"
#include "topo/mesh.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

// How a half-way tie on an even ring is broken.
enum class Tie {
  Parity, // + from an even coordinate, - from an odd one (TPU v4, NSDI'24, ART)
  Plus,   // always + (the seed's rule)
};

// Which hops of a dimension that wraps use the second dateline VC class.
enum class DatelineVc {
  FromWrap,       // the wrap hop and every later hop in that dimension (the classic dateline)
  WholeDimension, // every hop of the dimension when the route wraps in it (BookSim's
                  // dim_order_torus); a route that does not wrap stays on VC 0
};

// The direction (+1 or -1) of a half-way tie on an even ring at coordinate x.
inline int tie_direction(Tie tie, int x) {
  return tie == Tie::Plus || x % 2 == 0 ? +1 : -1;
}

struct DorOptions {
  std::vector<int> dimension_order; // a permutation of 0..D-1
  Tie tie = Tie::Parity;
  bool dateline = true; // 2 VC classes per dimension; without it 1 VC (and possibly deadlock)
  DatelineVc dateline_vc = DatelineVc::FromWrap;
};

// Finishes the dimensions in dimension_order one after the other, each in its shortest direction.
// DOR does not route around faults: it always returns its one hop, trace() reports the rest.
//
// The routing is source-independent: a tie can only occur where the packet starts a dimension
// (once it moves, the remaining distance in that dimension drops below half the ring), and there
// the current coordinate equals the source's, so "parity of the source coordinate" is the parity
// of the current one. Mid-dimension the direction is recomputed and stays the same.
//
// Dateline, FromWrap: the hop over a dimension's wrap link (S-1 -> 0 going +, 0 -> S-1 going -)
// and every later hop in that dimension use VC 1, earlier hops VC 0; a new dimension starts on
// VC 0. A minimal route crosses each wrap link at most once, so both VC classes are acyclic per
// ring. WholeDimension (BookSim's rule): the class is chosen where the packet enters a dimension,
// VC 1 if its route wraps there and VC 0 otherwise, and kept to the dimension's end; VC 0 never
// crosses the wrap link and every VC 1 route contains it and is at most half the ring, so no
// chain of VC 1 channels closes either. The checker verifies both.
class DorRouting : public RoutingFunction {
public:
  DorRouting(const topo::Network& n, DorOptions o);

  int vc_count() const override { return opt_.dateline ? 2 : 1; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

  // Verification and load from the torus's symmetry; defined in dor_symmetry.cpp.
  std::shared_ptr<const SymmetricAnalysis> symmetric_analysis() const override;

  const topo::TorusGeometry& geometry() const { return geo_; }
  const DorOptions& options() const { return opt_; }

private:
  topo::TorusGeometry geo_;
  DorOptions opt_;
  int dims_;
  topo::GridTables tab_;
};

// DOR on a mesh: the same dimension order, each dimension straight toward the destination
// (there is no wrap-around, so no tie and no dateline: one VC, and the channel-dependency graph
// of dimension-ordered mesh routes is acyclic). Does not route around faults.
class MeshDorRouting : public RoutingFunction {
public:
  MeshDorRouting(const topo::Network& n, std::vector<int> dimension_order);

  int vc_count() const override { return 1; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  topo::MeshGeometry geo_;
  std::vector<int> order_;
  int dims_;
  topo::GridTables tab_; // a missing boundary channel is -1
};

} // namespace icnkit::route
