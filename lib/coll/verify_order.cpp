// Checks 1 and 2 of coll/verify.hpp: the schedule's structure, the order of its steps and
// each chunk's sequence of dimension groups (which builds the groups checks 3 and 4 use).
#include "coll/verify_internal.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::coll::verify_detail {

namespace {

// Bound on the steps x chunks table of the ordering check (memory).
constexpr std::int64_t kMaxOrderTable = 50'000'000;

} // namespace

void Verifier::check_header() {
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
          fail(transfer_ptr(p, k, t) + "/rings",
               "ring " + std::to_string(tr.rings->back()) + " does not exist (dimension " +
                   std::to_string(ph.dimension) + " has " + std::to_string(ring_count) + " rings)");
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
void Verifier::check_order() {
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
  std::vector<int> group_key(C, -1);             // dimension * 3 + op of each chunk's current group
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
      if (a < 0 || a >= id) fail(step_ptr(l.phase, l.index) + "/after", "must list earlier steps");
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
void Verifier::check_sequence() {
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

} // namespace icnkit::coll::verify_detail
