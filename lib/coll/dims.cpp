#include "coll/dims.hpp"

#include <algorithm>

namespace icnkit::coll {

namespace {

// Places chunk c's k-th dimension order[c][k] in slot slot_of(c, k) and gives every step its
// id and `after` list:
// - a lane's steps form a chain; a phase's first step of each lane waits for the end of the
//   chunk's previous phase (every lane's last step);
// - a phase in dimension d also waits for the end of the phase that used d in an earlier slot
//   (one chunk per dimension at a time, the artifact's active-chunks-per-dimension = 1): on a
//   mixed-radix torus DimRotation's chunks would otherwise meet in the slow dimension and
//   share its links; in Pipeline it is the wait of (c, k) for (c-1, k);
// - when acceleration phases exist (MATE) or in.lockstep (a faulty torus), slots are kept
//   apart: an acceleration phase waits for the normal phases of every chunk in its slot and for
//   the acceleration phases of the chunks before it in that slot (faults in different
//   dimensions get separate acceleration phases), and the next slot waits for the whole slot.
//   So acceleration traffic, which borrows links of other dimensions, never meets another
//   chunk's traffic, and chunks never meet in a slow faulty dimension (FoldedRing).
// Ids follow the emission order: slot by slot, first every normal phase, then every
// acceleration phase; all dependencies point to earlier ids.
struct Entry {
  int dim;
  PhaseOp op;
  double block_bytes;
};

// A chunk's phases for the collective, from its dimension order: all-to-all and reduce-scatter
// take the dimensions in order, all-gather in reverse, all-reduce is reduce-scatter then
// all-gather; the blocks shrink through reduce-scatters and grow back through all-gathers.
std::vector<Entry> entries_of(const ComposeInput& in, const std::vector<int>& order, int C) {
  const topo::TorusGeometry& g = *in.geometry;
  std::vector<Entry> out;
  double share = static_cast<double>(in.bytes_per_node) / C;
  auto rs = [&] {
    for (int d : order) {
      share /= g.size(d);
      out.push_back({d, PhaseOp::ReduceScatter, share});
    }
  };
  auto ag = [&] {
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      out.push_back({*it, PhaseOp::AllGather, share});
      share *= g.size(*it);
    }
  };
  if (in.collective == "all-to-all") {
    for (int d : order) out.push_back({d, PhaseOp::AllToAll, share / g.size(d)});
  } else if (in.collective == "reduce-scatter") {
    rs();
  } else if (in.collective == "all-gather") {
    for (int d : order) share /= g.size(d);
    ag();
  } else { // all-reduce
    rs();
    ag();
  }
  return out;
}

Schedule assemble(const ComposeInput& in, const std::string& name,
                  const std::vector<std::vector<int>>& dim_order, bool pipeline) {
  const topo::TorusGeometry& g = *in.geometry;
  const int C = static_cast<int>(dim_order.size());
  std::vector<std::vector<Entry>> order;
  for (auto& o : dim_order) order.push_back(entries_of(in, o, C));
  Schedule s;
  s.collective = in.collective;
  s.algorithm = in.algorithm->name;
  s.dim_scheduling = name;
  s.fault_handling = in.algorithm->torus->fault_handling;
  s.bytes_per_node = in.bytes_per_node;
  s.chunks = C;
  bool lockstep = in.lockstep;
  for (auto& by_dim : in.plans)
    for (auto& p : by_dim)
      if (p.phases.size() > 1 || (p.phases.size() == 1 && !p.phases[0].suffix.empty()))
        lockstep = true;

  using Ends = std::vector<std::int64_t>; // the steps whose completion ends something
  // ends[c][k]: end of chunk c's k-th dimension (all its phases); normal_end[c][k]: its normal
  // phase; chunk_end[c]: the chunk's latest end so far.
  std::vector<std::vector<Ends>> group_end(static_cast<std::size_t>(C));
  std::vector<Ends> chunk_end(static_cast<std::size_t>(C));
  for (int c = 0; c < C; ++c)
    group_end[static_cast<std::size_t>(c)].resize(order[static_cast<std::size_t>(c)].size());
  std::int64_t next = 0;
  int max_lane = 0;

  auto emit = [&](int c, const Entry& e, const PhasePlan& pp, const Ends& wait) {
    // Returns the phase's end (its lanes' last steps), or `wait` if it has no steps.
    Phase p;
    std::string base = C > 1 ? "chunk" + std::to_string(c) + "/" : "";
    const std::string op = e.op == PhaseOp::ReduceScatter ? "/rs"
                           : e.op == PhaseOp::AllGather   ? "/ag"
                                                          : "";
    p.name = base + "dim" + std::to_string(e.dim) + op + (pp.suffix.empty() ? "" : "/" + pp.suffix);
    p.op = e.op;
    p.chunk = c;
    p.dimension = e.dim;
    p.ring_size = g.size(e.dim);
    p.block_bytes = e.block_bytes;
    Ends end;
    for (const LanePlan& lane : pp.lanes) {
      if (lane.steps.empty()) continue;
      max_lane = std::max(max_lane, lane.lane);
      std::int64_t prev = -1;
      for (auto& transfers : lane.steps) {
        Step st;
        st.id = next++;
        st.lane = lane.lane;
        if (prev < 0)
          st.after = wait;
        else
          st.after = {prev};
        st.transfers = transfers;
        prev = st.id;
        p.steps.push_back(std::move(st));
      }
      end.push_back(prev);
    }
    if (p.steps.empty()) return wait;
    for (auto& st : p.steps) {
      std::sort(st.after.begin(), st.after.end());
      st.after.erase(std::unique(st.after.begin(), st.after.end()), st.after.end());
    }
    s.phases.push_back(std::move(p));
    std::sort(end.begin(), end.end());
    return end;
  };
  auto plan_of = [&](const Entry& e) -> const DimPlan& {
    return in.plans[static_cast<std::size_t>(e.op)][static_cast<std::size_t>(e.dim)];
  };
  auto join = [](Ends a, const Ends& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };

  int slots = 0;
  for (int c = 0; c < C; ++c)
    slots = std::max(slots, (pipeline ? c : 0) +
                                static_cast<int>(order[static_cast<std::size_t>(c)].size()));
  Ends prev_slot; // lockstep: the end of the previous slot
  std::vector<Ends> dim_user(static_cast<std::size_t>(g.dims())); // the last phase in each dim
  for (int slot = 0; slot < slots; ++slot) {
    struct Active {
      int c, k;
    };
    std::vector<Active> act;
    for (int c = 0; c < C; ++c) {
      int k = slot - (pipeline ? c : 0);
      if (k >= 0 && k < static_cast<int>(order[static_cast<std::size_t>(c)].size()))
        act.push_back({c, k});
    }
    Ends normals;
    std::vector<Ends> after_normal(act.size());
    for (std::size_t a = 0; a < act.size(); ++a) {
      auto [c, k] = act[a];
      const auto uc = static_cast<std::size_t>(c);
      const Entry& e = order[uc][static_cast<std::size_t>(k)];
      Ends wait = join(chunk_end[uc], dim_user[static_cast<std::size_t>(e.dim)]);
      if (pipeline && c > 0) wait = join(wait, group_end[uc - 1][static_cast<std::size_t>(k)]);
      if (lockstep) wait = join(wait, prev_slot);
      const DimPlan& plan = plan_of(e);
      Ends end = plan.phases.empty() ? wait : emit(c, e, plan.phases[0], wait);
      after_normal[a] = end;
      normals = join(normals, end);
    }
    Ends accel_chain;
    for (std::size_t a = 0; a < act.size(); ++a) {
      auto [c, k] = act[a];
      const auto uc = static_cast<std::size_t>(c);
      const Entry& e = order[uc][static_cast<std::size_t>(k)];
      const DimPlan& plan = plan_of(e);
      Ends end = after_normal[a];
      for (std::size_t j = 1; j < plan.phases.size(); ++j) {
        Ends wait = join(join(end, normals), accel_chain);
        end = emit(c, e, plan.phases[j], wait);
        if (end != wait) accel_chain = end;
      }
      group_end[uc][static_cast<std::size_t>(k)] = end;
      chunk_end[uc] = end;
    }
    // The dimensions this slot used: their next user waits for every phase of it here.
    std::vector<Ends> used(dim_user.size());
    for (std::size_t a = 0; a < act.size(); ++a) {
      auto [c, k] = act[a];
      const auto uc = static_cast<std::size_t>(c);
      const auto d = static_cast<std::size_t>(order[uc][static_cast<std::size_t>(k)].dim);
      used[d] = join(used[d], group_end[uc][static_cast<std::size_t>(k)]);
    }
    for (std::size_t d = 0; d < used.size(); ++d)
      if (!used[d].empty()) dim_user[d] = std::move(used[d]);
    if (lockstep) {
      Ends end = accel_chain.empty() ? normals : join(normals, accel_chain);
      std::sort(end.begin(), end.end());
      end.erase(std::unique(end.begin(), end.end()), end.end());
      if (!end.empty()) prev_slot = std::move(end);
    }
  }
  s.lanes = max_lane + 1;
  return s;
}

// The dimensions a schedule visits: those of size > 1 (a size-1 dimension moves nothing).
std::vector<int> live_dims(const topo::TorusGeometry& g) {
  std::vector<int> out;
  for (int d = 0; d < g.dims(); ++d)
    if (g.size(d) > 1) out.push_back(d);
  return out;
}

} // namespace

Schedule compose_sequential(const ComposeInput& in) {
  return assemble(in, "sequential", {live_dims(*in.geometry)}, false);
}

Schedule compose_pipeline(const ComposeInput& in) {
  std::vector<std::vector<int>> order(static_cast<std::size_t>(in.chunks), live_dims(*in.geometry));
  return assemble(in, "pipeline", order, true);
}

Schedule compose_dimrotation(const ComposeInput& in) {
  std::vector<int> dims = live_dims(*in.geometry);
  const std::size_t D = dims.size();
  std::vector<std::vector<int>> order(std::max<std::size_t>(D, 1));
  for (std::size_t i = 0; i < D; ++i)
    for (std::size_t k = 0; k < D; ++k) order[i].push_back(dims[(i + k) % D]);
  return assemble(in, "dimrotation", order, false);
}

} // namespace icnkit::coll
