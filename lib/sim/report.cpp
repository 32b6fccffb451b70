#include "sim/report.hpp"

#include "core/fingerprint.hpp"
#include "sim/analytic.hpp"
#include "sim/flit/clock.hpp"
#include "sim/flit/replay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace icnkit::sim {

namespace {
// What every report of a collective starts with: what ran, on how many chips, how long it took
// and its bandwidths (nccl-tests conventions).
Report headline(std::string mode, std::string source, std::string collective, std::string algorithm,
                std::int64_t n_nodes, std::int64_t bytes_per_node, double time_s) {
  Report s;
  s.mode = std::move(mode);
  s.source = std::move(source);
  s.collective = std::move(collective);
  s.algorithm = std::move(algorithm);
  s.n_nodes = n_nodes;
  s.bytes_per_node = bytes_per_node;
  s.time_s = time_s;
  // A run that takes no time (one chip, nothing to send) has no meaningful bandwidth: 0.
  if (time_s > 0) s.algbw_bytes_per_s = static_cast<double>(bytes_per_node) / time_s;
  // nccl-tests: busbw = algbw (n-1)/n for all-to-all, reduce-scatter and all-gather, 2 (n-1)/n
  // for all-reduce (which moves every byte twice).
  // Broadcast and reduce: busbw = algbw (nccl-tests: every byte crosses the busiest link once).
  if (s.collective == "broadcast" || s.collective == "reduce")
    s.busbw_bytes_per_s = s.algbw_bytes_per_s;
  else if (n_nodes > 0)
    s.busbw_bytes_per_s = s.algbw_bytes_per_s * (s.collective == "all-reduce" ? 2.0 : 1.0) *
                          static_cast<double>(n_nodes - 1) / static_cast<double>(n_nodes);
  return s;
}
} // namespace

Report make_analytic_report(const AnalyticResult& r, std::string source, std::string collective,
                            std::string algorithm, std::int64_t n_nodes,
                            std::int64_t bytes_per_node, std::string network_fingerprint,
                            bool step_times) {
  Report s = headline("analytic", std::move(source), std::move(collective), std::move(algorithm),
                      n_nodes, bytes_per_node, r.time_s);
  for (const PhaseResult& p : r.phases)
    s.phases.push_back({p.name, p.steps, p.start_s, p.end_s, p.end_s - p.start_s});
  s.link_utilisation = {r.max_utilisation, r.mean_utilisation, r.mean_busy_utilisation,
                        r.live_channels,   r.busy_channels,    std::nullopt};
  s.latency_model = kAnalyticLatencyModel;
  s.steps = r.steps;
  s.flows = r.flows;
  s.events = r.events;
  if (step_times) {
    std::vector<std::pair<double, double>> v;
    v.reserve(r.step_start_s.size());
    for (std::size_t i = 0; i < r.step_start_s.size(); ++i)
      v.emplace_back(r.step_start_s[i], r.step_end_s[i]);
    s.step_times = std::move(v);
  }
  s.network_fingerprint = std::move(network_fingerprint);
  return s;
}

namespace {
// Per directed channel, the share of its capacity it used: flits per cycle, over the flits per
// cycle its link carries (1 on the network's fastest link, bandwidth / the fastest's on a
// slower one, as the engine paces it), so that a figure means what the analytic one does.
std::vector<double> replay_utilisation(const flit::ReplayResult& r, const topo::Network& n) {
  const double fastest = flit::fastest_link_bandwidth(n);
  std::vector<double> u(r.channel_flits.size(), 0.0);
  for (std::size_t c = 0; c < u.size(); ++c) {
    const double bw =
        n.links[static_cast<std::size_t>(topo::link_of_channel(static_cast<std::int64_t>(c)))]
            .bandwidth_bytes_per_s;
    const double per_cycle =
        r.cycles > 0 ? static_cast<double>(r.channel_flits[c]) / static_cast<double>(r.cycles) : 0;
    u[c] = bw == fastest || !(bw > 0) ? per_cycle : per_cycle * (fastest / bw);
  }
  return u;
}
} // namespace

void add_link_stats(Report& s, const AnalyticResult& r, const topo::Network& n,
                    const std::vector<char>& down_links) {
  s.link_utilisation.channels = flit::channel_uses(r.channel_utilisation, n, down_links);
}

void add_link_stats(Report& s, const flit::ReplayResult& r, const topo::Network& n,
                    const std::vector<char>& down_links) {
  s.link_utilisation.channels = flit::channel_uses(replay_utilisation(r, n), n, down_links);
}

Report make_replay_report(const flit::ReplayResult& r, const Program& program,
                          flit::ReplayInfo info, std::string source, std::string collective,
                          std::string algorithm, std::int64_t n_nodes, std::int64_t bytes_per_node,
                          const topo::Network& n, const std::vector<char>& down_links,
                          bool step_times) {
  const double cyc = info.cycle_s;
  Report s = headline("flit", std::move(source), std::move(collective), std::move(algorithm),
                      n_nodes, bytes_per_node, static_cast<double>(r.cycles) * cyc);
  const std::vector<StepInfo>& steps = program.steps();
  for (std::size_t p = 0; p < program.phases().size(); ++p) {
    PhaseTime ph;
    ph.name = program.phases()[p];
    std::int64_t a = -1, b = -1;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (steps[k].phase != static_cast<int>(p) || r.step_start[k] < 0) continue;
      ++ph.steps;
      a = a < 0 ? r.step_start[k] : std::min(a, r.step_start[k]);
      b = std::max(b, r.step_end[k]);
    }
    ph.start_s = static_cast<double>(std::max<std::int64_t>(a, 0)) * cyc;
    ph.end_s = static_cast<double>(std::max(b, std::max<std::int64_t>(a, 0))) * cyc;
    ph.time_s = ph.end_s - ph.start_s;
    s.phases.push_back(std::move(ph));
  }
  LinkUtilisation& u = s.link_utilisation;
  double sum = 0, busy = 0;
  const std::vector<double> util = replay_utilisation(r, n);
  for (std::size_t c = 0; c < util.size(); ++c) {
    if (down_links[static_cast<std::size_t>(topo::link_of_channel(static_cast<std::int64_t>(c)))])
      continue;
    const double x = util[c];
    ++u.live_channels;
    u.max = std::max(u.max, x);
    sum += x;
    if (r.channel_flits[c] > 0) ++u.busy_channels, busy += x;
  }
  u.mean = u.live_channels > 0 ? sum / static_cast<double>(u.live_channels) : 0;
  u.mean_busy = u.busy_channels > 0 ? busy / static_cast<double>(u.busy_channels) : 0;
  s.latency_model =
      "flit: cycle-level routers (" + flit::describe(info.router) +
      "); every step's packets start when the steps it depends on have delivered "
      "all of theirs; one cycle = one flit on the fastest link, a link k times slower "
      "carries one every k cycles";
  s.steps = static_cast<std::int64_t>(steps.size());
  s.flows = r.flows;
  s.events = r.cycles;
  if (step_times) {
    std::vector<std::pair<double, double>> v;
    for (std::size_t k = 0; k < steps.size(); ++k)
      v.emplace_back(static_cast<double>(std::max<std::int64_t>(r.step_start[k], 0)) * cyc,
                     static_cast<double>(std::max<std::int64_t>(r.step_end[k], 0)) * cyc);
    s.step_times = std::move(v);
  }
  info.cycles = r.cycles;
  info.packets = r.packets;
  info.flits = r.flits;
  info.flit_hops = r.flit_hops;
  info.latency_mean = r.latency_mean;
  info.latency_max = r.latency_max;
  info.network_latency_mean = r.network_latency_mean;
  info.peak_flows = r.peak_flows;
  info.status = r.status;
  info.status_detail = r.status_detail;
  s.replay = std::move(info);
  s.network_fingerprint = n.fingerprint;
  return s;
}

namespace {
// Nine significant digits: friendly, and identical on every platform for the same double.
std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}
// RFC 4180 quoting where a field needs it.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
} // namespace

RunConfig run_config(const Report& r, const topo::Network& n, const topo::Faults& f,
                     std::string candidate, std::string routing, int chunks) {
  RunConfig c;
  c.candidate = std::move(candidate);
  c.family = n.family;
  c.n_chip = n.n_chip;
  if (!n.links.empty()) {
    c.link_bandwidth_bytes_per_s = n.links.front().bandwidth_bytes_per_s;
    c.link_latency_s = n.links.front().latency_s;
  }
  c.failed_links = static_cast<std::int64_t>(f.links.size());
  c.failed_chips = static_cast<std::int64_t>(f.chips.size());
  if (!f.empty()) {
    std::string ids;
    for (const topo::FailedLink& l : f.links)
      ids.append("L").append(std::to_string(l.link)).append(";");
    for (const topo::FailedChip& x : f.chips)
      ids.append("C").append(std::to_string(x.chip)).append(";");
    c.faults_digest = fingerprint_hex(ids);
  }
  c.routing = std::move(routing);
  c.chunks = chunks;
  c.latency = r.mode == "flit"                         ? "flit"
              : r.latency_model.rfind("astra", 0) == 0 ? "astra"
                                                       : "per-step";
  return c;
}

std::string csv_header() {
  return "collective,algorithm,n_nodes,bytes_per_node,time_us,algbw_GBps,busbw_GBps,"
         "max_link_util,mean_link_util,mode,source,phases,steps,flows,dim_scheduling,"
         "closed_form_us,network_fingerprint,candidate,family,n_chip,link_bw_GBps,"
         "link_latency_us,failed_links,failed_chips,faults_digest,routing,chunks,traffic,"
         "latency,bound_us,efficiency\n";
}

std::string csv_row(const Report& s, const RunConfig& c) {
  return field(s.collective) + "," + field(s.algorithm) + "," + std::to_string(s.n_nodes) + "," +
         std::to_string(s.bytes_per_node) + "," + num(s.time_s * 1e6) + "," +
         num(s.algbw_bytes_per_s / 1e9) + "," + num(s.busbw_bytes_per_s / 1e9) + "," +
         num(s.link_utilisation.max) + "," + num(s.link_utilisation.mean) + "," + field(s.mode) +
         "," + field(s.source) + "," + std::to_string(s.phases.size()) + "," +
         std::to_string(s.steps) + "," + std::to_string(s.flows) + "," + field(s.dim_scheduling) +
         "," + (s.closed_form_s ? num(*s.closed_form_s * 1e6) : std::string()) + "," +
         field(s.network_fingerprint) + "," + field(c.candidate) + "," + field(c.family) + "," +
         std::to_string(c.n_chip) + "," + num(c.link_bandwidth_bytes_per_s / 1e9) + "," +
         num(c.link_latency_s * 1e6) + "," + std::to_string(c.failed_links) + "," +
         std::to_string(c.failed_chips) + "," + field(c.faults_digest) + "," + field(c.routing) +
         "," + std::to_string(c.chunks) + "," + field(s.traffic) + "," + field(c.latency) + "," +
         (s.bound_s ? num(*s.bound_s * 1e6) : std::string()) + "," +
         (s.bound_s && s.time_s > 0 ? num(*s.bound_s / s.time_s) : std::string()) + "\n";
}

std::string nccl_header(const Report& first, const topo::Network& n) {
  std::string what = first.collective + ", " + first.algorithm;
  if (!first.dim_scheduling.empty() && first.dim_scheduling != "none")
    what += " + " + first.dim_scheduling;
  char b[512];
  std::snprintf(b, sizeof b,
                "# net-sim %s: %s on %lld chips (%s, network %s)\n#\n"
                "#%12s  %12s  %8s  %6s  %6s  %9s  %7s  %7s  %6s\n"
                "#%12s  %12s  %8s  %6s  %6s  %9s  %7s  %7s  %6s\n",
                first.mode.c_str(), what.c_str(), static_cast<long long>(first.n_nodes),
                n.family.c_str(), first.network_fingerprint.c_str(), "size", "count", "type",
                "redop", "root", "time", "algbw", "busbw", "#wrong", "(B)", "(elements)", "", "",
                "", "(us)", "(GB/s)", "(GB/s)", "");
  std::string out;
  for (const char* p = b; *p; ++p) { // no trailing blanks
    if (*p == '\n')
      while (!out.empty() && out.back() == ' ') out.pop_back();
    out += *p;
  }
  return out;
}

std::string nccl_row(const Report& s) {
  const char* redop =
      s.collective == "all-reduce" || s.collective == "reduce-scatter" ? "sum" : "none";
  char b[256];
  std::snprintf(b, sizeof b, " %12lld  %12lld  %8s  %6s  %6d  %9.2f  %7.2f  %7.2f  %6s\n",
                static_cast<long long>(s.bytes_per_node),
                static_cast<long long>(s.bytes_per_node / 4), "float", redop, -1, s.time_s * 1e6,
                s.algbw_bytes_per_s / 1e9, s.busbw_bytes_per_s / 1e9, "N/A");
  return b;
}

std::string nccl_footer(double mean_busbw_bytes_per_s) {
  char b[160];
  std::snprintf(b, sizeof b, "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g\n#\n",
                mean_busbw_bytes_per_s / 1e9);
  return b;
}

} // namespace icnkit::sim
