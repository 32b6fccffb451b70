#include "topo/import.hpp"

#include "core/error.hpp"
#include "core/units.hpp"
#include "topo/custom.hpp"
#include "topo/invariants.hpp"
#include "topo/metrics.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace icnkit::topo {

namespace {

// A graph as read, before it is a network: nodes by their file id, attributes as JSON values.
struct RawGraph {
  std::vector<std::string> ids; // the file's node ids (JSON text of the id: 5 or "s1")
  std::vector<json> node_attrs;
  struct Edge {
    std::size_t a = 0, b = 0;
    json attrs = json::object();
    std::string where; // for errors
  };
  std::vector<Edge> edges;
  std::map<std::string, std::size_t> index;

  std::size_t add_node(const std::string& id, json attrs, const std::string& where) {
    if (index.count(id)) fail_input(where, "node " + id + " is listed twice");
    index[id] = ids.size();
    ids.push_back(id);
    node_attrs.push_back(std::move(attrs));
    return ids.size() - 1;
  }
  std::size_t node(const std::string& id, const std::string& where) const {
    auto it = index.find(id);
    if (it == index.end())
      fail_input(where, "the link's end " + id + " is not a node of the graph");
    return it->second;
  }
};

RawGraph read_networkx(const std::string& text, const std::string& source) {
  json d;
  try {
    d = json::parse(text);
  } catch (const json::exception& e) {
    fail_input(source, std::string("not JSON: ") + e.what());
  }
  if (!d.is_object()) fail_input(source, "expected a node-link object");
  if (!d.contains("nodes") || !d["nodes"].is_array())
    fail_input(source + ":/nodes", "missing the nodes array");
  const char* key = d.contains("links") ? "links" : "edges";
  if (!d.contains(key) || !d[key].is_array())
    fail_input(source + ":/links", "missing the links (or edges) array");
  RawGraph g;
  for (std::size_t i = 0; i < d["nodes"].size(); ++i) {
    const json& v = d["nodes"][i];
    const std::string where = source + ":/nodes/" + std::to_string(i);
    if (!v.is_object() || !v.contains("id") ||
        !(v["id"].is_number_integer() || v["id"].is_string()))
      fail_input(where, "a node needs an id (a whole number or a string)");
    g.add_node(v["id"].dump(), v, where);
  }
  for (std::size_t i = 0; i < d[key].size(); ++i) {
    const json& e = d[key][i];
    const std::string where = source + ":/" + key + "/" + std::to_string(i);
    if (!e.is_object() || !e.contains("source") || !e.contains("target"))
      fail_input(where, "a link needs a source and a target");
    g.edges.push_back(
        {g.node(e["source"].dump(), where), g.node(e["target"].dump(), where), e, where});
  }
  return g;
}

// A small reader of the GraphML networkx and Boost.Graph write: <key>, <node>, <edge>, <data>.
class Xml {
public:
  Xml(const std::string& t, std::string source) : t_(t), source_(std::move(source)) {}
  struct Tag {
    std::string name; // "node", "/node", ...
    std::map<std::string, std::string> attrs;
    bool closed = false; // <.../>
  };
  // The next tag, or false at the end; text between tags goes to `text`.
  bool next(Tag& tag, std::string& text) {
    text.clear();
    while (true) {
      const std::size_t lt = t_.find('<', at_);
      if (lt == std::string::npos) return false;
      text += t_.substr(at_, lt - at_);
      if (t_.compare(lt, 4, "<!--") == 0) {
        at_ = end_of(lt, "-->") + 3;
        continue;
      }
      if (t_.compare(lt, 2, "<?") == 0 || t_.compare(lt, 2, "<!") == 0) {
        at_ = end_of(lt, ">") + 1;
        continue;
      }
      const std::size_t gt = end_of(lt, ">");
      std::string body = t_.substr(lt + 1, gt - lt - 1);
      at_ = gt + 1;
      tag = Tag{};
      if (!body.empty() && body.back() == '/') tag.closed = true, body.pop_back();
      std::size_t i = 0;
      while (i < body.size() && !isspace(static_cast<unsigned char>(body[i]))) ++i;
      tag.name = body.substr(0, i);
      while (i < body.size()) {
        while (i < body.size() && isspace(static_cast<unsigned char>(body[i]))) ++i;
        if (i >= body.size()) break;
        const std::size_t eq = body.find('=', i);
        if (eq == std::string::npos) bad("an attribute without a value in <" + tag.name + ">");
        std::string name = body.substr(i, eq - i);
        while (!name.empty() && isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
        std::size_t q = eq + 1;
        while (q < body.size() && isspace(static_cast<unsigned char>(body[q]))) ++q;
        if (q >= body.size() || (body[q] != '"' && body[q] != '\''))
          bad("an attribute value must be quoted in <" + tag.name + ">");
        const std::size_t close = body.find(body[q], q + 1);
        if (close == std::string::npos)
          bad("an unterminated attribute value in <" + tag.name + ">");
        tag.attrs[name] = unescape(body.substr(q + 1, close - q - 1));
        i = close + 1;
      }
      return true;
    }
  }
  static std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '&') {
        out += s[i];
        continue;
      }
      const std::size_t semi = s.find(';', i);
      const std::string ent = semi == std::string::npos ? "" : s.substr(i + 1, semi - i - 1);
      const char* rep = ent == "lt"     ? "<"
                        : ent == "gt"   ? ">"
                        : ent == "amp"  ? "&"
                        : ent == "quot" ? "\""
                        : ent == "apos" ? "'"
                                        : nullptr;
      if (!rep) {
        out += s[i];
        continue;
      }
      out += rep;
      i = semi;
    }
    return out;
  }
  [[noreturn]] void bad(const std::string& what) const {
    fail_input(source_, what + " (at byte " + std::to_string(at_) + ")");
  }

private:
  std::size_t end_of(std::size_t from, const char* what) const {
    const std::size_t e = t_.find(what, from);
    if (e == std::string::npos) bad(std::string("unterminated markup, expected '") + what + "'");
    return e;
  }
  const std::string& t_;
  std::string source_;
  std::size_t at_ = 0;
};

RawGraph read_graphml(const std::string& text, const std::string& source) {
  Xml x(text, source);
  struct Key {
    std::string name, type;
  };
  std::map<std::string, Key> keys;
  RawGraph g;
  Xml::Tag tag;
  std::string txt;
  json* attrs = nullptr; // the node's or edge's attributes being read
  json pending_node;
  std::string node_id, where;
  std::size_t count_edges = 0;
  RawGraph::Edge edge;
  std::string data_key;
  bool graph = false;
  auto typed = [&](const std::string& value, const Key& k) -> json {
    try {
      if (k.type == "int" || k.type == "long") return json(std::stoll(value));
      if (k.type == "float" || k.type == "double") return json(std::stod(value));
      if (k.type == "boolean") return json(value == "true" || value == "1");
    } catch (const std::exception&) {
      fail_input(where, "data '" + k.name + "' is not a " + k.type + ": '" + value + "'");
    }
    return json(value);
  };
  while (x.next(tag, txt)) {
    if (tag.name == "graph") {
      graph = true;
      if (tag.attrs.count("edgedefault") && tag.attrs["edgedefault"] == "directed")
        fail_input(source, "a directed graph: links are full duplex, give an undirected one");
    } else if (tag.name == "key") {
      keys[tag.attrs["id"]] = {tag.attrs["attr.name"], tag.attrs["attr.type"]};
    } else if (tag.name == "node") {
      if (!tag.attrs.count("id")) x.bad("a <node> without an id");
      node_id = tag.attrs["id"];
      where = source + ":node " + node_id;
      pending_node = json::object();
      if (tag.closed) {
        g.add_node(node_id, pending_node, where);
      } else {
        attrs = &pending_node;
      }
    } else if (tag.name == "/node") {
      g.add_node(node_id, pending_node, where);
      attrs = nullptr;
    } else if (tag.name == "edge") {
      if (!tag.attrs.count("source") || !tag.attrs.count("target"))
        x.bad("an <edge> needs a source and a target");
      where = source + ":edge " + std::to_string(count_edges++);
      edge = RawGraph::Edge{};
      edge.where = where;
      edge.a = g.node(tag.attrs["source"], where);
      edge.b = g.node(tag.attrs["target"], where);
      if (tag.closed) {
        g.edges.push_back(edge);
      } else {
        attrs = &edge.attrs;
      }
    } else if (tag.name == "/edge") {
      g.edges.push_back(edge);
      attrs = nullptr;
    } else if (tag.name == "data") {
      data_key = tag.attrs["key"];
    } else if (tag.name == "/data") {
      if (attrs) {
        auto k = keys.find(data_key);
        if (k == keys.end()) fail_input(where, "data of an undeclared key '" + data_key + "'");
        (*attrs)[k->second.name] = typed(Xml::unescape(txt), k->second);
      }
    }
  }
  if (!graph) fail_input(source, "no <graph> element: not GraphML");
  return g;
}

RawGraph read_edgelist(const std::string& text, const std::string& source) {
  RawGraph g;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> switches;
  struct Row {
    std::string a, b;
    std::vector<std::string> figures;
    std::string where;
  };
  std::vector<Row> rows;
  for (int no = 1; std::getline(in, line); ++no) {
    const std::string where = source + ":" + std::to_string(no);
    if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    if (w.empty()) continue;
    if (w[0] == "switch") {
      if (w.size() < 2) fail_input(where, "'switch' names at least one node");
      switches.insert(switches.end(), w.begin() + 1, w.end());
      continue;
    }
    if (w.size() < 2 || w.size() > 4)
      fail_input(where, "expected 'A B [BANDWIDTH [LATENCY]]', got '" + line + "'");
    rows.push_back({w[0], w[1], {w.begin() + 2, w.end()}, where});
  }
  // Nodes in order of first appearance; switches marked.
  auto ensure = [&](const std::string& name, const std::string& where) {
    if (!g.index.count(name)) g.add_node(name, json{{"kind", "chip"}}, where);
    return g.index[name];
  };
  for (const Row& r : rows) {
    RawGraph::Edge e;
    e.where = r.where;
    e.a = ensure(r.a, r.where);
    e.b = ensure(r.b, r.where);
    if (!r.figures.empty())
      e.attrs["bandwidth_bytes_per_s"] = parse_bandwidth(r.figures[0], r.where);
    if (r.figures.size() > 1) e.attrs["latency_s"] = parse_time(r.figures[1], r.where);
    g.edges.push_back(std::move(e));
  }
  for (const std::string& s : switches) {
    auto it = g.index.find(s);
    if (it == g.index.end()) fail_input(source, "switch " + s + " has no link");
    g.node_attrs[it->second]["kind"] = "switch";
  }
  return g;
}

// Integer attribute `key` of `a`, or `fallback`.
std::int64_t int_attr(const json& a, const char* key, std::int64_t fallback,
                      const std::string& where) {
  if (!a.contains(key) || a[key].is_null()) return fallback;
  if (!a[key].is_number_integer()) fail_input(where, std::string(key) + " must be a whole number");
  return a[key].get<std::int64_t>();
}

} // namespace

ImportFormat parse_import_format(const std::string& name, const std::string& where) {
  if (name == "networkx") return ImportFormat::NetworkX;
  if (name == "graphml") return ImportFormat::GraphML;
  if (name == "edgelist") return ImportFormat::EdgeList;
  fail_usage(where, "unknown import format '" + name + "' (use networkx, graphml, edgelist)");
}

ImportFormat import_format_of(const std::string& path) {
  auto ends = [&](const std::string& ext) {
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends(".json")) return ImportFormat::NetworkX;
  if (ends(".graphml") || ends(".xml")) return ImportFormat::GraphML;
  return ImportFormat::EdgeList;
}

std::string to_string(ImportFormat f) {
  switch (f) {
  case ImportFormat::NetworkX:
    return "networkx";
  case ImportFormat::GraphML:
    return "graphml";
  case ImportFormat::EdgeList:
    return "edgelist";
  }
  return "networkx";
}

Imported import_network(const std::string& text, ImportFormat f, const std::string& source,
                        const PerKind& bandwidth, const PerKind& latency) {
  const RawGraph g = f == ImportFormat::NetworkX  ? read_networkx(text, source)
                     : f == ImportFormat::GraphML ? read_graphml(text, source)
                                                  : read_edgelist(text, source);
  // Chips first, then switches, each in the file's order.
  const std::size_t V = g.ids.size();
  std::vector<char> is_switch(V, 0);
  for (std::size_t i = 0; i < V; ++i) {
    const json& a = g.node_attrs[i];
    if (a.contains("kind") && !a["kind"].is_null()) {
      if (a["kind"] == "switch")
        is_switch[i] = 1;
      else if (a["kind"] != "chip")
        fail_input(source + ":node " + g.ids[i],
                   "kind must be chip or switch, got " + a["kind"].dump());
    }
  }
  std::vector<std::int64_t> id_of(V);
  std::int64_t n_chip = 0;
  for (std::size_t i = 0; i < V; ++i)
    if (!is_switch[i]) id_of[i] = n_chip++;
  std::int64_t next = n_chip;
  for (std::size_t i = 0; i < V; ++i)
    if (is_switch[i]) id_of[i] = next++;
  if (n_chip < 2)
    fail_input(source, "the graph has " + std::to_string(n_chip) + " chips: at least 2 are needed");
  if (n_chip > kMaxChips) fail_input(source, "more than " + std::to_string(kMaxChips) + " chips");

  Network n;
  n.family = "custom";
  n.n_chip = n_chip;
  n.nodes.resize(V);
  // Packaging: every chip's board, rack and pod when all of them are given, else one board per
  // chip in one rack and pod.
  bool packaged = true;
  for (std::size_t i = 0; i < V; ++i)
    if (!is_switch[i])
      for (const char* k : {"board", "rack", "pod"})
        if (!g.node_attrs[i].contains(k) || !g.node_attrs[i][k].is_number_integer() ||
            g.node_attrs[i][k].get<std::int64_t>() < 0)
          packaged = false;
  std::int64_t boards = 0, racks = 1, pods = 1;
  for (std::size_t i = 0; i < V; ++i) {
    const std::string where = source + ":node " + g.ids[i];
    const json& a = g.node_attrs[i];
    Node& v = n.nodes[static_cast<std::size_t>(id_of[i])];
    v.id = id_of[i];
    v.kind = is_switch[i] ? NodeKind::Switch : NodeKind::Chip;
    if (a.contains("coord") && a["coord"].is_array())
      for (const json& c : a["coord"]) {
        if (!c.is_number_integer()) fail_input(where, "coord must be whole numbers");
        v.coord.push_back(c.get<int>());
      }
    else if (a.contains("coord") && a["coord"].is_string() &&
             !a["coord"].get<std::string>().empty()) {
      std::istringstream cs(a["coord"].get<std::string>());
      for (std::string part; std::getline(cs, part, ',');) {
        try {
          v.coord.push_back(std::stoi(part));
        } catch (const std::exception&) {
          fail_input(where,
                     "coord must be whole numbers, got '" + a["coord"].get<std::string>() + "'");
        }
      }
    }
    if (!is_switch[i]) {
      v.tier = 6;
      if (packaged) {
        v.board = int_attr(a, "board", 0, where);
        v.rack = int_attr(a, "rack", 0, where);
        v.pod = int_attr(a, "pod", 0, where);
      } else {
        v.board = v.id;
        v.rack = v.pod = 0;
      }
      boards = std::max(boards, v.board + 1);
      racks = std::max(racks, v.rack + 1);
      pods = std::max(pods, v.pod + 1);
    } else {
      v.tier = static_cast<int>(int_attr(a, "tier", 10, where));
      v.rack = int_attr(a, "rack", -1, where);
      v.pod = int_attr(a, "pod", -1, where);
      v.role = a.contains("role") && a["role"].is_string() && !a["role"].get<std::string>().empty()
                   ? a["role"].get<std::string>()
                   : "switch";
      v.ports = int_attr(a, "ports", 0, where);
    }
  }
  if (boards > n_chip || racks > n_chip || pods > n_chip)
    fail_input(source, "board, rack and pod numbers must be dense (0..count-1)");
  // The hierarchy.
  n.boards.resize(static_cast<std::size_t>(boards));
  n.racks.resize(static_cast<std::size_t>(racks));
  n.pods.resize(static_cast<std::size_t>(pods));
  for (std::int64_t b = 0; b < boards; ++b)
    n.boards[static_cast<std::size_t>(b)].id = b, n.boards[static_cast<std::size_t>(b)].rack = -1;
  for (std::int64_t r = 0; r < racks; ++r)
    n.racks[static_cast<std::size_t>(r)].id = r, n.racks[static_cast<std::size_t>(r)].pod = -1;
  for (std::int64_t p = 0; p < pods; ++p) n.pods[static_cast<std::size_t>(p)].id = p;
  for (std::int64_t c = 0; c < n_chip; ++c) {
    const Node& v = n.nodes[static_cast<std::size_t>(c)];
    Board& b = n.boards[static_cast<std::size_t>(v.board)];
    if (b.rack >= 0 && b.rack != v.rack)
      fail_input(source, "board " + std::to_string(v.board) + " is in two racks");
    if (b.rack < 0) n.racks[static_cast<std::size_t>(v.rack)].boards.push_back(v.board);
    b.rack = v.rack;
    b.chips.push_back(c);
    Rack& r = n.racks[static_cast<std::size_t>(v.rack)];
    if (r.pod >= 0 && r.pod != v.pod)
      fail_input(source, "rack " + std::to_string(v.rack) + " is in two pods");
    if (r.pod < 0) n.pods[static_cast<std::size_t>(v.pod)].racks.push_back(v.rack);
    r.pod = v.pod;
  }
  for (const Board& b : n.boards)
    if (b.chips.size() != n.boards.front().chips.size())
      fail_input(source, "boards of different sizes (" + std::to_string(b.chips.size()) + " and " +
                             std::to_string(n.boards.front().chips.size()) +
                             " chips): icnkit's boards are all alike");
  // Links.
  Context ctx;
  ctx.n_chip = n_chip;
  ctx.scope = Scope::InterRack;
  ctx.chips_per_board_max = std::max<std::int64_t>(
      ctx.chips_per_board_max, static_cast<std::int64_t>(n.boards.front().chips.size()));
  // Parallel links per chip and node, per dimension and direction as the invariants count them
  // (a size-2 torus ring has two distinct links between its chips).
  std::map<std::tuple<std::int64_t, std::int64_t, int, int>, std::int64_t> multiplicity;
  std::vector<std::int64_t> degree(V, 0);
  for (const RawGraph::Edge& e : g.edges) {
    if (e.a == e.b) fail_input(e.where, "a self-loop at node " + g.ids[e.a]);
    Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = id_of[e.a];
    l.b = id_of[e.b];
    l.dim = static_cast<int>(int_attr(e.attrs, "dim", -1, e.where));
    l.dir = static_cast<int>(int_attr(e.attrs, "dir", 0, e.where));
    if (e.attrs.contains("kind") && e.attrs["kind"].is_string()) {
      auto k = parse_link_kind(e.attrs["kind"].get<std::string>());
      if (!k) fail_input(e.where, "kind must be c2c, b2b, r2r or p2p");
      l.kind = *k;
    } else {
      l.kind = link_kind_between(n, l.a, l.b);
    }
    const bool nic = is_nic_link(n, l.a, l.b, l.kind);
    const LinkParams lp{
        bandwidth.of(l.kind, nic).value_or(kDefaultLinkParams.bandwidth_bytes_per_s),
        latency.of(l.kind, nic).value_or(kDefaultLinkParams.latency_s)};
    l.bandwidth_bytes_per_s = lp.bandwidth_bytes_per_s;
    l.latency_s = lp.latency_s;
    if (e.attrs.contains("bandwidth_bytes_per_s")) {
      const json& b = e.attrs["bandwidth_bytes_per_s"];
      if (!b.is_number() || !(b.get<double>() > 0))
        fail_input(e.where, "bandwidth_bytes_per_s must be positive");
      l.bandwidth_bytes_per_s = b.get<double>();
    }
    if (e.attrs.contains("latency_s")) {
      const json& t = e.attrs["latency_s"];
      if (!t.is_number() || t.get<double>() < 0)
        fail_input(e.where, "latency_s must not be negative");
      l.latency_s = t.get<double>();
    }
    if (l.a < n_chip || l.b < n_chip)
      ctx.chip_radix =
          std::max(ctx.chip_radix, ++multiplicity[{std::min(l.a, l.b), std::max(l.a, l.b), l.dim,
                                                   l.dim >= 0 ? (l.a < l.b ? l.dir : -l.dir) : 0}]);
    ++degree[e.a];
    ++degree[e.b];
    n.links.push_back(l);
  }
  for (std::size_t i = 0; i < V; ++i)
    if (is_switch[i] && n.nodes[static_cast<std::size_t>(id_of[i])].ports == 0)
      n.nodes[static_cast<std::size_t>(id_of[i])].ports = degree[i];
  if (ctx.chip_radix > 1024)
    fail_input(source, "more than 1,024 parallel links between a chip and a node");
  n.chip_radix = ctx.chip_radix;
  n.metrics.derived_chips_per_board = static_cast<std::int64_t>(n.boards.front().chips.size());
  check_invariants(n, ErrorKind::Input, source);
  // Metrics, exactly where affordable.
  Metrics& m = n.metrics;
  // The exact diameter is a BFS from every chip: refuse what would take minutes.
  const double work = static_cast<double>(n_chip) * static_cast<double>(V + 2 * n.links.size());
  if (work > kCustomMaxBfsWork)
    fail_infeasible(source, "too large to import: its exact diameter needs " +
                                std::to_string(static_cast<std::int64_t>(work)) +
                                " BFS steps (chips x (nodes + 2 links)), at most " +
                                std::to_string(static_cast<std::int64_t>(kCustomMaxBfsWork)));
  m.diameter = exact_chip_diameter(n);
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = static_cast<std::int64_t>(V) - n_chip;
  const bool exact = n_chip <= kCustomExactPathDiversity;
  m.path_diversity = exact ? exact_path_diversity(n) : min_chip_degree(n);
  set_bisection(n, heuristic_bisection(n), "heuristic");
  m.family_attrs = custom_attrs(f == ImportFormat::NetworkX  ? "networkx"
                                : f == ImportFormat::GraphML ? "graphml"
                                                             : "edgelist",
                                exact);
  n.fingerprint = fingerprint(n, nullptr);

  Imported out;
  out.context = ctx;
  out.candidate.family = "custom";
  out.candidate.id = "custom:" + to_string(f) + "-" + std::to_string(n_chip) + "c" +
                     std::to_string(m.switch_count) + "s";
  out.candidate.family_attrs = m.family_attrs;
  out.candidate.n_endpoint = boards;
  out.candidate.derived_chips_per_board = m.derived_chips_per_board;
  out.network = std::move(n);
  return out;
}

} // namespace icnkit::topo
