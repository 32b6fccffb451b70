// net-sim's command line: its options, which of them belong to which simulation (the one table
// that says so), and their translation into the library's option structs (sim/run_analytic.hpp,
// sim/flit/replay_run.hpp, sim/flit/study.hpp). Included by main.cpp only.
#pragma once
#include "common/tool.hpp"
#include "core/threads.hpp"
#include "core/units.hpp"
#include "sim/flit/replay_run.hpp"
#include "sim/flit/study.hpp"
#include "sim/pattern.hpp"
#include "sim/registry.hpp"
#include "sim/run_analytic.hpp"

#include <algorithm>
#include <functional>

namespace icnkit::net_sim {

struct FlitCli {
  std::string router = "booksim", rate_text, sweep, hotspot, link_latency;
  std::string vc_release, endpoint_ports, packet_bytes, max_memory = "4GiB";
  int vcs = 0, buffer_flits = 0, routing_delay = 0, va_delay = 0, sa_delay = 0, st_delay = 0;
  int credit_delay = 0, alloc_iters = 0, packet_flits = 1, threads = 0;
  std::int64_t flit_bytes = 0, warmup = 3000, measure = 10000, watchdog = 0;
  double latency_threshold = 0;
  std::uint64_t seed = 0;
  bool find_saturation = false, link_stats = false;
};

struct Cli {
  std::string mode = "analytic", traffic, bytes_text, format = "json", latency_model = "per-step";
  std::string ecmp; // "" = not given: split
  std::string sizes_text, csv_header = "always";
  std::vector<std::string> merge;
  bool step_times = false;
  FlitCli flit;
  // Whether an option was given on the command line: a default is never mistaken for a value
  // (--vcs -1 is refused, not read as "not set").
  const CLI::App* app = nullptr;
  bool given(const std::string& option) const { return app->count(option) > 0; }
};

// --- Which options belong to which simulation -------------------------------------------------
// The simulations: analytic (a schedule or an all-to-all baseline; with --ecmp hash, which draws
// its paths from --seed), the flit replay (a schedule or --traffic all-to-all*) and the flit
// study of synthetic traffic.
enum Sim : unsigned {
  Analytic = 1,
  AnalyticHash = 2,
  Replay = 4,
  Study = 8,
  Flit = Replay | Study
};
struct Scope {
  const char* option;
  unsigned sims; // where it belongs
};
// The one table. A simulation refuses the options given outside their row's simulations, the
// first in this order (refuse_foreign); options not listed belong to every simulation.
inline constexpr Scope kScopes[] = {
    {"--latency-model", Analytic},
    {"--ecmp", Analytic},
    {"--bytes", Analytic | Replay},
    {"--sizes", Analytic | Replay},
    {"--router", Flit},
    {"--rate", Study},
    {"--sweep", Study},
    {"--find-saturation", Study},
    {"--packet-flits", Study},
    {"--flit-bytes", Flit},
    {"--packet-bytes", Replay},
    {"--endpoint-ports", Flit},
    {"--max-memory", Replay | Analytic},
    {"--hotspot", Study},
    {"--vcs", Flit},
    {"--buffer-flits", Flit},
    {"--routing-delay", Flit},
    {"--va-delay", Flit},
    {"--sa-delay", Flit},
    {"--st-delay", Flit},
    {"--credit-delay", Flit},
    {"--alloc-iters", Flit},
    {"--vc-release", Flit},
    {"--link-latency-cycles", Flit},
    {"--warmup", Study},
    {"--measure", Study},
    {"--seed", Flit | AnalyticHash},
    {"--latency-threshold", Study},
    {"--watchdog", Flit},
    {"--threads", Flit},
};

// Error(Usage) for the first option of kScopes given to simulation `sim` that does not belong
// to it, in the words of the simulation it was given to. `from`, `to`: only the rows from the
// one of option `from` (or the first) and before the one of option `to` (or to the end).
inline void refuse_foreign(unsigned sim, const Cli& cli, const char* from = nullptr,
                           const char* to = nullptr) {
  bool on = !from;
  for (const Scope& s : kScopes) {
    const std::string o = s.option;
    if (from && o == from) on = true;
    if (to && o == to) return;
    if (!on) continue;
    // --latency-model per-step is the default, which every simulation takes.
    const bool used = o == "--latency-model" ? cli.latency_model != "per-step" : cli.given(o);
    if ((s.sims & sim) != 0 || !used) continue;
    if (o == "--latency-model") fail_usage(o, "belongs to the analytic simulation of a schedule");
    if (o == "--ecmp")
      fail_usage(o, "belongs to the analytic simulation: flit mode routes every packet as the "
                    "routing says (adaptive, or random per packet)");
    if (sim & Analytic)
      fail_usage(o, s.sims & AnalyticHash ? "belongs to --mode flit (or --ecmp hash)"
                                          : "belongs to --mode flit");
    if (sim == Replay)
      fail_usage(o, "--rate, --sweep, --find-saturation, --hotspot, --packet-flits, "
                    "--latency-threshold, --warmup and --measure belong to synthetic traffic; a "
                    "replay runs until every packet is delivered and takes --packet-bytes and "
                    "--flit-bytes");
    if (o == "--bytes" || o == "--sizes")
      fail_usage(o, "synthetic traffic counts flits, not bytes");
    fail_usage("--packet-bytes", "--packet-bytes and --max-memory belong to a replay (a schedule "
                                 "or --traffic all-to-all*); synthetic traffic takes "
                                 "--packet-flits");
  }
}

const char* const kFlitGroup = "Flit mode (--mode flit)";

inline void add_flit_options(CLI::App& app, FlitCli& f) {
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

// Every option of net-sim, in --help's order.
inline void add_options(CLI::App& app, tool::Common& c, Cli& cli) {
  cli.app = &app;
  tool::add_input(app, c);
  app.add_option("--mode", cli.mode,
                 "Simulation mode: analytic (flows sharing links max-min fairly) or flit "
                 "(cycle-level routers with VCs and credits: synthetic traffic, or the "
                 "schedule / an all-to-all replayed packet by packet)")
      ->check(CLI::IsMember({"analytic", "flit"}))
      ->default_str("analytic");
  app.add_option("--traffic", cli.traffic,
                 "Simulate a traffic pattern over the routing instead of the schedule: "
                 "all-to-all (every pair's bytes/n as one flow, all at once) or "
                 "all-to-all-pairwise (MPICH's pairwise exchange: n-1 rounds, rank i to "
                 "i XOR k, or i+k mod n when n is not a power of two) or "
                 "all-to-all-mpich (MPICH's default choice: all at once up to 32 KiB per "
                 "pair, pairwise above). In flit mode: " +
                     sim::pattern_names());
  app.add_option("--bytes", cli.bytes_text,
                 "Bytes per node of --traffic (e.g. 64MiB; KB/MB/GB are powers of 1000, "
                 "KiB/MiB/GiB and nccl-tests' K/M/G of 1024)");
  app.add_option("--format", cli.format,
                 "Output: json (the document with its report), csv (one header, a row per "
                 "size) or nccl (nccl-tests' table: size, count, type, redop, root, time, "
                 "algbw, busbw) or table (a summary for people; the default when stdout is "
                 "a terminal)")
      ->check(CLI::IsMember({"json", "csv", "nccl", "table"}))
      ->default_str("json");
  app.add_option("--csv-header", cli.csv_header,
                 "With --format csv: always write the header (default), never, or auto "
                 "(not when stdout is appended to a file that has rows already, >>)")
      ->check(CLI::IsMember({"always", "never", "auto"}));
  app.add_option("--merge", cli.merge,
                 "Print the reports of these documents as one CSV (no simulation): "
                 "net-sim --merge runs/*.json > all.csv");
  app.add_option("--sizes", cli.sizes_text,
                 "Simulate the schedule (or --traffic) at many sizes per node without "
                 "re-scheduling, one row each: FROM:TO:xFACTOR (nccl-tests' -b -e -f, e.g. "
                 "8K:1G:x2, K/M/G binary as there), FROM:TO:+STEP or a list; with --format csv "
                 "or nccl");
  app.add_flag("--step-times", cli.step_times, "Record every step's start and end in the report");
  app.add_option("--latency-model", cli.latency_model,
                 "Latency of a schedule's steps (analytic): per-step (every "
                 "store-and-forward step pays its path's link latencies; default) or astra "
                 "(the MICRO'25 artifact's ASTRA-sim accounting: alpha once per Ring or "
                 "HalfRing phase, (N-1) alpha per folded ring, 3 alpha per acceleration "
                 "phase)")
      ->check(CLI::IsMember({"per-step", "astra"}))
      ->default_str("per-step");
  app.add_option("--ecmp", cli.ecmp,
                 "Analytic: how a flow uses the routing's equal-cost choices: split (evenly "
                 "at every hop, as a fluid: the load topo-route --load reports; default) or "
                 "hash (one path per flow, each hop's choice hashed from --seed, source, "
                 "destination and chip, as a switch pins a flow). Flit mode routes every "
                 "packet as the routing says (adaptive, or a random choice per packet)")
      ->check(CLI::IsMember({"split", "hash"}))
      ->default_str("split");
  add_flit_options(app, cli.flit);
  tool::add_strict(app, c);
  tool::add_describe(app, c, "the simulation modes, their latency models and the traffic patterns",
                     sim::describe);
  tool::add_output(app, c);
}

// --- The options as the library's structs -----------------------------------------------------

inline double parse_rate(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(v >= 0) || !(v <= 1))
    fail_usage("--rate",
               "must be a number within [0, 1] flits per node per cycle, got '" + text + "'");
  return v;
}

// The router: the preset with the options given (the replay has its own defaults for --vcs
// and --buffer-flits where they were not given).
inline sim::flit::RouterParams router_params(const Cli& cli, int default_endpoint_ports) {
  const FlitCli& f = cli.flit;
  sim::flit::RouterParams p = sim::flit::booksim_preset();
  auto set = [&](const char* option, int v, int& field) {
    if (cli.given(option)) field = v;
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

inline std::int64_t flit_bytes_or(const Cli& cli, std::int64_t dflt) {
  if (!cli.given("--flit-bytes")) return dflt;
  if (cli.flit.flit_bytes < 1 || cli.flit.flit_bytes > 65536)
    fail_usage("--flit-bytes", "must be between 1 and 65536");
  return cli.flit.flit_bytes;
}

inline std::int64_t max_memory_bytes(const FlitCli& f) {
  return static_cast<std::int64_t>(
      std::min<std::uint64_t>(parse_bytes(f.max_memory, "--max-memory"), std::uint64_t{1} << 62));
}

// Bytes per node of an all-to-all baseline (--traffic with --bytes); 0 for a schedule, whose
// bytes come from coll-sched.
inline std::uint64_t traffic_bytes(const std::string& traffic, const std::string& bytes_text) {
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
inline std::vector<std::uint64_t> run_sizes(const Cli& cli) {
  if (cli.sizes_text.empty()) return {traffic_bytes(cli.traffic, cli.bytes_text)};
  if (!cli.bytes_text.empty()) fail_usage("--sizes", "give --sizes or --bytes, not both");
  if (cli.format == "json")
    fail_usage("--sizes", "writes one row per size: use --format csv or --format nccl");
  std::vector<std::uint64_t> v = parse_sizes(cli.sizes_text, "--sizes");
  for (std::uint64_t z : v)
    if (z > (std::uint64_t{1} << 53))
      fail_usage("--sizes", "at most 2^53 bytes (exact in a double)");
  return v;
}

// --mode flit --traffic PATTERN: the flit study of synthetic traffic.
inline sim::flit::StudyOptions study_options(const Cli& cli) {
  const FlitCli& f = cli.flit;
  sim::flit::StudyOptions o;
  o.preset = f.router;
  o.router = router_params(cli, 1);
  o.link_latency = sim::flit::parse_link_latency(
      f.link_latency.empty() ? "booksim" : f.link_latency, "--link-latency-cycles");
  refuse_foreign(Study, cli, "--router"); // main checked the rows before the flit group
  o.flit_bytes = flit_bytes_or(cli, 16);
  o.pattern.kind = sim::pattern_by_name(cli.traffic, "--traffic");
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
  if (cli.given("--watchdog") && f.watchdog < 1) fail_usage("--watchdog", "must be >= 1 cycle");
  if (cli.given("--latency-threshold") && !(f.latency_threshold > 0 && f.latency_threshold <= 1e12))
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

// --mode flit on a schedule or --traffic all-to-all*: the replay.
inline sim::flit::ReplayRunOptions replay_options(const Cli& cli) {
  const FlitCli& f = cli.flit;
  sim::flit::ReplayRunOptions o;
  sim::flit::ReplayParams& P = o.params;
  P.flit_bytes = flit_bytes_or(cli, 32);
  P.packet_bytes =
      f.packet_bytes.empty()
          ? 512
          : static_cast<std::int64_t>(std::min<std::uint64_t>(
                parse_bytes(f.packet_bytes, "--packet-bytes"), std::uint64_t{1} << 40));
  if (P.packet_bytes < P.flit_bytes || P.packet_bytes % P.flit_bytes != 0)
    fail_usage("--packet-bytes", "must be a multiple of --flit-bytes (" +
                                     std::to_string(P.flit_bytes) + " B), got " +
                                     std::to_string(P.packet_bytes) + " B");
  if (P.packet_bytes / P.flit_bytes > 65535)
    fail_usage("--packet-bytes", "a packet has at most 65535 flits");
  P.max_bytes = max_memory_bytes(f);
  P.watchdog = f.watchdog;
  if (cli.given("--watchdog") && f.watchdog < 1) fail_usage("--watchdog", "must be >= 1 cycle");
  o.sizes = run_sizes(cli);
  o.router = router_params(cli, 0);
  o.default_vcs = !cli.given("--vcs");
  o.default_buffers = !cli.given("--buffer-flits");
  o.preset = f.router;
  o.link_latency = sim::flit::parse_link_latency(
      f.link_latency.empty() ? "document" : f.link_latency, "--link-latency-cycles");
  o.baseline = sim::baseline_by_name(cli.traffic);
  o.traffic = cli.traffic;
  o.threads = f.threads; // resolved once the fabric is built
  o.step_times = cli.step_times;
  o.link_stats = f.link_stats;
  o.request = "--mode";
  o.progress_label = "net-sim flit replay";
  return o;
}

// The analytic mode (--max-memory is read once the document is: analytic_options's caller).
inline sim::AnalyticRunOptions analytic_options(const Cli& cli) {
  sim::AnalyticRunOptions o;
  o.sizes = run_sizes(cli);
  o.baseline = sim::baseline_by_name(cli.traffic);
  o.traffic = cli.traffic;
  o.astra = cli.latency_model == "astra";
  o.ecmp = cli.ecmp.empty() ? route::Ecmp::Split : route::parse_ecmp(cli.ecmp, "--ecmp");
  o.seed = cli.flit.seed;
  o.step_times = cli.step_times;
  o.link_stats = cli.flit.link_stats;
  o.progress_label = "net-sim";
  return o;
}

} // namespace icnkit::net_sim
