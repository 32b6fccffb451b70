// Delivery verification (verify.hpp): the verifier's run (checks 1 to 4 in order, on the
// reference path or the fast one) and check 4's walk over every physical hop. Checks 1-2:
// verify_order.cpp; 3: verify_pieces.cpp; the fast path's shortcuts: verify_fast.cpp and
// verify_lanes.cpp.
#include "coll/verify.hpp"

#include "coll/hops.hpp"
#include "coll/rings.hpp"
#include "coll/verify_internal.hpp"

#include <algorithm>

namespace icnkit::coll::verify_detail {

// Check 4, step by step over every ring: every physical hop of every logical hop. Geometry:
// the TorusGeometry or its HopTable (the same answers); on_hop(phase, lane, channel) sees every
// hop that passed.
template <class Geometry, class OnHop>
void Verifier::check_links(const Geometry& g, OnHop&& on_hop) {
  std::vector<std::int64_t> stamp(static_cast<std::size_t>(net_.channel_count()), -1);
  for (std::size_t p = 0; p < s_.phases.size(); ++p) {
    const Phase& ph = s_.phases[p];
    const DimRings rings(geo_, ph.dimension);
    const int n = ph.ring_size;
    for (std::size_t k = 0; k < ph.steps.size(); ++k) {
      const Step& st = ph.steps[k];
      if (!all_rings_ && proven_clean(p, k)) continue;
      for (std::size_t t = 0; t < st.transfers.size(); ++t) {
        const RingTransfer& tr = st.transfers[t];
        auto one_ring = [&](std::int64_t r) {
          for (int i = 0; i < n; ++i)
            for_each_hop(g, ph.dimension, n, rings.chip(r, i), i, tr,
                         [&](std::int64_t src, std::int64_t dst, std::int64_t ch) {
                           check_hop(p, k, t, st, src, dst, ch, stamp);
                           on_hop(p, st.lane, ch);
                         });
        };
        if (tr.rings)
          for (std::int64_t r : *tr.rings) one_ring(r);
        else
          for (std::int64_t r = 0; r < rings.count(); ++r) one_ring(r);
      }
    }
  }
}

void Verifier::check_hop(std::size_t p, std::size_t k, std::size_t t, const Step& st,
                         std::int64_t src, std::int64_t dst, std::int64_t ch,
                         std::vector<std::int64_t>& stamp) {
  ++v_.hop_transfers_checked;
  std::int64_t link = topo::link_of_channel(ch);
  if (down_chips_[static_cast<std::size_t>(src)] || down_chips_[static_cast<std::size_t>(dst)])
    fail(transfer_ptr(p, k, t),
         "step " + std::to_string(st.id) + " sends from " + chip_text(geo_, src) + " to " +
             chip_text(geo_, dst) + " but " +
             chip_text(geo_, down_chips_[static_cast<std::size_t>(src)] ? src : dst) +
             " has failed");
  if (down_links_[static_cast<std::size_t>(link)])
    fail(transfer_ptr(p, k, t), "step " + std::to_string(st.id) + " sends from " +
                                    chip_text(geo_, src) + " to " + chip_text(geo_, dst) +
                                    " over failed link " + std::to_string(link));
  if (!st.shared_links) {
    auto& s = stamp[static_cast<std::size_t>(ch)];
    if (s == st.id)
      fail(transfer_ptr(p, k, t), "step " + std::to_string(st.id) +
                                      " puts two transfers on the directed link " +
                                      chip_text(geo_, src) + " -> " + chip_text(geo_, dst) +
                                      " (set shared_links if that is intended)");
    s = st.id;
  }
}

Verification Verifier::run() {
  check_header();
  check_order();
  if (all_rings_ || s_.lanes > 64) {
    check_links(geo_, [](std::size_t, int, std::int64_t) {});
    check_lanes();
  } else {
    // One walk over every hop serves check 4 and collects each multi-lane group's channels
    // per lane as a bitmask (lanes <= 64), checked for overlap once the walk has passed.
    const HopTable table(geo_);
    find_bad_rings();
    std::vector<std::vector<std::uint64_t>> masks(groups_.size());
    cover_.assign(groups_.size(), {});
    for (std::size_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].first.size() >= 2) {
        masks[g].assign(static_cast<std::size_t>(net_.channel_count()), 0);
        cover_[g].resize(64 * 2);
      }
    check_links(table, [&](std::size_t p, int lane, std::int64_t ch) {
      auto& m = masks[phase_group_[p]];
      if (!m.empty()) m[static_cast<std::size_t>(ch)] |= std::uint64_t{1} << lane;
    });
    // The channels of the steps proven clean without a walk: every chip of a covered ring
    // leaves on its (dimension, direction) channel.
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const DimRings rings(geo_, groups_[g].dim);
      for (std::size_t slot = 0; slot < cover_[g].size(); ++slot) {
        const int lane = static_cast<int>(slot / 2), dir = slot % 2 ? 1 : -1;
        const std::vector<char>& rs = cover_[g][slot];
        for (std::size_t r = 0; r < rs.size(); ++r)
          if (rs[r])
            for (int i = 0; i < rings.size(); ++i)
              masks[g][static_cast<std::size_t>(table.channel(
                  rings.chip(static_cast<std::int64_t>(r), i), groups_[g].dim, dir))] |=
                  std::uint64_t{1} << lane;
      }
    }
    check_lane_masks(masks);
  }
  for (const Group& grp : groups_) {
    const RingsToSimulate todo = rings_to_simulate(grp);
    if (grp.op == PhaseOp::AllToAll)
      simulate_group(grp, todo);
    else
      simulate_reduction_group(grp, todo);
  }
  v_.delivered = true;
  v_.method = "exact per-ring store-and-forward simulation of every (origin, destination) block "
              "in integer units of 1/L block, every interleaving of concurrent lanes covered, "
              "composed over dimensions; every physical hop checked against faults and "
              "same-step contention";
  v_.phases_checked = static_cast<std::int64_t>(s_.phases.size());
  v_.steps_checked = s_.step_count();
  v_.failed_links_avoided = std::count(down_links_.begin(), down_links_.end(), 1);
  return v_;
}

} // namespace icnkit::coll::verify_detail

namespace icnkit::coll {

using verify_detail::Verifier;

Verification verify(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                    ErrorKind on_failure, const std::string& where) {
  return Verifier(s, net, faults, on_failure, where, false).run();
}

Verification verify_all_rings(const Schedule& s, const topo::Network& net,
                              const topo::Faults& faults, ErrorKind on_failure,
                              const std::string& where) {
  return Verifier(s, net, faults, on_failure, where, true).run();
}

} // namespace icnkit::coll
