// verify()'s shortcut through check 4 (verify_all_rings() walks every hop): steps proven
// clean without a walk, on rings without a failed chip or link.
#include "coll/verify_internal.hpp"

#include "coll/rings.hpp"

#include <algorithm>
#include <iterator>

namespace icnkit::coll::verify_detail {

// Per dimension, the rings that hold a failed chip or a failed link of that dimension.
void Verifier::find_bad_rings() {
  bad_rings_.assign(static_cast<std::size_t>(geo_.dims()), {});
  any_bad_.assign(static_cast<std::size_t>(geo_.dims()), 0);
  for (int d = 0; d < geo_.dims(); ++d) {
    const DimRings rings(geo_, d);
    auto& bad = bad_rings_[static_cast<std::size_t>(d)];
    bad.assign(static_cast<std::size_t>(rings.count()), 0);
    for (std::int64_t c = 0; c < geo_.count(); ++c)
      if (down_chips_[static_cast<std::size_t>(c)] ||
          down_links_[static_cast<std::size_t>(geo_.link(c, d, +1))]) {
        bad[static_cast<std::size_t>(rings.ring_of(c))] = 1;
        any_bad_[static_cast<std::size_t>(d)] = 1;
      }
  }
}

// Whether step k of phase p passes check 4 without walking its hops, counting them and
// recording its rings for the lane check if so. A transfer without fold or via sends every chip
// of each of its rings to its ring neighbour over its own channel in (dimension, direction):
// chips of different rings, or different directions, never share a channel, and the hops touch
// only the ring's chips and links. So a step of such transfers, none on a ring with a failed
// chip or link, whose same-direction transfers serve disjoint rings (or that shares links
// anyway), has no hop the walk would refuse. Anything else is walked (and fails, where it
// fails, with the walk's message).
bool Verifier::proven_clean(std::size_t p, std::size_t k) {
  const Phase& ph = s_.phases[p];
  const Step& st = ph.steps[k];
  const auto& bad = bad_rings_[static_cast<std::size_t>(ph.dimension)];
  const bool any_bad = any_bad_[static_cast<std::size_t>(ph.dimension)];
  if (st.transfers.size() > 64) return false; // the pairwise test below is quadratic
  for (const RingTransfer& t : st.transfers) {
    if (t.fold_at >= 0 || t.via_dim >= 0) return false;
    if (!t.rings) {
      if (any_bad) return false;
    } else {
      for (std::int64_t r : *t.rings)
        if (bad[static_cast<std::size_t>(r)]) return false;
    }
  }
  if (!st.shared_links)
    for (std::size_t a = 0; a < st.transfers.size(); ++a)
      for (std::size_t b = a + 1; b < st.transfers.size(); ++b) {
        const RingTransfer &A = st.transfers[a], &B = st.transfers[b];
        if (A.direction != B.direction) continue;
        if (!A.rings || !B.rings) {
          if ((A.rings && !A.rings->empty()) || (B.rings && !B.rings->empty()) ||
              (!A.rings && !B.rings))
            return false;
          continue;
        }
        std::vector<std::int64_t> common;
        std::set_intersection(A.rings->begin(), A.rings->end(), B.rings->begin(), B.rings->end(),
                              std::back_inserter(common));
        if (!common.empty()) return false;
      }
  const std::int64_t count = DimRings(geo_, ph.dimension).count();
  auto& cover = cover_[phase_group_[p]];
  for (const RingTransfer& t : st.transfers) {
    const std::int64_t served = t.rings ? static_cast<std::int64_t>(t.rings->size()) : count;
    v_.hop_transfers_checked += served * ph.ring_size;
    if (cover.empty()) continue;
    auto& rs = cover[static_cast<std::size_t>(st.lane * 2 + (t.direction > 0 ? 1 : 0))];
    if (rs.empty()) rs.assign(static_cast<std::size_t>(count), 0);
    if (t.rings)
      for (std::int64_t r : *t.rings) rs[static_cast<std::size_t>(r)] = 1;
    else
      std::fill(rs.begin(), rs.end(), 1);
  }
  return true;
}

} // namespace icnkit::coll::verify_detail
