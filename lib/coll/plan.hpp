// Dimension plans: what one chunk does along one dimension of a (possibly faulty) torus, for
// each algorithm. A dimension scheduler (dims.hpp) places the plans of every chunk in time.
//
// A plan is a list of phases that run one after the other (a phase starts when every lane of the
// previous one has finished); the lanes of a phase run concurrently on disjoint parts of the data
// (schedule.hpp). The first phase is the normal one; MATE and MATEe add acceleration phases
// (docs/algorithms.md §MATE and MATEe), which the scheduler keeps apart from every other chunk's
// traffic.
#pragma once
#include "coll/ring.hpp"
#include "topo/faults.hpp"
#include "topo/network.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace icnkit::coll {

struct LanePlan {
  int lane = 0;
  RingPlan steps;
};
struct PhasePlan {
  std::string suffix; // "" for the normal phase, "accel0", "accel1" ... for acceleration phases
  std::vector<LanePlan> lanes;
};
struct DimPlan {
  std::vector<PhasePlan> phases;
};

// The failed links of one dimension as the ring algorithms see them.
struct DimFaults {
  std::vector<std::int64_t> healthy;               // rings without a failed link, ascending
  std::map<std::int64_t, std::vector<int>> faulty; // ring -> positions p whose link p -> p+1 failed
};

// Per dimension. Failed chips are Error(Infeasible) (no ring algorithm here serves a ring with a
// missing member); faults on size-1 dimensions (self-loops, unused) are ignored.
std::vector<DimFaults> dim_faults(const topo::TorusGeometry& g, const topo::Network& net,
                                  const topo::Faults& faults, const std::string& who);

struct DimContext {
  const topo::TorusGeometry* geometry = nullptr;
  int dim = 0;
  const DimFaults* faults = nullptr;
  const std::vector<char>* down_links = nullptr;
  std::string algorithm;          // for messages
  PhaseOp op = PhaseOp::AllToAll; // what the phase does (only ring and foldedring reduce)
  // The largest ring of the dimensions that run in the same slot as this one (DimRotation and
  // Pipeline run every dimension at once, the sequential scheduler one): its HalfRing sets how
  // long the slot's normal phase lasts, which MATEe fills with folded-ring traffic. 0: this
  // dimension's own size.
  int slot_ring = 0;
};

DimPlan ring_dim_plan(const DimContext& c);
DimPlan halfring_dim_plan(const DimContext& c);
// A ring with one failed link runs the folded ring, Error(Infeasible) for a ring with two or
// more; the healthy rings run HalfRing for all-to-all (the MICRO'25 artifact's FoldedRing: its
// halfring on a dimension marked failed) and the bidirectional Ring for the reductions.
DimPlan foldedring_dim_plan(const DimContext& c);
// The same with the bidirectional Ring on the healthy rings for all-to-all too.
DimPlan foldedring_ring_dim_plan(const DimContext& c);
// HalfRing on the healthy rings; each faulty ring's data goes through acceleration planes and
// (with one fault) its folded ring. Error(Infeasible) for a ring no plane and no fold can serve.
DimPlan mate_dim_plan(const DimContext& c);
DimPlan matee_dim_plan(const DimContext& c);

// r = T_HalfRing / T_FoldedRing (bandwidth terms, Table 1): N/(4(N-1)) for even N, (N+1)/(4N)
// for odd N. MATEe's static fraction and the acceleration split derive from it.
Fraction halfring_folded_ratio(int n);
// The share of a ring of n_f a folded ring moves in the time of a HalfRing on a ring of n
// (bandwidth terms): n / (4 (n_f - 1)) for even n, (n^2 - 1) / (4 n (n_f - 1)) for odd n, at
// most 1. MATEe's normal-phase share when the slot is set by a larger ring (the MICRO'25
// artifact's N_max / (4 (N_f - 1))); halfring_folded_ratio(n) when n = n_f.
Fraction slot_folded_ratio(int n, int n_f);

} // namespace icnkit::coll
