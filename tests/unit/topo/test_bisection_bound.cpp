// Heuristic bisections (metrics.bisection_bandwidth_method "heuristic") are upper bounds: the
// figure must never exceed a balanced cut constructed here by hand, whose crossing links the
// test counts itself. (That it is never below the true minimum is checked against brute force
// on small networks in test_family_metrics, test_topo and test_mesh.)
#include "topo/enumerate.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>

using namespace icnkit;

namespace {

// Links whose ends are on different sides.
std::int64_t crossing(const topo::Network& n, const std::vector<char>& side) {
  std::int64_t k = 0;
  for (auto& l : n.links)
    k += side[static_cast<std::size_t>(l.a)] != side[static_cast<std::size_t>(l.b)];
  return k;
}

// A staircase cut of a grid along its longest dimension L (the first of them): chips ordered
// by x_L, then by the other coordinates from the last dimension to the first; the first
// floor(N/2) of them form side 1.
std::vector<char> staircase(const topo::Network& n, const std::vector<int>& S) {
  const auto L = static_cast<std::size_t>(std::max_element(S.begin(), S.end()) - S.begin());
  std::vector<std::pair<std::vector<int>, std::int64_t>> order;
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    const std::vector<int>& x = n.nodes[static_cast<std::size_t>(c)].coord;
    std::vector<int> key{x[L]};
    for (std::size_t d = S.size(); d-- > 0;)
      if (d != L) key.push_back(x[d]);
    order.push_back({key, c});
  }
  std::sort(order.begin(), order.end());
  std::vector<char> side(n.nodes.size(), 0);
  for (std::size_t i = 0; i < order.size() / 2; ++i)
    side[static_cast<std::size_t>(order[i].second)] = 1;
  return side;
}

std::int64_t ones(const std::vector<char>& side, std::int64_t chips) {
  std::int64_t k = 0;
  for (std::int64_t c = 0; c < chips; ++c) k += side[static_cast<std::size_t>(c)];
  return k;
}

} // namespace

TEST_CASE("heuristic bisection of odd tori and meshes: at most a staircase cut", "[topo][bound]") {
  // Torus 5x5x5, 62 chips on one side: x0 in {0, 1} (50) and the first 12 chips of the x0 = 2
  // layer (rows x2 = 0, 1 and two chips of row x2 = 2). Every X ring is cut twice (50 links);
  // in the layer, each of the 5 rings of dimension 2 is cut twice (10) and the row x2 = 2 ring
  // twice (2): 62. Torus 7x7, 24 chips: x0 in {0, 1, 2} and 3 chips of column x0 = 3: 7 rings
  // cut twice and that column's ring twice: 16. Torus 3x5x7, along x2: 52 chips, x2 in
  // {0, 1, 2} (45) and 7 of the x2 = 3 layer (x1 = 0, 1 and x0 = 0 of x1 = 2): the 15 Z rings
  // twice (30), in the layer the 3 rings of dimension 1 twice (6) and the x1 = 2 ring of
  // dimension 0 twice (2): 38. Meshes cut each line once instead: 5x5x5: 25 + 5 + 1 = 31;
  // 7x7: 7 + 1 = 8; 3x5x7: 15 + 3 + 1 = 19.
  struct Case {
    const char* family;
    std::vector<int> S;
    std::int64_t cut;
  };
  for (const Case& c :
       {Case{"torus", {5, 5, 5}, 62}, Case{"torus", {7, 7}, 16}, Case{"mesh", {5, 5, 5}, 31},
        Case{"mesh", {7, 7}, 8}, Case{"torus", {3, 5, 7}, 38}, Case{"mesh", {3, 5, 7}, 19}}) {
    const topo::Network n = test::grid_network(c.family, c.S, std::vector<int>(c.S.size(), 1));
    INFO(c.family << " " << n.metrics.family_attrs.dump());
    CHECK(n.metrics.bisection_bandwidth_method == "heuristic");
    const std::vector<char> side = staircase(n, c.S);
    CHECK(ones(side, n.n_chip) == n.n_chip / 2);
    const std::int64_t cut = crossing(n, side);
    CHECK(cut == c.cut); // the count worked out above
    CHECK(n.metrics.bisection_links <= cut);
    CHECK(n.metrics.bisection_links > 0);
  }
}

TEST_CASE("heuristic bisection of a dragonfly: at most the cut between halves of the groups",
          "[topo][bound]") {
  // p = 4, a = 4, h = 1, g = 4: 4 groups of 4 routers with 4 chips each (64 chips). Chips are
  // numbered group by group, so chips 0..31 are groups 0 and 1; each router goes with its
  // chips. Only global links cross: 4 groups x 4 global ports / 2 = 8 global links, at most all
  // of them.
  topo::Context ctx = test::context_for(64);
  ctx.scope = topo::Scope::InterRack;
  topo::Where w = topo::parse_where("p=4,a=4,h=1,g=4", "t");
  auto l = topo::enumerate(ctx, {&topo::require_family("dragonfly", "t")}, 1, std::nullopt, &w);
  REQUIRE(!l.items.empty());
  const topo::Network n = topo::generate(ctx, l.items.front(), {});
  REQUIRE(n.n_chip == 64);
  CHECK(n.metrics.bisection_bandwidth_method == "heuristic");
  std::vector<char> side(n.nodes.size(), 0);
  for (std::int64_t c = 0; c < 32; ++c) side[static_cast<std::size_t>(c)] = 1;
  for (auto& k : n.links) { // a router takes the side of the chips attached to it
    const bool a_chip = k.a < n.n_chip, b_chip = k.b < n.n_chip;
    if (a_chip && !b_chip)
      side[static_cast<std::size_t>(k.b)] = side[static_cast<std::size_t>(k.a)];
    if (b_chip && !a_chip)
      side[static_cast<std::size_t>(k.a)] = side[static_cast<std::size_t>(k.b)];
  }
  const std::int64_t cut = crossing(n, side);
  CHECK(cut >= 4);
  CHECK(cut <= 8);
  CHECK(n.metrics.bisection_links <= cut);
  CHECK(n.metrics.bisection_links > 0);
}
