#include "topo/network.hpp"

#include "core/fingerprint.hpp"
#include "core/units.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace icnkit::topo {

namespace {

// A network's cost (Metrics::cost; topo/cost.hpp computes it).
json to_json(const Cost& c) {
  return {{"capex_usd", c.capex_usd},
          {"watts", c.watts},
          {"switches_usd", c.switches_usd},
          {"nics_usd", c.nics_usd},
          {"cables_usd", c.cables_usd},
          {"switch_ports", c.switch_ports},
          {"nic_ports", c.nic_ports},
          {"traces", c.traces},
          {"copper", c.copper},
          {"optics", c.optics},
          {"table", c.table}};
}

Cost parse_cost(ObjReader& r) {
  Cost c;
  auto nonneg = [&](const char* key) {
    const double v = r.number(key);
    if (!(v >= 0)) r.fail(key, "must not be negative");
    return v;
  };
  c.capex_usd = nonneg("capex_usd");
  c.watts = nonneg("watts");
  c.switches_usd = nonneg("switches_usd");
  c.nics_usd = nonneg("nics_usd");
  c.cables_usd = nonneg("cables_usd");
  c.switch_ports = r.integer("switch_ports", 0);
  c.nic_ports = r.integer("nic_ports", 0);
  c.traces = r.integer("traces", 0);
  c.copper = r.integer("copper", 0);
  c.optics = r.integer("optics", 0);
  c.table = r.string("table");
  r.done();
  return c;
}

json node_json(const Node& v) {
  json j = {{"id", v.id}, {"kind", v.kind == NodeKind::Chip ? "chip" : "switch"}, {"tier", v.tier}};
  if (v.board >= 0) j["board"] = v.board;
  if (v.rack >= 0) j["rack"] = v.rack;
  if (v.pod >= 0) j["pod"] = v.pod;
  if (!v.coord.empty()) j["coord"] = v.coord;
  if (v.kind == NodeKind::Switch) {
    j["role"] = v.role;
    j["ports"] = v.ports;
  }
  return j;
}

json link_json(const Link& l, const LinkDefaults& defaults) {
  json j = {{"id", l.id}, {"a", l.a}, {"b", l.b}, {"kind", to_string(l.kind)}};
  const auto& def = defaults[static_cast<std::size_t>(l.kind)];
  if (!def || def->first != l.bandwidth_bytes_per_s)
    j["bandwidth_bytes_per_s"] = l.bandwidth_bytes_per_s;
  if (!def || def->second != l.latency_s) j["latency_s"] = l.latency_s;
  if (l.dim >= 0) {
    j["dim"] = l.dim;
    j["dir"] = l.dir;
  }
  return j;
}

json nodes_json(const Network& n) {
  json a = json::array();
  for (auto& v : n.nodes) a.push_back(node_json(v));
  return a;
}
json links_json(const Network& n, const LinkDefaults& defaults) {
  json a = json::array();
  for (auto& l : n.links) a.push_back(link_json(l, defaults));
  return a;
}

} // namespace

LinkDefaults link_defaults(const Network& n) {
  std::array<std::map<std::pair<double, double>, std::int64_t>, 4> count;
  for (const Link& l : n.links)
    ++count[static_cast<std::size_t>(l.kind)][{l.bandwidth_bytes_per_s, l.latency_s}];
  LinkDefaults d;
  for (std::size_t k = 0; k < count.size(); ++k) {
    std::int64_t best = 0;
    for (const auto& [pair, c] : count[k])
      if (c > best) best = c, d[k] = pair; // ascending pairs: a tie keeps the smaller
  }
  return d;
}

std::vector<char> Faults::down_links(const Network& n) const {
  std::vector<char> down(n.links.size(), 0);
  for (auto& f : links) down[static_cast<std::size_t>(f.link)] = 1;
  if (!chips.empty()) {
    auto dc = down_chips(n);
    for (auto& l : n.links)
      if (dc[static_cast<std::size_t>(l.a)] || dc[static_cast<std::size_t>(l.b)])
        down[static_cast<std::size_t>(l.id)] = 1;
  }
  return down;
}

std::vector<char> Faults::down_chips(const Network& n) const {
  std::vector<char> down(n.nodes.size(), 0);
  for (auto& c : chips) down[static_cast<std::size_t>(c.chip)] = 1;
  return down;
}

json to_json(const DegradedMetrics& m) {
  return {{"surviving_chips", m.surviving_chips},
          {"surviving_links", m.surviving_links},
          {"connected", m.connected},
          {"diameter", m.diameter ? json(*m.diameter) : json(nullptr)},
          {"diameter_method", m.diameter_method},
          {"path_diversity", m.path_diversity},
          {"path_diversity_method", m.path_diversity_method},
          {"bisection_bandwidth_bytes_per_s", m.bisection_bandwidth_bytes_per_s},
          {"bisection_links", m.bisection_links},
          {"bisection_bandwidth_method", m.bisection_bandwidth_method}};
}

json to_json(const Metrics& m) {
  json j = {{"diameter", m.diameter},
            {"bisection_bandwidth_bytes_per_s", m.bisection_bandwidth_bytes_per_s},
            {"bisection_links", m.bisection_links},
            {"bisection_bandwidth_method", m.bisection_bandwidth_method},
            {"link_count", m.link_count},
            {"switch_count", m.switch_count},
            {"path_diversity", m.path_diversity},
            {"derived_chips_per_board", m.derived_chips_per_board},
            {"family_attrs", m.family_attrs}};
  if (m.degraded) j["degraded"] = to_json(*m.degraded);
  if (m.cost) j["cost"] = to_json(*m.cost);
  return j;
}

DegradedMetrics parse_degraded_metrics(ObjReader& r) {
  DegradedMetrics m;
  m.surviving_chips = r.integer("surviving_chips", 0, kMaxChips);
  m.surviving_links = r.integer("surviving_links", 0);
  m.connected = r.boolean("connected");
  if (const json& d = r.raw("diameter"); !d.is_null())
    m.diameter = as_integer(d, r.where("diameter"), 0);
  if (m.connected != m.diameter.has_value())
    r.fail("diameter", "must be a number when connected and null when not");
  m.diameter_method = r.string("diameter_method");
  if (m.diameter_method != "exact" && m.diameter_method != "lower-bound")
    r.fail("diameter_method", "expected exact or lower-bound");
  m.path_diversity = r.integer("path_diversity", 0);
  m.path_diversity_method = r.string("path_diversity_method");
  if (m.path_diversity_method != "exact" && m.path_diversity_method != "upper-bound")
    r.fail("path_diversity_method", "expected exact or upper-bound");
  m.bisection_bandwidth_bytes_per_s = r.number("bisection_bandwidth_bytes_per_s");
  if (m.bisection_bandwidth_bytes_per_s < 0)
    r.fail("bisection_bandwidth_bytes_per_s", "must not be negative");
  m.bisection_links = r.integer("bisection_links", 0);
  m.bisection_bandwidth_method = r.string("bisection_bandwidth_method");
  if (m.bisection_bandwidth_method != "exact" && m.bisection_bandwidth_method != "heuristic")
    r.fail("bisection_bandwidth_method", "expected exact or heuristic");
  r.done();
  return m;
}

json to_json(const Network& n) {
  json boards = json::array(), racks = json::array(), pods = json::array();
  for (auto& b : n.boards) boards.push_back({{"id", b.id}, {"rack", b.rack}, {"chips", b.chips}});
  for (auto& r : n.racks) racks.push_back({{"id", r.id}, {"pod", r.pod}, {"boards", r.boards}});
  for (auto& p : n.pods) pods.push_back({{"id", p.id}, {"racks", p.racks}});
  const LinkDefaults defaults = link_defaults(n);
  json defaults_json = json::object();
  for (LinkKind k : kLinkKindsByName)
    if (const auto& d = defaults[static_cast<std::size_t>(k)])
      defaults_json[to_string(k)] = {{"bandwidth_bytes_per_s", d->first}, {"latency_s", d->second}};
  return {{"family", n.family},
          {"n_chip", n.n_chip},
          {"chip_radix", n.chip_radix},
          {"nodes", nodes_json(n)},
          {"link_defaults", defaults_json},
          {"links", links_json(n, defaults)},
          {"boards", boards},
          {"racks", racks},
          {"pods", pods},
          {"metrics", to_json(n.metrics)},
          {"fingerprint", n.fingerprint}};
}

namespace {
// The bounds the command line's units apply (core/units.hpp): outside them a figure is a typo,
// and the simulators' arithmetic would overflow to inf or lose every digit.
double link_bandwidth(ObjReader& o) {
  const double v = o.positive("bandwidth_bytes_per_s");
  if (v < kLinkBandwidthMin || v > kLinkBandwidthMax)
    o.fail("bandwidth_bytes_per_s", "must lie between 1 KB/s and 1 PB/s (1e3 .. 1e15 bytes/s)");
  return v;
}
double link_latency(ObjReader& o) {
  const double v = o.number("latency_s");
  if (v < 0) o.fail("latency_s", "latency must not be negative");
  if (v > kLinkLatencyMax) o.fail("latency_s", "must be at most 1 s");
  return v;
}

// One element of each of the network's big arrays: the only place their rules live. The DOM
// reader and the streaming reader (core/json_stream.hpp) both hand each element here, in order.
Node parse_node(ObjReader& o, std::size_t i, std::int64_t n_chip) {
  Node v;
  v.id = o.integer("id");
  if (v.id != static_cast<std::int64_t>(i))
    o.fail("id", "node ids must be dense: expected " + std::to_string(i));
  auto kind = o.string("kind");
  if (kind == "chip")
    v.kind = NodeKind::Chip;
  else if (kind == "switch")
    v.kind = NodeKind::Switch;
  else
    o.fail("kind", "expected \"chip\" or \"switch\"");
  v.tier = static_cast<int>(o.integer("tier", 6, 10));
  v.board = o.integer_opt("board", 0).value_or(-1);
  v.rack = o.integer_opt("rack", 0).value_or(-1);
  v.pod = o.integer_opt("pod", 0).value_or(-1);
  if (o.has("coord"))
    for (auto c : o.int_list("coord", 0, kMaxChips)) v.coord.push_back(static_cast<int>(c));
  if (v.kind == NodeKind::Switch) {
    v.role = o.string("role");
    v.ports = o.integer("ports", 1);
  }
  o.done();
  if ((v.kind == NodeKind::Chip) != (v.id < n_chip))
    o.fail("kind", "chips must be nodes 0.." + std::to_string(n_chip - 1) + " and switches follow");
  return v;
}

Link parse_link(ObjReader& o, std::size_t i, std::int64_t node_count,
                const LinkDefaults& defaults) {
  Link l;
  l.id = o.integer("id");
  if (l.id != static_cast<std::int64_t>(i))
    o.fail("id", "link ids must be dense: expected " + std::to_string(i));
  l.a = o.integer("a", 0, node_count - 1);
  l.b = o.integer("b", 0, node_count - 1);
  if (l.a == l.b) o.fail("b", "a link must join two different nodes");
  auto kind = o.string("kind");
  auto k = parse_link_kind(kind);
  if (!k) o.fail("kind", "expected c2c, b2b, r2r or p2p");
  l.kind = *k;
  // A figure the link leaves out is its kind's default.
  const auto& def = defaults[static_cast<std::size_t>(l.kind)];
  if (!def && (!o.has("bandwidth_bytes_per_s") || !o.has("latency_s")))
    o.fail(o.has("latency_s") ? "bandwidth_bytes_per_s" : "latency_s",
           "missing, and the network's link_defaults has no " + kind + " entry");
  l.bandwidth_bytes_per_s = o.has("bandwidth_bytes_per_s") ? link_bandwidth(o) : def->first;
  l.latency_s = o.has("latency_s") ? link_latency(o) : def->second;
  if (auto d = o.integer_opt("dim", 0, 63)) {
    l.dim = static_cast<int>(*d);
    l.dir = static_cast<int>(o.integer("dir", -1, 1));
    if (l.dir == 0) o.fail("dir", "expected +1 or -1");
  }
  o.done();
  return l;
}

Board parse_board(ObjReader& o, std::int64_t node_count) {
  Board b;
  b.id = o.integer("id", 0);
  b.rack = o.integer("rack", 0);
  b.chips = o.int_list("chips", 0, node_count - 1);
  o.done();
  return b;
}
} // namespace

Network parse_network(ObjReader& r) {
  Network n;
  n.family = r.string("family");
  n.n_chip = r.integer("n_chip", 1, kMaxChips);
  n.chip_radix = r.integer("chip_radix", 1, 1024);
  r.for_each_object(
      "nodes", [&](std::size_t count) { n.nodes.reserve(count); },
      [&](ObjReader& o, std::size_t i) { n.nodes.push_back(parse_node(o, i, n.n_chip)); });
  const auto node_count = static_cast<std::int64_t>(n.nodes.size());
  if (node_count < n.n_chip) r.fail("nodes", "fewer nodes than n_chip");
  LinkDefaults defaults;
  if (auto ld = r.object_opt("link_defaults")) {
    for (LinkKind k : kLinkKindsByName)
      if (auto o = ld->object_opt(to_string(k))) {
        defaults[static_cast<std::size_t>(k)] = {link_bandwidth(*o), link_latency(*o)};
        o->done();
      }
    ld->done();
  }
  r.for_each_object(
      "links", [&](std::size_t count) { n.links.reserve(count); },
      [&](ObjReader& o, std::size_t i) {
        n.links.push_back(parse_link(o, i, node_count, defaults));
      });
  r.for_each_object(
      "boards", [&](std::size_t count) { n.boards.reserve(count); },
      [&](ObjReader& o, std::size_t) { n.boards.push_back(parse_board(o, node_count)); });
  for (auto& o : r.objects("racks")) {
    Rack k;
    k.id = o.integer("id", 0);
    k.pod = o.integer("pod", 0);
    k.boards = o.int_list("boards", 0);
    o.done();
    n.racks.push_back(std::move(k));
  }
  for (auto& o : r.objects("pods")) {
    Pod p;
    p.id = o.integer("id", 0);
    p.racks = o.int_list("racks", 0);
    o.done();
    n.pods.push_back(std::move(p));
  }
  auto m = r.object("metrics");
  n.metrics.diameter = m.integer("diameter", 0);
  n.metrics.bisection_bandwidth_bytes_per_s = m.number("bisection_bandwidth_bytes_per_s");
  n.metrics.bisection_links = m.integer("bisection_links", 0);
  n.metrics.bisection_bandwidth_method = m.string("bisection_bandwidth_method");
  n.metrics.link_count = m.integer("link_count", 0);
  n.metrics.switch_count = m.integer("switch_count", 0);
  n.metrics.path_diversity = m.integer("path_diversity", 0);
  n.metrics.derived_chips_per_board = m.integer("derived_chips_per_board", 1);
  n.metrics.family_attrs = m.raw("family_attrs");
  if (auto dm = m.object_opt("degraded")) n.metrics.degraded = parse_degraded_metrics(*dm);
  if (auto c = m.object_opt("cost")) n.metrics.cost = parse_cost(*c);
  m.done();
  n.fingerprint = r.string("fingerprint");
  r.done();
  return n;
}

json to_json(const Faults& f, const Network& n) {
  json links = json::array(), chips = json::array();
  for (auto& l : f.links) {
    const Link& k = n.links[static_cast<std::size_t>(l.link)];
    links.push_back({{"link", l.link}, {"a", k.a}, {"b", k.b}, {"cause", l.cause}});
  }
  for (auto& c : f.chips) chips.push_back({{"chip", c.chip}, {"cause", c.cause}});
  json j = {{"links", links}, {"chips", chips}};
  if (f.random_seed) j["random_seed"] = *f.random_seed;
  if (!f.ocs.empty()) j["ocs"] = f.ocs;
  if (!f.switches.empty()) j["switches"] = f.switches;
  return j;
}

Faults parse_faults(ObjReader& r, const Network* n) {
  Faults f;
  auto check_cause = [](ObjReader& o, const std::string& c) {
    if (c != "explicit" && c != "random" && c != "ocs" && c != "switch" && c != "nic")
      o.fail("cause", "expected explicit, random, ocs, switch or nic");
  };
  for (auto& o : r.objects("links")) {
    FailedLink l;
    l.link = o.integer("link", 0);
    auto a = o.integer("a", 0), b = o.integer("b", 0);
    l.cause = o.string("cause");
    check_cause(o, l.cause);
    if (n) {
      if (l.link >= static_cast<std::int64_t>(n->links.size()))
        o.fail("link", "no such link in the network");
      const Link& k = n->links[static_cast<std::size_t>(l.link)];
      if (k.a != a || k.b != b)
        o.fail("a", "endpoints disagree with network link " + std::to_string(l.link));
    }
    o.done();
    if (!f.links.empty() && f.links.back().link >= l.link)
      r.fail("links", "failed links must be sorted by id and unique");
    f.links.push_back(l);
  }
  for (auto& o : r.objects("chips")) {
    FailedChip c;
    c.chip = o.integer("chip", 0);
    c.cause = o.string("cause");
    check_cause(o, c.cause);
    if (n && c.chip >= n->n_chip) o.fail("chip", "no such chip in the network");
    o.done();
    if (!f.chips.empty() && f.chips.back().chip >= c.chip)
      r.fail("chips", "failed chips must be sorted by id and unique");
    f.chips.push_back(c);
  }
  f.random_seed = r.uint64_opt("random_seed");
  if (r.has("ocs")) {
    f.ocs = r.int_list("ocs", 0, 47);
    for (std::size_t i = 1; i < f.ocs.size(); ++i)
      if (f.ocs[i - 1] >= f.ocs[i]) r.fail("ocs", "failed OCSes must be sorted and unique");
  }
  if (r.has("switches")) {
    const std::int64_t hi = n ? static_cast<std::int64_t>(n->nodes.size()) - 1
                              : std::numeric_limits<std::int64_t>::max();
    f.switches = r.int_list("switches", n ? n->n_chip : 0, hi);
    for (std::size_t i = 1; i < f.switches.size(); ++i)
      if (f.switches[i - 1] >= f.switches[i])
        r.fail("switches", "failed switches must be sorted and unique");
    if (n) // every link of a failed switch is failed, for the switch
      for (std::int64_t sw : f.switches)
        for (const Link& l : n->links)
          if (l.a == sw || l.b == sw) {
            auto it =
                std::lower_bound(f.links.begin(), f.links.end(), l.id,
                                 [](const FailedLink& x, std::int64_t id) { return x.link < id; });
            if (it == f.links.end() || it->link != l.id)
              r.fail("switches", "switch " + std::to_string(sw) + " has failed but its link " +
                                     std::to_string(l.id) + " is not in the failed links");
          }
  }
  r.done();
  return f;
}

std::string fingerprint(const Network& n, const Faults* f) {
  Fingerprinter h; // fixed order and width: independent of JSON formatting
  h.add_text("icnkit-network/1");
  h.add_text(n.family);
  h.add_int(n.n_chip);
  h.add_int(static_cast<std::int64_t>(n.nodes.size()));
  for (const Node& v : n.nodes) {
    h.add_int(v.id);
    h.add_int(v.kind == NodeKind::Chip ? 0 : 1);
    h.add_int(v.tier);
    h.add_int(v.board);
    h.add_int(v.rack);
    h.add_int(v.pod);
    h.add_int(static_cast<std::int64_t>(v.coord.size()));
    for (int c : v.coord) h.add_int(c);
    if (v.kind == NodeKind::Switch) {
      h.add_text(v.role);
      h.add_int(v.ports);
    }
  }
  h.add_int(static_cast<std::int64_t>(n.links.size()));
  for (const Link& l : n.links) {
    h.add_int(l.id);
    h.add_int(l.a);
    h.add_int(l.b);
    h.add_int(static_cast<std::int64_t>(l.kind));
    h.add_int(l.dim);
    h.add_int(l.dir);
    h.add_real(l.bandwidth_bytes_per_s);
    h.add_real(l.latency_s);
  }
  const bool faulty = f && !f->empty();
  h.add_int(faulty ? static_cast<std::int64_t>(f->links.size()) : 0);
  if (faulty)
    for (auto& l : f->links) {
      h.add_int(l.link);
      h.add_text(l.cause);
    }
  h.add_int(faulty ? static_cast<std::int64_t>(f->chips.size()) : 0);
  if (faulty) {
    for (auto& c : f->chips) {
      h.add_int(c.chip);
      h.add_text(c.cause);
    }
    h.add_int(f->random_seed ? static_cast<std::int64_t>(*f->random_seed) : -1);
    if (!f->switches.empty()) { // only when present, as the OCSes below
      h.add_text("switches");
      h.add_int(static_cast<std::int64_t>(f->switches.size()));
      for (auto i : f->switches) h.add_int(i);
    }
    if (!f->ocs.empty()) { // only when present: fingerprints without OCS faults are unchanged
      h.add_text("ocs");
      h.add_int(static_cast<std::int64_t>(f->ocs.size()));
      for (auto i : f->ocs) h.add_int(i);
    }
  }
  return h.hex();
}

} // namespace icnkit::topo
