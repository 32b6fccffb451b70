#include "sim/flit/study.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"
#include "sim/flit/clock.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace icnkit::sim::flit {

LinkLatencySpec parse_link_latency(const std::string& text, const std::string& where) {
  LinkLatencySpec s;
  if (text == "booksim") return s;
  if (text == "document") {
    s.rule = LinkLatencyRule::Document;
    return s;
  }
  if (text.empty() || text.size() > 6 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      (text.size() > 1 && text[0] == '0'))
    fail_usage(where,
               "expected booksim, document or a number of cycles (1..65536), got '" + text + "'");
  const long v = std::strtol(text.c_str(), nullptr, 10);
  if (v < 1 || v > 65536) fail_usage(where, "a link latency must be between 1 and 65536 cycles");
  s.rule = LinkLatencyRule::Fixed;
  s.cycles = static_cast<int>(v);
  return s;
}

std::vector<int> link_latencies(const topo::Network& n, const LinkLatencySpec& s,
                                std::int64_t flit_bytes, std::string* description) {
  std::vector<int> lat(n.links.size(), 1);
  switch (s.rule) {
  case LinkLatencyRule::Booksim: {
    const bool folded = n.family == "torus" || n.family == "ring";
    std::fill(lat.begin(), lat.end(), folded ? 2 : 1);
    *description = folded ? "booksim: 2 cycles per link (a folded torus, as BookSim times it)"
                          : "booksim: 1 cycle per link";
    break;
  }
  case LinkLatencyRule::Fixed:
    std::fill(lat.begin(), lat.end(), s.cycles);
    *description = std::to_string(s.cycles) + " cycles per link";
    break;
  case LinkLatencyRule::Document: {
    const double bw = fastest_link_bandwidth(n);
    if (!(bw > 0)) fail_infeasible("{link_latency_cycles}", "the network has no link bandwidth");
    const double cycle_s = static_cast<double>(flit_bytes) / bw;
    for (std::size_t k = 0; k < n.links.size(); ++k) {
      const double c = std::round(n.links[k].latency_s / cycle_s);
      if (c > 65536)
        fail_infeasible("{link_latency_cycles}",
                        "link " + std::to_string(k) + "'s latency is " + std::to_string(c) +
                            " cycles at this clock (at most 65536): use larger flits or a "
                            "fixed latency");
      lat[k] = std::max(1, static_cast<int>(c));
    }
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "document: latency_s at one %lld-byte flit per cycle on the fastest link "
                  "(%.6g ns per cycle)",
                  static_cast<long long>(flit_bytes), cycle_s * 1e9);
    *description = buf;
    break;
  }
  }
  return lat;
}

std::vector<double> parse_rates(const std::string& text, const std::string& where) {
  auto number = [&](const std::string& t) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
      fail_usage(where, "'" + t + "' is not a number (expected FROM:TO:STEP or R1,R2,...)");
    if (v < 0 || v > 1) fail_usage(where, "rates are within [0, 1] flits per node per cycle");
    return v;
  };
  std::vector<double> rates;
  if (text.find(':') != std::string::npos) {
    const std::size_t a = text.find(':'), b = text.find(':', a + 1);
    if (b == std::string::npos || text.find(':', b + 1) != std::string::npos)
      fail_usage(where, "a range is FROM:TO:STEP, e.g. 0.05:0.5:0.05");
    const double from = number(text.substr(0, a)), to = number(text.substr(a + 1, b - a - 1)),
                 step = number(text.substr(b + 1));
    if (!(step > 0) || to < from) fail_usage(where, "a range needs FROM <= TO and STEP > 0");
    const double count = std::floor((to - from) / step + 1e-9);
    if (count > 1000) fail_usage(where, "at most 1001 rates");
    for (int k = 0; k <= static_cast<int>(count); ++k)
      rates.push_back(std::round((from + k * step) * 1e9) / 1e9);
  } else {
    std::size_t pos = 0;
    while (pos <= text.size()) {
      std::size_t comma = text.find(',', pos);
      if (comma == std::string::npos) comma = text.size();
      rates.push_back(number(text.substr(pos, comma - pos)));
      pos = comma + 1;
      if (rates.size() > 1001) fail_usage(where, "at most 1001 rates");
    }
  }
  return rates;
}

std::optional<double> pattern_zero_load(const Fabric& f, const Pattern& p,
                                        const std::vector<int>& link_latency, int packet_flits,
                                        std::int64_t max_chips) {
  const topo::Network& n = f.network();
  if (n.n_chip > max_chips) return std::nullopt;
  std::vector<char> down_links(n.links.size(), 0), down_chips(static_cast<std::size_t>(n.n_chip));
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    down_chips[static_cast<std::size_t>(c)] = !f.chip_live(c);
  // The fabric already left down links out; trace sees them through the routing's choices.
  double sum = 0, weight = 0;
  std::vector<std::pair<std::int64_t, double>> dist;
  for (std::int64_t s = 0; s < n.n_chip; ++s) {
    if (!f.chip_live(s)) continue;
    p.distribution(s, dist);
    for (auto [d, w] : dist) {
      if (w <= 0 || !f.chip_live(d)) continue;
      int hops = 0;
      std::int64_t lsum = 0;
      if (s == d) {
        if (!f.chips_route()) { // up to the first switch and back
          const topo::Link* first = nullptr;
          for (const topo::Link& l : n.links)
            if (l.a == s || l.b == s) {
              first = &l;
              break;
            }
          if (!first) continue;
          hops = 2;
          lsum = 2 * link_latency[static_cast<std::size_t>(first->id)];
        }
      } else {
        const route::Path path = route::trace(f.routing(), n, f.down_links(), f.down_nodes(), s, d,
                                              2 * static_cast<std::int64_t>(n.nodes.size()) + 8);
        if (!path.delivered) continue;
        hops = static_cast<int>(path.hops.size());
        for (const route::Hop& h : path.hops)
          lsum += link_latency[static_cast<std::size_t>(topo::link_of_channel(h.channel))];
      }
      sum += w * zero_load_cycles(f.params(), f.chips_route(), hops, lsum, packet_flits);
      weight += w;
    }
  }
  if (!(weight > 0)) return std::nullopt;
  return sum / weight;
}

FlitReport run_study(const topo::Network& n, const topo::Faults& faults,
                     const route::RoutingSection& routing, const StudyOptions& o,
                     Progress* progress) {
  auto fn = route::make_routing(routing, n, faults);
  std::string lat_desc;
  const std::vector<int> lat = link_latencies(n, o.link_latency, o.flit_bytes, &lat_desc);
  Fabric fabric(n, faults, *fn, o.router, lat);
  Pattern pattern(o.pattern, n);

  FlitReport r;
  r.traffic = pattern_name(o.pattern.kind);
  if (o.pattern.kind == PatternKind::Hotspot) {
    r.hotspots = o.pattern.hotspots;
    r.hotspot_fraction = o.pattern.hotspot_fraction;
  }
  r.routing = routing.algorithm;
  r.router_preset = o.preset;
  r.router = o.router;
  r.link_latency = lat_desc;
  r.link_latency_max_cycles = fabric.max_link_latency();
  r.packet_flits = o.traffic.packet_flits;
  r.flit_bytes = o.flit_bytes;
  r.warmup_cycles = o.measure.warmup;
  r.measure_cycles = o.measure.measure;
  r.seed = o.measure.seed;
  r.n_nodes = fabric.live_chips();
  r.zero_load_cycles = pattern_zero_load(fabric, pattern, lat, o.traffic.packet_flits);
  r.network_fingerprint = n.fingerprint;
  const std::vector<char> down_links = faults.down_links(n);
  if (o.find_saturation) {
    SaturationSearch s =
        find_saturation(fabric, pattern, o.traffic, o.measure, o.saturation_resolution,
                        o.saturation_latency_factor, o.zero_load_rate, o.threads, progress);
    r.sweep = true;
    r.saturation = FlitReport::Saturation{s.saturation_rate, s.highest_stable, s.lowest_saturated,
                                          s.zero_load_latency};
    for (const RunResult& x : s.runs)
      r.points.push_back(make_point(x, n, down_links, o.measure.link_stats));
  } else if (!o.sweep.empty()) {
    r.sweep = true;
    for (const RunResult& x :
         run_sweep(fabric, pattern, o.traffic, o.measure, o.sweep, o.threads, progress))
      r.points.push_back(make_point(x, n, down_links, o.measure.link_stats));
  } else {
    r.points.push_back(
        make_point(run_once(fabric, pattern, o.traffic, o.measure, progress, o.threads), n,
                   down_links, o.measure.link_stats));
  }
  return r;
}

} // namespace icnkit::sim::flit
