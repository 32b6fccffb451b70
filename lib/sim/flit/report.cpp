#include "sim/flit/report.hpp"

#include <cstdio>

namespace icnkit::sim::flit {

FlitPoint make_point(const RunResult& r, const topo::Network& n, const std::vector<char>& down,
                     bool link_stats) {
  FlitPoint p;
  p.rate = r.rate;
  p.offered = r.offered;
  p.accepted = r.accepted;
  p.latency = r.latency;
  p.network_latency_mean = r.network_latency;
  p.hops_mean = r.hops_mean;
  p.cycles = r.cycles;
  p.status = r.status;
  p.status_detail = r.status_detail;
  p.deadlock_cycle = r.deadlock_cycle;
  p.packets_measured = r.packets_measured;
  p.packets_not_generated = r.packets_suppressed;
  p.packets_to_failed = r.packets_to_failed;
  p.backlog_growth = r.backlog_growth;
  if (!r.channel_utilisation.empty()) {
    std::vector<ChannelUse> ch = channel_uses(r.channel_utilisation, n, down);
    double sum = 0;
    for (const ChannelUse& u : ch) {
      p.link_util_max = std::max(p.link_util_max, u.utilisation);
      sum += u.utilisation;
    }
    p.link_util_mean = ch.empty() ? 0 : sum / static_cast<double>(ch.size());
    if (link_stats) p.channels = std::move(ch);
  }
  return p;
}

std::vector<ChannelUse> channel_uses(const std::vector<double>& utilisation, const topo::Network& n,
                                     const std::vector<char>& down) {
  std::vector<ChannelUse> ch;
  for (std::size_t k = 0; k < utilisation.size(); ++k) {
    const auto c = static_cast<std::int64_t>(k);
    const std::int64_t link = topo::link_of_channel(c);
    if (down[static_cast<std::size_t>(link)]) continue;
    ch.push_back({link, n.channel_src(c), n.channel_dst(c), utilisation[k]});
  }
  return ch;
}

namespace {
std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}
} // namespace

std::string flit_csv_header(const FlitReport& r) {
  std::string h = "rate,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,"
                  "network_latency_mean,hops_mean,cycles,status";
  if (r.saturation)
    h += ",saturation_rate,highest_stable_rate,lowest_saturated_rate,zero_load_latency_cycles";
  return h + "\n";
}

std::string flit_csv_rows(const FlitReport& r) {
  std::string tail;
  if (r.saturation) {
    const FlitReport::Saturation& s = *r.saturation;
    for (double v : {s.rate, s.highest_stable, s.lowest_saturated, s.zero_load}) {
      tail += ',';
      tail += num(v);
    }
  }
  std::string s;
  for (const FlitPoint& p : r.points)
    s += num(p.rate) + "," + num(p.offered) + "," + num(p.accepted) + "," + num(p.latency.mean) +
         "," + std::to_string(p.latency.p50) + "," + std::to_string(p.latency.p99) + "," +
         std::to_string(p.latency.max) + "," + num(p.network_latency_mean) + "," +
         num(p.hops_mean) + "," + std::to_string(p.cycles) + "," + p.status + tail + "\n";
  return s;
}

} // namespace icnkit::sim::flit
