#include "doc/topo_json.hpp"

#include "core/units.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>

namespace icnkit::topo {

json to_json(const Candidate& c) {
  json j = {{"id", c.id},
            {"family", c.family},
            {"family_attrs", c.family_attrs},
            {"n_endpoint", c.n_endpoint},
            {"derived_chips_per_board", c.derived_chips_per_board},
            {"status", c.status()},
            {"warnings", c.warnings}};
  if (!c.sorted_by.empty()) j["sorted_by"] = {{"metric", c.sorted_by}, {"value", c.sort_value}};
  return j;
}

Candidate parse_candidate(ObjReader& r) {
  Candidate c;
  c.id = r.string("id");
  c.family = r.string("family");
  c.family_attrs = r.raw("family_attrs");
  if (!c.family_attrs.is_object()) r.fail("family_attrs", "expected an object");
  c.n_endpoint = r.integer("n_endpoint", 1);
  c.derived_chips_per_board = r.integer("derived_chips_per_board", 1);
  c.warnings = r.string_list("warnings");
  if (auto s = r.object_opt("sorted_by")) {
    c.sorted_by = s->string("metric");
    if (c.sorted_by.empty()) s->fail("metric", "must not be empty");
    c.sort_value = s->number("value");
    s->done();
  }
  auto status = r.string("status");
  if (status != c.status())
    r.fail("status", "status \"" + status + "\" disagrees with warnings (expected \"" + c.status() +
                         "\": edge-case iff there are warnings)");
  r.done();
  return c;
}

json to_json(const CandidateList& l) {
  json items = json::array();
  for (auto& c : l.items) items.push_back(to_json(c));
  return {{"items", items},
          {"total", l.total},
          {"returned", l.items.size()},
          {"truncated", l.truncated()}};
}

CandidateList parse_candidates(ObjReader& r) {
  CandidateList l;
  for (auto& item : r.objects("items")) l.items.push_back(parse_candidate(item));
  l.total = r.integer("total", 0);
  auto returned = r.integer("returned", 0);
  bool truncated = r.boolean("truncated");
  if (returned != static_cast<std::int64_t>(l.items.size()))
    r.fail("returned", "says " + std::to_string(returned) + " but items holds " +
                           std::to_string(l.items.size()));
  if (l.total < returned) r.fail("total", "total is smaller than the number returned");
  if (truncated != l.truncated()) r.fail("truncated", "disagrees with total and returned");
  r.done();
  return l;
}

json to_json(const Context& c) {
  json d = json::object();
  for (auto& [k, p] : c.defaults)
    d[to_string(k)] = {{"bandwidth_bytes_per_s", p.bandwidth_bytes_per_s},
                       {"latency_s", p.latency_s}};
  return {{"n_chip", c.n_chip},
          {"scope", to_string(c.scope)},
          {"chips_per_board_max", c.chips_per_board_max},
          {"chip_radix", c.chip_radix},
          {"intra_board_topo", to_string(c.intra_board_topo)},
          {"defaults", d}};
}

Context parse_context(ObjReader& r) {
  Context c;
  c.n_chip = r.integer("n_chip");
  auto scope = r.string("scope"); // the spec requires scope in a context file
  auto s = parse_scope(scope);
  if (!s) r.fail("scope", "scope must be intra-rack or inter-rack, got \"" + scope + "\"");
  c.scope = *s;
  if (auto v = r.integer_opt("chips_per_board_max")) c.chips_per_board_max = *v;
  if (auto v = r.integer_opt("chip_radix")) c.chip_radix = *v;
  if (auto v = r.string_opt("intra_board_topo")) {
    auto t = parse_intra_board_topo(*v);
    if (!t)
      r.fail("intra_board_topo", "must be none, full-mesh, ring or torus, got \"" + *v + "\"");
    c.intra_board_topo = *t;
  }
  if (auto d = r.object_opt("defaults")) {
    // Each key is a link kind.
    const json& obj = r.raw("defaults");
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      auto k = parse_link_kind(it.key());
      if (!k) d->fail(it.key(), "unknown link kind (use c2c, b2b, r2r, p2p)");
      auto lr = d->object(it.key());
      LinkParams p{lr.positive("bandwidth_bytes_per_s"), lr.number("latency_s")};
      if (p.latency_s < 0) lr.fail("latency_s", "latency must not be negative");
      lr.done();
      c.defaults[*k] = p;
    }
    d->done();
  }
  r.done();
  validate(c, ErrorKind::Input, r.where() + "/");
  return c;
}

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

namespace {

class Writer {
public:
  explicit Writer(std::string& out) : out_(out) {}
  void raw(const char* s) { out_ += s; }
  void ch(char c) { out_ += c; }
  void integer(std::int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  // nlohmann's own formatting, once per distinct value (a network has few).
  void real(double v) {
    auto it = reals_.find(v);
    if (it == reals_.end()) it = reals_.emplace(v, json(v).dump()).first;
    out_ += it->second;
  }
  void text(const std::string& s) {
    auto it = texts_.find(s);
    if (it == texts_.end()) it = texts_.emplace(s, json(s).dump()).first;
    out_ += it->second;
  }
  template <class T> void list(const std::vector<T>& v) {
    ch('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) ch(',');
      integer(static_cast<std::int64_t>(v[i]));
    }
    ch(']');
  }

private:
  std::string& out_;
  std::map<double, std::string> reals_;
  std::map<std::string, std::string> texts_;
};

} // namespace

void append_network_json(std::string& out, const Network& n) {
  Writer w(out);
  // Keys in the sorted order nlohmann's std::map gives.
  w.raw("{\"boards\":[");
  for (std::size_t i = 0; i < n.boards.size(); ++i) {
    const Board& b = n.boards[i];
    if (i) w.ch(',');
    w.raw("{\"chips\":");
    w.list(b.chips);
    w.raw(",\"id\":");
    w.integer(b.id);
    w.raw(",\"rack\":");
    w.integer(b.rack);
    w.ch('}');
  }
  w.raw("],\"chip_radix\":");
  w.integer(n.chip_radix);
  w.raw(",\"family\":");
  w.text(n.family);
  w.raw(",\"fingerprint\":");
  w.text(n.fingerprint);
  const LinkDefaults defaults = link_defaults(n);
  w.raw(",\"link_defaults\":{");
  bool first_kind = true;
  for (LinkKind k : kLinkKindsByName)
    if (const auto& d = defaults[static_cast<std::size_t>(k)]) {
      if (!first_kind) w.ch(',');
      first_kind = false;
      w.text(to_string(k));
      w.raw(":{\"bandwidth_bytes_per_s\":");
      w.real(d->first);
      w.raw(",\"latency_s\":");
      w.real(d->second);
      w.ch('}');
    }
  w.raw("},\"links\":[");
  for (std::size_t i = 0; i < n.links.size(); ++i) {
    const Link& l = n.links[i];
    const auto& def = defaults[static_cast<std::size_t>(l.kind)];
    if (i) w.ch(',');
    w.raw("{\"a\":");
    w.integer(l.a);
    w.raw(",\"b\":");
    w.integer(l.b);
    if (!def || def->first != l.bandwidth_bytes_per_s) {
      w.raw(",\"bandwidth_bytes_per_s\":");
      w.real(l.bandwidth_bytes_per_s);
    }
    if (l.dim >= 0) {
      w.raw(",\"dim\":");
      w.integer(l.dim);
      w.raw(",\"dir\":");
      w.integer(l.dir);
    }
    w.raw(",\"id\":");
    w.integer(l.id);
    w.raw(",\"kind\":");
    w.text(to_string(l.kind));
    if (!def || def->second != l.latency_s) {
      w.raw(",\"latency_s\":");
      w.real(l.latency_s);
    }
    w.ch('}');
  }
  w.raw("],\"metrics\":");
  out += to_json(n.metrics).dump();
  w.raw(",\"n_chip\":");
  w.integer(n.n_chip);
  w.raw(",\"nodes\":[");
  for (std::size_t i = 0; i < n.nodes.size(); ++i) {
    const Node& v = n.nodes[i];
    if (i) w.ch(',');
    w.ch('{');
    bool first = true;
    auto key = [&](const char* k) {
      if (!first) w.ch(',');
      first = false;
      w.ch('"');
      w.raw(k);
      w.raw("\":");
    };
    if (v.board >= 0) key("board"), w.integer(v.board);
    if (!v.coord.empty()) key("coord"), w.list(v.coord);
    key("id"), w.integer(v.id);
    key("kind"), w.raw(v.kind == NodeKind::Chip ? "\"chip\"" : "\"switch\"");
    if (v.pod >= 0) key("pod"), w.integer(v.pod);
    if (v.kind == NodeKind::Switch) key("ports"), w.integer(v.ports);
    if (v.rack >= 0) key("rack"), w.integer(v.rack);
    if (v.kind == NodeKind::Switch) key("role"), w.text(v.role);
    key("tier"), w.integer(v.tier);
    w.ch('}');
  }
  w.raw("],\"pods\":[");
  for (std::size_t i = 0; i < n.pods.size(); ++i) {
    if (i) w.ch(',');
    w.raw("{\"id\":");
    w.integer(n.pods[i].id);
    w.raw(",\"racks\":");
    w.list(n.pods[i].racks);
    w.ch('}');
  }
  w.raw("],\"racks\":[");
  for (std::size_t i = 0; i < n.racks.size(); ++i) {
    const Rack& r = n.racks[i];
    if (i) w.ch(',');
    w.raw("{\"boards\":");
    w.list(r.boards);
    w.raw(",\"id\":");
    w.integer(r.id);
    w.raw(",\"pod\":");
    w.integer(r.pod);
    w.ch('}');
  }
  w.raw("]}");
}

} // namespace icnkit::topo
