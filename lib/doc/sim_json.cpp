#include "doc/sim_json.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::sim::flit {

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

} // namespace icnkit::sim::flit

namespace icnkit::sim {

json to_json(const Report& s) {
  if (s.flit) return flit::to_json(*s.flit);
  json phases = json::array();
  for (const PhaseTime& p : s.phases)
    phases.push_back({{"name", p.name},
                      {"steps", p.steps},
                      {"start_s", p.start_s},
                      {"end_s", p.end_s},
                      {"time_s", p.time_s}});
  const LinkUtilisation& u = s.link_utilisation;
  json util = {{"max", u.max},
               {"mean", u.mean},
               {"mean_busy", u.mean_busy},
               {"live_channels", u.live_channels},
               {"busy_channels", u.busy_channels}};
  if (u.channels) util["channels"] = flit::channels_json(*u.channels);
  json j = {{"mode", s.mode},
            {"source", s.source},
            {"collective", s.collective},
            {"algorithm", s.algorithm},
            {"n_nodes", s.n_nodes},
            {"bytes_per_node", s.bytes_per_node},
            {"time_s", s.time_s},
            {"algbw_bytes_per_s", s.algbw_bytes_per_s},
            {"busbw_bytes_per_s", s.busbw_bytes_per_s},
            {"phases", phases},
            {"link_utilisation", util},
            {"latency_model", s.latency_model},
            {"steps", s.steps},
            {"flows", s.flows},
            {"events", s.events}};
  if (!s.dim_scheduling.empty()) j["dim_scheduling"] = s.dim_scheduling;
  if (!s.traffic.empty()) j["traffic"] = s.traffic;
  if (s.closed_form_s)
    j["closed_form"] = {{"time_s", *s.closed_form_s}, {"formula", s.closed_form_formula}};
  if (s.bound_s) {
    j["bound"] = {{"time_s", *s.bound_s}, {"kind", s.bound_kind}};
    j["efficiency"] = s.time_s > 0 ? *s.bound_s / s.time_s : 0.0;
  }
  if (s.step_times) {
    json st = json::array();
    for (auto& [a, b] : *s.step_times) st.push_back(json::array({a, b}));
    j["step_times"] = st;
  }
  if (s.replay) j["replay"] = flit::to_json(*s.replay);
  j["network_fingerprint"] = s.network_fingerprint;
  return j;
}

namespace {
double nonneg(ObjReader& r, const std::string& key) {
  double v = r.number(key);
  if (!(v >= 0) || !std::isfinite(v)) r.fail(key, "must be a finite number >= 0");
  return v;
}
} // namespace

Report parse_report(ObjReader& r) {
  Report s;
  s.mode = r.string("mode");
  if (s.mode == "flit" && r.string_opt("source").value_or("") == "traffic" && !r.has("replay")) {
    s.source = "traffic";
    s.flit = flit::parse_flit_report(r);
    s.network_fingerprint = s.flit->network_fingerprint;
    return s;
  }
  if (s.mode != "analytic" && s.mode != "flit")
    r.fail("mode", "must be analytic or flit, got \"" + s.mode + "\"");
  s.source = r.string("source");
  if (s.source != "schedule" && s.source != "traffic")
    r.fail("source", "must be schedule or traffic, got \"" + s.source + "\"");
  s.collective = r.string("collective");
  s.algorithm = r.string("algorithm");
  s.n_nodes = r.integer("n_nodes", 0);
  s.bytes_per_node = r.integer("bytes_per_node", 0);
  s.time_s = nonneg(r, "time_s");
  s.algbw_bytes_per_s = nonneg(r, "algbw_bytes_per_s");
  s.busbw_bytes_per_s = nonneg(r, "busbw_bytes_per_s");
  for (ObjReader& p : r.objects("phases")) {
    PhaseTime ph;
    ph.name = p.string("name");
    ph.steps = p.integer("steps", 0);
    ph.start_s = nonneg(p, "start_s");
    ph.end_s = nonneg(p, "end_s");
    ph.time_s = nonneg(p, "time_s");
    if (ph.end_s < ph.start_s) p.fail("end_s", "a phase cannot end before it starts");
    p.done();
    s.phases.push_back(std::move(ph));
  }
  ObjReader u = r.object("link_utilisation");
  s.link_utilisation.max = nonneg(u, "max");
  s.link_utilisation.mean = nonneg(u, "mean");
  s.link_utilisation.mean_busy = nonneg(u, "mean_busy");
  s.link_utilisation.live_channels = u.integer("live_channels", 0);
  s.link_utilisation.busy_channels = u.integer("busy_channels", 0);
  if (u.has("channels")) s.link_utilisation.channels = flit::parse_channels(u, "channels");
  u.done();
  s.latency_model = r.string("latency_model");
  s.steps = r.integer("steps", 0);
  s.flows = r.integer("flows", 0);
  s.events = r.integer("events", 0);
  s.dim_scheduling = r.string_opt("dim_scheduling").value_or("");
  s.traffic = r.string_opt("traffic").value_or("");
  if (auto cf = r.object_opt("closed_form")) {
    s.closed_form_s = nonneg(*cf, "time_s");
    s.closed_form_formula = cf->string("formula");
    cf->done();
  }
  if (auto b = r.object_opt("bound")) {
    s.bound_s = nonneg(*b, "time_s");
    s.bound_kind = b->string("kind");
    if (std::find(kBoundKinds.begin(), kBoundKinds.end(), s.bound_kind) == kBoundKinds.end()) {
      std::string known;
      for (const char* k : kBoundKinds) known += (known.empty() ? "" : ", ") + std::string(k);
      b->fail("kind", "expected one of " + known);
    }
    b->done();
    nonneg(r, "efficiency"); // derived: bound / time
  }
  if (const json* st = r.raw_opt("step_times")) {
    std::string where = r.where("step_times");
    if (!st->is_array()) fail_input(where, "must be an array of [start_s, end_s] pairs");
    std::vector<std::pair<double, double>> v;
    for (std::size_t i = 0; i < st->size(); ++i) {
      const json& e = (*st)[i];
      std::string w = where + "/" + std::to_string(i);
      if (!e.is_array() || e.size() != 2) fail_input(w, "must be a [start_s, end_s] pair");
      double a = as_number(e[0], w + "/0"), b = as_number(e[1], w + "/1");
      if (!(a >= 0) || !(b >= a) || !std::isfinite(b)) fail_input(w, "needs 0 <= start_s <= end_s");
      v.emplace_back(a, b);
    }
    s.step_times = std::move(v);
  }
  if (auto rp = r.object_opt("replay")) s.replay = flit::parse_replay_info(*rp);
  if (s.mode == "flit" && !s.replay) r.fail("replay", "a flit-mode report of a schedule needs it");
  s.network_fingerprint = r.string("network_fingerprint");
  r.done();
  return s;
}

} // namespace icnkit::sim
