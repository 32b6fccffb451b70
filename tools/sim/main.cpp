// net-sim: simulate the document's schedule (or a synthetic traffic pattern over the routing) on
// its network and record the figures as the `report` section, or print them as one CSV row.
#include "coll/closed_form.hpp"
#include "coll/expand.hpp"
#include "coll/verify.hpp"
#include "common/tool.hpp"
#include "core/units.hpp"
#include "route/routing.hpp"
#include "sim/analytic.hpp"
#include "sim/registry.hpp"
#include "sim/report.hpp"
#include "sim/traffic.hpp"

#include <memory>

using namespace icnkit;

namespace {

std::int64_t live_chips(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down = f.down_chips(n);
  std::int64_t k = 0;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!(static_cast<std::size_t>(c) < down.size() && down[static_cast<std::size_t>(c)])) ++k;
  return k;
}

} // namespace

int main(int argc, char** argv) {
  std::string mode = "analytic", traffic, bytes_text, format = "json";
  bool step_times = false;
  return tool::run(
      "net-sim",
      "net-sim: simulate a collective schedule (from coll-sched) on its network and report\n"
      "completion time, algorithm and bus bandwidth (nccl-tests conventions), per-phase times\n"
      "and link utilisation. --traffic instead sends a synthetic pattern over the routing\n"
      "(from topo-route): the hardware-routing baseline.\n\n"
      "Analytic model: a flow takes the sum of its links' latencies (once per flow, pipelined\n"
      "over its hops) plus bytes at its max-min fair share of every link it crosses; a step\n"
      "starts when the steps it depends on have finished (so each store-and-forward step of a\n"
      "schedule pays the per-hop latency again).\n\n"
      "Examples:\n"
      "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route \\\n"
      "    | coll-sched --collective all-to-all --algorithm ring --bytes 64MiB \\\n"
      "    | net-sim --mode analytic\n"
      "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route \\\n"
      "    | net-sim --traffic all-to-all --bytes 64MiB --format csv\n",
      argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        app.add_option("--mode", mode, "Simulation mode: analytic (flit: not implemented yet)")
            ->check(CLI::IsMember({"analytic", "flit"}))
            ->default_str("analytic");
        app.add_option("--traffic", traffic,
                       "Simulate a traffic pattern over the routing instead of the schedule: "
                       "all-to-all (every pair's bytes/n as one flow, all at once) or "
                       "all-to-all-pairwise (MPICH's pairwise exchange: n-1 rounds, rank i to "
                       "i XOR k, or i+k mod n when n is not a power of two) or "
                       "all-to-all-mpich (MPICH's default choice: all at once up to 32 KiB per "
                       "pair, pairwise above)")
            ->check(CLI::IsMember({"all-to-all", "all-to-all-pairwise", "all-to-all-mpich"}));
        app.add_option("--bytes", bytes_text, "Bytes per node of --traffic (e.g. 64MiB)");
        app.add_option("--format", format, "Output: json (the document with its report) or csv")
            ->check(CLI::IsMember({"json", "csv"}))
            ->default_str("json");
        app.add_flag("--step-times", step_times, "Record every step's start and end in the report");
        tool::add_strict(app, c);
        tool::add_describe(app, c,
                           "the simulation modes, their latency models and the traffic patterns",
                           sim::describe);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        if (mode == "flit") fail_infeasible("--mode", "flit mode is not implemented yet");
        std::uint64_t bytes = 0;
        if (traffic.empty()) {
          if (!bytes_text.empty())
            fail_usage("--bytes",
                       "only applies to --traffic; a schedule's bytes come from coll-sched");
        } else {
          if (bytes_text.empty())
            fail_usage("--traffic", "needs --bytes (bytes per node, e.g. 64MiB)");
          bytes = parse_bytes(bytes_text, "--bytes");
          if (bytes > (std::uint64_t{1} << 53))
            fail_usage("--bytes", "at most 2^53 bytes (exact in a double)");
        }

        Document d = tool::load(c);
        const std::string src = source_name(c.input);
        const topo::Network& net = d.require_network("net-sim");
        const topo::Faults& faults = d.faults_or_none();
        sim::AnalyticOptions opt;
        std::vector<char> down = faults.down_links(net);
        opt.down_links = &down;

        std::unique_ptr<route::RoutingFunction> fn;
        std::unique_ptr<sim::Program> prog;
        std::string source, collective, algorithm;
        std::int64_t n_nodes = live_chips(net, faults), bytes_per_node = 0;
        if (!traffic.empty()) {
          if (!d.routing)
            fail_input(src + ":/routing", "missing routing section (run topo-route first)");
          fn = route::make_routing(*d.routing, net, faults);
          const sim::AllToAllPattern pattern =
              traffic == "all-to-all-pairwise" ? sim::AllToAllPattern::Pairwise
              : traffic == "all-to-all-mpich"  ? sim::AllToAllPattern::Mpich
                                               : sim::AllToAllPattern::Simultaneous;
          auto t = std::make_unique<sim::AllToAllTraffic>(
              net, faults, *fn, static_cast<double>(bytes), sim::kMaxTrafficFlows, pattern);
          const bool pairwise = t->pattern() == sim::AllToAllPattern::Pairwise;
          n_nodes = t->n_nodes();
          prog = std::move(t);
          source = "traffic";
          collective = "all-to-all";
          algorithm = "hardware-routing:" + d.routing->algorithm + (pairwise ? "/pairwise" : "");
          bytes_per_node = static_cast<std::int64_t>(bytes);
        } else {
          if (!d.schedule)
            fail_input(src + ":/schedule", "missing schedule section (run coll-sched first)");
          // The section was parsed structurally; its delivery and fault checks are verify()'s,
          // and the program relies on them.
          coll::verify(*d.schedule, net, faults, ErrorKind::Input, src + ":/schedule");
          prog = std::make_unique<coll::ScheduleProgram>(*d.schedule, net);
          source = "schedule";
          collective = d.schedule->collective;
          algorithm = d.schedule->algorithm;
          bytes_per_node = d.schedule->bytes_per_node;
        }

        Progress progress("net-sim", prog->steps().size());
        opt.progress = &progress;
        sim::AnalyticResult res = sim::simulate_analytic(*prog, net, opt);
        progress.finish();
        sim::Report rep = sim::make_analytic_report(res, source, collective, algorithm, n_nodes,
                                                    bytes_per_node, net.fingerprint, step_times);
        if (d.schedule && traffic.empty()) {
          rep.dim_scheduling = d.schedule->dim_scheduling;
          if (auto cf = coll::closed_form(*d.schedule, net, faults)) {
            rep.closed_form_s = cf->time_s;
            rep.closed_form_formula = cf->formula;
          }
        }
        if (format == "csv") {
          write_output(c.output, sim::csv_header() + sim::csv_row(rep));
          return;
        }
        d.report = std::move(rep);
        tool::store(c, d);
      });
}
