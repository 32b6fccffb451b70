#include "sim/flit/report.hpp"

#include <cmath>
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

namespace {

json point_json(const FlitPoint& p) {
  json j = {{"rate_flits_per_node_cycle", p.rate},
            {"offered_flits_per_node_cycle", p.offered},
            {"accepted_flits_per_node_cycle", p.accepted},
            {"latency_cycles",
             {{"mean", p.latency.mean},
              {"p50", p.latency.p50},
              {"p99", p.latency.p99},
              {"max", p.latency.max}}},
            {"network_latency_cycles", {{"mean", p.network_latency_mean}}},
            {"hops_mean", p.hops_mean},
            {"cycles", p.cycles},
            {"status", p.status}};
  if (!p.status_detail.empty()) j["status_detail"] = p.status_detail;
  if (!p.deadlock_cycle.empty()) {
    json c = json::array();
    for (const WaitHop& h : p.deadlock_cycle)
      c.push_back({{"from", h.from}, {"to", h.to}, {"link", h.link}, {"vc", h.vc}});
    j["deadlock_cycle"] = c;
  }
  j["packets_measured"] = p.packets_measured;
  j["packets_not_generated"] = p.packets_not_generated;
  if (p.packets_to_failed) j["packets_to_failed_chips"] = p.packets_to_failed;
  j["source_backlog_growth_packets"] = p.backlog_growth;
  j["link_utilisation_flits_per_cycle"] = {{"max", p.link_util_max}, {"mean", p.link_util_mean}};
  if (p.channels) j["channels"] = channels_json(*p.channels);
  return j;
}

double nonneg(ObjReader& r, const std::string& key) {
  const double v = r.number(key);
  if (!(v >= 0) || !std::isfinite(v)) r.fail(key, "must be a finite number >= 0");
  return v;
}

FlitPoint parse_point(ObjReader& r) {
  FlitPoint p;
  p.rate = nonneg(r, "rate_flits_per_node_cycle");
  p.offered = nonneg(r, "offered_flits_per_node_cycle");
  p.accepted = nonneg(r, "accepted_flits_per_node_cycle");
  ObjReader l = r.object("latency_cycles");
  p.latency.mean = nonneg(l, "mean");
  p.latency.p50 = l.integer("p50", 0);
  p.latency.p99 = l.integer("p99", 0);
  p.latency.max = l.integer("max", 0);
  l.done();
  ObjReader nl = r.object("network_latency_cycles");
  p.network_latency_mean = nonneg(nl, "mean");
  nl.done();
  p.hops_mean = nonneg(r, "hops_mean");
  p.cycles = r.integer("cycles", 0);
  p.status = r.string("status");
  if (p.status != "ok" && p.status != "saturated" && p.status != "deadlock")
    r.fail("status", "must be ok, saturated or deadlock, got \"" + p.status + "\"");
  p.status_detail = r.string_opt("status_detail").value_or("");
  if (r.has("deadlock_cycle"))
    for (ObjReader& h : r.objects("deadlock_cycle")) {
      WaitHop w;
      w.from = h.integer("from", 0);
      w.to = h.integer("to", 0);
      w.link = h.integer("link", 0);
      w.vc = static_cast<int>(h.integer("vc", 0, 64));
      h.done();
      p.deadlock_cycle.push_back(w);
    }
  p.packets_measured = r.integer("packets_measured", 0);
  p.packets_not_generated = r.integer("packets_not_generated", 0);
  p.packets_to_failed = r.integer_opt("packets_to_failed_chips", 0).value_or(0);
  p.backlog_growth = r.integer("source_backlog_growth_packets");
  ObjReader u = r.object("link_utilisation_flits_per_cycle");
  p.link_util_max = nonneg(u, "max");
  p.link_util_mean = nonneg(u, "mean");
  u.done();
  if (r.has("channels")) p.channels = parse_channels(r, "channels");
  return p;
}

} // namespace

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

json channels_json(const std::vector<ChannelUse>& v) {
  json c = json::array();
  for (const ChannelUse& u : v)
    c.push_back({{"link", u.link}, {"from", u.from}, {"to", u.to}, {"utilisation", u.utilisation}});
  return c;
}

std::vector<ChannelUse> parse_channels(ObjReader& r, const std::string& key) {
  std::vector<ChannelUse> ch;
  for (ObjReader& c : r.objects(key)) {
    ChannelUse x;
    x.link = c.integer("link", 0);
    x.from = c.integer("from", 0);
    x.to = c.integer("to", 0);
    x.utilisation = nonneg(c, "utilisation");
    c.done();
    ch.push_back(x);
  }
  return ch;
}

json router_json(const RouterParams& p, const std::string& preset, const std::string& link_latency,
                 int link_latency_max_cycles) {
  json j = {{"preset", preset},
            {"vcs", p.vcs},
            {"buffer_flits", p.buffer_flits},
            {"routing_delay_cycles", p.routing_delay},
            {"va_delay_cycles", p.va_delay},
            {"sa_delay_cycles", p.sa_delay},
            {"st_delay_cycles", p.st_delay},
            {"credit_delay_cycles", p.credit_delay},
            {"alloc_iters", p.alloc_iters},
            {"vc_release", p.vc_release == VcRelease::Tail ? "tail" : "credit"},
            {"injection_latency_cycles", p.injection_latency},
            {"link_latency", link_latency},
            {"link_latency_max_cycles", link_latency_max_cycles}};
  if (p.endpoint_ports != 1) j["endpoint_ports"] = p.endpoint_ports;
  return j;
}

RouterParams parse_router(ObjReader& ro, std::string& preset, std::string& link_latency,
                          int& link_latency_max_cycles) {
  RouterParams p;
  preset = ro.string("preset");
  p.vcs = static_cast<int>(ro.integer("vcs", 1, 64));
  p.buffer_flits = static_cast<int>(ro.integer("buffer_flits", 1, 4096));
  p.routing_delay = static_cast<int>(ro.integer("routing_delay_cycles", 0, 64));
  p.va_delay = static_cast<int>(ro.integer("va_delay_cycles", 1, 64));
  p.sa_delay = static_cast<int>(ro.integer("sa_delay_cycles", 1, 64));
  p.st_delay = static_cast<int>(ro.integer("st_delay_cycles", 0, 64));
  p.credit_delay = static_cast<int>(ro.integer("credit_delay_cycles", 1, 64));
  p.alloc_iters = static_cast<int>(ro.integer("alloc_iters", 1, 16));
  const std::string rel = ro.string("vc_release");
  if (rel != "tail" && rel != "credit") ro.fail("vc_release", "must be tail or credit");
  p.vc_release = rel == "tail" ? VcRelease::Tail : VcRelease::Credit;
  p.injection_latency = static_cast<int>(ro.integer("injection_latency_cycles", 1, 1 << 16));
  link_latency = ro.string("link_latency");
  link_latency_max_cycles = static_cast<int>(ro.integer("link_latency_max_cycles", 1, 1 << 30));
  p.endpoint_ports = static_cast<int>(ro.integer_opt("endpoint_ports", 0, 64).value_or(1));
  ro.done();
  return p;
}

json to_json(const ReplayInfo& r) {
  json j = {
      {"routing", r.routing},
      {"router", router_json(r.router, r.router_preset, r.link_latency, r.link_latency_max_cycles)},
      {"packet_bytes", r.packet_bytes},
      {"flit_bytes", r.flit_bytes},
      {"cycle_s", r.cycle_s},
      {"cycles", r.cycles},
      {"packets", r.packets},
      {"flits", r.flits},
      {"flit_hops", r.flit_hops},
      {"latency_cycles", {{"mean", r.latency_mean}, {"max", r.latency_max}}},
      {"network_latency_cycles", {{"mean", r.network_latency_mean}}},
      {"peak_flows", r.peak_flows},
      {"status", r.status}};
  if (!r.status_detail.empty()) j["status_detail"] = r.status_detail;
  return j;
}

ReplayInfo parse_replay_info(ObjReader& r) {
  ReplayInfo x;
  x.routing = r.string("routing");
  ObjReader ro = r.object("router");
  x.router = parse_router(ro, x.router_preset, x.link_latency, x.link_latency_max_cycles);
  x.packet_bytes = r.integer("packet_bytes", 1);
  x.flit_bytes = r.integer("flit_bytes", 1);
  x.cycle_s = r.positive("cycle_s");
  x.cycles = r.integer("cycles", 0);
  x.packets = r.integer("packets", 0);
  x.flits = r.integer("flits", 0);
  x.flit_hops = r.integer("flit_hops", 0);
  ObjReader l = r.object("latency_cycles");
  x.latency_mean = nonneg(l, "mean");
  x.latency_max = l.integer("max", 0);
  l.done();
  ObjReader nl = r.object("network_latency_cycles");
  x.network_latency_mean = nonneg(nl, "mean");
  nl.done();
  x.peak_flows = r.integer("peak_flows", 0);
  x.status = r.string("status");
  if (x.status != "ok" && x.status != "deadlock")
    r.fail("status", "must be ok or deadlock, got \"" + x.status + "\"");
  x.status_detail = r.string_opt("status_detail").value_or("");
  r.done();
  return x;
}

json to_json(const FlitReport& r) {
  json j = {{"mode", "flit"}, {"source", "traffic"}, {"traffic", r.traffic}};
  if (!r.hotspots.empty()) j["hotspot"] = {{"chips", r.hotspots}, {"fraction", r.hotspot_fraction}};
  j["routing"] = r.routing;
  j["router"] = router_json(r.router, r.router_preset, r.link_latency, r.link_latency_max_cycles);
  j["packet_flits"] = r.packet_flits;
  j["flit_bytes"] = r.flit_bytes;
  j["warmup_cycles"] = r.warmup_cycles;
  j["measure_cycles"] = r.measure_cycles;
  j["seed"] = r.seed;
  j["n_nodes"] = r.n_nodes;
  if (r.zero_load_cycles) j["zero_load_latency_cycles"] = *r.zero_load_cycles;
  if (r.sweep) {
    json pts = json::array();
    for (const FlitPoint& pt : r.points) pts.push_back(point_json(pt));
    j["points"] = pts;
  } else if (!r.points.empty()) {
    j.update(point_json(r.points.front()));
  }
  if (r.saturation) {
    j["saturation"] = {{"rate_flits_per_node_cycle", r.saturation->rate},
                       {"highest_stable_rate", r.saturation->highest_stable},
                       {"lowest_saturated_rate", r.saturation->lowest_saturated},
                       {"zero_load_latency_cycles", r.saturation->zero_load}};
  }
  j["network_fingerprint"] = r.network_fingerprint;
  return j;
}

FlitReport parse_flit_report(ObjReader& r) {
  FlitReport f;
  if (r.string("mode") != "flit") r.fail("mode", "must be flit");
  if (r.string("source") != "traffic") r.fail("source", "must be traffic");
  f.traffic = r.string("traffic");
  if (auto h = r.object_opt("hotspot")) {
    f.hotspots = h->int_list("chips", 0);
    f.hotspot_fraction = h->number("fraction");
    h->done();
  }
  f.routing = r.string("routing");
  ObjReader ro = r.object("router");
  f.router = parse_router(ro, f.router_preset, f.link_latency, f.link_latency_max_cycles);
  f.packet_flits = static_cast<int>(r.integer("packet_flits", 1, 65535));
  f.flit_bytes = r.integer("flit_bytes", 1);
  f.warmup_cycles = r.integer("warmup_cycles", 0);
  f.measure_cycles = r.integer("measure_cycles", 1);
  f.seed = static_cast<std::uint64_t>(r.integer("seed", 0));
  f.n_nodes = r.integer("n_nodes", 0);
  if (auto z = r.number_opt("zero_load_latency_cycles")) f.zero_load_cycles = *z;
  if (r.has("points")) {
    f.sweep = true;
    for (ObjReader& pt : r.objects("points")) {
      f.points.push_back(parse_point(pt));
      pt.done();
    }
  } else {
    f.points.push_back(parse_point(r));
  }
  if (auto s = r.object_opt("saturation")) {
    FlitReport::Saturation sat;
    sat.rate = nonneg(*s, "rate_flits_per_node_cycle");
    sat.highest_stable = nonneg(*s, "highest_stable_rate");
    sat.lowest_saturated = nonneg(*s, "lowest_saturated_rate");
    sat.zero_load = nonneg(*s, "zero_load_latency_cycles");
    if (!(sat.highest_stable <= sat.rate && sat.rate <= sat.lowest_saturated))
      s->fail("rate_flits_per_node_cycle", "must lie between highest_stable_rate and "
                                           "lowest_saturated_rate");
    f.saturation = sat;
    s->done();
  }
  f.network_fingerprint = r.string("network_fingerprint");
  r.done();
  return f;
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
