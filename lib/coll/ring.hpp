// Single-ring all-to-all plans (MICRO'25; docs/algorithms.md §Ring all-to-all, §HalfRing,
// §FoldedRing): what one ring does, step by step. Dimension plans (plan.hpp) place them on the
// rings of a torus dimension.
#pragma once
#include "coll/schedule.hpp"

#include <vector>

namespace icnkit::coll {

// One ring's all-to-all as store-and-forward steps; each step is the list of ring transfers
// that run at once. Transfers apply to every ring (rings = nullopt) until a dimension plan
// restricts them.
using RingPlan = std::vector<std::vector<RingTransfer>>;

// Ring: every block B[i][j] is halved; stage h = 1..N-1 carries half of B[i][i+h] h hops
// clockwise and half of B[i][i-h] h hops anticlockwise, in h sub-stages. The plan has one step
// per sub-stage, N(N-1)/2 in all, each with one clockwise and one anticlockwise transfer of
// 1/2 block, so every directed link carries exactly one S/(2N) piece per step.
RingPlan ring_all_to_all_plan(int n);

// HalfRing: k = floor(N/2) stages; stage h moves the whole B[i][i+h] h hops clockwise and the
// whole B[i][i-h] h hops anticlockwise (distance h and N-h are one and the same pair of
// directions), except the unpaired stage h = N/2 of an even ring, whose block is halved between
// the two directions. k(k+1)/2 steps; per direction the link load is N S/8 (even) or
// (N^2-1) S/(8N) (odd), the bisection bound.
RingPlan halfring_all_to_all_plan(int n);

// The unidirectional Ring all-to-all on the folded ring of a ring whose link between positions
// p and p+1 has failed: the logical ring 0 -> 1 -> ... -> N-1 -> 0 in + direction, its hop from
// p carried over the N-1 links of the other direction (fold_at = p). Stage h = 1..N-1 moves the
// whole B[i][i+h] h logical hops in h sub-stages: N(N-1)/2 steps of one block per logical link.
RingPlan folded_all_to_all_plan(int n, int fold_at);

// Ring reduce-scatter / all-gather (the bidirectional ring of NCCL-style collectives): every
// block halved, part 0 travels clockwise, part 1 anticlockwise, N-1 steps. Reduce-scatter step
// s = 0..N-2: position i sends its partial of block i-1-s (part 0) to i+1 and of block i+1+s
// (part 1) to i-1, so position j ends with block j complete. All-gather step s: position i
// forwards block i-s (part 0) to i+1 and block i+s (part 1) to i-1.
RingPlan ring_reduce_scatter_plan(int n);
RingPlan ring_all_gather_plan(int n);
// The same on the folded ring of a ring whose link p -> p+1 failed: whole blocks (one part),
// clockwise only, the hop from p carried over the N-1 links of the other direction.
RingPlan folded_reduce_scatter_plan(int n, int fold_at);
RingPlan folded_all_gather_plan(int n, int fold_at);

// Every transfer's fraction multiplied by w (0 < w <= 1).
RingPlan scaled(RingPlan plan, const Fraction& w);
Fraction times(const Fraction& a, const Fraction& b);

} // namespace icnkit::coll
