#include "coll/ring.hpp"

#include "coll/rings.hpp"

namespace icnkit::coll {

RingPlan ring_all_to_all_plan(int n) {
  RingPlan plan;
  const Fraction half = make_fraction(1, n == 1 ? 1 : 2);
  for (int h = 1; h < n; ++h) {
    for (int j = 1; j <= h; ++j) {
      // Clockwise: the half of B[o][o+h] leaves o at sub-stage 1 and, store-and-forward, sits at
      // o+(j-1) before sub-stage j. So in sub-stage j the sender at position i forwards to i+1
      // the piece with origin o = i-(j-1) and destination o+h = i-(j-1)+h.
      RingTransfer cw{+1, wrap(-(j - 1), n), wrap(h - (j - 1), n), half, std::nullopt};
      // Anticlockwise mirror: the half of B[o][o-h] sits at o-(j-1); the sender i forwards to
      // i-1 the piece with origin i+(j-1) and destination i+(j-1)-h.
      RingTransfer acw{-1, wrap(j - 1, n), wrap((j - 1) - h, n), half, std::nullopt};
      plan.push_back({cw, acw});
    }
  }
  return plan;
}

} // namespace icnkit::coll
