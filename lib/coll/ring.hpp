// The classic bidirectional Ring all-to-all on one ring (MICRO'25 baseline, algorithms.md §1).
#pragma once
#include "coll/schedule.hpp"

#include <vector>

namespace icnkit::coll {

// One ring's all-to-all as store-and-forward steps; each step is the list of ring transfers
// (over every ring of the phase) that run at once. Dimension schedulers turn plans into phases.
using RingPlan = std::vector<std::vector<RingTransfer>>;

// Ring: every block B[i][j] is halved; stage h = 1..N-1 carries half of B[i][i+h] h hops
// clockwise and half of B[i][i-h] h hops anticlockwise, in h sub-stages. The plan has one step
// per sub-stage, N(N-1)/2 in all, each with one clockwise and one anticlockwise transfer of
// 1/2 block, so every directed link carries exactly one S/(2N) piece per step.
RingPlan ring_all_to_all_plan(int n);

} // namespace icnkit::coll
