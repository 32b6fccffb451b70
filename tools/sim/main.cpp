// net-sim: simulate the document's schedule (or a synthetic traffic pattern over the routing) on
// its network and record the figures as the `report` section, or print them as one CSV row. The
// simulations are the library's (sim/run_analytic.hpp, sim/flit/replay_run.hpp,
// sim/flit/study.hpp); options.hpp turns the command line into their option structs.
#include "doc/report_rows.hpp"
#include "options.hpp"

#include <sys/stat.h>
#include <unistd.h>

using namespace icnkit;
using namespace icnkit::net_sim;

namespace {

// Whether a CSV starts with its header: --csv-header always, never, or auto = unless the rows
// are appended to a file that already has some (stdout redirected with >> to a non-empty file).
bool csv_header_wanted(const std::string& mode, const std::string& output) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  struct stat st {};
  if (output != "-" || fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) return true;
  return st.st_size == 0; // `>` truncated it (or it is new); `>>` onto rows: no second header
}

// --merge: the reports of many documents as one CSV (no simulation).
void merge_reports(tool::Common& c, const std::vector<std::string>& files, bool header) {
  std::string out = header ? sim::csv_header() : "";
  for (const std::string& f : files) {
    Document d = parse_document(read_input(f), source_name(f));
    if (!d.report)
      fail_input(source_name(f) + ":/report", "missing report section (run net-sim first)");
    if (d.report->flit)
      fail_input(source_name(f) + ":/report",
                 "a flit study of synthetic traffic has its own CSV (net-sim --mode flit "
                 "--format csv); --merge takes collective reports");
    d.require_network("net-sim");
    out += sim::csv_row(*d.report, report_config(d, *d.report));
  }
  write_output(c.output, out);
}

// The reports as rows (csv, nccl) or, for json, the one report in the document.
void write_reports(const tool::Common& c, Document& d, std::vector<sim::Report> reps,
                   const std::string& format, bool header) {
  if (format == "csv") return write_output(c.output, report_csv(reps, d, header));
  if (format == "nccl") return write_output(c.output, report_nccl(reps, *d.network));
  d.report = std::move(reps.front());
  tool::store(c, d);
}

// --mode flit --traffic PATTERN: the flit study, its verdicts and warnings.
void study_mode(tool::Common& c, const Cli& cli) {
  if (cli.format == "nccl")
    fail_usage("--format", "nccl's table is for collectives (a schedule or --traffic "
                           "all-to-all*); synthetic traffic writes json or csv");
  const sim::flit::StudyOptions o = study_options(cli);
  Document d = tool::load(c);
  const topo::Network& net = d.require_network("net-sim");
  if (!d.routing)
    fail_input(source_name(c.input) + ":/routing",
               "missing routing section (run topo-route first)");
  Progress progress("net-sim flit", o.find_saturation ? 10
                                    : o.sweep.empty() ? static_cast<std::uint64_t>(
                                                            o.measure.warmup + o.measure.measure)
                                                      : o.sweep.size());
  sim::flit::FlitReport r = sim::flit::run_study(net, d.faults_or_none(), *d.routing, o, &progress);
  progress.finish();
  std::int64_t not_generated = 0, to_failed = 0;
  for (const sim::flit::FlitPoint& p : r.points) {
    not_generated += p.packets_not_generated;
    to_failed += p.packets_to_failed;
    std::string what = "at " + std::to_string(p.rate) + " flits/node/cycle: " + p.status;
    if (!p.status_detail.empty()) what += " (" + p.status_detail + ")";
    // Saturation is what a sweep looks for; a deadlock is a verdict on the routing.
    tool::verdict(c, p.status != "deadlock", what);
  }
  if (to_failed > 0)
    tool::warn(c, std::to_string(to_failed) +
                      " packets were not generated: the traffic addressed them to failed chips");
  if (not_generated > to_failed)
    tool::warn(c, std::to_string(not_generated - to_failed) +
                      " packets were not generated: the routing does not connect their (live) "
                      "chips");
  if (cli.format == "csv")
    return write_output(c.output, sim::flit::flit_csv_header(r) + sim::flit::flit_csv_rows(r));
  sim::Report rep;
  rep.mode = "flit";
  rep.source = "traffic";
  rep.network_fingerprint = net.fingerprint;
  rep.flit = std::move(r);
  d.report = std::move(rep);
  tool::store(c, d, o.measure.seed);
}

// --mode flit on a schedule (its steps replayed packet by packet over the schedule's own hops)
// or with --traffic all-to-all* (every pair's bytes over the routing section, DOR, WFR, ...).
void replay_mode(tool::Common& c, const Cli& cli, bool header) {
  sim::flit::ReplayRunOptions o = replay_options(cli);
  Document d = tool::load(c);
  o.source = source_name(c.input);
  const topo::Network& net = d.require_network("net-sim");
  if (!o.baseline && !d.schedule)
    fail_input(o.source + ":/schedule", "missing schedule section (run coll-sched first), or "
                                        "--traffic for synthetic traffic");
  std::vector<sim::Report> reps = sim::flit::run_replay(
      net, d.faults_or_none(), d.routing ? &*d.routing : nullptr,
      d.schedule ? &*d.schedule : nullptr, o, [&](const sim::Report& r) {
        tool::verdict(c, r.replay->status == "ok",
                      "the replay " + r.replay->status + " (" + r.replay->status_detail + ")");
      });
  write_reports(c, d, std::move(reps), cli.format, header);
}

// The analytic simulation of the schedule or an all-to-all baseline.
void analytic_mode(tool::Common& c, const Cli& cli, bool header) {
  if (!cli.traffic.empty() && !sim::baseline_by_name(cli.traffic))
    fail_usage("--traffic", "analytic mode takes all-to-all, all-to-all-pairwise or "
                            "all-to-all-mpich, not '" +
                                cli.traffic + "' (flit mode: " + sim::pattern_names() + ")");
  if (cli.latency_model != "per-step" && !cli.traffic.empty())
    fail_usage("--latency-model", "astra accounts a schedule's phases; --traffic flows pay "
                                  "their path latency");
  refuse_foreign(cli.ecmp == "hash" ? Analytic | AnalyticHash : Analytic, cli);
  sim::AnalyticRunOptions o = analytic_options(cli);
  Document d = tool::load(c);
  o.source = source_name(c.input);
  const topo::Network& net = d.require_network("net-sim");
  o.max_bytes = max_memory_bytes(cli.flit);
  std::vector<sim::Report> reps =
      sim::run_analytic(net, d.faults_or_none(), d.routing ? &*d.routing : nullptr,
                        d.schedule ? &*d.schedule : nullptr, o);
  write_reports(c, d, std::move(reps), cli.format, header);
}

} // namespace

int main(int argc, char** argv) {
  Cli cli;
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
      "Flit mode: cycle-level input-queued routers with virtual channels, credits and\n"
      "wormhole switching (every family; switches are routers, chips attach as BookSim's\n"
      "nodes), driven by synthetic traffic over the document's routing: latency, throughput,\n"
      "saturation and deadlock, one JSON report or one CSV row per rate. On a schedule (or\n"
      "with --traffic all-to-all*) flit mode replays it packet by packet: each step's\n"
      "transfers become 512-byte packets of 32-byte flits over the schedule's own hops (the\n"
      "baselines over the routing), a step starts when the steps it depends on have\n"
      "delivered everything, and the report has the analytic mode's fields, in seconds at one\n"
      "flit per cycle per link.\n\n"
      "Examples:\n"
      "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route \\\n"
      "    | coll-sched --collective all-to-all --algorithm ring --bytes 64MiB \\\n"
      "    | net-sim --mode analytic\n"
      "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route \\\n"
      "    | net-sim --traffic all-to-all --bytes 64MiB --format csv\n"
      "  topo-enum -n 64 --family mesh | topo-gen --pick 'mesh:8x8/b1x1' | topo-route \\\n"
      "    | net-sim --mode flit --router booksim --traffic uniform --sweep 0.05:0.35:0.05 \\\n"
      "      --packet-flits 4 --format csv\n"
      "  net-sim -i routed.json --mode flit --traffic transpose --find-saturation\n"
      "  topo-gen --torus 4x4x4 --link-bw 56GiB/s --link-latency 100ns | topo-route \\\n"
      "    | coll-sched --algorithm halfring --dims dimrotation --bytes 1MiB \\\n"
      "    | net-sim --mode flit --format csv\n",
      argc, argv, [&](CLI::App& app, tool::Common& c) { add_options(app, c, cli); },
      [&](tool::Common& c) {
        const bool header = csv_header_wanted(cli.csv_header, c.output);
        if (!cli.merge.empty()) {
          if (cli.given("--format") && cli.format != "csv")
            fail_usage("--format",
                       "--merge prints the reports as CSV (--format csv), not " + cli.format);
          if (!cli.traffic.empty() || !cli.sizes_text.empty() || c.input != "-")
            fail_usage("--merge", "prints the reports it is given as CSV; it takes no -i, "
                                  "--traffic or --sizes");
          for (const std::string& file : cli.merge)
            if (file.size() > 1 && file[0] == '-')
              fail_usage("--merge", "'" + file +
                                        "' is an option, not a document: give the "
                                        "options before --merge (or name the file ./" +
                                        file + ")");
          return merge_reports(c, cli.merge, header);
        }
        tool::table_format(c, cli.format, SummarySection::Report);
        if (cli.mode != "flit") return analytic_mode(c, cli, header);
        const bool replay = cli.traffic.empty() || sim::baseline_by_name(cli.traffic);
        // The study checks the flit group's rows once it has read the router (study_options).
        refuse_foreign(replay ? Replay : Study, cli, nullptr, replay ? nullptr : "--router");
        if (replay) return replay_mode(c, cli, header);
        study_mode(c, cli);
      });
}
