#include "coll/verify.hpp"

#include "coll/hops.hpp"
#include "coll/rings.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>

namespace icnkit::coll {

namespace {

// The finest unit verification will track: 1/L block with L <= 2^40, so that the sum of a
// position's holdings (at most N^2 * L per ring) stays far inside int64.
constexpr std::int64_t kMaxUnits = std::int64_t{1} << 40;
// Bound on the steps x chunks table of the ordering check (memory).
constexpr std::int64_t kMaxOrderTable = 50'000'000;

// (ring, weight): simulate this ring and count it for `weight` rings that behave alike.
using RingsToSimulate = std::vector<std::pair<std::int64_t, std::int64_t>>;

class Verifier {
public:
  // `all_rings`: the straightforward computation (verify_all_rings()).
  Verifier(const Schedule& s, const topo::Network& net, const topo::Faults& faults, ErrorKind kind,
           std::string where, bool all_rings)
      : s_(s), net_(net), geo_(topo::TorusGeometry::of(net, "schedule verification")), kind_(kind),
        where_(std::move(where)), down_links_(faults.down_links(net)),
        down_chips_(faults.down_chips(net)), all_rings_(all_rings) {}

  Verification run() {
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

private:
  struct Loc {
    std::size_t phase = 0, index = 0;
  };
  struct Group { // one chunk's steps along one dimension with one op, in id order
    int chunk = 0, dim = 0;
    PhaseOp op = PhaseOp::AllToAll;
    std::vector<Loc> steps;
    // Per lane used: its first and last step in the group, and for its first step the latest
    // ancestor in each lane of the chunk (to tell whether two lanes are ordered).
    std::map<int, std::int64_t> first, last;
    std::map<int, std::vector<std::int64_t>> first_row;
  };

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(kind_, where_ + pointer, what);
  }
  static std::string phase_ptr(std::size_t p) { return "/phases/" + std::to_string(p); }
  static std::string step_ptr(std::size_t p, std::size_t k) {
    return phase_ptr(p) + "/steps/" + std::to_string(k);
  }
  static std::string transfer_ptr(std::size_t p, std::size_t k, std::size_t t) {
    return step_ptr(p, k) + "/transfers/" + std::to_string(t);
  }

  void check_header() {
    if (s_.collective != "all-to-all" && s_.collective != "reduce-scatter" &&
        s_.collective != "all-gather" && s_.collective != "all-reduce")
      fail("/collective", "verification knows all-to-all, reduce-scatter, all-gather and "
                          "all-reduce, not '" +
                              s_.collective + "'");
    if (s_.bytes_per_node <= 0) fail("/bytes_per_node", "must be positive");
    for (std::size_t p = 0; p < s_.phases.size(); ++p) {
      const Phase& ph = s_.phases[p];
      if (ph.dimension >= geo_.dims())
        fail(phase_ptr(p) + "/dimension", "the torus has " + std::to_string(geo_.dims()) +
                                              " dimensions, there is no dimension " +
                                              std::to_string(ph.dimension));
      if (ph.ring_size != geo_.size(ph.dimension))
        fail(phase_ptr(p) + "/ring_size", "is " + std::to_string(ph.ring_size) + " but dimension " +
                                              std::to_string(ph.dimension) + " has size " +
                                              std::to_string(geo_.size(ph.dimension)));
      if ((ph.op == PhaseOp::AllToAll) != (s_.collective == "all-to-all"))
        fail(phase_ptr(p) + "/op",
             "a " + to_string(ph.op) + " phase in a " + s_.collective + " schedule");
      std::int64_t ring_count = geo_.count() / ph.ring_size;
      for (std::size_t k = 0; k < ph.steps.size(); ++k)
        for (std::size_t t = 0; t < ph.steps[k].transfers.size(); ++t) {
          const RingTransfer& tr = ph.steps[k].transfers[t];
          if (tr.rings && !tr.rings->empty() && tr.rings->back() >= ring_count)
            fail(transfer_ptr(p, k, t) + "/rings", "ring " + std::to_string(tr.rings->back()) +
                                                       " does not exist (dimension " +
                                                       std::to_string(ph.dimension) + " has " +
                                                       std::to_string(ring_count) + " rings)");
          if (tr.origin_offset >= ph.ring_size || tr.dest_offset >= ph.ring_size ||
              (tr.direction != 1 && tr.direction != -1) || tr.fold_at >= ph.ring_size)
            fail(transfer_ptr(p, k, t), "offsets, direction or fold_at out of range");
          if (tr.via_dim >= 0 &&
              (tr.via_dim >= geo_.dims() || tr.via_dim == ph.dimension ||
               (tr.via_side != 1 && tr.via_side != -1) || geo_.size(tr.via_dim) < 3))
            fail(transfer_ptr(p, k, t) + "/via",
                 "must name another dimension of at least 3 chips and side +1 or -1");
        }
    }
  }

  // Check 2 of verify.hpp. last[s][c * lanes + l] = the largest id of a (chunk c, lane l) step
  // among s's ancestors. Builds groups_: per chunk, its steps of each dimension, in id order.
  void check_order() {
    std::int64_t n_steps = s_.step_count();
    const auto C = static_cast<std::size_t>(s_.chunks);
    const auto NL = static_cast<std::size_t>(s_.lanes);
    const std::size_t cols = C * NL;
    if (n_steps * static_cast<std::int64_t>(cols) > kMaxOrderTable)
      fail("/step_count", "too many steps x chunks x lanes to verify (" + std::to_string(n_steps) +
                              " x " + std::to_string(cols) + ")");
    std::vector<Loc> loc(static_cast<std::size_t>(n_steps));
    std::vector<char> seen(static_cast<std::size_t>(n_steps), 0);
    for (std::size_t p = 0; p < s_.phases.size(); ++p)
      for (std::size_t k = 0; k < s_.phases[p].steps.size(); ++k) {
        const Step& st = s_.phases[p].steps[k];
        if (st.id < 0 || st.id >= n_steps || seen[static_cast<std::size_t>(st.id)])
          fail(step_ptr(p, k) + "/id", "step ids must be dense and unique");
        if (st.lane < 0 || st.lane >= s_.lanes)
          fail(step_ptr(p, k) + "/lane",
               "lane " + std::to_string(st.lane) + " outside 0.." + std::to_string(s_.lanes - 1));
        seen[static_cast<std::size_t>(st.id)] = 1;
        loc[static_cast<std::size_t>(st.id)] = {p, k};
      }
    auto col_of = [&](std::int64_t id) {
      const Loc& l = loc[static_cast<std::size_t>(id)];
      const Phase& ph = s_.phases[l.phase];
      return static_cast<std::size_t>(ph.chunk) * NL +
             static_cast<std::size_t>(ph.steps[l.index].lane);
    };
    std::vector<std::int64_t> last(static_cast<std::size_t>(n_steps) * cols, -1);
    std::vector<std::int64_t> lane_last(cols, -1); // the latest step of each (chunk, lane)
    std::vector<std::int64_t> barrier(cols, -1);   // lane_last when the chunk's group began
    std::vector<int> group_key(C, -1); // dimension * 3 + op of each chunk's current group
    std::vector<std::vector<char>> done_dim(C, std::vector<char>(64 * 3, 0));
    std::vector<std::size_t> group_of(C, 0); // index into groups_ of the chunk's current group
    // A phase has one chunk, dimension and op, and a chunk never returns to a (dimension, op),
    // so all of a phase's steps fall into one group.
    phase_group_.assign(s_.phases.size(), 0);
    for (std::int64_t id = 0; id < n_steps; ++id) {
      const Loc& l = loc[static_cast<std::size_t>(id)];
      const Phase& ph = s_.phases[l.phase];
      const Step& st = ph.steps[l.index];
      std::int64_t* row = &last[static_cast<std::size_t>(id) * cols];
      for (std::int64_t a : st.after) {
        if (a < 0 || a >= id)
          fail(step_ptr(l.phase, l.index) + "/after", "must list earlier steps");
        const std::int64_t* arow = &last[static_cast<std::size_t>(a) * cols];
        for (std::size_t c = 0; c < cols; ++c) row[c] = std::max(row[c], arow[c]);
        row[col_of(a)] = std::max(row[col_of(a)], a);
      }
      const auto c = static_cast<std::size_t>(ph.chunk);
      const std::size_t col = col_of(id);
      if (row[col] != lane_last[col])
        fail(step_ptr(l.phase, l.index) + "/after",
             "step " + std::to_string(id) +
                 " does not wait (directly or through other steps) for step " +
                 std::to_string(lane_last[col]) + " of the same chunk " + std::to_string(c) +
                 " and lane " + std::to_string(st.lane) +
                 ": the steps of a lane move the same data and must run in order");
      const int key = ph.dimension * 3 + static_cast<int>(ph.op);
      if (group_key[c] != key) {
        // A new dimension group of the chunk: it starts after every lane of the previous one.
        if (done_dim[c][static_cast<std::size_t>(key)])
          fail(step_ptr(l.phase, l.index),
               "chunk " + std::to_string(c) + " returns to dimension " +
                   std::to_string(ph.dimension) + " (" + to_string(ph.op) +
                   ") after another one (a dimension's phases must be contiguous)");
        done_dim[c][static_cast<std::size_t>(key)] = 1;
        group_key[c] = key;
        for (std::size_t k = 0; k < NL; ++k) barrier[c * NL + k] = lane_last[c * NL + k];
        group_of[c] = groups_.size();
        Group g;
        g.chunk = static_cast<int>(c);
        g.dim = ph.dimension;
        g.op = ph.op;
        groups_.push_back(std::move(g));
      }
      for (std::size_t k = 0; k < NL; ++k)
        if (row[c * NL + k] < barrier[c * NL + k])
          fail(step_ptr(l.phase, l.index) + "/after",
               "step " + std::to_string(id) + " (dimension " + std::to_string(ph.dimension) +
                   ") does not wait for step " + std::to_string(barrier[c * NL + k]) +
                   ", the end of lane " + std::to_string(k) + " of chunk " + std::to_string(c) +
                   "'s previous dimension");
      lane_last[col] = id;
      phase_group_[l.phase] = group_of[c];
      Group& grp = groups_[group_of[c]];
      grp.steps.push_back(l);
      if (!grp.first.count(st.lane)) {
        grp.first[st.lane] = id;
        grp.first_row[st.lane].assign(row + c * NL, row + (c + 1) * NL);
      }
      grp.last[st.lane] = id;
    }
    check_sequence();
  }

  // Each chunk's groups, in order, must be the collective's sequence: every dimension of size
  // > 1 once (all-to-all, reduce-scatter, all-gather), or reduce-scatter over every dimension
  // and then all-gather over them in the reverse order (all-reduce); and every phase's block
  // must be the chunk's share at that point (schedule.hpp, block_bytes).
  void check_sequence() {
    std::vector<int> live;
    for (int d = 0; d < geo_.dims(); ++d)
      if (geo_.size(d) > 1) live.push_back(d);
    const std::size_t D = live.size();
    for (int c = 0; c < s_.chunks; ++c) {
      std::vector<const Group*> seq;
      for (const Group& g : groups_)
        if (g.chunk == c) seq.push_back(&g);
      const bool ar = s_.collective == "all-reduce";
      auto op_at = [&](std::size_t k) {
        if (s_.collective == "all-to-all") return PhaseOp::AllToAll;
        if (s_.collective == "reduce-scatter" || (ar && k < D)) return PhaseOp::ReduceScatter;
        return PhaseOp::AllGather;
      };
      const std::size_t want = ar ? 2 * D : D;
      std::vector<int> seen(static_cast<std::size_t>(geo_.dims()) * 3, 0);
      bool ok = seq.size() == want;
      for (std::size_t k = 0; ok && k < seq.size(); ++k) {
        ok = seq[k]->op == op_at(k) && geo_.size(seq[k]->dim) > 1;
        if (ar && k >= D) ok = ok && seq[k]->dim == seq[2 * D - 1 - k]->dim;
        ok = ok &&
             seen[static_cast<std::size_t>(seq[k]->dim * 3 + static_cast<int>(seq[k]->op))]++ == 0;
      }
      if (!ok) {
        std::string got;
        for (const Group* g : seq)
          got += (got.empty() ? "" : ", ") + std::to_string(g->dim) + " " + to_string(g->op);
        fail("/phases",
             "chunk " + std::to_string(c) + " runs [" + got + "], but a " + s_.collective +
                 " needs " +
                 (ar ? "a reduce-scatter along every dimension of size > 1, then an "
                       "all-gather along each in the reverse order"
                     : "one " + to_string(op_at(0)) + " phase along every dimension of size > 1"));
      }
      // Blocks: the chunk's share shrinks through reduce-scatters, grows through all-gathers.
      double share = static_cast<double>(s_.bytes_per_node) / s_.chunks;
      if (s_.collective == "all-gather")
        for (int d : live) share /= geo_.size(d);
      for (const Group* g : seq) {
        const double n = geo_.size(g->dim);
        double want_block = share / n;
        if (g->op == PhaseOp::AllGather) want_block = share, share *= n;
        if (g->op == PhaseOp::ReduceScatter) share /= n;
        for (const Loc& l : g->steps) {
          const Phase& ph = s_.phases[l.phase];
          if (!(std::fabs(ph.block_bytes - want_block) <= 1e-12 * want_block))
            fail(phase_ptr(l.phase) + "/block_bytes",
                 "is " + std::to_string(ph.block_bytes) + " but the chunk's " +
                     (g->op == PhaseOp::AllToAll ? "bytes_per_node / chunks / ring_size"
                                                 : "share at this phase") +
                     " is " + std::to_string(want_block));
        }
      }
    }
  }

  // Check 3 for one dimension group of a chunk, ring by ring, lane by lane.
  //
  // Lanes run concurrently, so a take must be covered in every interleaving: per lane the
  // running change of every cell and its minimum so far are kept, and a take is accepted only if
  // the initial amount plus the sum over lanes of their minima stays >= 0. In the worst
  // interleaving every other lane has taken all it ever takes before delivering anything, so
  // this is exactly "no schedule order can send data the node does not hold"; with one lane it
  // is the plain store-and-forward check. Conservation and the final state use the totals.
  void simulate_group(const Group& grp, const RingsToSimulate& todo) {
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
                       std::to_string(o) + " to position " + std::to_string(q) +
                       " but holds only " + std::to_string(std::max<std::int64_t>(have, 0)) + "/" +
                       std::to_string(L) + " of it" +
                       (used > 1 ? " in the worst interleaving of its lanes" : ""));
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
  void simulate_reduction_group(const Group& grp, const RingsToSimulate& todo) {
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
          for (int q = 0; q < P; ++q)
            st[at(i, b, q)] = rs ? std::uint64_t{1} << i : (b == i ? 1 : 0);
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
              fail(
                  phase_ptr(grp.steps.back().phase),
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
  RingsToSimulate rings_to_simulate(const Group& grp) const {
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

  // Check 4, step by step over every ring: every physical hop of every logical hop. Geometry:
  // the TorusGeometry or its HopTable (the same answers); on_hop(phase, lane, channel) sees every
  // hop that passed.
  template <class Geometry, class OnHop> void check_links(const Geometry& g, OnHop&& on_hop) {
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

  // Per dimension, the rings that hold a failed chip or a failed link of that dimension.
  void find_bad_rings() {
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
  bool proven_clean(std::size_t p, std::size_t k) {
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

  // Check 4 for concurrent lanes: two lanes of one chunk's dimension group that share a
  // directed link must be ordered (every step of one after every step of the other), so the
  // conflict-freedom the algorithms claim (MATE's planes, the folded ring beside the healthy
  // rings) is proven, not assumed.
  void check_lanes() {
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
  void check_lane_masks(const std::vector<std::vector<std::uint64_t>>& masks) const {
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

  [[noreturn]] void lane_conflict(const Group& grp, int A, int B, std::int64_t channel) const {
    const std::int64_t link = topo::link_of_channel(channel);
    fail("/phases", "lanes " + std::to_string(A) + " and " + std::to_string(B) + " of chunk " +
                        std::to_string(grp.chunk) + " along dimension " + std::to_string(grp.dim) +
                        " can run at the same time (neither waits for the other) and "
                        "share a directed link of link " +
                        std::to_string(link) + " (" +
                        chip_text(geo_, net_.links[static_cast<std::size_t>(link)].a) + " - " +
                        chip_text(geo_, net_.links[static_cast<std::size_t>(link)].b) + ")");
  }

  void check_hop(std::size_t p, std::size_t k, std::size_t t, const Step& st, std::int64_t src,
                 std::int64_t dst, std::int64_t ch, std::vector<std::int64_t>& stamp) {
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

  const Schedule& s_;
  const topo::Network& net_;
  topo::TorusGeometry geo_;
  ErrorKind kind_;
  std::string where_;
  std::vector<char> down_links_, down_chips_;
  bool all_rings_;
  std::vector<Group> groups_;
  std::vector<std::size_t> phase_group_; // phase -> index into groups_
  // verify()'s shortcuts: find_bad_rings(), and per multi-lane group, per (lane, direction),
  // the rings its steps proven clean cover (empty for single-lane groups).
  std::vector<std::vector<char>> bad_rings_;
  std::vector<char> any_bad_;
  std::vector<std::vector<std::vector<char>>> cover_;
  Verification v_;
};

} // namespace

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
