// lib/topo: the spec's acceptance table @tbl-spec-topo-23, one case per row (with "warnings
// contain X" semantics), the decisions where a row contradicts the spec's own rules, and each
// family's enumeration against a brute-force reading of its rules.
#include "topo/boards.hpp"
#include "topo/dragonfly.hpp"
#include "topo/enumerate.hpp"
#include "topo/grid.hpp"
#include "topo/invariants.hpp"

#include "doc/topo_json.hpp"
#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::topo;

namespace {

bool has(const Candidate& c, const std::string& w) {
  return std::find(c.warnings.begin(), c.warnings.end(), w) != c.warnings.end();
}

Context ctx_of(std::int64_t n, Scope scope = Scope::IntraRack,
               IntraBoardTopo t = IntraBoardTopo::None) {
  Context c;
  c.n_chip = n;
  c.scope = scope;
  c.intra_board_topo = t;
  return c;
}

std::vector<Candidate> all_of(const std::string& family, const Context& ctx,
                              const std::string& where = "") {
  Where w;
  if (!where.empty()) w = parse_where(where, "test");
  return topo::enumerate(ctx, {&require_family(family, "test")}, 0, std::nullopt,
                         where.empty() ? nullptr : &w)
      .items;
}

std::int64_t attr(const Candidate& c, const std::string& key) {
  return c.family_attrs.at(key).get<std::int64_t>();
}

} // namespace

// --- @tbl-spec-topo-23, row by row ------------------------------------------------------

TEST_CASE("spec: fat-tree N=32, 2-layer: a recommended result; k=4 -> C 8, k=8 -> 4, k=16 -> 2",
          "[families][spec]") {
  auto two = all_of("fat-tree", ctx_of(32), "layers=2");
  REQUIRE_FALSE(two.empty());
  CHECK(std::any_of(two.begin(), two.end(), [](auto& c) { return c.status() == "recommended"; }));
  std::set<std::pair<std::int64_t, std::int64_t>> k_c; // (k, C) of the osr = 1 results
  for (auto& c : two) {
    CHECK(c.derived_chips_per_board * c.n_endpoint == 32);
    if (attr(c, "osr") == 1) k_c.insert({attr(c, "k"), c.derived_chips_per_board});
  }
  CHECK(k_c.count({4, 8}) == 1);
  CHECK(k_c.count({8, 4}) == 1);
  CHECK(k_c.count({16, 2}) == 1);
}

TEST_CASE("spec: fat-tree N=32, 3-layer: all edge-case, over-engineered", "[families][spec]") {
  auto three = all_of("fat-tree", ctx_of(32), "layers=3");
  REQUIRE_FALSE(three.empty());
  for (auto& c : three) {
    CHECK(c.status() == "edge-case");
    CHECK(has(c, "over-engineered"));
  }
}

TEST_CASE("spec: fat-tree k=4, osr=2 is dropped (d = 8/3); k=6, osr=2 gives d=4, u=2",
          "[families][spec]") {
  for (std::int64_t n : {16, 32, 64, 96, 128, 1024})
    CHECK(all_of("fat-tree", ctx_of(n), "k=4,osr=2").empty());
  auto six = all_of("fat-tree", ctx_of(64), "k=6,osr=2");
  REQUIRE_FALSE(six.empty());
  for (auto& c : six) {
    CHECK(attr(c, "d") == 4);
    CHECK(attr(c, "u") == 2);
    CHECK(has(c, "aggressive-oversubscription"));
  }
}

TEST_CASE("spec: dragonfly N=32: all edge-case with degenerate, some low-utilization",
          "[families][spec]") {
  // 32 chips give about 200,000 dragonflies: check the first 2,000 of each status order and
  // the total through a filter that matches everything of one shape.
  auto l = topo::enumerate(ctx_of(32, Scope::InterRack), {&require_family("dragonfly", "t")}, 2000);
  REQUIRE(l.total > 2000);
  bool low = false;
  for (auto& c : l.items) {
    CHECK(c.status() == "edge-case");
    CHECK(has(c, "degenerate"));
    low = low || has(c, "low-utilization");
  }
  CHECK(low);
}

TEST_CASE("spec: dragonfly N=64, a=4, p=2, h=2: g=9 recommended, every g < 9 non-balanced",
          "[families][spec]") {
  // Decision: the row says "g = 8 recommended (C = 64)" but its own second clause (and the
  // rule g < ah + 1 -> non-balanced-global-link) makes g = 8 an edge-case. The recommended one
  // is the balanced g = 9: 64 boards fill 9 groups of capacity 8 evenly (7 or 8 per group),
  // capacity 72 <= 1.5 * 64. Scope inter-rack, the dragonfly's own (intra-rack would add
  // non-standard-scope to every result).
  auto l = all_of("dragonfly", ctx_of(64, Scope::InterRack), "a=4,p=2,h=2");
  REQUIRE_FALSE(l.empty());
  std::set<std::int64_t> gs;
  for (auto& c : l) {
    const auto g = attr(c, "g");
    gs.insert(g);
    CHECK(g >= 2);
    CHECK(g <= 9);
    CHECK(has(c, "non-balanced-global-link") == (g < 9));
    if (c.n_endpoint == 64) CHECK(c.status() == (g == 9 ? "recommended" : "edge-case"));
  }
  CHECK(gs.count(9) == 1);
  auto g8 = std::find_if(l.begin(), l.end(),
                         [](auto& c) { return attr(c, "g") == 8 && c.n_endpoint == 64; });
  REQUIRE(g8 != l.end());
  CHECK(g8->warnings == std::vector<std::string>{"non-balanced-global-link"});
  auto g9 = std::find_if(l.begin(), l.end(),
                         [](auto& c) { return attr(c, "g") == 9 && c.n_endpoint == 64; });
  REQUIRE(g9 != l.end());
  CHECK(g9->status() == "recommended");
}

TEST_CASE("spec: dragonfly+ N=32: all edge-case, over-engineered", "[families][spec]") {
  auto l = all_of("dragonfly+", ctx_of(32, Scope::InterRack));
  REQUIRE_FALSE(l.empty());
  for (auto& c : l) {
    CHECK(c.status() == "edge-case");
    CHECK(has(c, "over-engineered"));
  }
}

TEST_CASE("spec: hypercube N=32 is n=5 research-only; N=30 is empty", "[families][spec]") {
  auto l = all_of("hypercube", ctx_of(32));
  REQUIRE(l.size() == 1);
  CHECK(attr(l[0], "n") == 5);
  CHECK(has(l[0], "research-only"));
  CHECK(all_of("hypercube", ctx_of(30)).empty());
  CHECK(has(all_of("hypercube", ctx_of(256))[0], "high-dimension"));
  CHECK_FALSE(has(all_of("hypercube", ctx_of(128))[0], "high-dimension"));
  CHECK(all_of("hypercube", ctx_of(2048)).empty()); // n <= 10
}

TEST_CASE("spec: hyperx N=64: several results, L = 1..4, L=1 degenerate-to-single-switch",
          "[families][spec]") {
  auto l = all_of("hyperx", ctx_of(64, Scope::InterRack));
  std::set<std::int64_t> Ls;
  for (auto& c : l) {
    Ls.insert(attr(c, "L"));
    CHECK(has(c, "degenerate-to-single-switch") == (attr(c, "L") == 1));
    CHECK(has(c, "high-dimension") == (attr(c, "L") == 4));
    auto S = c.family_attrs["S"].get<std::vector<int>>();
    CHECK(std::is_sorted(S.begin(), S.end())); // canonical: [2, 4], never [4, 2]
    CHECK(attr(c, "T") * product(S) == c.n_endpoint);
  }
  CHECK(Ls == std::set<std::int64_t>{1, 2, 3, 4});
}

TEST_CASE("spec: hyperx N=97: the single L=1, T=1, S=[97] (decision)", "[families][spec]") {
  // Decision: the row expects an empty list "as no (L, T, S) has T * prod S = 97", but
  // L = 1, T = 1, S = [97] does and meets every stated constraint. The rule stands; the row's
  // expectation is corrected: one candidate, an edge-case twice over (a 1-D HyperX, and a
  // 97-port switch beyond the 64-port limit).
  auto l = all_of("hyperx", ctx_of(97, Scope::InterRack));
  REQUIRE(l.size() == 1);
  CHECK(l[0].family_attrs["S"] == json::array({97}));
  CHECK(attr(l[0], "T") == 1);
  CHECK(has(l[0], "degenerate-to-single-switch"));
  CHECK(has(l[0], "radix-too-large"));
  CHECK_NOTHROW(topo::generate(ctx_of(97, Scope::InterRack), l[0], {}));
}

TEST_CASE("spec: ring N=16 inter-rack: all edge-case, non-standard-scope", "[families][spec]") {
  for (auto t : {IntraBoardTopo::None, IntraBoardTopo::Ring}) {
    auto l = all_of("ring", ctx_of(16, Scope::InterRack, t));
    REQUIRE_FALSE(l.empty());
    for (auto& c : l) {
      CHECK(c.status() == "edge-case");
      CHECK(has(c, "non-standard-scope"));
    }
  }
}

TEST_CASE("spec: ring N=64, C=1: high-diameter (64 boards > 32)", "[families][spec]") {
  auto l = all_of("ring", ctx_of(64), "chips_per_board=1");
  REQUIRE(l.size() == 1);
  CHECK(l[0].n_endpoint == 64);
  CHECK(has(l[0], "high-diameter"));
  // 32 boards (with a board topology to join each board's two chips) is not.
  auto r32 = all_of("ring", ctx_of(64, Scope::IntraRack, IntraBoardTopo::Ring), "n_endpoint=32");
  REQUIRE(r32.size() == 1);
  CHECK_FALSE(has(r32[0], "high-diameter"));
}

TEST_CASE("spec: full-mesh N=32, 32 boards: link-explosion", "[families][spec]") {
  auto l = all_of("full-mesh", ctx_of(32), "n_endpoint=32");
  REQUIRE(l.size() == 1);
  CHECK(has(l[0], "link-explosion"));
  auto l16 =
      all_of("full-mesh", ctx_of(32, Scope::IntraRack, IntraBoardTopo::FullMesh), "n_endpoint=16");
  REQUIRE(l16.size() == 1);
  CHECK_FALSE(has(l16[0], "link-explosion"));
}

TEST_CASE("spec: single-switch N=64, 64 boards: no radix-too-large at 64 ports (decision)",
          "[families][spec]") {
  // Decision: the row expects radix-too-large, but the rule is N_endpoint > 64 and 64-port
  // switches are the spec's own limit (fat-tree k <= 64). The rule stands: 64 boards fit, 128
  // do not.
  auto l64 = all_of("single-switch", ctx_of(64), "n_endpoint=64");
  REQUIRE(l64.size() == 1);
  CHECK_FALSE(has(l64[0], "radix-too-large"));
  CHECK(l64[0].status() == "recommended");
  auto l128 = all_of("single-switch", ctx_of(128), "n_endpoint=128");
  REQUIRE(l128.size() == 1);
  CHECK(has(l128[0], "radix-too-large"));
}

TEST_CASE("spec: C_board = 1 with intra_board_topo full-mesh is an error", "[families][spec]") {
  // Enumeration leaves such candidates out; generating one is infeasible (exit 4).
  auto ctx = ctx_of(32, Scope::IntraRack, IntraBoardTopo::FullMesh);
  for (auto& c : all_of("single-switch", ctx)) CHECK(c.derived_chips_per_board > 1);
  auto one = all_of("single-switch", ctx_of(32), "n_endpoint=32");
  REQUIRE(one.size() == 1);
  CHECK(kind_of([&] { topo::generate(ctx, one[0], {}); }) == ErrorKind::Infeasible);
}

TEST_CASE("spec: C_board = 4, intra torus, single-switch: each board a 2x2 torus",
          "[families][spec]") {
  auto ctx = ctx_of(16, Scope::IntraRack, IntraBoardTopo::Torus);
  auto l = all_of("single-switch", ctx, "chips_per_board=4");
  REQUIRE(l.size() == 1);
  Network n = topo::generate(ctx, l[0], {});
  // A 2x2 torus is the 4-cycle 0-1-3-2 (one link per size-2 ring): 4 c2c links per board.
  for (auto& b : n.boards) {
    std::set<std::pair<std::int64_t, std::int64_t>> in_board;
    for (auto& k : n.links)
      if (k.kind == LinkKind::C2C && n.nodes[static_cast<std::size_t>(k.a)].board == b.id)
        in_board.insert({k.a - b.chips[0], k.b - b.chips[0]});
    CHECK(in_board ==
          std::set<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  }
}

TEST_CASE("spec: C_board = 64, intra torus: a 4x4x4 board torus (cube before 8x8 square)",
          "[families][spec]") {
  CHECK(board_torus_shape(64) == std::vector<int>{4, 4, 4});
  CHECK(board_torus_shape(8) == std::vector<int>{2, 2, 2});
  CHECK(board_torus_shape(16) == std::vector<int>{4, 4});
  CHECK(board_torus_shape(4) == std::vector<int>{2, 2});
  CHECK_FALSE(board_torus_shape(2));
  CHECK_FALSE(board_torus_shape(6));
  CHECK_FALSE(board_torus_shape(32));
  auto ctx = ctx_of(64, Scope::IntraRack, IntraBoardTopo::Torus);
  ctx.chips_per_board_max = 64;
  auto l = all_of("single-switch", ctx, "chips_per_board=64");
  REQUIRE(l.size() == 1);
  Network n = topo::generate(ctx, l[0], {});
  std::map<std::int64_t, int> c2c_degree;
  std::int64_t c2c = 0;
  for (auto& k : n.links)
    if (k.kind == LinkKind::C2C) ++c2c, ++c2c_degree[k.a], ++c2c_degree[k.b];
  CHECK(c2c == 64 * 3); // 4x4x4 torus: 3 links per chip
  for (auto& [chip, d] : c2c_degree) CHECK(d == 6);
  // Boards whose size is neither a cube nor a square cannot take a torus: left out.
  for (auto& c : all_of("single-switch", ctx_of(32, Scope::IntraRack, IntraBoardTopo::Torus)))
    CHECK(board_torus_shape(c.derived_chips_per_board));
}

TEST_CASE("spec: derived C_board = 32 > 16 is dense-pcb-impractical, in every family",
          "[families][spec]") {
  for (auto [f, n] : std::vector<std::pair<std::string, std::int64_t>>{{"fat-tree", 128},
                                                                       {"single-switch", 64},
                                                                       {"hyperx", 64},
                                                                       {"ring", 64},
                                                                       {"full-mesh", 64}}) {
    auto ctx = ctx_of(n, Scope::IntraRack, IntraBoardTopo::Ring);
    auto l = all_of(f, ctx, "chips_per_board=32");
    REQUIRE_FALSE(l.empty());
    for (auto& c : l) CHECK(has(c, "dense-pcb-impractical"));
  }
}

// --- decisions and family rules ---------------------------------------------------------

TEST_CASE("fat-tree: N_leaf <= k (a spine has one port per leaf), u <= N_leaf not required",
          "[families]") {
  // 2-layer with k=4, osr=1: d=2, u=2, at most 4 leaves = 8 boards.
  for (auto& c : all_of("fat-tree", ctx_of(1024), "layers=2,k=4,osr=1")) CHECK(c.n_endpoint <= 8);
  // The spec's example k=8 -> C=4 on 32 chips has 2 leaves and u=4 spines (u > N_leaf).
  auto k8 = all_of("fat-tree", ctx_of(32), "layers=2,k=8,osr=1,chips_per_board=4");
  REQUIRE(k8.size() == 1);
  CHECK(k8[0].family_attrs["m_levels"] == json::array({16, 2}));
  CHECK(has(k8[0], "low-utilization")); // capacity 32 > 1.5 * 8
}

TEST_CASE("fat-tree enumeration equals a brute-force reading of its rules", "[families]") {
  for (std::int64_t n : {16, 32, 48, 64, 96, 128, 1024}) {
    std::set<std::string> want;
    for (int layers : {2, 3})
      for (int osr = 1; osr <= 3; ++osr)
        for (int k = 4; k <= 64; k += 2) {
          if ((k * osr) % (osr + 1)) continue;
          const int d = k * osr / (osr + 1);
          for (std::int64_t e = 1; e <= n; ++e) {
            if (n % e) continue;
            const std::int64_t unit = layers == 2 ? d : d * d;
            if (e % unit || e / unit < 2 || e / unit > k) continue;
            want.insert(std::to_string(layers) + "/" + std::to_string(k) + "/" +
                        std::to_string(osr) + "/" + std::to_string(e));
          }
        }
    std::set<std::string> got;
    for (auto& c : all_of("fat-tree", ctx_of(n)))
      got.insert(std::to_string(attr(c, "layers")) + "/" + std::to_string(attr(c, "k")) + "/" +
                 std::to_string(attr(c, "osr")) + "/" + std::to_string(c.n_endpoint));
    CHECK(got == want);
  }
}

TEST_CASE("fat-tree PGFT attributes follow Zahavi at chip level", "[families]") {
  Context ctx = ctx_of(128);
  ctx.chip_radix = 2;
  auto l = all_of("fat-tree", ctx, "layers=3,k=8,osr=1,chips_per_board=2");
  REQUIRE(l.size() == 1); // d = u = 4, 64 boards = 4 groups of 16
  const Candidate& c = l[0];
  CHECK(c.family_attrs["m_levels"] == json::array({8, 4, 4})); // d*C chips, d ToRs, 4 groups
  CHECK(c.family_attrs["w_levels"] == json::array({1, 4, 4})); // hosts have one parent
  CHECK(c.family_attrs["p_levels"] == json::array({2, 4, 4})); // chip_radix, then C*radix
  Network n = topo::generate(ctx, c, {});
  std::map<std::string, int> roles;
  for (auto& v : n.nodes)
    if (v.kind == NodeKind::Switch) roles[v.role]++;
  CHECK(roles == std::map<std::string, int>{{"tor", 16}, {"aggregation", 16}, {"core", 16}});
  CHECK(n.pods.size() == 4); // a group is a pod; cores are Tier 9+
  for (auto& v : n.nodes) {
    if (v.role == "core") CHECK((v.tier == 10 && v.pod == -1));
    if (v.role == "aggregation") CHECK(v.tier == 9);
    if (v.role == "tor") CHECK(v.tier == 8);
  }
}

TEST_CASE("dragonfly: g in [2, ah+1], g <= boards <= g a p, boards spread evenly", "[families]") {
  Context ctx = ctx_of(48, Scope::InterRack);
  auto l = all_of("dragonfly", ctx, "a=4,p=2,h=1");
  std::set<std::pair<std::int64_t, std::int64_t>> got, want;
  for (auto& c : l) got.insert({c.n_endpoint, attr(c, "g")});
  for (std::int64_t e : {2, 3, 4, 6, 8, 12, 16, 24, 48})
    for (std::int64_t g = 2; g <= 5; ++g)
      if (g <= e && e <= g * 8) want.insert({e, g});
  CHECK(got == want);
  // 24 boards in 5 groups: 5, 5, 5, 5, 4 boards; group = rack.
  auto c = all_of("dragonfly", ctx, "a=4,p=2,h=1,g=5,n_endpoint=24");
  REQUIRE(c.size() == 1);
  Network n = topo::generate(ctx, c[0], {});
  std::vector<std::int64_t> per_rack;
  for (auto& r : n.racks) per_rack.push_back(static_cast<std::int64_t>(r.boards.size()));
  CHECK(per_rack == std::vector<std::int64_t>{5, 5, 5, 5, 4});
}

TEST_CASE("dragonfly global links: every group pair linked, ports used, no port twice",
          "[families]") {
  for (std::int64_t g = 2; g <= 12; ++g)
    for (std::int64_t P = g - 1; P <= 3 * g; ++P) {
      auto links = arrange_global_links(g, P);
      CHECK(static_cast<std::int64_t>(links.size()) == global_link_count(g, P));
      std::set<std::pair<std::int64_t, std::int64_t>> ports, pairs;
      for (auto& l : links) {
        CHECK(l.group_a != l.group_b);
        CHECK(ports.insert({l.group_a, l.port_a}).second);
        CHECK(ports.insert({l.group_b, l.port_b}).second);
        CHECK(l.port_a < P);
        CHECK(l.port_b < P);
        pairs.insert({std::min(l.group_a, l.group_b), std::max(l.group_a, l.group_b)});
      }
      CHECK(static_cast<std::int64_t>(pairs.size()) == g * (g - 1) / 2);
      // Every port used, except one per group when the remainder is odd and g is odd.
      const std::int64_t rest = P - (P / (g - 1)) * (g - 1);
      const std::int64_t unused = (rest % 2 == 1 && g % 2 == 1) ? g : 0;
      CHECK(static_cast<std::int64_t>(ports.size()) == g * P - unused);
    }
}

TEST_CASE("dragonfly+: s | a, g <= s(s-1)+1; leaves on every spine of their group", "[families]") {
  Context ctx = ctx_of(64, Scope::InterRack);
  for (auto& c : all_of("dragonfly+", ctx, "p=2,a=6")) {
    CHECK(6 % attr(c, "s") == 0);
    CHECK(attr(c, "g") <= attr(c, "s") * (attr(c, "s") - 1) + 1);
    CHECK(has(c, "minimal-subgroups") == (attr(c, "s") == 2));
  }
  auto c = all_of("dragonfly+", ctx, "p=2,a=4,s=4,g=8,n_endpoint=64");
  REQUIRE(c.size() == 1);
  Network n = topo::generate(ctx, c[0], {});
  std::map<std::int64_t, std::set<std::int64_t>> spines_of_leaf;
  for (auto& k : n.links) {
    auto& a = n.nodes[static_cast<std::size_t>(k.a)];
    auto& b = n.nodes[static_cast<std::size_t>(k.b)];
    if (a.role == "leaf" && b.role == "spine") spines_of_leaf[a.id].insert(b.id);
  }
  REQUIRE(spines_of_leaf.size() == 32); // 8 groups x 4 leaves
  for (auto& [leaf, spines] : spines_of_leaf) CHECK(spines.size() == 4);
  CHECK(n.metrics.diameter == 5);
}

TEST_CASE("ring and full-mesh: boards of several chips need an intra-board topology",
          "[families]") {
  // The spec's connectivity constraint: rails never meet without intra-board links.
  for (const char* f : {"ring", "full-mesh"}) {
    auto none = all_of(f, ctx_of(32));
    REQUIRE(none.size() == 1);
    CHECK(none[0].derived_chips_per_board == 1);
    auto ring = all_of(f, ctx_of(32, Scope::IntraRack, IntraBoardTopo::Ring));
    std::set<std::int64_t> cs;
    for (auto& c : ring) cs.insert(c.derived_chips_per_board);
    CHECK(cs == std::set<std::int64_t>{2, 4, 8, 16}); // 32 chips on one board: not a ring of boards
  }
  // A ring of 8 boards of 4 chips with a board ring is the 8x4 torus: rails x board rings.
  auto ctx = ctx_of(32, Scope::IntraRack, IntraBoardTopo::Ring);
  auto c = all_of("ring", ctx, "n_endpoint=8");
  REQUIRE(c.size() == 1);
  Network n = topo::generate(ctx, c[0], {});
  CHECK(n.links.size() == 64);
  CHECK(n.metrics.diameter == 4 + 2);
  // A hand-edited candidate of that shape without the board topology is infeasible.
  CHECK(kind_of([&] { topo::generate(ctx_of(32), c[0], {}); }) == ErrorKind::Infeasible);
}

TEST_CASE("hyperx enumeration equals a brute-force reading of its rules", "[families]") {
  for (std::int64_t n : {16, 24, 64, 97, 128}) {
    std::set<std::string> want;
    for (std::int64_t e = 1; e <= n; ++e) {
      if (n % e) continue;
      for (int T = 1; T <= 8; ++T) {
        if (e % T) continue;
        const std::int64_t sw = e / T;
        // Non-decreasing S of length 1..4, entries >= 2, product sw.
        std::function<void(std::vector<int>&, std::int64_t, int)> rec =
            [&](std::vector<int>& S, std::int64_t left, int lo) {
              if (left == 1 && !S.empty()) want.insert(std::to_string(T) + "/" + join_sizes(S));
              if (S.size() == 4) return;
              for (int f = lo; f <= left; ++f)
                if (left % f == 0) {
                  S.push_back(f);
                  rec(S, left / f, f);
                  S.pop_back();
                }
            };
        std::vector<int> S;
        rec(S, sw, 2);
      }
    }
    std::set<std::string> got;
    for (auto& c : all_of("hyperx", ctx_of(n)))
      got.insert(std::to_string(attr(c, "T")) + "/" +
                 join_sizes(c.family_attrs["S"].get<std::vector<int>>()));
    CHECK(got == want);
  }
}

TEST_CASE("scopes: each family's own scope is standard, the other non-standard",
          "[families][spec]") {
  const std::map<std::string, std::set<Scope>> standard = {
      {"fat-tree", {Scope::IntraRack, Scope::InterRack}},
      {"dragonfly", {Scope::InterRack}},
      {"dragonfly+", {Scope::InterRack}},
      {"torus", {Scope::IntraRack, Scope::InterRack}},
      {"hypercube", {Scope::IntraRack}},
      {"hyperx", {Scope::InterRack}},
      {"ring", {Scope::IntraRack}},
      {"full-mesh", {Scope::IntraRack}},
      {"single-switch", {Scope::IntraRack}}};
  for (auto& [f, scopes] : standard)
    for (auto s : {Scope::IntraRack, Scope::InterRack}) {
      auto l = topo::enumerate(ctx_of(64, s), {&require_family(f, "t")}, 200).items;
      REQUIRE_FALSE(l.empty());
      for (auto& c : l) CHECK(has(c, "non-standard-scope") == (scopes.count(s) == 0));
    }
}

TEST_CASE("status: edge-case iff warnings; recommended first; the cap keeps the total",
          "[families][spec]") {
  auto all = topo::families();
  auto l = topo::enumerate(ctx_of(64, Scope::InterRack), all, 50);
  CHECK(l.items.size() == 50);
  CHECK(l.total > 400000); // the dragonflies alone are ~411,000
  CHECK(l.truncated());
  std::size_t last = 0;
  for (auto& c : l.items) {
    CHECK((c.status() == "edge-case") == !c.warnings.empty());
    CHECK(c.warnings.size() >= last); // fewer warnings first
    last = c.warnings.size();
  }
  // Over the cap without a limit: refused with the count, not a multi-GB document.
  CHECK(kind_of([&] { topo::enumerate(ctx_of(64, Scope::InterRack), all, 0); }) ==
        ErrorKind::Infeasible);
}

TEST_CASE("--sort-by: recommended first, each status by a closed-form metric", "[families]") {
  auto all = topo::families();
  SortSpec s = parse_sort("diameter", "t");
  // The edge-cases alone: the full mesh (diameter 1, but 64 boards in one mesh) leads them.
  const Where edge = parse_where("status=edge-case", "t");
  auto e = topo::enumerate(ctx_of(64, Scope::InterRack), all, 5, s, &edge);
  REQUIRE(!e.items.empty());
  CHECK(e.items[0].family == "full-mesh"); // diameter 1
  // All of them: every recommended design before any edge-case, each part by diameter.
  auto l = topo::enumerate(ctx_of(64, Scope::InterRack), all, 400, s);
  REQUIRE(l.items.size() == 400);
  CHECK(l.items.front().status() == "recommended");
  CHECK(l.items.back().status() == "edge-case");
  std::int64_t prev = 0;
  std::string status = "recommended";
  for (auto& c : l.items) {
    if (c.status() != status) {
      CHECK(status == "recommended"); // one switch, recommended -> edge-case
      status = c.status(), prev = 0;
    }
    Network n = topo::generate(ctx_of(64, Scope::InterRack), c, {});
    CHECK(n.metrics.diameter >= prev); // the closed form orders the built networks too
    CHECK(c.sort_value == n.metrics.diameter);
    prev = n.metrics.diameter;
  }
  auto d = topo::enumerate(ctx_of(64), {&require_family("torus", "t")}, 5,
                           parse_sort("link_count:desc", "t"));
  for (auto& c : d.items) CHECK(c.id.rfind("torus:", 0) == 0);
  CHECK(kind_of([] { parse_sort("beauty", "--sort-by"); }) == ErrorKind::Usage);
  CHECK(kind_of([] { parse_sort("diameter:up", "--sort-by"); }) == ErrorKind::Usage);
}

TEST_CASE("--sort-by cost and power: the built networks' own cost, in order", "[families][cost]") {
  auto all = topo::families();
  const auto ctx = ctx_of(64, Scope::InterRack);
  const Where rec = parse_where("status=recommended", "t");
  // The reference: the default order (status, then registry and family order), every candidate
  // built and priced, stable-sorted by its price.
  auto priced = [&](const CostTable& t, bool power) {
    auto l = topo::enumerate(ctx, all, 0, std::nullopt, &rec);
    std::vector<std::pair<double, std::string>> v;
    for (auto& c : l.items) {
      CHECK(c.status() == "recommended");
      const Cost k = network_cost(topo::generate(ctx, c, {}), t);
      v.emplace_back(power ? k.watts : k.capex_usd, c.id);
    }
    std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; });
    return v;
  };
  auto check_order = [&](const std::vector<std::pair<double, std::string>>& want,
                         const CandidateList& got) {
    REQUIRE(got.items.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(got.items[i].id == want[i].second);
      CHECK(got.items[i].sort_value == want[i].first);
    }
  };
  const auto by_cost = priced(default_cost_table(), false);
  REQUIRE(by_cost.size() > 40);
  CHECK(by_cost.front().first < by_cost.back().first); // the order is not vacuous
  check_order(by_cost, topo::enumerate(ctx, all, 0, parse_sort("cost", "t"), &rec));
  // The cap keeps the cheapest.
  auto five = topo::enumerate(ctx, all, 5, parse_sort("cost", "t"), &rec);
  REQUIRE(five.items.size() == 5);
  CHECK(five.total == static_cast<std::int64_t>(by_cost.size()));
  for (std::size_t i = 0; i < 5; ++i) CHECK(five.items[i].id == by_cost[i].second);
  CHECK(five.items[0].sorted_by == "cost");
  // Another table reorders: optics 100 times dearer.
  CostTable dear = default_cost_table();
  for (auto& r : dear.rows)
    if (r.item == "optic") r.usd *= 100;
  auto s = parse_sort("cost", "t");
  s.cost_table = &dear;
  const auto by_dear = priced(dear, false);
  check_order(by_dear, topo::enumerate(ctx, all, 0, s, &rec));
  std::vector<std::string> a, b;
  for (auto& x : by_cost) a.push_back(x.second);
  for (auto& x : by_dear) b.push_back(x.second);
  CHECK(a != b);
  // Power, most first.
  auto by_power = priced(default_cost_table(), true);
  auto desc = topo::enumerate(ctx, all, 0, parse_sort("power:desc", "t"), &rec);
  REQUIRE(desc.items.size() == by_power.size());
  for (std::size_t i = 1; i < desc.items.size(); ++i)
    CHECK(desc.items[i - 1].sort_value >= desc.items[i].sort_value);
  CHECK(desc.items.front().sort_value == std::max_element(by_power.begin(), by_power.end())->first);
  // Millions of candidates to build: refused before any is built.
  CHECK(kind_of([&] {
          topo::enumerate(ctx_of(1024, Scope::InterRack), all, 10, parse_sort("cost", "t"));
        }) == ErrorKind::Infeasible);
}

TEST_CASE("--where status=: recommended or edge-case", "[families]") {
  auto all = topo::families();
  const auto ctx = ctx_of(64, Scope::InterRack);
  auto every = topo::enumerate(ctx, all, 200); // recommended first
  std::int64_t rec = 0;
  for (auto& c : every.items) rec += c.status() == "recommended";
  REQUIRE(rec > 0);
  REQUIRE(rec < 200);
  auto w = parse_where("status=recommended", "t");
  auto r = topo::enumerate(ctx, all, 0, std::nullopt, &w);
  CHECK(r.total == rec);
  auto e = parse_where("status=edge-case", "t");
  CHECK(topo::enumerate(ctx, all, 1, std::nullopt, &e).total == every.total - rec);
  CHECK(kind_of([&] { check_where_keys(parse_where("status=great", "t"), all, "--where"); }) ==
        ErrorKind::Usage);
}

TEST_CASE("--where: filters by family attributes, n_endpoint, chips_per_board", "[families]") {
  auto l = all_of("fat-tree", ctx_of(64), "k=8");
  REQUIRE_FALSE(l.empty());
  for (auto& c : l) CHECK(attr(c, "k") == 8);
  CHECK(all_of("fat-tree", ctx_of(64), "k=8,colour=7").empty());
  CHECK(kind_of([] { parse_where("k", "--where"); }) == ErrorKind::Usage);
  CHECK(kind_of([] { parse_where("k=8,", "--where"); }) == ErrorKind::Usage);
  auto w = parse_where("g=33", "t");
  auto d = topo::enumerate(ctx_of(1024, Scope::InterRack), {&require_family("dragonfly", "t")}, 10,
                           std::nullopt, &w);
  CHECK(d.total > 0);
  for (auto& c : d.items) CHECK(attr(c, "g") == 33);
}

TEST_CASE("hand-edited candidates are refused with an input error", "[families]") {
  auto ctx = ctx_of(64, Scope::InterRack);
  auto edit = [&](const std::string& family, const std::string& where,
                  const std::function<void(Candidate&)>& f) {
    auto l = all_of(family, ctx, where);
    REQUIRE_FALSE(l.empty());
    Candidate c = l[0];
    f(c);
    return kind_of([&] { topo::generate(ctx, c, {}); });
  };
  CHECK(edit("fat-tree", "k=8,layers=2", [](Candidate& c) { c.family_attrs["k"] = 10; }) ==
        ErrorKind::Input);
  CHECK(edit("fat-tree", "k=8,layers=2", [](Candidate& c) { c.family_attrs["osr"] = 2; }) ==
        ErrorKind::Input);
  CHECK(edit("fat-tree", "k=8", [](Candidate& c) { c.family_attrs["extra"] = 1; }) ==
        ErrorKind::Input);
  CHECK(edit("dragonfly", "a=4,p=2,h=2,g=9", [](Candidate& c) { c.family_attrs["g"] = 10; }) ==
        ErrorKind::Input);
  CHECK(edit("dragonfly+", "a=4,s=4", [](Candidate& c) { c.family_attrs["s"] = 3; }) ==
        ErrorKind::Input);
  CHECK(edit("hyperx", "L=2", [](Candidate& c) {
          c.family_attrs["S"] = json::array({8, 4});
        }) == ErrorKind::Input);
  CHECK(edit("hyperx", "L=2", [](Candidate& c) { c.n_endpoint *= 2; }) == ErrorKind::Input);
  CHECK(edit("single-switch", "n_endpoint=16",
             [](Candidate& c) { c.derived_chips_per_board = 3; }) == ErrorKind::Input);
  CHECK(edit("hypercube", "", [](Candidate& c) { c.family_attrs["n"] = 5; }) == ErrorKind::Input);
  CHECK(edit("torus", "", [](Candidate& c) {
          c.family_attrs["dimension_sizes"] = json::array({4, 4, 5});
        }) == ErrorKind::Input);
}

TEST_CASE("chip-leaf families refuse a board topology; in --family all they are skipped",
          "[families][spec]") {
  auto ctx = ctx_of(64, Scope::IntraRack, IntraBoardTopo::Ring);
  for (const char* f : {"torus", "mesh", "hypercube"})
    CHECK(kind_of([&] { topo::enumerate(ctx, {&require_family(f, "t")}, 10); }) ==
          ErrorKind::Infeasible);
  auto l = topo::enumerate(ctx, topo::families(), 5000, std::nullopt, nullptr);
  REQUIRE(l.items.size() == 5000);
  for (auto& c : l.items) {
    CHECK(c.family != "torus");
    CHECK(c.family != "hypercube");
    CHECK(c.derived_chips_per_board > 1);
  }
}

TEST_CASE("chip_radix gives multi-edges: chip_radix links per chip to its switch", "[families]") {
  Context ctx = ctx_of(16);
  ctx.chip_radix = 4;
  auto l = all_of("single-switch", ctx, "n_endpoint=4");
  REQUIRE(l.size() == 1);
  Network n = topo::generate(ctx, l[0], {});
  CHECK(n.links.size() == 16 * 4);
  CHECK(n.nodes[16].ports == 4 * 4 * 4); // 4 board ports, each 4 chips x 4 lanes
  CHECK(n.metrics.path_diversity == 4);
  // One lane more than chip_radix between a chip and its switch breaks the invariant.
  Network bad = n;
  Link extra = bad.links[0];
  extra.id = static_cast<std::int64_t>(bad.links.size());
  bad.links.push_back(extra);
  bad.nodes[16].ports += 1;
  CHECK(kind_of([&] { check_invariants(bad, ErrorKind::Input, "t"); }) == ErrorKind::Input);
}

TEST_CASE("every family at 16, 32, 64, 128 and 1024 chips: candidates generate and pass the "
          "invariants",
          "[families]") {
  // The first 10 of each status-ordered list (the ones a user sees first) and, for the
  // dragonflies' long lists, 10 more spread over the whole list by a filter on g.
  std::int64_t built = 0;
  for (const Family* f : topo::families())
    for (std::int64_t n : {16, 32, 64, 128, 1024}) {
      const Context ctx = ctx_of(n, Scope::InterRack);
      std::vector<Candidate> cs = topo::enumerate(ctx, {f}, 10).items;
      if (f->name() == "dragonfly" || f->name() == "dragonfly+") {
        Where w = parse_where("g=3", "t");
        auto more = topo::enumerate(ctx, {f}, 10, std::nullopt, &w).items;
        cs.insert(cs.end(), more.begin(), more.end());
      }
      for (auto& c : cs) {
        INFO(c.id);
        Network net;
        REQUIRE_NOTHROW(net = topo::generate(ctx, c, {}));
        CHECK_NOTHROW(check_invariants(net, ErrorKind::Input, "t"));
        CHECK(net.n_chip == n);
        CHECK(static_cast<std::int64_t>(net.boards.size()) * c.derived_chips_per_board == n);
        ++built;
      }
    }
  CHECK(built > 300);
}

TEST_CASE("enumeration is deterministic", "[families]") {
  for (std::int64_t n : {64, 1024}) {
    auto a = topo::to_json(topo::enumerate(ctx_of(n, Scope::InterRack), topo::families(), 200));
    auto b = topo::to_json(topo::enumerate(ctx_of(n, Scope::InterRack), topo::families(), 200));
    CHECK(a.dump() == b.dump());
  }
}
