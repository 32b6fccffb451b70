// lib/topo/export: networkx node-link JSON, GraphML, DOT and the BookSim anynet file carry the
// network's nodes and links (parallel links included), mark or omit the failed ones, and an
// unknown format name is a usage error.
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/layout.hpp"
#include "topo/torus.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::topo;

namespace {

// Chips 0, 1 and switch 2: links 0-2, 1-2 and two parallel 0-1 links with different latencies.
Network small_with_switch() {
  Network n;
  n.family = "test";
  n.n_chip = 2;
  n.nodes.resize(3);
  for (int i = 0; i < 3; ++i) n.nodes[static_cast<std::size_t>(i)].id = i;
  n.nodes[2].kind = NodeKind::Switch;
  n.nodes[2].tier = 7;
  auto link = [&](std::int64_t a, std::int64_t b, double lat) {
    Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = a;
    l.b = b;
    l.bandwidth_bytes_per_s = 1e9;
    l.latency_s = lat;
    n.links.push_back(l);
  };
  link(0, 2, 2.4e-9); // 2 cycles
  link(1, 2, 1e-12);  // rounds to 0: at least 1 cycle
  link(0, 1, 5e-9);
  link(0, 1, 3e-9); // the parallel link with the smaller latency: 3 cycles
  n.fingerprint = "0123456789abcdef";
  return n;
}

std::size_t count_of(const std::string& s, const std::string& what) {
  std::size_t k = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++k;
  return k;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// links joining a and b (either way)
std::vector<std::int64_t> links_between(const Network& n, std::int64_t a, std::int64_t b) {
  std::vector<std::int64_t> ids;
  for (auto& l : n.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) ids.push_back(l.id);
  return ids;
}

// A parsed anynet line: router id, terminal node (-1: none), neighbour -> latency.
struct AnynetRouter {
  std::int64_t router = -1, node = -1;
  std::vector<std::pair<std::int64_t, long>> nbrs;
};
std::vector<AnynetRouter> parse_anynet(const std::string& text) {
  std::vector<AnynetRouter> out;
  for (auto& line : lines_of(text)) {
    std::istringstream in(line);
    AnynetRouter r;
    std::string word;
    in >> word;
    REQUIRE(word == "router");
    in >> r.router;
    while (in >> word) {
      if (word == "node") {
        in >> r.node;
      } else {
        REQUIRE(word == "router");
        std::int64_t j = -1;
        long c = -1;
        in >> j >> c;
        REQUIRE(c >= 1);
        r.nbrs.push_back({j, c});
      }
    }
    out.push_back(r);
  }
  return out;
}

// The GraphML <key> id of the attribute `name` for `what` ("node" | "edge").
std::string graphml_key(const std::string& g, const std::string& what, const std::string& name) {
  std::smatch m;
  std::regex re("<key id=\"(key[0-9]+)\" for=\"" + what + "\" attr.name=\"" + name + "\"");
  REQUIRE(std::regex_search(g, m, re));
  return m[1];
}

} // namespace

TEST_CASE("export: format names round-trip; an unknown one is a usage error", "[export]") {
  for (auto f : {ExportFormat::Json, ExportFormat::NetworkX, ExportFormat::GraphML,
                 ExportFormat::Dot, ExportFormat::BookSim})
    CHECK(parse_export_format(to_string(f)) == f);
  CHECK(parse_export_format("networkx") == ExportFormat::NetworkX);
  CHECK(kind_of([] { parse_export_format("bogus"); }) == ErrorKind::Usage);
  CHECK(kind_of([] { parse_export_format("JSON"); }) == ErrorKind::Usage);
  try {
    parse_export_format("svg");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.where() == "{format}");
    std::string msg = e.what();
    for (const char* f : {"svg", "json", "networkx", "graphml", "dot", "booksim"})
      CHECK(msg.find(f) != std::string::npos);
  }
  Network n = small_with_switch();
  CHECK(kind_of([&] { export_network(n, nullptr, ExportFormat::Json); }) == ErrorKind::Runtime);
}

TEST_CASE("export networkx: node-link MultiGraph with every node and link", "[export]") {
  Network n = test::grid_network("torus", {4, 4, 4}, {2, 2, 2});
  auto j = nlohmann::json::parse(export_network(n, nullptr, ExportFormat::NetworkX));
  CHECK(j["directed"] == false);
  CHECK(j["multigraph"] == true);
  CHECK(j["graph"]["family"] == "torus");
  CHECK(j["graph"]["n_chip"] == 64);
  CHECK(j["graph"]["fingerprint"] == n.fingerprint);
  REQUIRE(j["nodes"].size() == 64);
  REQUIRE(j["links"].size() == 192);
  std::set<std::int64_t> ids;
  for (auto& v : j["nodes"]) {
    ids.insert(v["id"].get<std::int64_t>());
    CHECK(v["kind"] == "chip");
    CHECK(v["coord"].size() == 3);
    CHECK(v["failed"] == false);
  }
  CHECK(ids.size() == 64);
  for (std::size_t k = 0; k < n.links.size(); ++k) {
    auto& l = j["links"][k];
    const Link& want = n.links[k];
    CHECK(l["id"] == want.id);
    CHECK(l["source"] == want.a);
    CHECK(l["target"] == want.b);
    CHECK(l["key"] == 0); // no parallel links in a 4x4x4 torus
    CHECK(l["dim"] == want.dim);
    CHECK(l["bandwidth_bytes_per_s"].get<double>() == want.bandwidth_bytes_per_s);
    CHECK(l["latency_s"].get<double>() == want.latency_s);
    CHECK(l["failed"] == false);
  }
  CHECK(j["nodes"][5]["coord"] == nlohmann::json(n.nodes[5].coord));
}

TEST_CASE("export networkx: parallel links get keys 0 and 1; failures are marked", "[export]") {
  Network n = test::grid_network("torus", {2, 4}, {1, 1});
  auto par = links_between(n, 0, 1);
  REQUIRE(par.size() == 2); // the ring of size 2: the + and - links of chip 0
  FaultRequest fr;
  fr.links = {"#" + std::to_string(par[1])};
  fr.chips = {"6"};
  Faults f = make_faults(n, fr);
  auto down = f.down_links(n);
  auto j = nlohmann::json::parse(export_network(n, &f, ExportFormat::NetworkX));
  REQUIRE(j["links"].size() == n.links.size());
  std::set<int> keys;
  std::size_t failed = 0, want_failed = 0;
  for (auto& l : j["links"]) {
    auto a = l["source"].get<std::int64_t>(), b = l["target"].get<std::int64_t>();
    if (std::min(a, b) == 0 && std::max(a, b) == 1) keys.insert(l["key"].get<int>());
    failed += l["failed"].get<bool>();
    CHECK(l["failed"].get<bool>() == (down[l["id"].get<std::size_t>()] != 0));
  }
  for (char d : down) want_failed += d != 0;
  CHECK(keys == std::set<int>{0, 1});
  CHECK(failed == want_failed);
  CHECK(want_failed == 1 + 4); // the explicit link and chip 6's four links (two to chip 7)
  CHECK(j["links"][static_cast<std::size_t>(par[1])]["failed"] == true);
  CHECK(j["links"][static_cast<std::size_t>(par[0])]["failed"] == false);
  for (auto& v : j["nodes"]) CHECK(v["failed"] == (v["id"] == 6));
}

TEST_CASE("export graphml: one <node> per node, one <edge> per link, parallel ones kept",
          "[export]") {
  Network n = test::grid_network("torus", {2, 4}, {1, 1});
  auto par = links_between(n, 0, 1);
  FaultRequest fr;
  fr.links = {"#" + std::to_string(par[0])};
  Faults f = make_faults(n, fr);
  std::string g = export_network(n, &f, ExportFormat::GraphML);
  CHECK(g.rfind("<?xml", 0) == 0);
  CHECK(count_of(g, "<node ") == n.nodes.size());
  CHECK(count_of(g, "<edge ") == n.links.size());
  CHECK(count_of(g, "edgedefault=\"undirected\"") == 1);
  CHECK(count_of(g, "source=\"n0\" target=\"n1\"") + count_of(g, "source=\"n1\" target=\"n0\"") ==
        2);
  // The edge data: exactly one failed edge, and it is link par[0] (edge e<k> is link k).
  std::string failed = graphml_key(g, "edge", "failed");
  std::string link = graphml_key(g, "edge", "link");
  CHECK(count_of(g, "<data key=\"" + failed + "\">1</data>") == 1);
  CHECK(count_of(g, "<data key=\"" + failed + "\">0</data>") == n.links.size() - 1);
  auto e = g.find("<edge id=\"e" + std::to_string(par[0]) + "\"");
  REQUIRE(e != std::string::npos);
  auto end = g.find("</edge>", e);
  std::string edge = g.substr(e, end - e);
  CHECK(count_of(edge, "<data key=\"" + failed + "\">1</data>") == 1);
  CHECK(count_of(edge, "<data key=\"" + link + "\">" + std::to_string(par[0]) + "</data>") == 1);
  // Node data: coordinates as "x,y".
  std::string coord = graphml_key(g, "node", "coord");
  CHECK(count_of(g, "<data key=\"" + coord + "\">1,3</data>") == 1);
}

TEST_CASE("export dot: one 'a--b' line per link, failed links and chips dashed red", "[export]") {
  Network n = test::grid_network("torus", {2, 4}, {1, 1});
  FaultRequest fr;
  fr.chips = {"7"};
  Faults f = make_faults(n, fr);
  std::string d = export_network(n, &f, ExportFormat::Dot);
  auto lines = lines_of(d);
  REQUIRE(!lines.empty());
  CHECK(lines.front() == "graph G {");
  CHECK(lines.back() == "}");
  std::size_t edges = 0, nodes = 0, dashed_edges = 0, zero_one = 0;
  std::regex edge_re("^([0-9]+)--([0-9]+) ");
  std::regex node_re("^([0-9]+) \\[");
  for (auto& l : lines) {
    std::smatch m;
    if (std::regex_search(l, m, edge_re)) {
      ++edges;
      auto a = std::stoll(m[1]), b = std::stoll(m[2]);
      if (std::min(a, b) == 0 && std::max(a, b) == 1) ++zero_one;
      bool dashed = l.find("style=dashed") != std::string::npos;
      dashed_edges += dashed;
      CHECK(dashed == (a == 7 || b == 7));
      CHECK(dashed == (l.find("color=red") != std::string::npos));
    } else if (std::regex_search(l, m, node_re)) {
      ++nodes;
      CHECK((l.find("dashed") != std::string::npos) == (m[1] == "7"));
    }
  }
  CHECK(count_of(d, "--") == n.links.size());
  CHECK(edges == n.links.size());
  CHECK(nodes == n.nodes.size());
  CHECK(zero_one == 2);
  CHECK(dashed_edges == 4); // chip 7: two links to chip 6, one each to 1 and 5
}

TEST_CASE("export booksim: a router per node, a terminal per chip, live neighbours once",
          "[export]") {
  Network n = test::grid_network("torus", {2, 4}, {1, 1});
  // 16 links over 12 distinct pairs: the size-2 ring doubles (0,1), (2,3), (4,5), (6,7).
  auto rs = parse_anynet(export_network(n, nullptr, ExportFormat::BookSim));
  REQUIRE(rs.size() == n.nodes.size());
  std::size_t entries = 0;
  for (std::size_t i = 0; i < rs.size(); ++i) {
    CHECK(rs[i].router == static_cast<std::int64_t>(i));
    CHECK(rs[i].node == static_cast<std::int64_t>(i));
    std::set<std::int64_t> seen;
    for (auto& [j, c] : rs[i].nbrs) {
      CHECK(seen.insert(j).second); // each neighbour once
      CHECK(c == 1000);             // the default 1 us at 1 GHz
    }
    entries += rs[i].nbrs.size();
  }
  CHECK(entries == 2 * 12);

  // A failed link (one of a single pair) is left out; a failed chip keeps router and node.
  auto single = links_between(n, 0, 2);
  REQUIRE(single.size() == 1);
  FaultRequest fr;
  fr.links = {"#" + std::to_string(single[0])};
  fr.chips = {"5"};
  Faults f = make_faults(n, fr);
  rs = parse_anynet(export_network(n, &f, ExportFormat::BookSim));
  REQUIRE(rs.size() == n.nodes.size());
  entries = 0;
  for (auto& r : rs) {
    entries += r.nbrs.size();
    for (auto& [j, c] : r.nbrs) {
      CHECK(!((r.router == 0 && j == 2) || (r.router == 2 && j == 0)));
      CHECK(j != 5);
    }
  }
  CHECK(rs[5].node == 5);
  CHECK(rs[5].nbrs.empty());
  // chip 5 = (1,2): pairs (4,5) doubled, (3,5), (5,7) -> 3 pairs gone, plus (0,2).
  CHECK(entries == 2 * (12 - 3 - 1));
}

TEST_CASE("export booksim: switches have no terminal; latency in cycles, at least 1", "[export]") {
  Network n = small_with_switch();
  auto rs = parse_anynet(export_network(n, nullptr, ExportFormat::BookSim));
  REQUIRE(rs.size() == 3);
  CHECK(rs[0].node == 0);
  CHECK(rs[1].node == 1);
  CHECK(rs[2].node == -1);
  using P = std::vector<std::pair<std::int64_t, long>>;
  CHECK(rs[0].nbrs == P{{1, 3}, {2, 2}});
  CHECK(rs[1].nbrs == P{{0, 3}, {2, 1}});
  CHECK(rs[2].nbrs == P{{0, 2}, {1, 1}});

  // The same network in the other formats: the switch and both parallel links are there.
  auto j = nlohmann::json::parse(export_network(n, nullptr, ExportFormat::NetworkX));
  CHECK(j["nodes"][2]["kind"] == "switch");
  CHECK(j["nodes"][2]["coord"].empty());
  CHECK(j["links"][2]["key"] == 0);
  CHECK(j["links"][3]["key"] == 1);
  std::string g = export_network(n, nullptr, ExportFormat::GraphML);
  CHECK(count_of(g, "<node ") == 3);
  CHECK(count_of(g, "<edge ") == 4);
  std::string d = export_network(n, nullptr, ExportFormat::Dot);
  CHECK(count_of(d, "0--1 ") == 2);
  CHECK(count_of(d, "2 [") == 1);
  CHECK(count_of(d, "shape=box") == 1);
}

namespace {
Network generated(const std::string& family, std::int64_t n_chip, const std::string& where) {
  Context ctx = test::context_for(n_chip);
  ctx.scope = Scope::InterRack;
  Where w = parse_where(where, "test");
  auto l = enumerate(ctx, {&require_family(family, "test")}, 1, std::nullopt, &w);
  REQUIRE(l.items.size() == 1);
  return generate(ctx, l.items[0], {});
}
bool all_distinct(const std::vector<Point>& p) {
  std::set<std::pair<double, double>> s;
  for (const Point& q : p) s.insert({q.x, q.y});
  return s.size() == p.size();
}
} // namespace

TEST_CASE("layout: tori on their coordinates, planes in depth, trees in levels, rings on a circle",
          "[export][layout]") {
  SECTION("2-D torus: a grid, dimension 0 to the right, 1 downwards, equal steps") {
    Network n = test::grid_network("torus", {4, 3}, {1, 1});
    auto p = layout(n);
    REQUIRE(p.size() == n.nodes.size());
    CHECK(all_distinct(p));
    const double dx = p[1].x - p[0].x, dy = p[4].y - p[0].y;
    CHECK(dx > 0);
    CHECK(dy < 0);
    for (const Node& v : n.nodes) {
      CHECK(p[v.id].x == Approx(p[0].x + v.coord[0] * dx));
      CHECK(p[v.id].y == Approx(p[0].y + v.coord[1] * dy));
    }
    // Wrap-around links are those between the first and last of a ring: 3 rows + 4 columns.
    int wrap = 0;
    for (const Link& l : n.links) wrap += wraps(n, l);
    CHECK(wrap == 3 + 4);
    Network m = test::grid_network("mesh", {4, 3}, {1, 1}); // a mesh has none
    CHECK(std::none_of(m.links.begin(), m.links.end(), [&](const Link& l) { return wraps(m, l); }));
  }
  SECTION("3-D torus: every plane a translated copy of plane 0, no two nodes on one point") {
    Network n = test::grid_network("torus", {4, 4, 4}, {2, 2, 2});
    auto p = layout(n);
    CHECK(all_distinct(p));
    for (const Node& v : n.nodes) {
      const std::size_t base = static_cast<std::size_t>(v.coord[0] + 4 * v.coord[1]);
      const std::size_t first = static_cast<std::size_t>(16 * v.coord[2]); // (0,0,z)
      CHECK(p[v.id].x - p[base].x == Approx(p[first].x - p[0].x));
      CHECK(p[v.id].y - p[base].y == Approx(p[first].y - p[0].y));
    }
    // Nodes keep clear of each other (0.32-inch circles).
    double closest = 1e9;
    for (std::size_t a = 0; a < p.size(); ++a)
      for (std::size_t b = a + 1; b < p.size(); ++b)
        closest = std::min(closest, std::hypot(p[a].x - p[b].x, p[a].y - p[b].y));
    CHECK(closest > 0.32);
  }
  SECTION("fat-tree: chips below leaves below spines, each level in id order") {
    Network n = generated("fat-tree", 16, "layers=2,k=8,osr=1");
    auto p = layout(n);
    CHECK(all_distinct(p));
    std::map<int, std::set<double>> level_y;
    for (const Node& v : n.nodes) level_y[v.tier].insert(p[v.id].y);
    REQUIRE(level_y.size() == 3);
    double below = -1e9;
    for (auto& [tier, ys] : level_y) {
      CHECK(ys.size() == 1); // one row per tier
      CHECK(*ys.begin() > below);
      below = *ys.begin();
    }
    for (std::size_t i = 1; i < n.nodes.size(); ++i)
      if (n.nodes[i].tier == n.nodes[i - 1].tier) CHECK(p[i].x > p[i - 1].x);
  }
  SECTION("ring and full mesh: a circle in id order") {
    for (const char* f : {"ring", "full-mesh"}) {
      Network n = generated(f, 8, "n_endpoint=8");
      auto p = layout(n);
      CHECK(all_distinct(p));
      for (const Point& q : p) CHECK(std::hypot(q.x, q.y) == Approx(std::hypot(p[0].x, p[0].y)));
    }
  }
}

TEST_CASE("dot: pinned positions, boards as clusters where they do not overlap, wraps lighter",
          "[export][layout]") {
  Network n = test::grid_network("torus", {4, 4}, {2, 2});
  std::string d = export_network(n, nullptr, ExportFormat::Dot);
  CHECK(count_of(d, "layout=neato;") == 1);
  auto p = layout(n);
  for (const Node& v : n.nodes) {
    std::smatch m;
    std::string key = "\n"; // (built by appending: GCC 12 warns falsely on "\n" + ...)
    key += std::to_string(v.id);
    key += " [";
    const std::string line = d.substr(d.find(key) + 1);
    REQUIRE(std::regex_search(line, m, std::regex("pos=\"([-0-9.e]+),([-0-9.e]+)!\"")));
    CHECK(std::stod(m[1]) == Approx(p[v.id].x));
    CHECK(std::stod(m[2]) == Approx(p[v.id].y));
  }
  CHECK(count_of(d, "subgraph cluster_board_") == 4);
  CHECK(count_of(d, "wrap=1") == 8);
  CHECK(count_of(d, "color=gray60, dim=") == 8); // the wrap links, drawn lighter
  // A 3-D torus's 2x2x2 boards span planes whose boxes overlap: no clusters, fill colours.
  Network c = test::grid_network("torus", {4, 4, 4}, {2, 2, 2});
  std::string e = export_network(c, nullptr, ExportFormat::Dot);
  CHECK(count_of(e, "subgraph cluster_") == 0);
  CHECK(count_of(e, "fillcolor=") == 64);
}
