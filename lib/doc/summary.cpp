#include "doc/summary.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace icnkit {
namespace {

// A number with `sig` significant digits, no exponent for everyday magnitudes.
std::string num(double v, int sig = 4) {
  char buf[64];
  if (v != 0 && (std::fabs(v) >= 1e9 || std::fabs(v) < 1e-3))
    std::snprintf(buf, sizeof buf, "%.*g", sig, v);
  else
    std::snprintf(buf, sizeof buf, "%.*g",
                  std::max(sig, 1 + static_cast<int>(std::log10(std::max(1.0, std::fabs(v))))), v);
  return buf;
}

std::string integer(std::int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return v < 0 ? "-" + out : out;
}

// "1 rack", "3 racks".
std::string count(std::int64_t n, const std::string& what) {
  return integer(n) + " " + what + (n == 1 ? "" : "s");
}
std::string count(std::size_t n, const std::string& what) {
  return count(static_cast<std::int64_t>(n), what);
}

std::string seconds(double s) {
  if (s >= 1) return num(s) + " s";
  if (s >= 1e-3) return num(s * 1e3) + " ms";
  if (s >= 1e-6) return num(s * 1e6) + " us";
  return num(s * 1e9) + " ns";
}

std::string bytes(double b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, ++u;
  return num(b) + " " + unit[u];
}

std::string rate(double bytes_per_s) {
  if (bytes_per_s >= 1e12) return num(bytes_per_s / 1e12) + " TB/s";
  return num(bytes_per_s / 1e9) + " GB/s";
}

std::string percent(double x) {
  return num(100 * x, 3) + "%";
}

// Columns padded to their widest cell; numbers right-aligned, text left-aligned.
class Table {
public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void row(std::vector<std::string> r) { rows_.push_back(std::move(r)); }
  std::string text() const {
    std::vector<std::size_t> w;
    for (const auto& r : rows_)
      for (std::size_t i = 0; i < r.size(); ++i) {
        if (w.size() <= i) w.push_back(0);
        w[i] = std::max(w[i], r[i].size());
      }
    std::string out;
    for (const auto& r : rows_) {
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        const bool numeric = !r[i].empty() && (std::isdigit(static_cast<unsigned char>(r[i][0])) ||
                                               r[i][0] == '-' || r[i][0] == '$');
        const std::string pad(w[i] - r[i].size(), ' ');
        line += (i ? "  " : "") + (numeric && &r != &rows_.front() ? pad + r[i] : r[i] + pad);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += "  " + line + "\n";
    }
    return out;
  }

private:
  std::vector<std::vector<std::string>> rows_;
};

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

std::string candidates_text(const Document& d) {
  const topo::CandidateList& l = *d.candidates;
  std::string out;
  if (d.context)
    out += integer(d.context->n_chip) + " chips, " + topo::to_string(d.context->scope) + ": ";
  out += integer(l.total) + " candidates";
  if (l.truncated())
    out += ", the first " + integer(static_cast<std::int64_t>(l.items.size())) + " shown";
  const bool sorted = !l.items.empty() && !l.items.front().sorted_by.empty();
  out += sorted ? " (recommended first, each by " + l.items.front().sorted_by + ")\n"
                : " (recommended first)\n";
  if (l.items.empty()) return out;
  std::vector<std::string> head = {"#",     "id",       "status",     "diameter",
                                   "links", "switches", "chips/board"};
  const bool extra =
      sorted && (l.items.front().sorted_by == "cost" || l.items.front().sorted_by == "power");
  if (extra) head.push_back(l.items.front().sorted_by == "cost" ? "cost" : "watts");
  head.push_back("warnings");
  Table t(head);
  std::int64_t i = 0;
  for (const topo::Candidate& c : l.items) {
    auto est = [](std::int64_t v) { return v < 0 ? std::string("?") : integer(v); };
    std::vector<std::string> r = {std::to_string(i++),
                                  c.id,
                                  c.status(),
                                  est(c.est_diameter),
                                  est(c.est_link_count),
                                  est(c.est_switch_count),
                                  integer(c.derived_chips_per_board)};
    if (extra)
      r.push_back(c.sorted_by == "cost" ? "$" + integer(std::llround(c.sort_value))
                                        : num(c.sort_value));
    r.push_back(c.warnings.empty() ? "-" : join(c.warnings));
    t.row(r);
  }
  return out + t.text();
}

std::string network_text(const Document& d) {
  const topo::Network& n = *d.network;
  const topo::Metrics& m = n.metrics;
  std::string out = "network    ";
  out += d.candidate ? d.candidate->id : n.family;
  out += " (family " + n.family + "), fingerprint " + n.fingerprint + "\n";
  std::int64_t switches = 0;
  for (const topo::Node& v : n.nodes) switches += v.kind == topo::NodeKind::Switch;
  out += "nodes      " + count(n.n_chip, "chip") + " on " + count(n.boards.size(), "board") + ", " +
         count(n.racks.size(), "rack") + ", " + count(n.pods.size(), "pod") + "; " +
         (switches == 1 ? "1 switch" : integer(switches) + " switches") + "\n";
  // Links by kind and speed.
  std::map<std::tuple<std::string, double, double>, std::int64_t> kinds;
  for (const topo::Link& l : n.links)
    ++kinds[{topo::to_string(l.kind), l.bandwidth_bytes_per_s, l.latency_s}];
  std::vector<std::string> ks;
  for (const auto& [k, c] : kinds)
    ks.push_back(integer(c) + " " + std::get<0>(k) + " at " + rate(std::get<1>(k)) + ", " +
                 seconds(std::get<2>(k)));
  out += "links      " + integer(static_cast<std::int64_t>(n.links.size())) + ": " +
         join(ks, "; ") + "\n";
  out += "metrics    diameter " + integer(m.diameter) + " hops, path diversity " +
         integer(m.path_diversity) + ", bisection " + integer(m.bisection_links) +
         " links = " + rate(m.bisection_bandwidth_bytes_per_s) + " (" +
         m.bisection_bandwidth_method + ")\n";
  if (m.cost)
    out += "cost       $" + integer(std::llround(m.cost->capex_usd)) + " ($" +
           integer(std::llround(m.cost->capex_usd / static_cast<double>(n.n_chip))) +
           " per chip), " + integer(std::llround(m.cost->watts)) + " W; " +
           integer(m.cost->switch_ports) + " switch ports, " + integer(m.cost->nic_ports) +
           " NIC ports, " + integer(m.cost->copper) + " copper and " + integer(m.cost->optics) +
           " optical cables\n";
  if (d.faults && !d.faults->empty()) {
    out += "faults     " + count(d.faults->links.size(), "link") + ", " +
           count(d.faults->chips.size(), "chip") + ", " +
           (d.faults->switches.size() == 1
                ? "1 switch"
                : integer(static_cast<std::int64_t>(d.faults->switches.size())) + " switches") +
           " failed\n";
  }
  if (m.degraded) {
    const topo::DegradedMetrics& g = *m.degraded;
    out += "degraded   " + std::string(g.connected ? "connected" : "NOT connected") + ", " +
           integer(g.surviving_chips) + " chips and " + integer(g.surviving_links) +
           " links survive";
    if (g.diameter) out += ", diameter " + integer(*g.diameter) + " (" + g.diameter_method + ")";
    out += ", bisection " + rate(g.bisection_bandwidth_bytes_per_s) + "\n";
  }
  return out;
}

std::string routing_text(const Document& d) {
  const route::RoutingSection& r = *d.routing;
  std::string out = "routing    " + r.algorithm + ", " + std::to_string(r.vc_count) + " VC" +
                    (r.vc_count == 1 ? "" : "s") + ", params " + r.params.dump() + "\n";
  if (!r.verification) return out + "verdict    not verified\n";
  const route::Verification& v = *r.verification;
  out += "verdict    " +
         std::string(v.deadlock_free ? "deadlock-free"
                                     : "DEADLOCK: the channel dependency graph has a cycle") +
         " (" + integer(v.cdg.vertices) + " channels, " + integer(v.cdg.edges) +
         " dependencies); " +
         (v.unreachable_pairs == 0
              ? "every one of " + integer(v.pairs) + " pairs reachable"
              : integer(v.unreachable_pairs) + " of " + integer(v.pairs) + " pairs UNREACHABLE") +
         "\n";
  out += "hops       mean " + num(v.hops.mean) + ", max " + integer(v.hops.max) +
         "; stretch mean " + num(v.hops.stretch_mean) + ", max " + num(v.hops.stretch_max) + ", " +
         integer(v.hops.non_minimal_pairs) + " non-minimal pairs\n";
  if (v.load)
    out += "load       " + v.load->traffic + ": busiest channel " + num(v.load->max) + ", mean " +
           num(v.load->mean) + "; throughput bound " + num(v.load->throughput_bound) +
           " link bandwidths per chip\n";
  return out;
}

std::string schedule_text(const Document& d) {
  const coll::Schedule& s = *d.schedule;
  std::string out = "schedule   " + s.collective + ", " + s.algorithm;
  if (s.dim_scheduling != "none" && !s.dim_scheduling.empty()) out += " (" + s.dim_scheduling + ")";
  out += ", " + bytes(static_cast<double>(s.bytes_per_node)) + " per rank, " +
         std::to_string(s.chunks) + " chunk" + (s.chunks == 1 ? "" : "s") + ", " +
         integer(s.step_count()) + " steps\n";
  if (!s.left.empty())
    out += "left       " + integer(static_cast<std::int64_t>(s.left.size())) +
           " failed chips left their groups\n";
  if (s.selection) {
    // The fastest few of the algorithms compared (stable: the registry's order on ties).
    std::vector<coll::Candidate> k = s.selection->candidates;
    std::stable_sort(k.begin(), k.end(), [](auto& a, auto& b) { return a.time_s < b.time_s; });
    std::vector<std::string> c;
    for (std::size_t i = 0; i < k.size() && i < 4; ++i)
      c.push_back(k[i].algorithm + (k[i].chunks ? "/" + std::to_string(k[i].chunks) : "") + " " +
                  seconds(k[i].time_s));
    out += "chosen by  " + s.selection->by + ", the fastest of " + count(k.size(), "candidate") +
           ": " + join(c) + (k.size() > 4 ? ", ..." : "") + "\n";
  }
  if (s.verification)
    out += "verified   " +
           std::string(s.verification->delivered ? "every block delivered" : "NOT delivered") +
           " (" + integer(s.verification->steps_checked) + " steps, " +
           integer(s.verification->hop_transfers_checked) + " hop transfers checked)\n";
  else
    out += "verified   no\n";
  return out;
}

std::string flit_text(const sim::flit::FlitReport& f) {
  std::string out = "flit       " + f.traffic + " traffic, " + integer(f.n_nodes) +
                    " chips, packets of " + std::to_string(f.packet_flits) + " flits, routing " +
                    f.routing + "\n";
  Table t({"rate", "offered", "accepted", "latency", "p99", "max", "hops", "status"});
  for (const auto& p : f.points)
    t.row({num(p.rate), num(p.offered), num(p.accepted), num(p.latency.mean),
           integer(p.latency.p99), integer(p.latency.max), num(p.hops_mean), p.status});
  out += "  (rates and throughput in flits per chip per cycle; latency in cycles)\n" + t.text();
  if (f.saturation)
    out += "saturation " + num(f.saturation->rate) + " flits/chip/cycle (between " +
           num(f.saturation->highest_stable) + " and " + num(f.saturation->lowest_saturated) +
           "), zero-load latency " + num(f.saturation->zero_load) + " cycles\n";
  return out;
}

std::string report_text(const Document& d) {
  const sim::Report& r = *d.report;
  if (r.flit) return flit_text(*r.flit);
  std::string out = "simulated  " + r.mode + ", " +
                    (r.collective.empty() ? r.traffic : r.collective) + " by " + r.algorithm +
                    ", " + bytes(static_cast<double>(r.bytes_per_node)) + " per rank, " +
                    integer(r.n_nodes) + " ranks\n";
  out += "time       " + seconds(r.time_s) + "; algbw " + rate(r.algbw_bytes_per_s) + ", busbw " +
         rate(r.busbw_bytes_per_s) + "\n";
  if (r.bound_s)
    out += "bound      " + seconds(*r.bound_s) + " (" + r.bound_kind + "): efficiency " +
           percent(*r.bound_s / r.time_s) + "\n";
  if (r.closed_form_s) out += "closed     form " + seconds(*r.closed_form_s) + "\n";
  out += "links      utilisation max " + percent(r.link_utilisation.max) + ", mean " +
         percent(r.link_utilisation.mean) + " over " + integer(r.link_utilisation.live_channels) +
         " channels\n";
  if (r.replay)
    out += "replay     " + integer(r.replay->cycles) + " cycles, " + integer(r.replay->flit_hops) +
           " flit-hops, " + r.replay->status + "\n";
  if (!r.phases.empty() && r.phases.size() <= 12) {
    Table t({"phase", "steps", "start", "time"});
    for (const auto& p : r.phases)
      t.row({p.name, integer(p.steps), seconds(p.start_s), seconds(p.time_s)});
    out += t.text();
  } else if (!r.phases.empty()) {
    out +=
        "phases     " + integer(static_cast<std::int64_t>(r.phases.size())) + " (see the JSON)\n";
  }
  return out;
}

} // namespace

std::string summary_text(const Document& d, SummarySection s) {
  auto need = [&](bool have, const char* what) {
    if (!have) fail_input(d.source, std::string("the document has no ") + what + " section");
  };
  switch (s) {
  case SummarySection::Candidates:
    need(d.candidates.has_value(), "candidates");
    return candidates_text(d);
  case SummarySection::Network:
    need(d.network.has_value(), "network");
    return network_text(d);
  case SummarySection::Routing:
    need(d.routing.has_value(), "routing");
    return routing_text(d);
  case SummarySection::Schedule:
    need(d.schedule.has_value(), "schedule");
    return schedule_text(d);
  case SummarySection::Report:
    need(d.report.has_value(), "report");
    return report_text(d);
  }
  return {};
}

} // namespace icnkit
