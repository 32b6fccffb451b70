#include "sim/run_analytic.hpp"

#include "coll/bound.hpp"
#include "coll/closed_form.hpp"
#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_program.hpp"
#include "coll/skew.hpp"
#include "coll/verify.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "sim/analytic.hpp"
#include "sim/sized_program.hpp"

#include <memory>

namespace icnkit::sim {

namespace {

// The collective's lower bound at this size (coll/bound.hpp): an all-to-all-v's per stage part,
// the largest; else the collective's.
void add_bound(Report& rep, const SizedProgram& sp, const topo::Network& n, const topo::Faults& f) {
  const std::optional<coll::Schedule>& sized = sp.sized;
  const std::vector<std::int64_t> chips =
      sized && sized->stages ? coll::participants(*sized) : coll::rank_order(n, f);
  std::optional<coll::Bound> b;
  if (sized && sized->skew) {
    for (const coll::RankSchedule& r : sized->stages->front().parts)
      if (auto p = coll::all_to_all_v_bound(r.groups,
                                            coll::skew_bytes(*sized->skew, r.ranks(),
                                                             static_cast<double>(sp.bytes_per_node),
                                                             "/schedule/skew"),
                                            n, f);
          p && (!b || p->time_s > b->time_s))
        b = p;
  } else {
    b = coll::collective_bound(sp.collective, chips, static_cast<double>(sp.bytes_per_node), n, f,
                               sp.n_nodes, sized && coll::uses_switch(*sized));
  }
  if (b) {
    rep.bound_s = b->time_s;
    rep.bound_kind = b->kind;
  }
}

} // namespace

std::vector<Report> run_analytic(const topo::Network& n, const topo::Faults& f,
                                 const route::RoutingSection* routing,
                                 const coll::Schedule* schedule, const AnalyticRunOptions& o) {
  // The all-to-all baselines: one flow per orbit where the routing is symmetric.
  AllToAllOptions all;
  all.symmetry = true;
  all.ecmp = o.ecmp;
  all.seed = o.seed;
  all.max_bytes = o.max_bytes;
  AnalyticOptions opt;
  std::vector<char> down = f.down_links(n);
  opt.down_links = &down;

  std::unique_ptr<route::RoutingFunction> fn;
  if (o.baseline || (schedule && schedule->stages)) {
    if (!routing)
      fail_input(o.source + ":/routing", "missing routing section (run topo-route first)");
    fn = route::make_routing(*routing, n, f);
  }
  if (!o.baseline) {
    if (!schedule)
      fail_input(o.source + ":/schedule", "missing schedule section (run coll-sched first)");
    // The section was parsed structurally; its delivery and fault checks are verify()'s, and the
    // program relies on them (they do not depend on the size). A schedule whose verified_digest
    // matches its content passed them in coll-sched on this network.
    if (!coll::sealed(*schedule)) {
      if (schedule->stages)
        coll::verify_ranks(*schedule, n, f, *fn, ErrorKind::Input, o.source + ":/schedule");
      else
        coll::verify(*schedule, n, f, ErrorKind::Input, o.source + ":/schedule");
    }
  }
  std::vector<Report> reps;
  for (std::uint64_t size : o.sizes) {
    const SizedProgram sp =
        sized_program(size, o.baseline, n, f, fn.get(), routing ? routing->algorithm : "", schedule,
                      o.astra ? coll::StepLatency::Astra : coll::StepLatency::PerHop, all);
    Progress progress(o.progress_label, sp.program->steps().size());
    opt.progress = &progress;
    AnalyticResult res = simulate_analytic(*sp.program, n, opt);
    progress.finish();
    Report rep = make_analytic_report(res, sp.source, sp.collective, sp.algorithm, sp.n_nodes,
                                      sp.bytes_per_node, n.fingerprint, o.step_times);
    if (o.link_stats) add_link_stats(rep, res, n, down);
    rep.traffic = o.traffic;
    add_bound(rep, sp, n, f);
    if (sp.sized) {
      rep.dim_scheduling = sp.sized->dim_scheduling;
      if (o.astra) rep.latency_model = kAstraLatencyModel;
      if (auto cf = sp.sized->stages
                        ? std::nullopt
                        : coll::closed_form(*sp.sized, n, f,
                                            o.astra ? coll::LatencyModel::Table1
                                                    : coll::LatencyModel::PerSubStage)) {
        rep.closed_form_s = cf->time_s;
        rep.closed_form_formula = cf->formula;
      }
    }
    reps.push_back(std::move(rep));
  }
  return reps;
}

} // namespace icnkit::sim
