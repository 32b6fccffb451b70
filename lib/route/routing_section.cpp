#include "route/routing_section.hpp"

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
        {"hops", {{"mean", v.hops.mean}, {"max", v.hops.max}, {"histogram", v.hops.histogram}}},
    };
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
    h.done();
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
  s.network_fingerprint = r.string("network_fingerprint");
  r.done();
  return s;
}

} // namespace icnkit::route
