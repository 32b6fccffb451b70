// lib/route beyond DOR, the routes taken: WFR keeping to DOR's paths where DOR is clean,
// D-mod-k's shift permutations, stretch and load, bad input and emitted tables (the deadlock
// proofs are in test_routing_families.cpp). Expected values come from independent computations
// (channel counts of shift permutations, hand-derived loads), never from the code under test.
#include "route/cdg.hpp"
#include "route/emit.hpp"
#include "route/load.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"

#include "routing_families.hpp"
#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>

using namespace icnkit;
using namespace icnkit::route;
using icnkit::test::kind_of;

using namespace icnkit::test::routing;
using namespace icnkit::test::routing_families;

namespace {

// The dependency graph of the routes actually taken (trace(): the first live choice) over every
// pair of live chips, and whether it has a cycle. Exact for a deterministic routing.
bool taken_routes_cyclic(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f) {
  const auto down_links = my_down_links(n, f);
  const auto down_nodes = my_down_nodes(n, f);
  const int vcs = fn.vc_count();
  std::vector<std::set<std::int64_t>> adj(static_cast<std::size_t>(n.channel_count() * vcs));
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t d = 0; d < n.n_chip; ++d) {
      if (s == d || down_nodes[static_cast<std::size_t>(s)] ||
          down_nodes[static_cast<std::size_t>(d)])
        continue;
      Path p = trace(fn, n, down_links, down_nodes, s, d, 4 * n.n_chip);
      for (std::size_t i = 0; i + 1 < p.hops.size(); ++i)
        adj[static_cast<std::size_t>(p.hops[i].channel * vcs + p.hops[i].vc)].insert(
            p.hops[i + 1].channel * vcs + p.hops[i + 1].vc);
    }
  // Iterative three-colour DFS.
  std::vector<char> colour(adj.size(), 0);
  for (std::size_t root = 0; root < adj.size(); ++root) {
    if (colour[root]) continue;
    std::vector<std::pair<std::size_t, std::set<std::int64_t>::const_iterator>> stack;
    stack.push_back({root, adj[root].begin()});
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [v, it] = stack.back();
      if (it == adj[v].end()) {
        colour[v] = 2;
        stack.pop_back();
        continue;
      }
      const auto w = static_cast<std::size_t>(*it++);
      if (colour[w] == 1) return true;
      if (colour[w] == 0) {
        colour[w] = 1;
        stack.push_back({w, adj[w].begin()});
      }
    }
  }
  return false;
}

} // namespace

// --- 3. WFR keeps to DOR where DOR is clean -------------------------------------------------

namespace {
// WFR with one failed link: every pair served, and every pair whose fault-free DOR path (same
// dimension order and tie) avoids the link takes exactly that path, channel for channel and VC
// for VC. `every`: test the links whose chip id is a multiple of it.
void check_wfr_keeps_dor(const std::vector<int>& S, const json& params, std::int64_t every) {
  auto n = torus(S);
  auto dor = build("dor", n, {}, params);
  const std::vector<char> none(n.links.size(), 0);
  std::vector<std::pair<Pair, Path>> dor_paths;
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t d = 0; d < n.n_chip; ++d)
      if (s != d) {
        Path p = trace(*dor, n, none, s, d, 64);
        REQUIRE(p.delivered);
        dor_paths.push_back({{s, d}, p});
      }
  for (const auto& l : n.links) {
    if ((l.id / static_cast<std::int64_t>(S.size())) % every != 0) continue;
    INFO("failed link " << l.id << " (" << l.a << " - " << l.b << ")");
    auto f = make({l.id});
    auto wfr = build("wfr", n, f, params);
    std::vector<char> down(n.links.size(), 0);
    down[static_cast<std::size_t>(l.id)] = 1;
    std::int64_t undelivered = 0, differs = 0, clean = 0, detoured = 0;
    for (auto& [pair, dp] : dor_paths) {
      Path w = trace(*wfr, n, down, pair.first, pair.second, 64);
      if (!w.delivered) {
        ++undelivered;
        UNSCOPED_INFO(pair.first << " -> " << pair.second << " not delivered: " << w.reason);
        continue;
      }
      bool uses = false;
      for (auto& h : dp.hops) uses |= topo::link_of_channel(h.channel) == l.id;
      if (uses) {
        ++detoured;
        continue;
      }
      ++clean;
      bool same = w.hops.size() == dp.hops.size();
      for (std::size_t i = 0; same && i < w.hops.size(); ++i)
        same = w.hops[i].channel == dp.hops[i].channel && w.hops[i].vc == dp.hops[i].vc;
      if (!same) {
        ++differs;
        UNSCOPED_INFO(pair.first << " -> " << pair.second << " leaves DOR's clean path");
      }
    }
    CHECK(undelivered == 0);
    CHECK(differs == 0);
    CHECK(detoured > 0); // at least the two neighbours the link joins
    CHECK(clean + detoured == n.n_chip * (n.n_chip - 1));
  }
}
} // namespace

TEST_CASE("WFR on 4x4x4: every pair served; DOR's path wherever it avoids the failed link",
          "[routing-families]") {
  check_wfr_keeps_dor({4, 4, 4}, json::object(), 1);
  check_wfr_keeps_dor({4, 4, 4}, {{"dimension_order", {2, 0, 1}}, {"tie", "plus"}}, 1);
}

TEST_CASE("WFR on 8x4x4: every pair served; DOR's path wherever it avoids the failed link",
          "[routing-families][slow]") {
  check_wfr_keeps_dor({8, 4, 4}, json::object(), 3); // a third of the chips, all their links
}

TEST_CASE("WFR: the deadlock verdict is that of the routes actually taken", "[routing-families]") {
  // Two failed X links on 4x4x4, (2,1,2)-(3,1,2) and (1,2,2)-(2,2,2). Every pair is still
  // delivered, and the dependencies between the hops the packets take (the first live choice
  // at every node: WFR is deterministic on a fixed fault map) form no cycle. WFR also lists the
  // opposite wild direction as a second choice "if that wild link is down too"; with the first
  // one up no packet ever takes it, so it is no dependency.
  const std::vector<int> S{4, 4, 4};
  auto n = torus(S);
  auto f = make({link_between(n, tid(S, {2, 1, 2}), tid(S, {3, 1, 2})),
                 link_between(n, tid(S, {1, 2, 2}), tid(S, {2, 2, 2}))});
  auto fn = build("wfr", n, f);
  REQUIRE_FALSE(taken_routes_cyclic(*fn, n, f));
  Verification v = verify_routing(*fn, n, f);
  CHECK(v.unreachable_pairs == 0);
  if (v.cdg.cycle)
    for (auto& h : *v.cdg.cycle)
      UNSCOPED_INFO("reported cycle hop " << h.from << " -> " << h.to << " vc " << h.vc);
  CHECK(v.deadlock_free);
}

// --- 4. D-mod-k shift permutations ----------------------------------------------------------

namespace {
// For every shift s (dst = (src + s) mod N) the most paths any directed channel carries.
std::int64_t worst_shift_contention(const topo::Network& n, const RoutingFunction& fn) {
  const std::int64_t N = n.n_chip;
  const std::vector<char> none(n.links.size(), 0);
  std::int64_t worst = 0;
  for (std::int64_t s = 1; s < N; ++s) {
    std::vector<std::int64_t> uses(static_cast<std::size_t>(n.channel_count()), 0);
    for (std::int64_t src = 0; src < N; ++src) {
      Path p = trace(fn, n, none, src, (src + s) % N, 64);
      REQUIRE(p.delivered);
      for (auto& h : p.hops) ++uses[static_cast<std::size_t>(h.channel)];
    }
    const std::int64_t m = *std::max_element(uses.begin(), uses.end());
    if (m > 1) UNSCOPED_INFO("shift " << s << ": a channel carries " << m << " paths");
    worst = std::max(worst, m);
  }
  return worst;
}
} // namespace

TEST_CASE("D-mod-k: every shift permutation is contention-free on full-bisection fat-trees",
          "[routing-families]") {
  struct Case {
    std::int64_t n_chip;
    const char* where;
  };
  for (const Case& c : {Case{8, "k=4,layers=2,osr=1,chips_per_board=1"},
                        Case{32, "k=8,layers=2,osr=1,chips_per_board=1"},
                        Case{16, "k=4,layers=3,osr=1,chips_per_board=1"}}) {
    INFO(c.n_chip << " chips, " << c.where);
    auto n = family_network("fat-tree", c.n_chip, c.where);
    REQUIRE(n.n_chip == c.n_chip);
    CHECK(worst_shift_contention(n, *build("dmodk", n)) == 1);
  }
}

TEST_CASE("D-mod-k: shift permutations stay contention-free with boards of several chips",
          "[routing-families]") {
  // Full bisection chip for chip (osr 1: every leaf has as many up lanes as chips below it):
  // on two layers the chip-level PGFT stays contention-free, as with one chip per board.
  struct Case {
    std::int64_t n_chip;
    const char* where;
  };
  for (const Case& c : {Case{16, "k=8,layers=2,osr=1,chips_per_board=2"},
                        Case{32, "k=8,layers=2,osr=1,chips_per_board=4"}}) {
    INFO(c.n_chip << " chips, " << c.where);
    auto n = family_network("fat-tree", c.n_chip, c.where);
    CHECK(worst_shift_contention(n, *build("dmodk", n)) == 1);
  }
  // Three layers with parallel links: when the up-port divisor counted the parallel links as
  // ports (prod w_i p_i, as SimGrid's FatTreeZone does) this was a counterexample; with
  // parents only (prod w_i) it is contention-free. Worked by hand for 32 chips, k = 4
  // (d = u = 2), two chips per board (2 lanes per switch link), shift 6: chips 2 and 4 (ToRs 0
  // and 1 of group 0) send to 8 and 10 (group 1). At the ToRs q1 = D mod (u*2) is 0 and 2:
  // aggregation switch 0, lanes 0 and 1. At aggregation 0, q2 = floor(D / u) mod (u*2) is 0
  // and 1: different cores (with the old divisor w_1 p_1 w_2 p_2 = 4, floor(D / 4) mod 4 was 2
  // for both: the same core, the same lane).
  {
    auto n = family_network("fat-tree", 32, "k=4,layers=3,osr=1,chips_per_board=2");
    auto fn = build("dmodk", n);
    std::vector<char> none(n.links.size(), 0);
    Path a = trace(*fn, n, none, 2, 8, 64), b = trace(*fn, n, none, 4, 10, 64);
    REQUIRE(a.delivered);
    REQUIRE(b.delivered);
    REQUIRE(a.hops.size() == 6);
    REQUIRE(b.hops.size() == 6);
    CHECK(n.channel_src(a.hops[2].channel) == n.channel_src(b.hops[2].channel)); // aggregation 0
    CHECK(n.channel_dst(a.hops[2].channel) != n.channel_dst(b.hops[2].channel)); // two cores
    CHECK(a.hops[1].channel != b.hops[1].channel); // ToR -> aggregation 0 on different lanes
    CHECK(worst_shift_contention(n, *fn) == 1);
  }
  // Uniform all-to-all on 16 chips, 2 leaves of 8: a chip's access link carries 15 units each
  // way; a leaf's 8 up lanes take its 8 x 8 units to the other leaf (8 each) and its 8 down
  // lanes bring 8 x 8 units in (8 each) when every lane serves one destination chip. So the
  // busiest channel carries N-1 = 15 and the bound is 1, as with one chip per board.
  auto n = family_network("fat-tree", 16, "k=8,layers=2,osr=1,chips_per_board=2");
  LoadReport r = uniform_load(*build("dmodk", n), n, {}, default_hop_limit(n));
  CHECK(r.max_load == Approx(15));
  CHECK(r.throughput_bound == Approx(1));
}

TEST_CASE("D-mod-k and ECMP: the all-to-all bound never falls as the chip radix grows",
          "[routing-families][routing]") {
  // Chip radix R puts R parallel links between every chip and its leaf / ToR, and C R lanes on
  // every switch link with boards of C chips (family_attrs p_levels = [R, C R, ...]): R times
  // the capacity everywhere, so uniform all-to-all must never be slower. Expected bounds, derived
  // from the structure alone (N chips, R | N, every tree here non-blocking: osr 1):
  //   ECMP (a fluid split over the minimal choices): a chip's N-1 units leave, and N-1 arrive,
  //     evenly over its R lanes, (N-1)/R each; a leaf's (ToR's, group's) chips send all they
  //     send outside it over as many up lanes as they have access lanes, so the fabric lanes
  //     carry less. The busiest lane carries (N-1)/R: bound R.
  //   D-mod-k (one path per pair): the N-1 units into a chip cross its R lanes whole, so some
  //     lane carries at least ceil((N-1)/R) and no routing with one path per pair beats
  //     (N-1) / ceil((N-1)/R): 1, 2 (N-1)/N, 4 (N-1)/N for R = 1, 2, 4. D-mod-k must attain it
  //     (each lane of a chip carries N/R units or one fewer, the fabric lanes less).
  // Before parallel links were spread, D-mod-k gave 1, 0.55, 0.28 on the 2-layer tree: every
  // destination's units on one access lane, and the up-port divisor counting lanes as parents
  // sent the destinations of a leaf to a fraction of the spines.
  struct Case {
    std::int64_t n_chip;
    const char* where;
  };
  for (const Case& c : {Case{32, "k=8,layers=2,osr=1,chips_per_board=1"},
                        Case{32, "k=8,layers=3,osr=1,chips_per_board=1"},
                        Case{64, "k=8,layers=3,osr=1,chips_per_board=1"},
                        Case{64, "k=4,layers=3,osr=1,chips_per_board=4"}}) {
    const std::int64_t N = c.n_chip;
    double dmodk_before = 0, ecmp_before = 0;
    for (std::int64_t R : {1, 2, 4}) {
      INFO(N << " chips, " << c.where << ", chip_radix " << R);
      auto n = family_network("fat-tree", N, c.where, topo::Scope::IntraRack, R);
      REQUIRE(n.n_chip == N);
      // R links from every chip, all to one switch.
      std::vector<std::int64_t> links(static_cast<std::size_t>(N), 0);
      std::vector<std::set<std::int64_t>> ends(static_cast<std::size_t>(N));
      for (const topo::Link& l : n.links)
        for (auto [x, y] : {Pair{l.a, l.b}, Pair{l.b, l.a}})
          if (x < N && y >= N) {
            ++links[static_cast<std::size_t>(x)];
            ends[static_cast<std::size_t>(x)].insert(y);
          }
      for (std::int64_t x = 0; x < N; ++x) {
        CHECK(links[static_cast<std::size_t>(x)] == R);
        CHECK(ends[static_cast<std::size_t>(x)].size() == 1);
      }

      auto fn = build("dmodk", n);
      check_proof(*fn, n, {}, N); // still deadlock-free with one VC, every pair delivered
      const double best = static_cast<double>(N - 1) / static_cast<double>((N - 1 + R - 1) / R);
      LoadReport r = uniform_load(*fn, n, {}, default_hop_limit(n));
      CHECK(r.split_exact);
      CHECK(r.throughput_bound == Approx(best));
      CHECK(r.throughput_bound >= dmodk_before);
      dmodk_before = r.throughput_bound;
      // The same from the paths themselves: every pair traced, channel uses counted.
      std::vector<std::int64_t> uses(static_cast<std::size_t>(n.channel_count()), 0);
      const std::vector<char> none(n.links.size(), 0);
      for (std::int64_t s = 0; s < N; ++s)
        for (std::int64_t d = 0; d < N; ++d) {
          if (s == d) continue;
          Path p = trace(*fn, n, none, s, d, 64);
          REQUIRE(p.delivered);
          for (const Hop& h : p.hops) ++uses[static_cast<std::size_t>(h.channel)];
        }
      CHECK(*std::max_element(uses.begin(), uses.end()) == (N - 1 + R - 1) / R);
      // Shift permutations stay contention-free on the wider trees.
      CHECK(worst_shift_contention(n, *fn) == 1);

      LoadReport e =
          uniform_load(*build("minimal", n, {}, {{"paths", "ecmp"}}), n, {}, default_hop_limit(n));
      CHECK(e.split_exact);
      CHECK(e.throughput_bound == Approx(static_cast<double>(R)));
      CHECK(e.throughput_bound >= ecmp_before);
      ecmp_before = e.throughput_bound;
    }
  }
}

// --- 5. stretch and load --------------------------------------------------------------------

TEST_CASE("stretch: DOR minimal fault-free, WFR detours around a failed link",
          "[routing-families]") {
  auto n = torus({4, 4, 4});
  Verification dor = verify_routing(*build("dor", n), n, {});
  CHECK(dor.hops.stretch_max == 1);
  CHECK(dor.hops.stretch_mean == 1);
  CHECK(dor.hops.non_minimal_pairs == 0);
  auto f = make({link_between(n, tid({4, 4, 4}, {1, 1, 0}), tid({4, 4, 4}, {2, 1, 0}))});
  Verification wfr = verify_routing(*build("wfr", n, f), n, f);
  CHECK(wfr.unreachable_pairs == 0);
  CHECK(wfr.hops.non_minimal_pairs > 0);
  CHECK(wfr.hops.stretch_max > 1);
  // (1,1,0) -> (2,1,0) is one hop fault-free; around the failed link it takes at least three.
  CHECK(wfr.hops.stretch_max >= 3);
}

TEST_CASE("uniform load: single switch, D-mod-k and ECMP on the full 32-chip fat-tree",
          "[routing-families]") {
  SECTION("single switch of 8 boards: every access channel carries N-1 = 7") {
    auto n = family_network("single-switch", 8, "chips_per_board=1");
    REQUIRE(n.n_chip == 8);
    auto fn = build("minimal", n);
    LoadReport r = uniform_load(*fn, n, {}, default_hop_limit(n));
    CHECK(r.split_exact);
    REQUIRE(n.links.size() == 8);
    for (auto& l : n.links) {
      CHECK((l.a < 8) != (l.b < 8)); // a chip and the switch
      CHECK(r.channel_load[static_cast<std::size_t>(topo::channel_of(l.id, true))] == Approx(7));
      CHECK(r.channel_load[static_cast<std::size_t>(topo::channel_of(l.id, false))] == Approx(7));
    }
    CHECK(r.max_load == Approx(7));
    CHECK(r.throughput_bound == Approx(1));
  }
  auto n = family_network("fat-tree", 32, "k=8,layers=2,osr=1,chips_per_board=1");
  REQUIRE(n.n_chip == 32);
  auto check_access = [&](const LoadReport& r) {
    // A chip's link to its leaf carries everything it sends (31 units) and receives (31);
    // a leaf's 4 chips send 4 * 28 units out of the leaf over its 4 up links: 28 each.
    for (auto& l : n.links) {
      const bool access = l.a < 32 || l.b < 32;
      for (bool fwd : {true, false}) {
        const double x = r.channel_load[static_cast<std::size_t>(topo::channel_of(l.id, fwd))];
        CHECK(x == Approx(access ? 31 : 28));
      }
    }
  };
  SECTION("D-mod-k: max 31 on the access links, throughput bound 1") {
    LoadReport r = uniform_load(*build("dmodk", n), n, {}, default_hop_limit(n));
    CHECK(r.max_load == Approx(31));
    CHECK(r.throughput_bound == Approx(1));
    check_access(r);
  }
  SECTION("minimal ECMP: split exactly, max 31") {
    LoadReport r =
        uniform_load(*build("minimal", n, {}, {{"paths", "ecmp"}}), n, {}, default_hop_limit(n));
    CHECK(r.split_exact);
    CHECK(r.max_load == Approx(31));
    CHECK(r.throughput_bound == Approx(1));
    check_access(r);
  }
}

// --- 6. bad input ---------------------------------------------------------------------------

TEST_CASE("bad input: algorithms refuse the families they cannot route", "[routing-families]") {
  auto fat = family_network("fat-tree", 32, "k=8,layers=2,osr=1,chips_per_board=1");
  auto t = torus({4, 4, 4});
  auto m = mesh({4, 4});
  CHECK(kind_of([&] { build("fthoe", fat); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("odd-even", fat); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("dmodk", t); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("wfr", m); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("fthoe", t); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("odd-even", mesh({4, 4, 4})); }) == ErrorKind::Infeasible);
  CHECK(kind_of([&] { build("dmodk", m); }) == ErrorKind::Infeasible);
}

TEST_CASE("bad input: faults that isolate a chip split the network into 2 parts",
          "[routing-families]") {
  auto m = mesh({4, 4});
  auto f = make({link_between(m, 0, 1), link_between(m, 0, 4)});
  try {
    require_connected(m, f);
    FAIL("accepted a split network");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Infeasible);
    CHECK(std::string(e.what()).find("2 parts") != std::string::npos);
  }
  // One of the two links alone leaves it connected.
  CHECK_NOTHROW(require_connected(m, make({link_between(m, 0, 1)})));
}

TEST_CASE("emit: next-hop tables of a 16-chip fat-tree", "[routing-families]") {
  for (const char* where :
       {"k=8,layers=2,osr=1,chips_per_board=1", "k=4,layers=3,osr=1,chips_per_board=1"}) {
    auto n = family_network("fat-tree", 16, where);
    REQUIRE(n.n_chip == 16);
    for (const char* alg : {"dmodk", "minimal"}) {
      INFO(where << ", " << alg);
      auto fn = build(alg, n);
      Emitted e = emit_routing(*fn, n, {}, false);
      REQUIRE(e.tables.size() == n.nodes.size());
      for (std::size_t v = 0; v < e.tables.size(); ++v) {
        REQUIRE(e.tables[v].size() == 16);
        for (std::size_t d = 0; d < 16; ++d) {
          const std::int64_t ch = e.tables[v][d];
          if (d == v) {
            CHECK(ch == -1);
            continue;
          }
          REQUIRE(ch >= 0);
          REQUIRE(ch < n.channel_count());
          CHECK(n.channel_src(ch) == static_cast<std::int64_t>(v));
        }
      }
      // D-mod-k's choice depends only on the node and the destination: following the tables
      // from any chip reaches the destination in at most 2 * layers hops.
      if (std::string(alg) == "dmodk")
        for (std::int64_t s = 0; s < 16; ++s)
          for (std::int64_t d = 0; d < 16; ++d) {
            std::int64_t v = s;
            int hops = 0;
            while (v != d && hops < 8) {
              v = n.channel_dst(e.tables[static_cast<std::size_t>(v)][static_cast<std::size_t>(d)]);
              ++hops;
            }
            CHECK(v == d);
          }
    }
  }
}

TEST_CASE("emit: every pair's path on a 16-chip fat-tree", "[routing-families]") {
  auto n = family_network("fat-tree", 16, "k=8,layers=2,osr=1,chips_per_board=1");
  auto fn = build("dmodk", n);
  Emitted e = emit_routing(*fn, n, {}, true);
  CHECK(e.tables.empty());
  REQUIRE(e.paths.size() == 16 * 15);
  std::vector<std::int64_t> leaf_of(16, -1); // the switch each chip's one link goes to
  for (auto& l : n.links)
    if (l.a < 16 || l.b < 16) {
      const std::int64_t c = l.a < 16 ? l.a : l.b;
      CHECK(leaf_of[static_cast<std::size_t>(c)] == -1);
      leaf_of[static_cast<std::size_t>(c)] = l.a < 16 ? l.b : l.a;
    }
  std::set<Pair> pairs;
  for (auto& p : e.paths) {
    pairs.insert({p.src, p.dst});
    REQUIRE(p.channels.size() == p.vcs.size());
    REQUIRE(!p.channels.empty());
    std::int64_t at_node = p.src;
    for (auto ch : p.channels) {
      CHECK(n.channel_src(ch) == at_node);
      at_node = n.channel_dst(ch);
    }
    CHECK(at_node == p.dst);
    // Same leaf: 2 hops; else 4 (chip, leaf, spine, leaf, chip).
    CHECK(p.channels.size() ==
          (leaf_of[static_cast<std::size_t>(p.src)] == leaf_of[static_cast<std::size_t>(p.dst)]
               ? 2u
               : 4u));
  }
  CHECK(pairs.size() == 16 * 15);
}
