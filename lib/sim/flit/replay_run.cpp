#include "sim/flit/replay_run.hpp"

#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/hops.hpp"
#include "coll/verify.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/threads.hpp"
#include "sim/flit/clock.hpp"
#include "sim/flit/engine.hpp"
#include "sim/flit/source_routes.hpp"
#include "sim/sized_program.hpp"

#include <algorithm>
#include <memory>

namespace icnkit::sim::flit {

std::vector<Report> run_replay(const topo::Network& n, const topo::Faults& f,
                               const route::RoutingSection* routing, const coll::Schedule* schedule,
                               const ReplayRunOptions& o,
                               const std::function<void(const Report&)>& each) {
  auto need_routing = [&] {
    if (!routing)
      fail_input(o.source + ":/routing", "missing routing section (run topo-route first)");
  };
  std::unique_ptr<route::RoutingFunction> fn;
  std::unique_ptr<SourceRoutes> routes;
  std::string routing_name;
  if (o.baseline) {
    need_routing();
    fn = route::make_routing(*routing, n, f);
    routing_name = routing->algorithm;
  } else {
    if (!schedule)
      fail_input(o.source + ":/schedule", "missing schedule section (run coll-sched first)");
    if (schedule->stages) {
      // Between ranks: the routing carries every packet, as it does the baselines.
      need_routing();
      if (coll::uses_switch(*schedule))
        fail_infeasible(o.request, "the flit replay moves packets between chips; an in-network "
                                   "reduction adds and multicasts in the switch, which its "
                                   "routers do not model (use the analytic mode)");
      fn = route::make_routing(*routing, n, f);
      routing_name = routing->algorithm;
      if (!coll::sealed(*schedule))
        coll::verify_ranks(*schedule, n, f, *fn, ErrorKind::Input, o.source + ":/schedule");
    } else {
      if (!coll::sealed(*schedule)) // else coll-sched verified this very content
        coll::verify(*schedule, n, f, ErrorKind::Input, o.source + ":/schedule");
      routes = std::make_unique<SourceRoutes>(n, 1 + coll::max_turns(*schedule));
      routing_name = "schedule";
    }
  }
  const route::RoutingFunction& rfn = routes ? *routes : *fn;
  RouterParams rp = o.router;
  if (o.default_vcs) rp.vcs = std::max(2, rfn.vc_count());
  std::string latency_desc;
  const std::int64_t flit_bytes = o.params.flit_bytes;
  const std::vector<int> lat = link_latencies(n, o.link_latency, flit_bytes, &latency_desc);
  const int max_lat = lat.empty() ? 1 : *std::max_element(lat.begin(), lat.end());
  if (o.default_buffers) rp.buffer_flits = std::clamp(2 * max_lat + 8, 8, 4096);
  validate(rp);
  const double bw = fastest_link_bandwidth(n);
  if (!(bw > 0)) fail_infeasible(o.request, "the network has no link bandwidth to set the clock");
  Fabric fab(n, f, rfn, rp, lat);
  const int threads = resolve_threads(o.threads);
  const std::vector<char> down = f.down_links(n);
  std::vector<Report> reps;
  for (std::uint64_t size : o.sizes) {
    const SizedProgram sp = sized_program(
        size, o.baseline, n, f, fn.get(), routing_name, schedule, coll::StepLatency::PerHop,
        AllToAllOptions{AllToAllPattern::Simultaneous, o.params.max_bytes, false});
    Progress progress(o.progress_label, sp.program->steps().size());
    const ReplayResult r =
        replay(fab, *sp.program, routes.get(), o.params, engine_parts(fab, threads), &progress);
    progress.finish();
    ReplayInfo info;
    info.routing = routing_name;
    info.router_preset = o.preset;
    info.router = rp;
    info.link_latency = latency_desc;
    info.link_latency_max_cycles = max_lat;
    info.packet_bytes = o.params.packet_bytes;
    info.flit_bytes = flit_bytes;
    info.cycle_s = static_cast<double>(flit_bytes) / bw;
    Report rep =
        make_replay_report(r, *sp.program, std::move(info), sp.source, sp.collective, sp.algorithm,
                           sp.n_nodes, sp.bytes_per_node, n, down, o.step_times);
    if (o.link_stats) add_link_stats(rep, r, n, down);
    if (sp.sized) rep.dim_scheduling = sp.sized->dim_scheduling;
    rep.traffic = o.traffic;
    if (each) each(rep);
    reps.push_back(std::move(rep));
  }
  return reps;
}

} // namespace icnkit::sim::flit
