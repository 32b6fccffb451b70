// lib/topo: the mesh family (a torus without wrap-around links, its own family per the spec):
// enumeration against a brute-force search of the rules, warnings, generated structure and
// link ids, metrics against exact computation, and refusals.
#include "topo/enumerate.hpp"
#include "topo/invariants.hpp"
#include "topo/mesh.hpp"
#include "topo/metrics.hpp"
#include "topo/torus.hpp"
#include "topo/torus_geometry.hpp"

#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::topo;

namespace {

bool has_warning(const Candidate& c, const std::string& w) {
  return std::count(c.warnings.begin(), c.warnings.end(), w) == 1;
}

} // namespace

TEST_CASE("mesh N=23 (prime): the empty list, not an error", "[mesh]") {
  auto l = test::enum_family("mesh", test::context_for(23));
  CHECK(l.items.empty());
  CHECK(l.total == 0);
}

TEST_CASE("mesh enumeration equals a brute-force search of the torus's rules", "[mesh]") {
  for (std::int64_t n : {4, 12, 16, 30, 32, 36, 64, 96}) {
    INFO("n_chip " << n);
    std::set<std::string> expect;
    auto ok_b = [](const std::vector<int>& B) {
      int mn = *std::min_element(B.begin(), B.end()), mx = *std::max_element(B.begin(), B.end());
      return mx == 1 || mx <= 2 * mn;
    };
    for (int a = 2; a <= n; ++a)
      for (int b = 2; b <= n; ++b) {
        if (a * b == n)
          for (int x = 1; x <= a; ++x)
            for (int y = 1; y <= b; ++y)
              if (a % x == 0 && b % y == 0 && ok_b({x, y}))
                expect.insert(mesh_candidate_id({{a, b}, {x, y}}));
        for (int c = 2; c <= n; ++c)
          if (a * b * c == n)
            for (int x = 1; x <= a; ++x)
              for (int y = 1; y <= b; ++y)
                for (int z = 1; z <= c; ++z)
                  if (a % x == 0 && b % y == 0 && c % z == 0 && ok_b({x, y, z}))
                    expect.insert(mesh_candidate_id({{a, b, c}, {x, y, z}}));
      }
    auto l = test::enum_family("mesh", test::context_for(n));
    std::set<std::string> got;
    for (auto& c : l.items) {
      got.insert(c.id);
      CHECK(c.family == "mesh");
      CHECK(c.n_endpoint == n);
    }
    CHECK(got == expect);
    CHECK(l.total == static_cast<std::int64_t>(expect.size()));
  }
}

TEST_CASE("mesh candidates: the torus's, in the torus's order, with the same warnings", "[mesh]") {
  for (std::int64_t n : {16, 64, 1024}) {
    auto m = test::enum_family("mesh", test::context_for(n));
    auto t = enumerate(test::context_for(n), {&require_family("torus", "test")}, 0);
    REQUIRE(m.items.size() == t.items.size());
    for (std::size_t i = 0; i < m.items.size(); ++i) {
      const Candidate &a = m.items[i], &b = t.items[i];
      CHECK(a.id == "mesh:" + b.id.substr(b.id.find(':') + 1));
      CHECK(a.family_attrs == b.family_attrs);
      CHECK(a.derived_chips_per_board == b.derived_chips_per_board);
      CHECK(a.warnings == b.warnings);
    }
  }
}

TEST_CASE("mesh warnings: asymmetric, degenerate-dimension, dense-pcb-impractical", "[mesh]") {
  auto l = test::enum_family("mesh", test::context_for(64, 4));
  std::map<std::string, Candidate> by;
  for (auto& c : l.items) by[c.id] = c;
  CHECK(by.at("mesh:4x4x4/b1x2x2").warnings.empty());
  CHECK(by.at("mesh:4x4x4/b1x2x2").status() == "recommended");
  CHECK(has_warning(by.at("mesh:2x32/b1x1"), "asymmetric")); // 32/2 = 16 > 4
  CHECK(has_warning(by.at("mesh:2x32/b1x1"), "degenerate-dimension"));
  CHECK_FALSE(has_warning(by.at("mesh:4x16/b1x1"), "asymmetric")); // 16/4 = 4, not > 4
  CHECK_FALSE(has_warning(by.at("mesh:4x16/b1x1"), "degenerate-dimension"));
  CHECK(has_warning(by.at("mesh:2x4x8/b1x1x1"), "degenerate-dimension"));
  CHECK(has_warning(by.at("mesh:4x4x4/b2x2x2"), "dense-pcb-impractical")); // 8 > 4
  for (auto& c : l.items) {
    CHECK((c.status() == "edge-case") == !c.warnings.empty());
    CHECK(has_warning(c, "dense-pcb-impractical") == (c.derived_chips_per_board > 4));
  }
  // Recommended first.
  bool seen_edge = false;
  for (auto& c : l.items) {
    if (!c.warnings.empty())
      seen_edge = true;
    else
      CHECK_FALSE(seen_edge);
  }
}

TEST_CASE("mesh scopes: intra-rack and inter-rack; elsewhere non-standard-scope", "[mesh]") {
  const Family& f = require_family("mesh", "test");
  CHECK(f.scopes() == std::vector<Scope>{Scope::IntraRack, Scope::InterRack});
  for (Scope s : {Scope::IntraRack, Scope::InterRack}) {
    auto c = test::context_for(16);
    c.scope = s;
    for (auto& x : test::enum_family("mesh", c).items)
      CHECK_FALSE(has_warning(x, "non-standard-scope"));
  }
}

TEST_CASE("mesh refuses a non-none intra_board_topo", "[mesh]") {
  auto c = test::context_for(64);
  c.intra_board_topo = IntraBoardTopo::Ring;
  CHECK(kind_of([&] { test::enum_family("mesh", c); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] {
          topo::generate(c, test::grid_candidate("mesh", {8, 8}, {1, 1}), {});
        }) == ErrorKind::Infeasible);
}

TEST_CASE("generated mesh: ids, coordinates, no wrap-around, degrees, dense link ids", "[mesh]") {
  for (auto [S, B] : std::vector<std::pair<std::vector<int>, std::vector<int>>>{
           {{4, 3, 2}, {2, 1, 2}}, {{4, 4}, {2, 2}}, {{2, 5}, {1, 1}}, {{3, 3, 3}, {3, 3, 3}}}) {
    Network n = test::grid_network("mesh", S, B);
    INFO("shape " << n.metrics.family_attrs.dump());
    MeshGeometry g = MeshGeometry::of(n, "test");
    const int D = static_cast<int>(S.size());
    std::int64_t want_links = 0;
    for (int s : S) want_links += (s - 1) * (n.n_chip / s);
    REQUIRE(static_cast<std::int64_t>(n.links.size()) == want_links);
    CHECK(g.link_count() == want_links);
    CHECK(n.metrics.link_count == want_links);
    CHECK(n.family == "mesh");
    for (auto& v : n.nodes) {
      std::int64_t id = v.coord[0] + S[0] * (v.coord[1] + (D == 3 ? S[1] * v.coord[2] : 0));
      CHECK(v.id == id);
      CHECK(g.coords(v.id) == v.coord);
    }
    std::vector<int> degree(static_cast<std::size_t>(n.n_chip), 0);
    std::int64_t prev_a = -1;
    int prev_dim = -1;
    for (std::size_t i = 0; i < n.links.size(); ++i) {
      const Link& l = n.links[i];
      CHECK(l.id == static_cast<std::int64_t>(i)); // dense
      // In (chip, dimension) order.
      CHECK((l.a > prev_a || (l.a == prev_a && l.dim > prev_dim)));
      prev_a = l.a;
      prev_dim = l.dim;
      degree[static_cast<std::size_t>(l.a)]++;
      degree[static_cast<std::size_t>(l.b)]++;
      auto ca = n.nodes[static_cast<std::size_t>(l.a)].coord,
           cb = n.nodes[static_cast<std::size_t>(l.b)].coord;
      const auto d = static_cast<std::size_t>(l.dim);
      CHECK(cb[d] == ca[d] + 1); // + direction, never wrapping around
      for (std::size_t e = 0; e < S.size(); ++e)
        if (e != d) CHECK(cb[e] == ca[e]);
      CHECK(l.dir == 1);
      // The documented id formula, from both ends.
      CHECK(g.link(l.a, l.dim, +1) == l.id);
      CHECK(g.link(l.b, l.dim, -1) == l.id);
      CHECK(g.channel(l.a, l.dim, +1) == channel_of(l.id, true));
      CHECK(g.channel(l.b, l.dim, -1) == channel_of(l.id, false));
      CHECK(l.bandwidth_bytes_per_s == 50e9);
    }
    for (std::int64_t c = 0; c < n.n_chip; ++c) {
      int want = 0;
      for (int d = 0; d < D; ++d)
        for (int dir : {-1, +1}) {
          bool inside = g.has_neighbour(c, d, dir);
          want += inside;
          CHECK((g.link(c, d, dir) >= 0) == inside);
          CHECK((g.neighbour(c, d, dir) >= 0) == inside);
          if (!inside) CHECK(g.channel(c, d, dir) == -1);
        }
      CHECK(degree[static_cast<std::size_t>(c)] == want);
    }
    CHECK(degree[0] == D); // a corner
    CHECK_NOTHROW(check_invariants(n, ErrorKind::Runtime, "test"));
  }
}

TEST_CASE("a size-2 mesh dimension has a single link: no multigraph", "[mesh]") {
  Network n = test::grid_network("mesh", {2, 4}, {1, 1});
  int between01 = 0;
  for (auto& l : n.links)
    if ((l.a == 0 && l.b == 1) || (l.a == 1 && l.b == 0)) ++between01;
  CHECK(between01 == 1);
  CHECK(n.links.size() == 4 + 6);
  std::set<std::pair<std::int64_t, std::int64_t>> pairs;
  for (auto& l : n.links) CHECK(pairs.insert({std::min(l.a, l.b), std::max(l.a, l.b)}).second);
}

TEST_CASE("mesh boards are cubes of board_shape; links inside a board c2c, else b2b", "[mesh]") {
  Network n = test::grid_network("mesh", {4, 4, 4}, {2, 2, 1});
  REQUIRE(n.boards.size() == 16);
  REQUIRE(n.racks.size() == 1);
  REQUIRE(n.pods.size() == 1);
  for (auto& b : n.boards) {
    REQUIRE(b.chips.size() == 4);
    auto c0 = n.nodes[static_cast<std::size_t>(b.chips[0])].coord;
    for (auto id : b.chips) {
      auto c = n.nodes[static_cast<std::size_t>(id)].coord;
      CHECK(c[0] / 2 == c0[0] / 2);
      CHECK(c[1] / 2 == c0[1] / 2);
      CHECK(c[2] == c0[2]);
    }
  }
  for (auto& l : n.links) {
    bool same = n.nodes[static_cast<std::size_t>(l.a)].board ==
                n.nodes[static_cast<std::size_t>(l.b)].board;
    CHECK(l.kind == (same ? LinkKind::C2C : LinkKind::B2B));
  }
  CHECK(n.metrics.derived_chips_per_board == 4);
}

TEST_CASE("mesh metrics match exact computation", "[mesh]") {
  for (auto S : std::vector<std::vector<int>>{{2, 2},
                                              {2, 3},
                                              {3, 3},
                                              {3, 4},
                                              {4, 4},
                                              {2, 5},
                                              {2, 4},
                                              {3, 5},
                                              {4, 5},
                                              {2, 9},
                                              {2, 2, 2},
                                              {2, 2, 3},
                                              {2, 2, 4},
                                              {2, 3, 3}}) {
    Network n = test::grid_network("mesh", S, std::vector<int>(S.size(), 1));
    INFO("shape " << n.metrics.family_attrs.dump());
    std::int64_t diam = 0;
    for (int s : S) diam += s - 1;
    CHECK(n.metrics.diameter == diam);
    CHECK(n.metrics.diameter == exact_diameter(n));
    const std::int64_t brute = test::brute_bisection_links(n);
    const bool longest_even = *std::max_element(S.begin(), S.end()) % 2 == 0;
    CHECK(n.metrics.bisection_bandwidth_method == (longest_even ? "closed-form" : "heuristic"));
    if (longest_even)
      CHECK(n.metrics.bisection_links == n.n_chip / *std::max_element(S.begin(), S.end()));
    // Exact when closed-form; the staircase bound is never below the true bisection, and on
    // these small odd shapes it happens to be tight as well.
    CHECK(n.metrics.bisection_links == brute);
    CHECK(n.metrics.bisection_bandwidth_bytes_per_s == Approx(n.metrics.bisection_links * 50e9));
    CHECK(n.metrics.link_count == static_cast<std::int64_t>(n.links.size()));
    CHECK(n.metrics.switch_count == 0);
    // path_diversity = D = the minimum degree (a corner) = the vertex connectivity.
    std::vector<int> degree(static_cast<std::size_t>(n.n_chip), 0);
    for (auto& l : n.links) {
      degree[static_cast<std::size_t>(l.a)]++;
      degree[static_cast<std::size_t>(l.b)]++;
    }
    CHECK(n.metrics.path_diversity == static_cast<std::int64_t>(S.size()));
    CHECK(n.metrics.path_diversity == *std::min_element(degree.begin(), degree.end()));
    CHECK(n.metrics.family_attrs.at("dimension_sizes") == S);
  }
}

TEST_CASE("mesh bisection closed form and staircase bound", "[mesh]") {
  CHECK(mesh_bisection_links({4, 4}) == std::pair<std::int64_t, bool>{4, true});
  CHECK(mesh_bisection_links({8, 8, 8}) == std::pair<std::int64_t, bool>{64, true});
  CHECK(mesh_bisection_links({4, 16}) == std::pair<std::int64_t, bool>{4, true});
  CHECK(mesh_bisection_links({3, 3}) == std::pair<std::int64_t, bool>{4, false});
  CHECK(mesh_bisection_links({5, 5, 5}) == std::pair<std::int64_t, bool>{25 + 5 + 1, false});
}

TEST_CASE("every mesh candidate generates a network that passes the invariants", "[mesh]") {
  for (std::int64_t n : {16, 32, 64, 128}) {
    auto ctx = test::context_for(n, 1 << 20);
    for (auto& c : test::enum_family("mesh", ctx).items) {
      INFO(c.id);
      Network net = generate(ctx, c, {});
      auto S = net.metrics.family_attrs.at("dimension_sizes").get<std::vector<int>>();
      std::int64_t diam = 0, links = 0;
      for (int s : S) {
        diam += s - 1;
        links += (s - 1) * (n / s);
      }
      CHECK(net.metrics.diameter == diam);
      CHECK(net.metrics.link_count == links);
      CHECK_NOTHROW(check_invariants(net, ErrorKind::Runtime, "test"));
    }
  }
}

TEST_CASE("mesh refuses hand-edited candidates and is not a torus", "[mesh]") {
  auto ctx = test::context_for(16);
  const Family& f = require_family("mesh", "t");
  auto bad = [&](Candidate c) { return kind_of([&] { f.generate(ctx, c, {}); }); };
  Candidate c = test::grid_candidate("mesh", {4, 4}, {2, 2});
  c.family_attrs["dimension_sizes"] = {4, 5};
  CHECK(bad(c) == ErrorKind::Input); // product 20 != 16
  CHECK(bad(test::grid_candidate("mesh", {2, 2, 2, 2}, {1, 1, 1, 1})) == ErrorKind::Input);
  CHECK(bad(test::grid_candidate("mesh", {4, 4}, {3, 1})) ==
        ErrorKind::Input); // 3 does not divide 4
  CHECK(bad(test::grid_candidate("mesh", {16, 1}, {1, 1})) == ErrorKind::Input); // S_d >= 2
  CHECK(bad(test::grid_candidate("mesh", {16}, {1})) == ErrorKind::Input);       // one dimension
  CHECK(bad(test::grid_candidate("mesh", {2, 8}, {1, 4})) == ErrorKind::Input); // max(B) > 2 min(B)
  c = test::grid_candidate("mesh", {4, 4}, {2, 2});
  c.derived_chips_per_board = 2;
  CHECK(bad(c) == ErrorKind::Input);
  c = test::grid_candidate("mesh", {4, 4}, {2, 2});
  c.family_attrs["wrap"] = true; // unknown attribute
  CHECK(bad(c) == ErrorKind::Input);

  Network mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  Network torus =
      require_family("torus", "t")
          .generate(ctx,
                    [] {
                      Candidate t;
                      t.family = "torus";
                      t.id = torus_candidate_id({{4, 4}, {1, 1}});
                      t.family_attrs = {{"dimension_sizes", {4, 4}}, {"board_shape", {1, 1}}};
                      t.n_endpoint = 16;
                      t.derived_chips_per_board = 1;
                      return t;
                    }(),
                    {});
  CHECK(kind_of([&] { TorusGeometry::of(mesh, "DOR"); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { MeshGeometry::of(torus, "test"); }) == ErrorKind::Infeasible);
  mesh.links.pop_back();
  CHECK(kind_of([&] { MeshGeometry::of(mesh, "test"); }) == ErrorKind::Input);
}
