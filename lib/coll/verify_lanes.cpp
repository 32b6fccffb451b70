// Check 4 for concurrent lanes, both ways: the reference (check_lanes: each lane's channels
// collected and intersected) and the fast path's (check_lane_masks: per-channel lane
// bitmasks from the one hop walk), which must report the same conflict.
#include "coll/verify_internal.hpp"

#include "coll/hops.hpp"
#include "coll/rings.hpp"

#include <algorithm>
#include <iterator>

namespace icnkit::coll::verify_detail {

// Check 4 for concurrent lanes: two lanes of one chunk's dimension group that share a
// directed link must be ordered (every step of one after every step of the other), so the
// conflict-freedom the algorithms claim (MATE's planes, the folded ring beside the healthy
// rings) is proven, not assumed.
void Verifier::check_lanes() {
  for (const Group& grp : groups_) {
    if (grp.first.size() < 2) continue;
    const DimRings rings(geo_, grp.dim);
    std::map<int, std::vector<std::int64_t>> chans;
    for (const Loc& l : grp.steps) {
      const Phase& ph = s_.phases[l.phase];
      const Step& st = ph.steps[l.index];
      auto& out = chans[st.lane];
      for (const RingTransfer& tr : st.transfers) {
        auto one_ring = [&](std::int64_t r) {
          for (int i = 0; i < ph.ring_size; ++i)
            for_each_hop(geo_, ph.dimension, ph.ring_size, rings.chip(r, i), i, tr,
                         [&](std::int64_t, std::int64_t, std::int64_t ch) { out.push_back(ch); });
        };
        if (tr.rings)
          for (std::int64_t r : *tr.rings) one_ring(r);
        else
          for (std::int64_t r = 0; r < rings.count(); ++r) one_ring(r);
      }
    }
    for (auto& [lane, v] : chans) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    for (auto a = chans.begin(); a != chans.end(); ++a)
      for (auto b = std::next(a); b != chans.end(); ++b) {
        const int A = a->first, B = b->first;
        const bool ordered = grp.first_row.at(B)[static_cast<std::size_t>(A)] >= grp.last.at(A) ||
                             grp.first_row.at(A)[static_cast<std::size_t>(B)] >= grp.last.at(B);
        if (ordered) continue;
        std::vector<std::int64_t> common;
        std::set_intersection(a->second.begin(), a->second.end(), b->second.begin(),
                              b->second.end(), std::back_inserter(common));
        if (!common.empty()) lane_conflict(grp, A, B, common.front());
      }
  }
}

// check_lanes() on the bitmasks the hop walk collected: per channel, the lanes of the group
// that use it. The same pairs in the same order, the same lowest shared channel.
void Verifier::check_lane_masks(const std::vector<std::vector<std::uint64_t>>& masks) const {
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Group& grp = groups_[g];
    if (masks[g].empty()) continue;
    std::vector<int> lanes; // ascending, as check_lanes' map
    for (const auto& [lane, id] : grp.first) lanes.push_back(lane);
    auto ordered = [&](int A, int B) {
      return grp.first_row.at(B)[static_cast<std::size_t>(A)] >= grp.last.at(A) ||
             grp.first_row.at(A)[static_cast<std::size_t>(B)] >= grp.last.at(B);
    };
    std::vector<std::uint64_t> rivals(64, 0); // lane A -> the later lanes it may overlap
    for (std::size_t a = 0; a < lanes.size(); ++a)
      for (std::size_t b = a + 1; b < lanes.size(); ++b)
        if (!ordered(lanes[a], lanes[b]))
          rivals[static_cast<std::size_t>(lanes[a])] |= std::uint64_t{1} << lanes[b];
    // first[A * 64 + B]: the lowest channel lanes A < B share, or -1.
    std::vector<std::int64_t> first(64 * 64, -1);
    const std::vector<std::uint64_t>& m = masks[g];
    for (std::size_t ch = 0; ch < m.size(); ++ch) {
      std::uint64_t bits = m[ch];
      if ((bits & (bits - 1)) == 0) continue; // fewer than two lanes
      for (std::uint64_t a = bits; a; a &= a - 1) {
        const int A = __builtin_ctzll(a);
        for (std::uint64_t b = bits & rivals[static_cast<std::size_t>(A)]; b; b &= b - 1) {
          std::int64_t& f = first[static_cast<std::size_t>(A * 64 + __builtin_ctzll(b))];
          if (f < 0) f = static_cast<std::int64_t>(ch);
        }
      }
    }
    for (std::size_t a = 0; a < lanes.size(); ++a)
      for (std::size_t b = a + 1; b < lanes.size(); ++b) {
        const std::int64_t ch = first[static_cast<std::size_t>(lanes[a] * 64 + lanes[b])];
        if (ch >= 0) lane_conflict(grp, lanes[a], lanes[b], ch);
      }
  }
}

[[noreturn]] void Verifier::lane_conflict(const Group& grp, int A, int B,
                                          std::int64_t channel) const {
  const std::int64_t link = topo::link_of_channel(channel);
  fail("/phases", "lanes " + std::to_string(A) + " and " + std::to_string(B) + " of chunk " +
                      std::to_string(grp.chunk) + " along dimension " + std::to_string(grp.dim) +
                      " can run at the same time (neither waits for the other) and "
                      "share a directed link of link " +
                      std::to_string(link) + " (" +
                      chip_text(geo_, net_.links[static_cast<std::size_t>(link)].a) + " - " +
                      chip_text(geo_, net_.links[static_cast<std::size_t>(link)].b) + ")");
}

} // namespace icnkit::coll::verify_detail
