#include "doc/route_json.hpp"

#include "core/error.hpp"
#include "route/registry.hpp"

namespace icnkit::route {

json to_json(const RoutingSection& s) {
  json j = json::object();
  j["algorithm"] = s.algorithm;
  j["params"] = s.params;
  j["vc_count"] = s.vc_count;
  if (s.verification) {
    const Verification& v = *s.verification;
    json cycle = nullptr;
    if (v.cdg.cycle) {
      cycle = json::array();
      for (auto& h : *v.cdg.cycle)
        cycle.push_back({{"from", h.from}, {"to", h.to}, {"link", h.link}, {"vc", h.vc}});
    }
    json unreachable = json::array();
    for (auto& u : v.unreachable)
      unreachable.push_back({{"src", u.src}, {"dst", u.dst}, {"reason", u.reason}});
    j["verification"] = {
        {"deadlock_free", v.deadlock_free},
        {"cdg",
         {{"vertices", v.cdg.vertices},
          {"edges", v.cdg.edges},
          {"walks_over_hop_limit", v.cdg.walks_over_hop_limit},
          {"cycle", cycle}}},
        {"hop_limit", v.hop_limit},
        {"pairs", v.pairs},
        {"unreachable_pairs", v.unreachable_pairs},
        {"unreachable", unreachable},
        {"hops",
         {{"mean", v.hops.mean},
          {"max", v.hops.max},
          {"histogram", v.hops.histogram},
          {"stretch_mean", v.hops.stretch_mean},
          {"stretch_max", v.hops.stretch_max},
          {"non_minimal_pairs", v.hops.non_minimal_pairs}}},
    };
    if (v.load)
      j["verification"]["load"] = {{"traffic", v.load->traffic},
                                   {"max", v.load->max},
                                   {"mean", v.load->mean},
                                   {"max_link", v.load->max_link},
                                   {"max_from", v.load->max_from},
                                   {"max_to", v.load->max_to},
                                   {"throughput_bound", v.load->throughput_bound},
                                   {"split_exact", v.load->split_exact}};
  }
  if (s.emitted) {
    if (!s.emitted->tables.empty()) j["tables"] = s.emitted->tables;
    if (!s.emitted->paths.empty()) {
      json paths = json::array();
      for (auto& p : s.emitted->paths)
        paths.push_back({{"src", p.src}, {"dst", p.dst}, {"channels", p.channels}, {"vcs", p.vcs}});
      j["paths"] = paths;
    }
  }
  j["network_fingerprint"] = s.network_fingerprint;
  return j;
}

namespace {

Verification parse_verification(ObjReader& r) {
  Verification v;
  v.deadlock_free = r.boolean("deadlock_free");
  {
    ObjReader c = r.object("cdg");
    v.cdg.vertices = c.integer("vertices", 0);
    v.cdg.edges = c.integer("edges", 0);
    v.cdg.walks_over_hop_limit = c.integer("walks_over_hop_limit", 0);
    if (!c.raw("cycle").is_null()) {
      std::vector<CycleHop> cycle;
      for (ObjReader& h : c.objects("cycle")) {
        CycleHop x;
        x.from = h.integer("from", 0);
        x.to = h.integer("to", 0);
        x.link = h.integer("link", 0);
        x.vc = static_cast<int>(h.integer("vc", 0, 1 << 16));
        h.done();
        cycle.push_back(x);
      }
      if (cycle.empty())
        c.fail("cycle", "a cycle has at least one channel (null when there is none)");
      v.cdg.cycle = std::move(cycle);
    }
    c.done();
  }
  if (v.deadlock_free == v.cdg.cycle.has_value())
    r.fail("deadlock_free",
           "disagrees with cdg.cycle (deadlock-free exactly when there is no cycle)");
  v.hop_limit = r.integer("hop_limit", 0);
  v.pairs = r.integer("pairs", 0);
  v.unreachable_pairs = r.integer("unreachable_pairs", 0, v.pairs);
  for (ObjReader& u : r.objects("unreachable")) {
    UnreachablePair p;
    p.src = u.integer("src", 0);
    p.dst = u.integer("dst", 0);
    p.reason = u.string("reason");
    u.done();
    v.unreachable.push_back(std::move(p));
  }
  if (v.unreachable.size() > kMaxListedUnreachable ||
      static_cast<std::int64_t>(v.unreachable.size()) > v.unreachable_pairs)
    r.fail("unreachable", "lists more pairs than unreachable_pairs (or more than " +
                              std::to_string(kMaxListedUnreachable) + ")");
  {
    ObjReader h = r.object("hops");
    v.hops.mean = h.number("mean");
    v.hops.max = h.integer("max", 0);
    v.hops.histogram = h.int_list("histogram", 0);
    v.hops.stretch_mean = h.number_opt("stretch_mean").value_or(1.0);
    v.hops.stretch_max = h.number_opt("stretch_max").value_or(1.0);
    v.hops.non_minimal_pairs = h.integer_opt("non_minimal_pairs", 0).value_or(0);
    h.done();
  }
  if (auto l = r.object_opt("load")) {
    LoadSummary s;
    s.traffic = l->string_opt("traffic").value_or("all-to-all");
    s.max = l->number("max");
    s.mean = l->number("mean");
    s.max_link = l->integer("max_link", -1);
    s.max_from = l->integer("max_from", -1);
    s.max_to = l->integer("max_to", -1);
    s.throughput_bound = l->number("throughput_bound");
    s.split_exact = l->boolean("split_exact");
    l->done();
    v.load = s;
  }
  r.done();
  return v;
}

} // namespace

RoutingSection parse_routing(ObjReader& r) {
  RoutingSection s;
  s.algorithm = r.string("algorithm");
  const Algorithm& a = require_algorithm(s.algorithm, ErrorKind::Input, r.where("algorithm"));
  if (r.has("params")) {
    ObjReader p = r.object("params");
    s.params = read_params(a, p);
  } else {
    const json empty = json::object(); // ObjReader keeps a reference: it must outlive p
    ObjReader p(empty, r.source(), r.pointer() + "/params");
    s.params = read_params(a, p);
  }
  s.vc_count = r.integer("vc_count", 1, 1 << 16);
  if (auto v = r.object_opt("verification")) s.verification = parse_verification(*v);
  if (r.has("tables") || r.has("paths")) {
    Emitted e;
    if (r.has("tables")) {
      const json& t = r.raw("tables");
      if (!t.is_array()) r.fail("tables", "expected an array of per-node arrays");
      for (auto& row : t) {
        if (!row.is_array()) r.fail("tables", "expected an array of per-node arrays");
        std::vector<std::int64_t> x;
        for (auto& c : row) x.push_back(as_integer(c, r.where("tables"), -1));
        e.tables.push_back(std::move(x));
      }
    }
    if (r.has("paths"))
      for (ObjReader& p : r.objects("paths")) {
        Emitted::PairPath x;
        x.src = p.integer("src", 0);
        x.dst = p.integer("dst", 0);
        x.channels = p.int_list("channels", 0);
        for (auto v : p.int_list("vcs", 0, 1 << 16)) x.vcs.push_back(static_cast<int>(v));
        if (x.vcs.size() != x.channels.size()) p.fail("vcs", "one VC per channel");
        p.done();
        e.paths.push_back(std::move(x));
      }
    s.emitted = std::move(e);
  }
  s.network_fingerprint = r.string("network_fingerprint");
  r.done();
  return s;
}

} // namespace icnkit::route
