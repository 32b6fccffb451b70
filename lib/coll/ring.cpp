#include "coll/ring.hpp"

#include "coll/rings.hpp"

namespace icnkit::coll {

namespace {

// Sub-stage j (1..h) of a stage of distance h in direction dir: the piece of B[o][o + dir h]
// leaves o at sub-stage 1 and, store-and-forward, sits at o + dir (j-1) before sub-stage j. So
// the sender at position i forwards to i + dir the piece with origin i - dir (j-1) and
// destination i - dir (j-1) + dir h.
RingTransfer sub_stage(int n, int dir, int h, int j, const Fraction& f) {
  return RingTransfer{dir, wrap(-dir * (j - 1), n), wrap(dir * (h - (j - 1)), n), f, std::nullopt};
}

} // namespace

RingPlan ring_all_to_all_plan(int n) {
  RingPlan plan;
  const Fraction half = make_fraction(1, n == 1 ? 1 : 2);
  for (int h = 1; h < n; ++h)
    for (int j = 1; j <= h; ++j)
      plan.push_back({sub_stage(n, +1, h, j, half), sub_stage(n, -1, h, j, half)});
  return plan;
}

RingPlan halfring_all_to_all_plan(int n) {
  RingPlan plan;
  const int k = n / 2;
  for (int h = 1; h <= k; ++h) {
    const bool unpaired = n % 2 == 0 && h == k;
    const Fraction f = unpaired ? make_fraction(1, 2) : Fraction{1, 1};
    for (int j = 1; j <= h; ++j)
      plan.push_back({sub_stage(n, +1, h, j, f), sub_stage(n, -1, h, j, f)});
  }
  return plan;
}

RingPlan folded_all_to_all_plan(int n, int fold_at) {
  RingPlan plan;
  for (int h = 1; h < n; ++h)
    for (int j = 1; j <= h; ++j) {
      RingTransfer t = sub_stage(n, +1, h, j, Fraction{1, 1});
      t.fold_at = fold_at;
      plan.push_back({t});
    }
  return plan;
}

namespace {

// Reduce-scatter (gather = false) or all-gather steps in direction dir for slice `part` of
// fraction f: step s moves block i - dir (1 + s) (reduce-scatter) or i - dir s (all-gather).
RingTransfer reduction_step(int n, int dir, int s, bool gather, int part, const Fraction& f) {
  RingTransfer t{dir, wrap(-dir * (s + (gather ? 0 : 1)), n), 0, f, std::nullopt};
  t.part = part;
  return t;
}

RingPlan bidirectional(int n, bool gather) {
  RingPlan plan;
  const Fraction half = make_fraction(1, 2);
  for (int s = 0; s + 1 < n; ++s)
    plan.push_back(
        {reduction_step(n, +1, s, gather, 0, half), reduction_step(n, -1, s, gather, 1, half)});
  return plan;
}

RingPlan folded_reduction(int n, int fold_at, bool gather) {
  RingPlan plan;
  for (int s = 0; s + 1 < n; ++s) {
    RingTransfer t = reduction_step(n, +1, s, gather, 0, Fraction{1, 1});
    t.fold_at = fold_at;
    plan.push_back({t});
  }
  return plan;
}

} // namespace

RingPlan ring_reduce_scatter_plan(int n) {
  return bidirectional(n, false);
}
RingPlan ring_all_gather_plan(int n) {
  return bidirectional(n, true);
}
RingPlan folded_reduce_scatter_plan(int n, int fold_at) {
  return folded_reduction(n, fold_at, false);
}
RingPlan folded_all_gather_plan(int n, int fold_at) {
  return folded_reduction(n, fold_at, true);
}

Fraction times(const Fraction& a, const Fraction& b) {
  return make_fraction(a.num * b.num, a.den * b.den);
}

RingPlan scaled(RingPlan plan, const Fraction& w) {
  for (auto& step : plan)
    for (auto& t : step) t.fraction = times(t.fraction, w);
  return plan;
}

} // namespace icnkit::coll
