// Exports of a network: networkx node-link JSON, GraphML and DOT through Boost.Graph, and the
// BookSim anynet file. Boost.Graph stays behind this file.
#include "topo/export.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <climits>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace icnkit::topo {

namespace {

struct FormatName {
  ExportFormat format;
  const char* name;
  const char* summary; // for topo-gen --describe
};
constexpr FormatName kFormats[] = {
    {ExportFormat::Json, "json", "the icnkit document (default)"},
    {ExportFormat::NetworkX, "networkx",
     "NetworkX node-link JSON (networkx.node_link_graph(d, edges=\"links\")); failed links and "
     "chips marked"},
    {ExportFormat::GraphML, "graphml",
     "GraphML through Boost.Graph's writer; the link id is `link`; failed links and chips "
     "marked"},
    {ExportFormat::Dot, "dot",
     "Graphviz DOT through Boost.Graph's writer (dot -Tsvg); failed links and chips marked"},
    {ExportFormat::BookSim, "booksim",
     "BookSim 2 anynet: one channel per router pair, latency in cycles of a 1 GHz clock, failed "
     "links left out"}};

const char* node_kind_name(NodeKind k) {
  return k == NodeKind::Chip ? "chip" : "switch";
}

std::string coord_string(const std::vector<int>& c) {
  std::string s;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(c[i]);
  }
  return s;
}

// Down flags for links and nodes (all zero without faults).
struct Down {
  std::vector<char> links, nodes;
};
Down down_of(const Network& n, const Faults* f) {
  if (!f) return {std::vector<char>(n.links.size(), 0), std::vector<char>(n.nodes.size(), 0)};
  return {f->down_links(n), f->down_chips(n)};
}

std::string export_networkx(const Network& n, const Down& down) {
  using ojson = nlohmann::ordered_json;
  ojson nodes = ojson::array();
  for (const Node& v : n.nodes)
    nodes.push_back({{"id", v.id},
                     {"kind", node_kind_name(v.kind)},
                     {"tier", v.tier},
                     {"board", v.board},
                     {"rack", v.rack},
                     {"pod", v.pod},
                     {"coord", v.coord},
                     {"role", v.role},
                     {"ports", v.ports},
                     {"failed", down.nodes[static_cast<std::size_t>(v.id)] != 0}});
  // networkx numbers the edges of each (unordered) pair 0, 1, ... in insertion order.
  std::map<std::pair<std::int64_t, std::int64_t>, int> next_key;
  ojson links = ojson::array();
  for (const Link& l : n.links) {
    int key = next_key[{std::min(l.a, l.b), std::max(l.a, l.b)}]++;
    links.push_back({{"source", l.a},
                     {"target", l.b},
                     {"key", key},
                     {"id", l.id},
                     {"kind", to_string(l.kind)},
                     {"dim", l.dim},
                     {"dir", l.dir},
                     {"bandwidth_bytes_per_s", l.bandwidth_bytes_per_s},
                     {"latency_s", l.latency_s},
                     {"failed", down.links[static_cast<std::size_t>(l.id)] != 0}});
  }
  ojson doc = {
      {"directed", false},
      {"multigraph", true},
      {"graph", {{"family", n.family}, {"n_chip", n.n_chip}, {"fingerprint", n.fingerprint}}},
      {"nodes", std::move(nodes)},
      {"links", std::move(links)}};
  return doc.dump() + "\n";
}

// The Boost.Graph view of a network: vertex i is node i, edge k (in insertion order) is link k.
struct VProp {
  long id = 0;
  std::string kind;
  int tier = 0;
  long board = -1, rack = -1, pod = -1;
  std::string coord;
  std::string role; // switches only ("" for chips)
  long ports = 0;
  bool failed = false;
  std::string shape, color, style; // DOT only
};
struct EProp {
  long id = 0;
  std::string kind;
  int dim = -1, dir = 0;
  double bandwidth_bytes_per_s = 0, latency_s = 0;
  bool failed = false;
  std::string color, style; // DOT only
};
using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VProp, EProp>;

struct GraphAttrs {
  std::string family;
  long n_chip = 0;
  std::string fingerprint;
};

BGraph to_bgl(const Network& n, const Down& down) {
  BGraph g(n.nodes.size());
  for (const Node& v : n.nodes) {
    VProp& p = g[static_cast<std::size_t>(v.id)];
    p.id = static_cast<long>(v.id);
    p.kind = node_kind_name(v.kind);
    p.tier = v.tier;
    p.board = static_cast<long>(v.board);
    p.rack = static_cast<long>(v.rack);
    p.pod = static_cast<long>(v.pod);
    p.coord = coord_string(v.coord);
    p.role = v.role;
    p.ports = static_cast<long>(v.ports);
    p.failed = down.nodes[static_cast<std::size_t>(v.id)] != 0;
    p.shape = v.kind == NodeKind::Chip ? "ellipse" : "box";
    p.color = p.failed ? "red" : "black";
    p.style = p.failed ? "dashed" : "solid";
  }
  for (const Link& l : n.links) {
    EProp e;
    e.id = static_cast<long>(l.id);
    e.kind = to_string(l.kind);
    e.dim = l.dim;
    e.dir = l.dir;
    e.bandwidth_bytes_per_s = l.bandwidth_bytes_per_s;
    e.latency_s = l.latency_s;
    e.failed = down.links[static_cast<std::size_t>(l.id)] != 0;
    e.color = e.failed ? "red" : "black";
    e.style = e.failed ? "dashed" : "solid";
    boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b), e, g);
  }
  return g;
}

// The properties both GraphML and DOT carry. The link id goes by "link": GraphML readers
// (networkx) store the <edge id="e.."> attribute as "id", and DOT's "id" is the SVG element id.
void add_common_properties(boost::dynamic_properties& dp, BGraph& g, GraphAttrs& ga) {
  dp.property("family", boost::ref_property_map<BGraph*, std::string>(ga.family));
  dp.property("n_chip", boost::ref_property_map<BGraph*, long>(ga.n_chip));
  dp.property("fingerprint", boost::ref_property_map<BGraph*, std::string>(ga.fingerprint));
  dp.property("kind", boost::get(&VProp::kind, g));
  dp.property("tier", boost::get(&VProp::tier, g));
  dp.property("board", boost::get(&VProp::board, g));
  dp.property("rack", boost::get(&VProp::rack, g));
  dp.property("pod", boost::get(&VProp::pod, g));
  dp.property("coord", boost::get(&VProp::coord, g));
  dp.property("role", boost::get(&VProp::role, g));
  dp.property("ports", boost::get(&VProp::ports, g));
  dp.property("failed", boost::get(&VProp::failed, g));
  dp.property("link", boost::get(&EProp::id, g));
  dp.property("kind", boost::get(&EProp::kind, g));
  dp.property("dim", boost::get(&EProp::dim, g));
  dp.property("dir", boost::get(&EProp::dir, g));
  dp.property("bandwidth_bytes_per_s", boost::get(&EProp::bandwidth_bytes_per_s, g));
  dp.property("latency_s", boost::get(&EProp::latency_s, g));
  dp.property("failed", boost::get(&EProp::failed, g));
}

GraphAttrs graph_attrs(const Network& n) {
  return {n.family, static_cast<long>(n.n_chip), n.fingerprint};
}

std::string export_graphml(const Network& n, const Down& down) {
  BGraph g = to_bgl(n, down);
  GraphAttrs ga = graph_attrs(n);
  boost::dynamic_properties dp;
  dp.property("id", boost::get(&VProp::id, g));
  add_common_properties(dp, g, ga);
  std::ostringstream out;
  boost::write_graphml(out, g, boost::get(boost::vertex_index, g), dp, true);
  return out.str();
}

std::string export_dot(const Network& n, const Down& down) {
  BGraph g = to_bgl(n, down);
  GraphAttrs ga = graph_attrs(n);
  boost::dynamic_properties dp;
  dp.property("node_id", boost::get(&VProp::id, g));
  add_common_properties(dp, g, ga);
  dp.property("shape", boost::get(&VProp::shape, g));
  dp.property("color", boost::get(&VProp::color, g));
  dp.property("style", boost::get(&VProp::style, g));
  dp.property("color", boost::get(&EProp::color, g));
  dp.property("style", boost::get(&EProp::style, g));
  std::ostringstream out;
  boost::write_graphviz_dp(out, g, dp, "node_id");
  return out.str();
}

long booksim_cycles(double latency_s) {
  double c = std::round(latency_s * kBookSimClockHz);
  if (!(c >= 1)) return 1; // also NaN
  if (c > static_cast<double>(INT_MAX)) return INT_MAX;
  return static_cast<long>(c);
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string export_booksim(const Network& n, const Down& down, std::vector<std::string>* notes) {
  // Per node: neighbour -> smallest latency in cycles over the live links to it.
  std::vector<std::map<std::int64_t, long>> nbr(n.nodes.size());
  std::int64_t live = 0, merged = 0, rounded = 0;
  std::set<std::pair<std::int64_t, std::int64_t>> multi; // pairs with parallel links
  std::set<double> bandwidths;
  for (const Link& l : n.links) {
    if (down.links[static_cast<std::size_t>(l.id)] || l.a == l.b) continue;
    ++live;
    bandwidths.insert(l.bandwidth_bytes_per_s);
    long c = booksim_cycles(l.latency_s);
    const double exact = l.latency_s * kBookSimClockHz; // 1e-6 s * 1e9 Hz is 1000 give or take
    if (std::abs(static_cast<double>(c) - exact) > 1e-6 * std::max(1.0, exact)) ++rounded;
    bool parallel = false;
    for (auto [u, v] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      auto [it, fresh] = nbr[static_cast<std::size_t>(u)].emplace(v, c);
      if (!fresh) it->second = std::min(it->second, c), parallel = true;
    }
    if (parallel) ++merged, multi.insert({std::min(l.a, l.b), std::max(l.a, l.b)});
  }
  if (notes && merged > 0)
    notes->push_back(
        "booksim: anynet keeps one channel per router pair: " + std::to_string(merged) +
        " parallel links dropped (" + std::to_string(multi.size()) +
        " router pairs joined by several links now " + "by one; " + std::to_string(live - merged) +
        " of " + std::to_string(live) + " live links exported)");
  if (notes && bandwidths.size() > 1)
    notes->push_back("booksim: anynet has no link bandwidth (every channel carries one flit per "
                     "cycle): links of " +
                     std::to_string(bandwidths.size()) + " bandwidths (" +
                     number(*bandwidths.begin()) + " .. " + number(*bandwidths.rbegin()) +
                     " bytes/s) are exported alike");
  if (notes && rounded > 0)
    notes->push_back("booksim: " + std::to_string(rounded) +
                     " link latencies are not whole cycles of the 1 GHz clock: rounded (at "
                     "least 1 cycle)");
  std::string s;
  for (const Node& v : n.nodes) {
    s += "router " + std::to_string(v.id);
    if (v.kind == NodeKind::Chip) s += " node " + std::to_string(v.id);
    for (auto& [w, c] : nbr[static_cast<std::size_t>(v.id)])
      s += " router " + std::to_string(w) + " " + std::to_string(c);
    s += '\n';
  }
  return s;
}

} // namespace

ExportFormat parse_export_format(const std::string& name, const std::string& where) {
  std::string all;
  for (const auto& f : kFormats) {
    if (name == f.name) return f.format;
    all += all.empty() ? "" : ", ";
    all += f.name;
  }
  fail_usage(where, "unknown format '" + name + "' (formats: " + all + ")");
}

std::vector<std::pair<std::string, std::string>> export_formats() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : kFormats) out.emplace_back(f.name, f.summary);
  return out;
}

std::string to_string(ExportFormat f) {
  for (const auto& x : kFormats)
    if (x.format == f) return x.name;
  return "?";
}

std::string export_network(const Network& n, const Faults* faults, ExportFormat f,
                           std::vector<std::string>* notes) {
  Down down = down_of(n, faults);
  switch (f) {
  case ExportFormat::NetworkX:
    return export_networkx(n, down);
  case ExportFormat::GraphML:
    return export_graphml(n, down);
  case ExportFormat::Dot:
    return export_dot(n, down);
  case ExportFormat::BookSim:
    return export_booksim(n, down, notes);
  case ExportFormat::Json:
    break;
  }
  fail_runtime("export_network",
               "the json format is the icnkit document: write it with dump_document");
}

} // namespace icnkit::topo
