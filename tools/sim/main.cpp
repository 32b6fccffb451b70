// net-sim: simulate the document's schedule (or a synthetic traffic pattern over the routing) on
// its network and record the figures as the `report` section, or print them as one CSV row.
#include "coll/bound.hpp"
#include "coll/closed_form.hpp"
#include "coll/digest.hpp"
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/hops.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_program.hpp"
#include "coll/verify.hpp"
#include "common/tool.hpp"
#include "core/threads.hpp"
#include "core/units.hpp"
#include "route/routing.hpp"
#include "sim/analytic.hpp"
#include "sim/flit/replay.hpp"
#include "sim/flit/study.hpp"
#include "sim/registry.hpp"
#include "sim/report.hpp"
#include "sim/traffic.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace icnkit;

namespace {

std::int64_t live_chips(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down = f.down_chips(n);
  std::int64_t k = 0;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!(static_cast<std::size_t>(c) < down.size() && down[static_cast<std::size_t>(c)])) ++k;
  return k;
}

// The flit-level study under synthetic traffic (--mode flit --traffic PATTERN).
struct FlitCli {
  std::string router = "booksim", rate_text, sweep, hotspot, link_latency;
  std::string vc_release, endpoint_ports, packet_bytes, max_memory = "4GiB";
  int vcs = 0, buffer_flits = 0, routing_delay = 0, va_delay = 0, sa_delay = 0, st_delay = 0;
  int credit_delay = 0, alloc_iters = 0, packet_flits = 1, threads = 0;
  std::int64_t flit_bytes = 0, warmup = 3000, measure = 10000, watchdog = 0;
  double latency_threshold = 0;
  std::uint64_t seed = 0;
  bool find_saturation = false, link_stats = false;
  // Whether an option was given on the command line: a default is never mistaken for a value
  // (--vcs -1 is refused, not read as "not set").
  const CLI::App* app = nullptr;
  bool given(const char* option) const { return app->count(option) > 0; }
};

const char* const kFlitGroup = "Flit mode (--mode flit)";

void add_flit_options(CLI::App& app, FlitCli& f) {
  f.app = &app;
  const char* g = kFlitGroup;
  app.add_option("--router", f.router,
                 "Router model to start from: booksim (BookSim 2.0's input-queued router: 2 VCs "
                 "x 8 flits, lookahead routing, 1-cycle VA/SA/ST, credit delay 2, iSLIP x2, VCs "
                 "released on tail); the options below change single parameters")
      ->check(CLI::IsMember({"booksim"}))
      ->group(g);
  app.add_option("--rate", f.rate_text, "Offered load, flits per node per cycle (0..1)")->group(g);
  app.add_option("--sweep", f.sweep,
                 "Several rates, one run (and one CSV row) each: FROM:TO:STEP or R1,R2,...")
      ->group(g);
  app.add_flag("--find-saturation", f.find_saturation,
               "Search the saturation rate to 0.005: the first rate whose mean latency reaches 3x "
               "the zero-load latency, or whose run saturates (a source queue grows by more than "
               "64 flits over the window, accepted < 95% of offered, ...); reported as the middle "
               "of the final bracket")
      ->group(g);
  app.add_option("--packet-flits", f.packet_flits, "Packet size in flits (default 1)")->group(g);
  app.add_option("--flit-bytes", f.flit_bytes,
                 "Flit size in bytes: sets the clock (one flit per cycle on the fastest link) "
                 "for --link-latency-cycles document (default 16; 32, i.e. 256 bits, when "
                 "replaying a schedule or an all-to-all)")
      ->group(g);
  app.add_option("--packet-bytes", f.packet_bytes,
                 "Replay (a schedule or --traffic all-to-all*): packet size, a multiple of "
                 "--flit-bytes (default 512 B, the MICRO'25 TPU v4 setting)")
      ->group(g);
  app.add_option("--endpoint-ports", f.endpoint_ports,
                 "Injection and ejection ports of a chip that routes: per-link (one per link, "
                 "so a chip sends and receives on all its links at once; the default of a "
                 "replay) or N (default 1, as BookSim attaches a node)")
      ->group(g);
  app.add_option("--max-memory", f.max_memory,
                 "Refuse (exit 4) a replay or an all-to-all baseline whose state would pass "
                 "this (default 4GiB)")
      ->group(g);
  app.add_option("--hotspot", f.hotspot,
                 "Hot chips and their share of the packets for --traffic hotspot: NODES:FRACTION, "
                 "e.g. 0,63:0.2")
      ->group(g);
  app.add_option("--vcs", f.vcs, "VCs per port (default 2; at least the routing's VC classes)")
      ->group(g);
  app.add_option("--buffer-flits", f.buffer_flits,
                 "Input buffer depth per VC (default 8; a replay: enough for one VC to keep its "
                 "link busy, 2 x the link latency + 8)")
      ->group(g);
  app.add_option("--routing-delay", f.routing_delay, "Cycles (default 0: lookahead)")->group(g);
  app.add_option("--va-delay", f.va_delay, "VC allocation cycles (default 1)")->group(g);
  app.add_option("--sa-delay", f.sa_delay, "Switch allocation cycles (default 1)")->group(g);
  app.add_option("--st-delay", f.st_delay, "Switch traversal cycles (default 1)")->group(g);
  app.add_option("--credit-delay", f.credit_delay, "Credit processing cycles (default 2)")
      ->group(g);
  app.add_option("--alloc-iters", f.alloc_iters, "iSLIP iterations (default 2)")->group(g);
  app.add_option("--vc-release", f.vc_release,
                 "When an output VC takes the next packet: tail (its tail left; default) or "
                 "credit (the tail's credit came back)")
      ->check(CLI::IsMember({"tail", "credit"}))
      ->group(g);
  app.add_option("--link-latency-cycles", f.link_latency,
                 "Link latency: booksim (1 cycle; 2 on a torus or ring, as BookSim times them), "
                 "document (latency_s at the --flit-bytes clock) or CYCLES (default booksim; "
                 "document in a replay)")
      ->group(g);
  app.add_option("--warmup", f.warmup, "Warm-up cycles before the measurement (default 3000)")
      ->group(g);
  app.add_option("--measure", f.measure, "Measurement window in cycles (default 10000)")->group(g);
  app.add_option("--seed", f.seed, "Random seed of the traffic (default 0)")->group(g);
  app.add_option("--latency-threshold", f.latency_threshold,
                 "Mean latency (cycles) past which a run is saturated and stops (default: "
                 "max(500, 4x the longest path's zero-load latency))")
      ->group(g);
  app.add_option("--watchdog", f.watchdog,
                 "Cycles without any flit moving before a run stops as deadlocked (default "
                 "1000 + 4x the longest link latency)")
      ->group(g);
  // Not in the flit group: every mode lists the channels.
  app.add_flag("--link-stats", f.link_stats,
               "List every live channel's utilisation in the report (link, from, to; analytic: "
               "bytes / (bandwidth x time), flit: flits per cycle); scripts/plot heatmap draws it");
  app.add_option("--threads", f.threads,
                 "Workers: runs of a sweep or saturation search in parallel, the rest inside "
                 "each run (default: ICNKIT_THREADS, else the machine's cores); the output is "
                 "the same bytes whatever their number")
      ->check(CLI::Range(1, kMaxThreads))
      ->group(g);
}

double parse_rate(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(v >= 0) || !(v <= 1))
    fail_usage("--rate",
               "must be a number within [0, 1] flits per node per cycle, got '" + text + "'");
  return v;
}

// The router: the preset with the options given (the caller has its own defaults for --vcs
// and --buffer-flits where they were not given).
sim::flit::RouterParams router_params(const FlitCli& f, int default_endpoint_ports) {
  sim::flit::RouterParams p = sim::flit::booksim_preset();
  auto set = [&](const char* option, int v, int& field) {
    if (f.given(option)) field = v;
  };
  set("--vcs", f.vcs, p.vcs);
  set("--buffer-flits", f.buffer_flits, p.buffer_flits);
  set("--routing-delay", f.routing_delay, p.routing_delay);
  set("--va-delay", f.va_delay, p.va_delay);
  set("--sa-delay", f.sa_delay, p.sa_delay);
  set("--st-delay", f.st_delay, p.st_delay);
  set("--credit-delay", f.credit_delay, p.credit_delay);
  set("--alloc-iters", f.alloc_iters, p.alloc_iters);
  if (!f.vc_release.empty())
    p.vc_release =
        f.vc_release == "tail" ? sim::flit::VcRelease::Tail : sim::flit::VcRelease::Credit;
  p.endpoint_ports = default_endpoint_ports;
  if (f.endpoint_ports == "per-link") {
    p.endpoint_ports = 0;
  } else if (!f.endpoint_ports.empty()) {
    const std::string& t = f.endpoint_ports;
    if (t.size() > 2 ||
        !std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) ||
        std::stoi(t) < 1 || std::stoi(t) > 64)
      fail_usage("--endpoint-ports",
                 "expected per-link or a number of ports (1..64), got '" + t + "'");
    p.endpoint_ports = std::stoi(t);
  }
  sim::flit::validate(p);
  return p;
}

std::int64_t flit_bytes_or(const FlitCli& f, std::int64_t dflt) {
  if (!f.given("--flit-bytes")) return dflt;
  if (f.flit_bytes < 1 || f.flit_bytes > 65536)
    fail_usage("--flit-bytes", "must be between 1 and 65536");
  return f.flit_bytes;
}

sim::flit::StudyOptions study_options(const FlitCli& f, const std::string& traffic) {
  sim::flit::StudyOptions o;
  o.preset = f.router;
  o.router = router_params(f, 1);
  o.link_latency = sim::flit::parse_link_latency(
      f.link_latency.empty() ? "booksim" : f.link_latency, "--link-latency-cycles");
  if (f.given("--packet-bytes") || f.given("--max-memory"))
    fail_usage("--packet-bytes", "--packet-bytes and --max-memory belong to a replay (a schedule "
                                 "or --traffic all-to-all*); synthetic traffic takes "
                                 "--packet-flits");
  o.flit_bytes = flit_bytes_or(f, 16);
  o.pattern.kind = sim::pattern_by_name(traffic, "--traffic");
  o.pattern.seed = f.seed;
  if (o.pattern.kind == sim::PatternKind::Hotspot) {
    if (f.hotspot.empty())
      fail_usage("--hotspot", "--traffic hotspot needs --hotspot NODES:FRACTION");
    sim::parse_hotspot(f.hotspot, o.pattern, "--hotspot");
  } else if (!f.hotspot.empty()) {
    fail_usage("--hotspot", "only applies to --traffic hotspot");
  }
  if (f.packet_flits < 1 || f.packet_flits > 65535)
    fail_usage("--packet-flits", "must be between 1 and 65535");
  o.traffic.packet_flits = f.packet_flits;
  const int given =
      (f.rate_text.empty() ? 0 : 1) + (f.sweep.empty() ? 0 : 1) + (f.find_saturation ? 1 : 0);
  if (given != 1)
    fail_usage("--rate", "flit mode needs exactly one of --rate R, --sweep RATES and "
                         "--find-saturation");
  if (!f.rate_text.empty()) o.traffic.rate = parse_rate(f.rate_text);
  if (!f.sweep.empty()) o.sweep = sim::flit::parse_rates(f.sweep, "--sweep");
  o.find_saturation = f.find_saturation;
  if (f.warmup < 0 || f.warmup > 1000000000) fail_usage("--warmup", "must be 0..10^9 cycles");
  if (f.measure < 1 || f.measure > 1000000000) fail_usage("--measure", "must be 1..10^9 cycles");
  if (f.given("--watchdog") && f.watchdog < 1) fail_usage("--watchdog", "must be >= 1 cycle");
  if (f.given("--latency-threshold") && !(f.latency_threshold > 0 && f.latency_threshold <= 1e12))
    fail_usage("--latency-threshold", "must be a number of cycles > 0");
  o.measure.warmup = f.warmup;
  o.measure.measure = f.measure;
  o.measure.watchdog = f.watchdog;
  o.measure.latency_limit = f.latency_threshold;
  o.measure.seed = f.seed;
  o.measure.link_stats = f.link_stats;
  o.threads = resolve_threads(f.threads);
  return o;
}

// Bytes per node of an all-to-all baseline (--traffic with --bytes); 0 for a schedule, whose
// bytes come from coll-sched.
std::uint64_t traffic_bytes(const std::string& traffic, const std::string& bytes_text) {
  if (traffic.empty()) {
    if (!bytes_text.empty())
      fail_usage("--bytes", "only applies to --traffic; a schedule's bytes come from coll-sched");
    return 0;
  }
  if (bytes_text.empty()) fail_usage("--traffic", "needs --bytes (bytes per node, e.g. 64MiB)");
  const std::uint64_t bytes = parse_bytes(bytes_text, "--bytes");
  if (bytes > (std::uint64_t{1} << 53))
    fail_usage("--bytes", "at most 2^53 bytes (exact in a double)");
  return bytes;
}

// The sizes to simulate: --sizes (CSV or nccl rows only), else the document's own (0) or
// --bytes for a baseline.
std::vector<std::uint64_t> run_sizes(const std::string& sizes_text, const std::string& traffic,
                                     const std::string& bytes_text, const std::string& format) {
  if (sizes_text.empty()) return {traffic_bytes(traffic, bytes_text)}; // 0: the schedule's
  if (!bytes_text.empty()) fail_usage("--sizes", "give --sizes or --bytes, not both");
  if (format == "json")
    fail_usage("--sizes", "writes one row per size: use --format csv or --format nccl");
  std::vector<std::uint64_t> v = parse_sizes(sizes_text, "--sizes");
  for (std::uint64_t z : v)
    if (z > (std::uint64_t{1} << 53))
      fail_usage("--sizes", "at most 2^53 bytes (exact in a double)");
  return v;
}

// Whether a CSV starts with its header: --csv-header always, never, or auto = unless the rows
// are appended to a file that already has some (stdout redirected with >> to a non-empty file).
bool csv_header_wanted(const std::string& mode, const std::string& output) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  struct stat st {};
  if (output != "-" || fstat(STDOUT_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) return true;
  return st.st_size == 0; // `>` truncated it (or it is new); `>>` onto rows: no second header
}

// The configuration of a run on document d, for its CSV row.
sim::RunConfig config_of(const Document& d, const sim::Report& r) {
  return sim::run_config(r, *d.network, d.faults_or_none(), d.candidate ? d.candidate->id : "",
                         d.routing ? d.routing->algorithm : "",
                         r.source == "schedule" && d.schedule ? d.schedule->chunks : 0);
}

// CSV (a row per report, the header as asked) or nccl-tests' table.
std::string report_rows(const std::vector<sim::Report>& reps, const std::string& format,
                        const Document& d, bool header) {
  std::string out;
  if (format == "csv") {
    if (header) out = sim::csv_header();
    for (const sim::Report& r : reps) out += sim::csv_row(r, config_of(d, r));
    return out;
  }
  out = sim::nccl_header(reps.front(), *d.network);
  double busbw = 0;
  for (const sim::Report& r : reps) {
    out += sim::nccl_row(r);
    busbw += r.busbw_bytes_per_s;
  }
  return out + sim::nccl_footer(busbw / static_cast<double>(reps.size()));
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
    out += sim::csv_row(*d.report, config_of(d, *d.report));
  }
  write_output(c.output, out);
}

sim::AllToAllPattern all_to_all_pattern(const std::string& traffic) {
  return traffic == "all-to-all-pairwise" ? sim::AllToAllPattern::Pairwise
         : traffic == "all-to-all-mpich"  ? sim::AllToAllPattern::Mpich
                                          : sim::AllToAllPattern::Simultaneous;
}

// What one size of a run simulates: the --traffic baseline at `size` bytes per node, or the
// document's schedule (at `size`, or its own size when 0), and how the report names it.
struct SizedRun {
  std::unique_ptr<sim::Program> prog;
  std::string source, collective, algorithm;
  std::int64_t n_nodes = 0, bytes_per_node = 0;
  std::optional<coll::Schedule> sized; // the schedule at this size
};
// `all`: the all-to-all baselines' memory bound (the pattern comes from traffic) and whether
// the program may simulate one flow per orbit (the analytic engine; sim/symmetry.hpp).
SizedRun program_at(std::uint64_t size, const std::string& traffic, const Document& d,
                    const route::RoutingFunction* fn, coll::StepLatency latency,
                    sim::AllToAllOptions all) {
  SizedRun r;
  const topo::Network& net = *d.network;
  const topo::Faults& faults = d.faults_or_none();
  r.n_nodes = live_chips(net, faults);
  if (!traffic.empty()) {
    all.pattern = all_to_all_pattern(traffic);
    auto t =
        std::make_unique<sim::AllToAllTraffic>(net, faults, *fn, static_cast<double>(size), all);
    const bool pairwise = t->pattern() == sim::AllToAllPattern::Pairwise;
    r.n_nodes = t->n_nodes();
    r.prog = std::move(t);
    r.source = "traffic";
    r.collective = "all-to-all";
    r.algorithm = "hardware-routing:" + d.routing->algorithm + (pairwise ? "/pairwise" : "");
    r.bytes_per_node = static_cast<std::int64_t>(size);
    return r;
  }
  r.sized =
      size == 0 ? *d.schedule : coll::with_bytes(*d.schedule, static_cast<std::int64_t>(size));
  if (r.sized->stages) {
    if (!fn) fail_runtime("net-sim", "a schedule between ranks needs the routing");
    r.n_nodes = coll::group_size(*r.sized);
    r.prog = std::make_unique<coll::RankProgram>(*r.sized, net, faults, *fn, all.ecmp, all.seed,
                                                 all.symmetry);
  } else {
    r.prog = std::make_unique<coll::ScheduleProgram>(*r.sized, net, latency,
                                                     all.symmetry ? &faults : nullptr);
  }
  r.source = "schedule";
  r.collective = r.sized->collective;
  r.algorithm = r.sized->algorithm;
  r.bytes_per_node = r.sized->bytes_per_node;
  return r;
}

// The reports as rows (csv, nccl) or, for json, the one report in the document.
void write_reports(const tool::Common& c, Document& d, std::vector<sim::Report> reps,
                   const std::string& format, bool header) {
  if (format != "json") {
    write_output(c.output, report_rows(reps, format, d, header));
    return;
  }
  d.report = std::move(reps.front());
  tool::store(c, d);
}

// --mode flit on a schedule (its steps replayed packet by packet over the schedule's own hops)
// or with --traffic all-to-all* (every pair's bytes over the routing section, DOR, WFR, ...).
void run_replay(tool::Common& c, const FlitCli& f, const std::string& traffic,
                const std::string& bytes_text, const std::string& sizes_text,
                const std::string& format, bool step_times, bool header) {
  for (const char* o : {"--rate", "--sweep", "--find-saturation", "--hotspot", "--packet-flits",
                        "--latency-threshold", "--warmup", "--measure"})
    if (f.given(o))
      fail_usage(o, "--rate, --sweep, --find-saturation, --hotspot, --packet-flits, "
                    "--latency-threshold, --warmup and --measure belong to synthetic traffic; a "
                    "replay runs until every packet is delivered and takes --packet-bytes and "
                    "--flit-bytes");
  const std::int64_t flit_bytes = flit_bytes_or(f, 32);
  sim::flit::ReplayParams P;
  P.flit_bytes = flit_bytes;
  P.packet_bytes =
      f.packet_bytes.empty()
          ? 512
          : static_cast<std::int64_t>(std::min<std::uint64_t>(
                parse_bytes(f.packet_bytes, "--packet-bytes"), std::uint64_t{1} << 40));
  if (P.packet_bytes < flit_bytes || P.packet_bytes % flit_bytes != 0)
    fail_usage("--packet-bytes", "must be a multiple of --flit-bytes (" +
                                     std::to_string(flit_bytes) + " B), got " +
                                     std::to_string(P.packet_bytes) + " B");
  if (P.packet_bytes / flit_bytes > 65535)
    fail_usage("--packet-bytes", "a packet has at most 65535 flits");
  const std::uint64_t max_mem = parse_bytes(f.max_memory, "--max-memory");
  P.max_bytes = static_cast<std::int64_t>(std::min<std::uint64_t>(max_mem, std::uint64_t{1} << 62));
  P.watchdog = f.watchdog;
  if (f.given("--watchdog") && f.watchdog < 1) fail_usage("--watchdog", "must be >= 1 cycle");
  const std::vector<std::uint64_t> sizes = run_sizes(sizes_text, traffic, bytes_text, format);
  sim::flit::RouterParams rp = router_params(f, 0);
  const sim::flit::LinkLatencySpec spec = sim::flit::parse_link_latency(
      f.link_latency.empty() ? "document" : f.link_latency, "--link-latency-cycles");

  Document d = tool::load(c);
  const std::string src = source_name(c.input);
  const topo::Network& net = d.require_network("net-sim");
  const topo::Faults& faults = d.faults_or_none();
  std::unique_ptr<route::RoutingFunction> fn;
  std::unique_ptr<sim::flit::SourceRoutes> routes;
  std::string routing;
  if (!traffic.empty()) {
    if (!d.routing) fail_input(src + ":/routing", "missing routing section (run topo-route first)");
    fn = route::make_routing(*d.routing, net, faults);
    routing = d.routing->algorithm;
  } else {
    if (!d.schedule)
      fail_input(src + ":/schedule", "missing schedule section (run coll-sched first), or "
                                     "--traffic for synthetic traffic");
    if (d.schedule->stages) {
      // Between ranks: the routing carries every packet, as it does the baselines.
      if (!d.routing)
        fail_input(src + ":/routing", "missing routing section (run topo-route first)");
      if (coll::uses_switch(*d.schedule))
        fail_infeasible("--mode", "the flit replay moves packets between chips; an in-network "
                                  "reduction adds and multicasts in the switch, which its "
                                  "routers do not model (use the analytic mode)");
      fn = route::make_routing(*d.routing, net, faults);
      routing = d.routing->algorithm;
      if (!coll::sealed(*d.schedule))
        coll::verify_ranks(*d.schedule, net, faults, *fn, ErrorKind::Input, src + ":/schedule");
    } else {
      if (!coll::sealed(*d.schedule)) // else coll-sched verified this very content
        coll::verify(*d.schedule, net, faults, ErrorKind::Input, src + ":/schedule");
      routes = std::make_unique<sim::flit::SourceRoutes>(net, 1 + coll::max_turns(*d.schedule));
      routing = "schedule";
    }
  }
  const route::RoutingFunction& rfn = routes ? *routes : *fn;
  if (!f.given("--vcs")) rp.vcs = std::max(2, rfn.vc_count());
  std::string latency_desc;
  const std::vector<int> lat = sim::flit::link_latencies(net, spec, flit_bytes, &latency_desc);
  const int max_lat = lat.empty() ? 1 : *std::max_element(lat.begin(), lat.end());
  if (!f.given("--buffer-flits")) rp.buffer_flits = std::clamp(2 * max_lat + 8, 8, 4096);
  sim::flit::validate(rp);
  double bw = 0;
  for (const topo::Link& l : net.links) bw = std::max(bw, l.bandwidth_bytes_per_s);
  if (!(bw > 0)) fail_infeasible("--mode", "the network has no link bandwidth to set the clock");
  sim::flit::Fabric fab(net, faults, rfn, rp, lat);
  const int threads = resolve_threads(f.threads);
  // One replay per size (the document's own when there is no --sizes).
  auto replay_one = [&](std::uint64_t size) {
    auto [prog, source, collective, algorithm, n_nodes, bytes_per_node, sized] =
        program_at(size, traffic, d, fn.get(), coll::StepLatency::PerHop,
                   sim::AllToAllOptions{sim::AllToAllPattern::Simultaneous, P.max_bytes, false});
    Progress progress("net-sim flit replay", prog->steps().size());
    const sim::flit::ReplayResult r = sim::flit::replay(
        fab, *prog, routes.get(), P, sim::flit::engine_parts(fab, threads), &progress);
    progress.finish();
    tool::verdict(c, r.status == "ok", "the replay " + r.status + " (" + r.status_detail + ")");
    sim::flit::ReplayInfo info;
    info.routing = routing;
    info.router_preset = f.router;
    info.router = rp;
    info.link_latency = latency_desc;
    info.link_latency_max_cycles = max_lat;
    info.packet_bytes = P.packet_bytes;
    info.flit_bytes = flit_bytes;
    info.cycle_s = static_cast<double>(flit_bytes) / bw;
    const std::vector<char> down = faults.down_links(net);
    sim::Report rep =
        sim::make_replay_report(r, *prog, std::move(info), source, collective, algorithm, n_nodes,
                                bytes_per_node, net, down, step_times);
    if (f.link_stats) sim::add_link_stats(rep, r, net, down);
    if (sized) rep.dim_scheduling = sized->dim_scheduling;
    rep.traffic = traffic;
    return rep;
  };
  std::vector<sim::Report> reps;
  for (std::uint64_t z : sizes) reps.push_back(replay_one(z));
  write_reports(c, d, std::move(reps), format, header);
}

} // namespace

int main(int argc, char** argv) {
  std::string mode = "analytic", traffic, bytes_text, format = "json", latency_model = "per-step";
  std::string ecmp; // "" = not given: split
  std::string sizes_text, csv_header = "always";
  std::vector<std::string> merge;
  bool step_times = false;
  FlitCli flit;
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
      argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        app.add_option("--mode", mode,
                       "Simulation mode: analytic (flows sharing links max-min fairly) or flit "
                       "(cycle-level routers with VCs and credits: synthetic traffic, or the "
                       "schedule / an all-to-all replayed packet by packet)")
            ->check(CLI::IsMember({"analytic", "flit"}))
            ->default_str("analytic");
        app.add_option("--traffic", traffic,
                       "Simulate a traffic pattern over the routing instead of the schedule: "
                       "all-to-all (every pair's bytes/n as one flow, all at once) or "
                       "all-to-all-pairwise (MPICH's pairwise exchange: n-1 rounds, rank i to "
                       "i XOR k, or i+k mod n when n is not a power of two) or "
                       "all-to-all-mpich (MPICH's default choice: all at once up to 32 KiB per "
                       "pair, pairwise above). In flit mode: " +
                           sim::pattern_names());
        app.add_option("--bytes", bytes_text,
                       "Bytes per node of --traffic (e.g. 64MiB; KB/MB/GB are powers of 1000, "
                       "KiB/MiB/GiB and nccl-tests' K/M/G of 1024)");
        app.add_option("--format", format,
                       "Output: json (the document with its report), csv (one header, a row per "
                       "size) or nccl (nccl-tests' table: size, count, type, redop, root, time, "
                       "algbw, busbw) or table (a summary for people; the default when stdout is "
                       "a terminal)")
            ->check(CLI::IsMember({"json", "csv", "nccl", "table"}))
            ->default_str("json");
        app.add_option("--csv-header", csv_header,
                       "With --format csv: always write the header (default), never, or auto "
                       "(not when stdout is appended to a file that has rows already, >>)")
            ->check(CLI::IsMember({"always", "never", "auto"}));
        app.add_option("--merge", merge,
                       "Print the reports of these documents as one CSV (no simulation): "
                       "net-sim --merge runs/*.json > all.csv");
        app.add_option(
            "--sizes", sizes_text,
            "Simulate the schedule (or --traffic) at many sizes per node without "
            "re-scheduling, one row each: FROM:TO:xFACTOR (nccl-tests' -b -e -f, e.g. "
            "8K:1G:x2, K/M/G binary as there), FROM:TO:+STEP or a list; with --format csv "
            "or nccl");
        app.add_flag("--step-times", step_times, "Record every step's start and end in the report");
        app.add_option("--latency-model", latency_model,
                       "Latency of a schedule's steps (analytic): per-step (every "
                       "store-and-forward step pays its path's link latencies; default) or astra "
                       "(the MICRO'25 artifact's ASTRA-sim accounting: alpha once per Ring or "
                       "HalfRing phase, (N-1) alpha per folded ring, 3 alpha per acceleration "
                       "phase)")
            ->check(CLI::IsMember({"per-step", "astra"}))
            ->default_str("per-step");
        app.add_option("--ecmp", ecmp,
                       "Analytic: how a flow uses the routing's equal-cost choices: split (evenly "
                       "at every hop, as a fluid: the load topo-route --load reports; default) or "
                       "hash (one path per flow, each hop's choice hashed from --seed, source, "
                       "destination and chip, as a switch pins a flow). Flit mode routes every "
                       "packet as the routing says (adaptive, or a random choice per packet)")
            ->check(CLI::IsMember({"split", "hash"}))
            ->default_str("split");
        add_flit_options(app, flit);
        tool::add_strict(app, c);
        tool::add_describe(app, c,
                           "the simulation modes, their latency models and the traffic patterns",
                           sim::describe);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        const bool header = csv_header_wanted(csv_header, c.output);
        if (!merge.empty()) {
          if (flit.given("--format") && format != "csv")
            fail_usage("--format",
                       "--merge prints the reports as CSV (--format csv), not " + format);
          if (!traffic.empty() || !sizes_text.empty() || c.input != "-")
            fail_usage("--merge", "prints the reports it is given as CSV; it takes no -i, "
                                  "--traffic or --sizes");
          for (const std::string& file : merge)
            if (file.size() > 1 && file[0] == '-')
              fail_usage("--merge", "'" + file +
                                        "' is an option, not a document: give the "
                                        "options before --merge (or name the file ./" +
                                        file + ")");
          merge_reports(c, merge, header);
          return;
        }
        tool::table_format(c, format, SummarySection::Report);
        if (mode == "flit") {
          if (latency_model != "per-step")
            fail_usage("--latency-model", "belongs to the analytic simulation of a schedule");
          if (!ecmp.empty())
            fail_usage("--ecmp", "belongs to the analytic simulation: flit mode routes every "
                                 "packet as the routing says (adaptive, or random per packet)");
          if (traffic.empty() || traffic == "all-to-all" || traffic == "all-to-all-pairwise" ||
              traffic == "all-to-all-mpich") {
            run_replay(c, flit, traffic, bytes_text, sizes_text, format, step_times, header);
            return;
          }
          if (!bytes_text.empty() || !sizes_text.empty())
            fail_usage(bytes_text.empty() ? "--sizes" : "--bytes",
                       "synthetic traffic counts flits, not bytes");
          if (format == "nccl")
            fail_usage("--format", "nccl's table is for collectives (a schedule or --traffic "
                                   "all-to-all*); synthetic traffic writes json or csv");
          const sim::flit::StudyOptions o = study_options(flit, traffic);
          Document d = tool::load(c);
          const std::string src = source_name(c.input);
          const topo::Network& net = d.require_network("net-sim");
          if (!d.routing)
            fail_input(src + ":/routing", "missing routing section (run topo-route first)");
          Progress progress("net-sim flit",
                            o.find_saturation ? 10
                            : o.sweep.empty()
                                ? static_cast<std::uint64_t>(o.measure.warmup + o.measure.measure)
                                : o.sweep.size());
          sim::flit::FlitReport r =
              sim::flit::run_study(net, d.faults_or_none(), *d.routing, o, &progress);
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
                              " packets were not generated: the traffic addressed them to "
                              "failed chips");
          if (not_generated > to_failed)
            tool::warn(c, std::to_string(not_generated - to_failed) +
                              " packets were not generated: the routing does not connect "
                              "their (live) chips");
          if (format == "csv") {
            write_output(c.output, sim::flit::flit_csv_header(r) + sim::flit::flit_csv_rows(r));
            return;
          }
          sim::Report rep;
          rep.mode = "flit";
          rep.source = "traffic";
          rep.network_fingerprint = net.fingerprint;
          rep.flit = std::move(r);
          d.report = std::move(rep);
          tool::store(c, d, o.measure.seed);
          return;
        }
        if (!traffic.empty() && traffic != "all-to-all" && traffic != "all-to-all-pairwise" &&
            traffic != "all-to-all-mpich")
          fail_usage("--traffic", "analytic mode takes all-to-all, all-to-all-pairwise or "
                                  "all-to-all-mpich, not '" +
                                      traffic + "' (flit mode: " + sim::pattern_names() + ")");
        if (latency_model != "per-step" && !traffic.empty())
          fail_usage("--latency-model", "astra accounts a schedule's phases; --traffic flows pay "
                                        "their path latency");
        // Every option of the flit group but --max-memory (which bounds the all-to-all
        // baselines here too) belongs to --mode flit.
        // --seed also draws --ecmp hash's paths.
        const bool hashed = ecmp == "hash";
        for (const CLI::Option* o : flit.app->get_options())
          if (o->get_group() == kFlitGroup && o->count() > 0 && o->get_name() != "--max-memory" &&
              !(hashed && o->get_name() == "--seed"))
            fail_usage(o->get_name(), o->get_name() == "--seed"
                                          ? "belongs to --mode flit (or --ecmp hash)"
                                          : "belongs to --mode flit");
        const std::vector<std::uint64_t> sizes = run_sizes(sizes_text, traffic, bytes_text, format);

        Document d = tool::load(c);
        const std::string src = source_name(c.input);
        const topo::Network& net = d.require_network("net-sim");
        const topo::Faults& faults = d.faults_or_none();
        // The all-to-all baselines: one flow per orbit where the routing is symmetric.
        sim::AllToAllOptions all;
        all.symmetry = true;
        all.ecmp = ecmp.empty() ? route::Ecmp::Split : route::parse_ecmp(ecmp, "--ecmp");
        all.seed = flit.seed;
        all.max_bytes = static_cast<std::int64_t>(std::min<std::uint64_t>(
            parse_bytes(flit.max_memory, "--max-memory"), std::uint64_t{1} << 62));
        sim::AnalyticOptions opt;
        std::vector<char> down = faults.down_links(net);
        opt.down_links = &down;

        std::unique_ptr<route::RoutingFunction> fn;
        if (!traffic.empty() || (d.schedule && d.schedule->stages)) {
          if (!d.routing)
            fail_input(src + ":/routing", "missing routing section (run topo-route first)");
          fn = route::make_routing(*d.routing, net, faults);
        }
        if (traffic.empty()) {
          if (!d.schedule)
            fail_input(src + ":/schedule", "missing schedule section (run coll-sched first)");
          // The section was parsed structurally; its delivery and fault checks are verify()'s,
          // and the program relies on them (they do not depend on the size). A schedule whose
          // verified_digest matches its content passed them in coll-sched on this network.
          if (!coll::sealed(*d.schedule)) {
            if (d.schedule->stages)
              coll::verify_ranks(*d.schedule, net, faults, *fn, ErrorKind::Input,
                                 src + ":/schedule");
            else
              coll::verify(*d.schedule, net, faults, ErrorKind::Input, src + ":/schedule");
          }
        }
        // One simulation per size (the document's own when there is no --sizes).
        auto simulate = [&](std::uint64_t size) {
          auto [prog, source, collective, algorithm, n_nodes, bytes_per_node, sized] = program_at(
              size, traffic, d, fn.get(),
              latency_model == "astra" ? coll::StepLatency::Astra : coll::StepLatency::PerHop, all);
          Progress progress("net-sim", prog->steps().size());
          opt.progress = &progress;
          sim::AnalyticResult res = sim::simulate_analytic(*prog, net, opt);
          progress.finish();
          sim::Report rep = sim::make_analytic_report(res, source, collective, algorithm, n_nodes,
                                                      bytes_per_node, net.fingerprint, step_times);
          if (flit.link_stats) sim::add_link_stats(rep, res, net, down);
          rep.traffic = traffic;
          {
            const std::vector<std::int64_t> chips =
                sized && sized->stages ? coll::participants(*sized) : coll::rank_order(net, faults);
            std::optional<coll::Bound> b;
            if (sized && sized->skew) {
              for (const coll::RankSchedule& r : sized->stages->front().parts)
                if (auto p = coll::all_to_all_v_bound(
                        r.groups,
                        coll::skew_bytes(*sized->skew, r.ranks(),
                                         static_cast<double>(bytes_per_node), "/schedule/skew"),
                        net, faults);
                    p && (!b || p->time_s > b->time_s))
                  b = p;
            } else {
              b = coll::collective_bound(collective, chips, static_cast<double>(bytes_per_node),
                                         net, faults, n_nodes, sized && coll::uses_switch(*sized));
            }
            if (b) {
              rep.bound_s = b->time_s;
              rep.bound_kind = b->kind;
            }
          }
          if (sized) {
            rep.dim_scheduling = sized->dim_scheduling;
            if (latency_model == "astra") rep.latency_model = sim::kAstraLatencyModel;
            if (auto cf = sized->stages
                              ? std::nullopt
                              : coll::closed_form(*sized, net, faults,
                                                  latency_model == "astra"
                                                      ? coll::LatencyModel::Table1
                                                      : coll::LatencyModel::PerSubStage)) {
              rep.closed_form_s = cf->time_s;
              rep.closed_form_formula = cf->formula;
            }
          }
          return rep;
        };
        std::vector<sim::Report> reps;
        for (std::uint64_t z : sizes) reps.push_back(simulate(z));
        write_reports(c, d, std::move(reps), format, header);
      });
}
