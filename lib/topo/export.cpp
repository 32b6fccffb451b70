// Exports of a network: networkx node-link JSON, GraphML through Boost.Graph, DOT for pictures and
// the BookSim anynet file. Boost.Graph stays behind this file.
#include "topo/export.hpp"

#include "core/error.hpp"
#include "topo/layout.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphml.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iterator>
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
     "Graphviz DOT laid out for a picture (dot -Tsvg): tori and meshes on their coordinates, "
     "switched networks in levels, boards as clusters, failed links and chips in dashed red"},
    {ExportFormat::BookSim, "booksim",
     "BookSim 2 anynet: one channel per router pair, latency in cycles of a 1 GHz clock, failed "
     "links left out"},
    {ExportFormat::SimAI, "simai",
     "SimAI / ns-3 topology text: GPUs, NVSwitches (scale-up switches), switches, one line per "
     "node pair (parallel links merged, rates summed), failed links left out"},
    {ExportFormat::AstraSim, "astra-sim",
     "ASTRA-sim 2 analytical network YAML for networks that are a stack of dimensions (torus, "
     "ring, full mesh, single switch, composed)"}};

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
};
struct EProp {
  long id = 0;
  std::string kind;
  int dim = -1, dir = 0;
  double bandwidth_bytes_per_s = 0, latency_s = 0;
  bool failed = false;
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
    boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b), e, g);
  }
  return g;
}

// The GraphML properties (the DOT writer gives the same names). The link id goes by "link": GraphML
// readers (networkx) store the <edge id="e.."> attribute as "id", and DOT's "id" is the SVG element
// id.
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

// The shortest %g form that reads back as the same double ("5e+10", "1e-06").
std::string short_real(double v) {
  char buf[32];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// Written by hand, not by Boost.Graph, for what a picture needs beyond the data: pinned
// positions (topo/layout.hpp), boards as clusters and the graph attributes that make
// `dot -Tsvg` lay it out with neato at those positions.
std::string export_dot(const Network& n, const Down& down) {
  static constexpr const char* kBoardFill[] = {"#dbe9f6", "#fde2c8", "#d9f0d3",
                                               "#f3d9ec", "#fff5bf", "#e0e0f0"};
  const std::vector<Point> pos = layout(n);
  std::string out = "graph G {\n";
  out += "family=" + quoted(n.family) + ";\nfingerprint=" + quoted(n.fingerprint) +
         ";\nn_chip=" + std::to_string(n.n_chip) + ";\n";
  out += "layout=neato;\nsplines=true;\noutputorder=edgesfirst;\n";
  out += "node [fontname=Helvetica, fontsize=8, width=0.32, height=0.32, fixedsize=true];\n";
  out += "edge [penwidth=1.2];\n";
  for (const Node& v : n.nodes) {
    const bool failed = down.nodes[static_cast<std::size_t>(v.id)] != 0;
    const bool chip = v.kind == NodeKind::Chip;
    const std::string fill =
        chip && v.board >= 0 ? kBoardFill[v.board % std::size(kBoardFill)] : "white";
    const Point& p = pos[static_cast<std::size_t>(v.id)];
    out += std::to_string(v.id) + " [board=" + std::to_string(v.board) +
           ", color=" + (failed ? "red" : "black") + ", coord=" + quoted(coord_string(v.coord)) +
           ", failed=" + (failed ? "1" : "0") + ", fillcolor=" + quoted(fill) +
           ", kind=" + node_kind_name(v.kind) + ", pod=" + std::to_string(v.pod) +
           ", ports=" + std::to_string(v.ports) +
           ", pos=" + quoted(short_real(p.x) + "," + short_real(p.y) + "!") +
           ", rack=" + std::to_string(v.rack) + ", role=" + quoted(v.role) +
           ", shape=" + (chip ? "ellipse" : "box") +
           ", style=" + (failed ? "\"filled,dashed\"" : "\"filled,solid\"") +
           ", tier=" + std::to_string(v.tier) + "];\n";
  }
  // Boards of several chips as clusters when their boxes do not overlap in the picture (a 3-D
  // torus's boards span planes: there the fill colour alone tells them apart).
  struct Box {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  };
  std::vector<Box> box(n.boards.size());
  bool clusters = !n.boards.empty();
  for (std::size_t b = 0; b < n.boards.size(); ++b) {
    if (n.boards[b].chips.size() < 2) clusters = false;
    for (std::int64_t c : n.boards[b].chips) {
      const Point& p = pos[static_cast<std::size_t>(c)];
      box[b] = {std::min(box[b].x0, p.x), std::min(box[b].y0, p.y), std::max(box[b].x1, p.x),
                std::max(box[b].y1, p.y)};
    }
  }
  if (clusters && n.boards.size() <= 4096) {
    std::vector<std::size_t> order(box.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return box[a].x0 < box[b].x0; });
    for (std::size_t i = 0; i < order.size() && clusters; ++i)
      for (std::size_t j = i + 1; j < order.size() && box[order[j]].x0 <= box[order[i]].x1; ++j)
        if (box[order[j]].y0 <= box[order[i]].y1 && box[order[i]].y0 <= box[order[j]].y1) {
          clusters = false;
          break;
        }
  } else {
    clusters = false;
  }
  if (clusters)
    for (const Board& b : n.boards) {
      out += "subgraph cluster_board_" + std::to_string(b.id) + " {label=\"board " +
             std::to_string(b.id) +
             "\"; fontname=Helvetica; fontsize=8; style=rounded; color=gray60;";
      for (std::int64_t c : b.chips) out += " " + std::to_string(c) + ";";
      out += "}\n";
    }
  for (const Link& l : n.links) {
    const bool failed = down.links[static_cast<std::size_t>(l.id)] != 0;
    const bool wrap = wraps(n, l);
    out += std::to_string(l.a) + "--" + std::to_string(l.b) +
           "  [bandwidth_bytes_per_s=" + quoted(short_real(l.bandwidth_bytes_per_s)) + ", color=" +
           (failed ? "red"
            : wrap ? "gray60"
                   : "black") +
           ", dim=" + std::to_string(l.dim) + ", dir=" + std::to_string(l.dir) +
           ", failed=" + (failed ? "1" : "0") + ", kind=" + to_string(l.kind) +
           ", latency_s=" + quoted(short_real(l.latency_s)) + ", link=" + std::to_string(l.id) +
           ", style=" + (failed ? "dashed" : "solid") + ", wrap=" + (wrap ? "1" : "0") + "];\n";
  }
  return out + "}\n";
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

namespace {

// A figure without trailing zeros ("400", "0.0005").
std::string figure(double x) {
  std::ostringstream o;
  o << std::setprecision(12) << x;
  return o.str();
}

std::string export_simai(const Network& n, const Down& down, std::vector<std::string>* notes) {
  std::vector<std::int64_t> nvswitch, other;
  for (const Node& v : n.nodes)
    if (v.kind == NodeKind::Switch) (v.role == "scale-up" ? nvswitch : other).push_back(v.id);
  struct Pair {
    double gbps = 0, delay_ms = 0;
    int links = 0;
  };
  std::map<std::pair<std::int64_t, std::int64_t>, Pair> pairs;
  std::int64_t merged = 0;
  for (const Link& l : n.links) {
    if (down.links[static_cast<std::size_t>(l.id)]) continue;
    Pair& p = pairs[{std::min(l.a, l.b), std::max(l.a, l.b)}];
    const double ms = l.latency_s * 1e3;
    p.delay_ms = p.links ? std::min(p.delay_ms, ms) : ms;
    p.gbps += l.bandwidth_bytes_per_s * 8 / 1e9;
    merged += p.links++ > 0;
  }
  std::int64_t per_server = n.metrics.derived_chips_per_board;
  if (n.family == "composed") per_server = n.metrics.family_attrs.value("domain_chips", per_server);
  std::ostringstream o;
  o << n.nodes.size() << " " << per_server << " " << nvswitch.size() << " " << other.size() << " "
    << pairs.size() << " H100\n";
  for (std::size_t i = 0; i < nvswitch.size(); ++i) o << (i ? " " : "") << nvswitch[i];
  o << "\n";
  for (std::size_t i = 0; i < other.size(); ++i) o << (i ? " " : "") << other[i];
  o << "\n";
  for (const auto& [ab, p] : pairs)
    o << ab.first << " " << ab.second << " " << figure(p.gbps) << "Gbps " << figure(p.delay_ms)
      << "ms 0\n";
  if (notes && merged > 0)
    notes->push_back("simai: " + std::to_string(merged) +
                     " parallel links merged into their pair's line (rates summed)");
  return o.str();
}

std::string export_astra(const Network& n, const Down& down) {
  for (char d : down.links)
    if (d)
      fail_infeasible("{format} astra-sim",
                      "ASTRA-sim's analytical network has no failed links: export the network "
                      "without faults");
  struct Dim {
    std::string kind;
    std::int64_t npus;
    double gbps, ns;
  };
  std::vector<Dim> dims;
  const json& a = n.metrics.family_attrs;
  auto first = [&](LinkKind k, const char* what) -> const Link& {
    for (const Link& l : n.links)
      if (l.kind == k) return l;
    fail_infeasible("{format} astra-sim", std::string("the network has no ") + what + " link");
  };
  auto same_speed = [&]() {
    for (const Link& l : n.links)
      if (l.bandwidth_bytes_per_s != n.links[0].bandwidth_bytes_per_s ||
          l.latency_s != n.links[0].latency_s)
        fail_infeasible("{format} astra-sim",
                        "the " + n.family +
                            "'s links have several speeds: one dimension has one bandwidth");
    return n.links.front();
  };
  const bool one_per_board = n.metrics.derived_chips_per_board == 1;
  if (n.family == "torus" && !a.contains("twisted")) {
    for (const Link& l : n.links)
      if (l.bandwidth_bytes_per_s != n.links[0].bandwidth_bytes_per_s ||
          l.latency_s != n.links[0].latency_s)
        fail_infeasible("{format} astra-sim", "the torus's links have several speeds");
    for (const auto& s : a.at("dimension_sizes"))
      dims.push_back({"Ring", s.get<std::int64_t>(), n.links[0].bandwidth_bytes_per_s / 1e9,
                      n.links[0].latency_s * 1e9});
  } else if (n.family == "ring" && one_per_board) {
    const Link& l = same_speed();
    dims.push_back(
        {"Ring", n.n_chip, l.bandwidth_bytes_per_s / 1e9 * n.chip_radix, l.latency_s * 1e9});
  } else if (n.family == "full-mesh" && one_per_board) {
    const Link& l = same_speed();
    dims.push_back({"FullyConnected", n.n_chip, l.bandwidth_bytes_per_s / 1e9 * n.chip_radix,
                    l.latency_s * 1e9});
  } else if (n.family == "single-switch" && one_per_board) {
    const Link& l = same_speed();
    dims.push_back(
        {"Switch", n.n_chip, l.bandwidth_bytes_per_s / 1e9 * n.chip_radix, l.latency_s * 1e9});
  } else if (n.family == "composed" && a.value("scale_up", "") != "none") {
    const std::int64_t D = a.at("domain_chips").get<std::int64_t>();
    const std::int64_t L = a.at("scale_up_links").get<std::int64_t>();
    const std::string up = a.at("scale_up").get<std::string>();
    const Link& c = first(LinkKind::C2C, "scale-up");
    const double bw = c.bandwidth_bytes_per_s / 1e9;
    if (up == "switch")
      dims.push_back({"Switch", D, bw * L * a.at("scale_up_switches").get<std::int64_t>(),
                      2 * c.latency_s * 1e9});
    else if (up == "full-mesh")
      dims.push_back({"FullyConnected", D, bw * L, c.latency_s * 1e9});
    else if (up == "torus")
      for (const auto& k : a.at("scale_up_shape"))
        dims.push_back({"Ring", k.get<std::int64_t>(), bw * L, c.latency_s * 1e9});
    else
      dims.push_back({"Ring", D, bw * L, c.latency_s * 1e9});
    if (a.at("scale_out").get<std::string>() != "none") {
      const Link& nic = first(LinkKind::B2B, "NIC");
      dims.push_back({"Switch", a.at("domains").get<std::int64_t>(),
                      nic.bandwidth_bytes_per_s / 1e9 * a.at("nics_per_chip").get<std::int64_t>() *
                          a.at("planes").get<std::int64_t>(),
                      2 * a.at("tiers").get<std::int64_t>() * nic.latency_s * 1e9});
    }
  } else {
    fail_infeasible("{format} astra-sim",
                    "a " + n.family +
                        " network is not a stack of dimensions ASTRA-sim's analytical network "
                        "expresses (torus, ring, full-mesh and single-switch of one chip per "
                        "board, composed)");
  }
  auto list = [&](auto f) {
    std::string s = "[ ";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + f(dims[i]);
    return s + " ]";
  };
  std::ostringstream o;
  o << "# ASTRA-sim analytical network of the icnkit " << n.family << " network " << n.fingerprint
    << "\n";
  o << "topology: " << list([](const Dim& d) { return d.kind; }) << "\n";
  o << "npus_count: " << list([](const Dim& d) { return std::to_string(d.npus); }) << "\n";
  o << "bandwidth: " << list([](const Dim& d) { return figure(d.gbps); }) << "  # GB/s\n";
  o << "latency: " << list([](const Dim& d) { return figure(d.ns); }) << "  # ns\n";
  return o.str();
}

} // namespace

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
  case ExportFormat::SimAI:
    return export_simai(n, down, notes);
  case ExportFormat::AstraSim:
    return export_astra(n, down);
  case ExportFormat::Json:
    break;
  }
  fail_runtime("export_network",
               "the json format is the icnkit document: write it with dump_document");
}

} // namespace icnkit::topo
