// Check 3 of coll/verify.hpp: the pieces of every dimension group simulated ring by ring
// (all-to-all in units of 1/L block; reduce-scatter and all-gather slice by slice), on the
// rings rings_to_simulate() picks (one per class of alike rings, or all of them).
#include "coll/verify_internal.hpp"

#include "coll/rings.hpp"

#include <algorithm>
#include <numeric>

namespace icnkit::coll::verify_detail {

namespace {

// The finest unit verification will track: 1/L block with L <= 2^40, so that the sum of a
// position's holdings (at most N^2 * L per ring) stays far inside int64.
constexpr std::int64_t kMaxUnits = std::int64_t{1} << 40;

} // namespace

// Check 3 for one dimension group of a chunk, ring by ring, lane by lane.
//
// Lanes run concurrently, so a take must be covered in every interleaving: per lane the
// running change of every cell and its minimum so far are kept, and a take is accepted only if
// the initial amount plus the sum over lanes of their minima stays >= 0. In the worst
// interleaving every other lane has taken all it ever takes before delivering anything, so
// this is exactly "no schedule order can send data the node does not hold"; with one lane it
// is the plain store-and-forward check. Conservation and the final state use the totals.
void Verifier::simulate_group(const Group& grp, const RingsToSimulate& todo) {
  const Phase& ph0 = s_.phases[grp.steps.front().phase];
  const int n = ph0.ring_size;
  const int d = grp.dim;
  const DimRings rings(geo_, d);
  std::int64_t L = 1;
  std::vector<int> lane_slot(static_cast<std::size_t>(s_.lanes), -1);
  int used = 0;
  for (const Loc& l : grp.steps) {
    const Step& st = s_.phases[l.phase].steps[l.index];
    if (s_.phases[l.phase].ring_size != n) fail(phase_ptr(l.phase), "ring size changes");
    if (lane_slot[static_cast<std::size_t>(st.lane)] < 0)
      lane_slot[static_cast<std::size_t>(st.lane)] = used++;
    for (auto& t : st.transfers) {
      L = std::lcm(L, t.fraction.den);
      if (L > kMaxUnits)
        fail(phase_ptr(l.phase), "fractions too fine to verify exactly (lcm > 2^40)");
    }
  }
  const auto N = static_cast<std::size_t>(n);
  const std::size_t cells = N * N * N;
  auto cell = [N](int holder, int origin, int dest) {
    return (static_cast<std::size_t>(holder) * N + static_cast<std::size_t>(origin)) * N +
           static_cast<std::size_t>(dest);
  };
  std::vector<std::int64_t> total(cells), smin(cells);
  std::vector<std::int64_t> delta(cells * static_cast<std::size_t>(used));
  std::vector<std::int64_t> lowest(cells * static_cast<std::size_t>(used));
  for (const auto& [r, weight] : todo) {
    std::fill(total.begin(), total.end(), 0);
    std::fill(smin.begin(), smin.end(), 0);
    std::fill(delta.begin(), delta.end(), 0);
    std::fill(lowest.begin(), lowest.end(), 0);
    for (int i = 0; i < n; ++i)
      for (int q = 0; q < n; ++q) total[cell(i, i, q)] = L;
    for (const Loc& l : grp.steps) {
      const Step& st = s_.phases[l.phase].steps[l.index];
      const std::size_t base =
          static_cast<std::size_t>(lane_slot[static_cast<std::size_t>(st.lane)]) * cells;
      // Pass 1: every transfer takes its piece from the state before the step.
      for (std::size_t t = 0; t < st.transfers.size(); ++t) {
        const RingTransfer& tr = st.transfers[t];
        if (tr.rings && !std::binary_search(tr.rings->begin(), tr.rings->end(), r)) continue;
        std::int64_t units = tr.fraction.num * (L / tr.fraction.den);
        for (int i = 0; i < n; ++i) {
          int o = wrap(i + tr.origin_offset, n), q = wrap(i + tr.dest_offset, n);
          const std::size_t c = cell(i, o, q);
          std::int64_t& dl = delta[base + c];
          std::int64_t& lo = lowest[base + c];
          dl -= units;
          total[c] -= units;
          if (dl < lo) {
            smin[c] += dl - lo;
            lo = dl;
          }
          std::int64_t have = (i == o ? L : 0) + smin[c] + units;
          if (have < units)
            fail(transfer_ptr(l.phase, l.index, t),
                 "step " + std::to_string(st.id) + ": " + chip_text(geo_, rings.chip(r, i)) +
                     " (ring " + std::to_string(r) + ", position " + std::to_string(i) +
                     ") would send " + to_string(tr.fraction) + " of the block from position " +
                     std::to_string(o) + " to position " + std::to_string(q) + " but holds only " +
                     std::to_string(std::max<std::int64_t>(have, 0)) + "/" + std::to_string(L) +
                     " of it" + (used > 1 ? " in the worst interleaving of its lanes" : ""));
        }
      }
      // Pass 2: deliveries land after every transfer of the step has been taken.
      for (const RingTransfer& tr : st.transfers) {
        if (tr.rings && !std::binary_search(tr.rings->begin(), tr.rings->end(), r)) continue;
        std::int64_t units = tr.fraction.num * (L / tr.fraction.den);
        for (int i = 0; i < n; ++i) {
          const std::size_t c = cell(wrap(i + tr.direction, n), wrap(i + tr.origin_offset, n),
                                     wrap(i + tr.dest_offset, n));
          delta[base + c] += units;
          total[c] += units;
        }
      }
    }
    for (int h = 0; h < n; ++h)
      for (int o = 0; o < n; ++o)
        for (int q = 0; q < n; ++q) {
          std::int64_t a = total[cell(h, o, q)];
          std::int64_t want = h == q ? L : 0;
          if (a != want)
            fail(phase_ptr(grp.steps.back().phase),
                 "not delivered: at the end of chunk " + std::to_string(grp.chunk) +
                     "'s phases along dimension " + std::to_string(d) + " " +
                     chip_text(geo_, rings.chip(r, h)) + " (ring " + std::to_string(r) +
                     ", position " + std::to_string(h) + ") holds " + std::to_string(a) + "/" +
                     std::to_string(L) + " of the block from position " + std::to_string(o) +
                     " to position " + std::to_string(q) + ", expected " +
                     (want ? "all of it" : "none"));
        }
    v_.rings_checked += weight;
    v_.pieces_checked += weight * n * n;
  }
}

// Check 3 for a reduce-scatter or all-gather group: per ring, per (holder, block, slice), the
// set of positions whose contribution a partial sum holds (reduce-scatter) or whether the
// holder has the slice (all-gather). A reduction sends the sender's partial away (it may not
// be sent again) and must not add a contribution twice; at the end position j holds block j
// reduced over the whole ring. An all-gather sends only what the sender holds, never to a
// holder that has it; at the end every position holds every block. One lane per ring (data
// is not fungible here, so concurrent lanes would need slice-level bookkeeping).
void Verifier::simulate_reduction_group(const Group& grp, const RingsToSimulate& todo) {
  const Phase& ph0 = s_.phases[grp.steps.front().phase];
  const int n = ph0.ring_size;
  if (n > 64) fail(phase_ptr(grp.steps.front().phase), "reductions verify rings of up to 64");
  const DimRings rings(geo_, grp.dim);
  const auto N = static_cast<std::size_t>(n);
  std::int64_t P = 1;
  std::size_t UP = 1;
  auto at = [&](int holder, int block, int part) {
    return (static_cast<std::size_t>(holder) * N + static_cast<std::size_t>(block)) * UP +
           static_cast<std::size_t>(part);
  };
  const bool rs = grp.op == PhaseOp::ReduceScatter;
  const std::uint64_t full = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  std::vector<std::uint64_t> st;
  struct Arrival {
    std::size_t cell;
    std::uint64_t mask;
    std::size_t p, k, t;
  };
  std::vector<Arrival> arrivals;
  for (const auto& [r, weight] : todo) {
    // The ring's slices: every transfer that serves it cuts blocks into the same 1/P.
    P = 0;
    for (const Loc& l : grp.steps)
      for (auto& t : s_.phases[l.phase].steps[l.index].transfers) {
        if (t.rings && !std::binary_search(t.rings->begin(), t.rings->end(), r)) continue;
        if (t.fraction.num != 1 || (P && t.fraction.den != P))
          fail(phase_ptr(l.phase), "ring " + std::to_string(r) +
                                       ": every slice of a reduction group must be the same "
                                       "1/P of a block");
        P = t.fraction.den;
      }
    if (P == 0) P = 1;
    UP = static_cast<std::size_t>(P);
    st.assign(N * N * UP, 0);
    for (int i = 0; i < n; ++i)
      for (int b = 0; b < n; ++b)
        for (int q = 0; q < P; ++q) st[at(i, b, q)] = rs ? std::uint64_t{1} << i : (b == i ? 1 : 0);
    int lane = -1;
    for (const Loc& l : grp.steps) {
      const Step& step = s_.phases[l.phase].steps[l.index];
      arrivals.clear();
      for (std::size_t t = 0; t < step.transfers.size(); ++t) {
        const RingTransfer& tr = step.transfers[t];
        if (tr.rings && !std::binary_search(tr.rings->begin(), tr.rings->end(), r)) continue;
        if (lane >= 0 && lane != step.lane)
          fail(transfer_ptr(l.phase, l.index, t),
               "ring " + std::to_string(r) + " is served by two lanes in one reduction phase");
        lane = step.lane;
        for (int i = 0; i < n; ++i) {
          const int b = wrap(i + tr.origin_offset, n);
          const std::size_t from = at(i, b, tr.part);
          const std::uint64_t m = st[from];
          const std::string who = chip_text(geo_, rings.chip(r, i)) + " (ring " +
                                  std::to_string(r) + ", position " + std::to_string(i) + ")";
          if (m == 0)
            fail(transfer_ptr(l.phase, l.index, t),
                 "step " + std::to_string(step.id) + ": " + who + " would send slice " +
                     std::to_string(tr.part) + " of block " + std::to_string(b) + " but " +
                     (rs ? "has already sent its partial sum of it" : "does not hold it"));
          if (rs) st[from] = 0;
          arrivals.push_back({at(wrap(i + tr.direction, n), b, tr.part), m, l.phase, l.index, t});
        }
      }
      for (const Arrival& a : arrivals) {
        std::uint64_t& dst = st[a.cell];
        if (rs ? (dst & a.mask) != 0 : dst != 0)
          fail(transfer_ptr(a.p, a.k, a.t),
               "step " + std::to_string(s_.phases[a.p].steps[a.k].id) + ": ring " +
                   std::to_string(r) + ": " +
                   (rs ? "a partial sum would be added to one that already holds some of its "
                         "contributions (counted twice)"
                       : "a slice would be sent to a position that already holds it"));
        dst = rs ? dst | a.mask : 1;
      }
    }
    for (int j = 0; j < n; ++j)
      for (int b = 0; b < n; ++b)
        for (int q = 0; q < P; ++q) {
          if (rs && b != j) continue;
          if (st[at(j, b, q)] != (rs ? full : 1))
            fail(phase_ptr(grp.steps.back().phase),
                 "not delivered: at the end of chunk " + std::to_string(grp.chunk) + "'s " +
                     to_string(grp.op) + " along dimension " + std::to_string(grp.dim) + " " +
                     chip_text(geo_, rings.chip(r, j)) + " (ring " + std::to_string(r) +
                     ", position " + std::to_string(j) + ") " +
                     (rs ? "lacks contributions to slice " + std::to_string(q) + " of its block " +
                               std::to_string(j)
                         : "lacks slice " + std::to_string(q) + " of block " + std::to_string(b)));
        }
    v_.rings_checked += weight;
    v_.pieces_checked += weight * n * P * (rs ? 1 : n);
  }
}

// Which rings of the group's dimension to simulate. The simulation of ring r (checks 3) reads r
// only to decide which transfers serve it (rings: "all" or a list naming r) and to name it in
// messages, so rings served by the same transfers pass or fail alike, at the same transfer and
// position. One ring per such class is simulated, the class's lowest: the first failing
// representative is then the lowest failing ring, and its message the one a ring-by-ring
// simulation gives. verify_all_rings() simulates every ring (weight 1).
RingsToSimulate Verifier::rings_to_simulate(const Group& grp) const {
  const std::int64_t count = DimRings(geo_, grp.dim).count();
  RingsToSimulate todo;
  if (all_rings_) {
    for (std::int64_t r = 0; r < count; ++r) todo.emplace_back(r, 1);
    return todo;
  }
  // Ring -> the listing transfers (numbered in group order) that name it; unlisted rings are
  // served by the "all" transfers alone, one class.
  std::map<std::int64_t, std::vector<std::size_t>> listed;
  std::size_t k = 0;
  for (const Loc& l : grp.steps)
    for (const RingTransfer& t : s_.phases[l.phase].steps[l.index].transfers) {
      if (t.rings)
        for (std::int64_t r : *t.rings) listed[r].push_back(k);
      ++k;
    }
  std::map<std::vector<std::size_t>, std::size_t> class_of; // signature -> index in todo
  for (const auto& [r, sig] : listed) {                     // ascending r: first = lowest
    auto [it, fresh] = class_of.try_emplace(sig, todo.size());
    if (fresh) todo.emplace_back(r, 0);
    ++todo[it->second].second;
  }
  const std::int64_t unlisted = count - static_cast<std::int64_t>(listed.size());
  if (unlisted > 0) {
    std::int64_t r = 0;
    while (listed.count(r)) ++r;
    todo.emplace_back(r, unlisted);
  }
  std::sort(todo.begin(), todo.end());
  return todo;
}

} // namespace icnkit::coll::verify_detail
