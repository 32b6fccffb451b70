// DOR on the torus, its verification (deadlock check, reachability, hop statistics) and the
// routing section. Expected values come from independent computations (BFS distances, the seed's
// closed forms, hand-derived paths), never from the code under test.
#include "doc/route_json.hpp"
#include "route/cdg.hpp"
#include "route/dor.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <numeric>

using namespace icnkit;
using namespace icnkit::route;

namespace {

topo::Network torus(const std::vector<int>& S) {
  topo::Context ctx;
  ctx.n_chip = std::accumulate(S.begin(), S.end(), std::int64_t{1}, std::multiplies<>());
  topo::Candidate c;
  c.family = "torus";
  std::string id = "torus:";
  for (std::size_t i = 0; i < S.size(); ++i) {
    if (i) id += 'x';
    id += std::to_string(S[i]);
  }
  c.id = id + "/b1";
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", std::vector<int>(S.size(), 1)}};
  c.n_endpoint = ctx.n_chip;
  c.derived_chips_per_board = 1;
  return topo::generate(ctx, c, {});
}

std::unique_ptr<RoutingFunction> dor(const topo::Network& n, json params = json::object(),
                                     const topo::Faults& f = {}) {
  ParamErrors errors{ErrorKind::Usage, [](const ParamSpec& p) { return p.name; }};
  return build_routing(*find_algorithm("dor"), params, n, f, errors).fn;
}

std::int64_t chip(const topo::Network& n, std::vector<int> c) {
  for (auto& node : n.nodes)
    if (node.coord == c) return node.id;
  FAIL("no chip");
  return -1;
}

// All-pairs distances by BFS over the links: independent of any routing code.
std::vector<std::vector<int>> bfs_distances(const topo::Network& n) {
  std::vector<std::vector<std::int64_t>> adj(static_cast<std::size_t>(n.n_chip));
  for (auto& l : n.links) {
    adj[static_cast<std::size_t>(l.a)].push_back(l.b);
    adj[static_cast<std::size_t>(l.b)].push_back(l.a);
  }
  std::vector<std::vector<int>> dist(static_cast<std::size_t>(n.n_chip));
  for (std::int64_t s = 0; s < n.n_chip; ++s) {
    auto& d = dist[static_cast<std::size_t>(s)];
    d.assign(static_cast<std::size_t>(n.n_chip), -1);
    std::deque<std::int64_t> q{s};
    d[static_cast<std::size_t>(s)] = 0;
    while (!q.empty()) {
      auto u = q.front();
      q.pop_front();
      for (auto w : adj[static_cast<std::size_t>(u)])
        if (d[static_cast<std::size_t>(w)] < 0) {
          d[static_cast<std::size_t>(w)] = d[static_cast<std::size_t>(u)] + 1;
          q.push_back(w);
        }
    }
  }
  return dist;
}

// The seed's closed form: E[h] per dimension over uniformly random (src, dst), src == dst allowed.
double formula_mean(const std::vector<int>& S) {
  double m = 0;
  for (int N : S) m += N % 2 == 0 ? N / 4.0 : (double(N) * N - 1) / (4.0 * N);
  return m;
}

// Wraps a routing function but claims to depend on the source: forces the per-pair code paths.
struct PerPair : RoutingFunction {
  const RoutingFunction& inner;
  explicit PerPair(const RoutingFunction& f) : inner(f) {}
  int vc_count() const override { return inner.vc_count(); }
  bool source_independent() const override { return false; }
  std::vector<Choice> route(const PacketState& p) const override { return inner.route(p); }
};

void check_closed_walk(const topo::Network& n, const std::vector<CycleHop>& cycle) {
  REQUIRE(cycle.size() >= 2);
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& h = cycle[i];
    const auto& next = cycle[(i + 1) % cycle.size()];
    CHECK(h.to == next.from); // consecutive channels
    const auto& l = n.links[static_cast<std::size_t>(h.link)];
    CHECK(((l.a == h.from && l.b == h.to) || (l.b == h.from && l.a == h.to)));
  }
}

} // namespace

TEST_CASE("DOR: the seed's worked example 4x4x4 (0,0,0) -> (2,3,1)", "[route]") {
  auto n = torus({4, 4, 4});
  auto fn = dor(n);
  std::vector<char> up(n.links.size(), 0);
  Path p = trace(*fn, n, up, chip(n, {0, 0, 0}), chip(n, {2, 3, 1}), 100);
  REQUIRE(p.delivered);
  REQUIRE(p.hops.size() == 4);
  std::vector<std::vector<int>> expect = {{1, 0, 0}, {2, 0, 0}, {2, 3, 0}, {2, 3, 1}};
  std::int64_t at = chip(n, {0, 0, 0});
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(n.channel_src(p.hops[i].channel) == at);
    at = n.channel_dst(p.hops[i].channel);
    CHECK(n.nodes[static_cast<std::size_t>(at)].coord == expect[i]);
  }
  // The Y hop takes the wrap-around 0 -> 3 in the - direction: the dateline, so VC 1.
  const auto& ly = n.links[static_cast<std::size_t>(topo::link_of_channel(p.hops[2].channel))];
  CHECK(ly.dim == 1);
  CHECK((topo::channel_forward(p.hops[2].channel) ? ly.dir : -ly.dir) == -1);
  CHECK(p.hops[2].vc == 1);
  CHECK(p.hops[0].vc == 0);
  CHECK(p.hops[3].vc == 0); // a new dimension starts again on VC 0
}

TEST_CASE("DOR: hops equal BFS distances and the seed's mean-hop formula", "[route]") {
  for (std::vector<int> S : {std::vector<int>{4, 4, 4}, {8, 4, 4}, {3, 4, 5}, {5, 5}, {2, 4, 3}}) {
    auto n = torus(S);
    auto fn = dor(n);
    auto dist = bfs_distances(n);
    std::vector<char> up(n.links.size(), 0);
    double total = 0;
    for (std::int64_t s = 0; s < n.n_chip; ++s)
      for (std::int64_t d = 0; d < n.n_chip; ++d) {
        Path p = trace(*fn, n, up, s, d, 100);
        REQUIRE(p.delivered);
        REQUIRE(static_cast<int>(p.hops.size()) ==
                dist[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)]);
        total += dist[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)];
      }
    const double N = static_cast<double>(n.n_chip);
    // The formula counts src == dst pairs (0 hops); verification's mean is over distinct pairs.
    CHECK(total / (N * N) == Approx(formula_mean(S)).epsilon(1e-12));
    Verification v = verify_routing(*fn, n, {});
    CHECK(v.pairs == n.n_chip * (n.n_chip - 1));
    CHECK(v.unreachable_pairs == 0);
    CHECK(v.hops.mean * (N - 1) / N == Approx(formula_mean(S)).epsilon(1e-12));
    std::int64_t diameter = 0;
    for (auto& row : dist)
      diameter = std::max<std::int64_t>(diameter, *std::max_element(row.begin(), row.end()));
    CHECK(v.hops.max == diameter);
    CHECK(std::accumulate(v.hops.histogram.begin(), v.hops.histogram.end(), std::int64_t{0}) ==
          v.pairs);
  }
}

TEST_CASE("DOR: deadlock check with and without the dateline", "[route]") {
  SECTION("dateline: acyclic on 4x4x4, 8x4x4 and with size-2 dimensions") {
    for (std::vector<int> S : {std::vector<int>{4, 4, 4}, {8, 4, 4}, {2, 4, 3}})
      for (const char* tie : {"parity", "plus"}) {
        auto n = torus(S);
        auto fn = dor(n, {{"tie", tie}});
        CHECK(fn->vc_count() == 2);
        Verification v = verify_routing(*fn, n, {});
        CHECK(v.deadlock_free);
        CHECK(!v.cdg.cycle);
        CHECK(v.cdg.vertices > 0);
        CHECK(v.cdg.edges > 0);
      }
  }
  SECTION("no dateline: a cycle, reported as a closed walk of consecutive channels") {
    auto n = torus({8, 4, 4});
    auto fn = dor(n, {{"dateline", false}});
    CHECK(fn->vc_count() == 1);
    Verification v = verify_routing(*fn, n, {});
    CHECK(!v.deadlock_free);
    REQUIRE(v.cdg.cycle);
    check_closed_walk(n, *v.cdg.cycle);
    // The per-pair code path finds a cycle too.
    PerPair slow(*fn);
    CdgSummary s = check_deadlock(slow, n, {}, 64);
    REQUIRE(s.cycle);
    check_closed_walk(n, *s.cycle);
    CHECK(s.vertices == v.cdg.vertices);
    CHECK(s.edges == v.cdg.edges);
  }
  SECTION("no dateline on rings of 4: tie plus deadlocks, tie parity does not") {
    // On a 4-ring, + routes with 2 hops under parity start only at even nodes (0->2, 2->0), so the
    // dependencies c01->c12 and c23->c30 never close a cycle; under plus 1->3 and 3->1 close it.
    auto n = torus({4, 4, 4});
    Verification plus = verify_routing(*dor(n, {{"dateline", false}, {"tie", "plus"}}), n, {});
    REQUIRE(plus.cdg.cycle);
    check_closed_walk(n, *plus.cdg.cycle);
    CHECK(plus.cdg.cycle->size() == 4);
    Verification parity = verify_routing(*dor(n, {{"dateline", false}}), n, {});
    CHECK(parity.deadlock_free);
  }
}

TEST_CASE("DOR: tie rules on even rings", "[route]") {
  auto n = torus({4, 4, 4});
  std::vector<char> up(n.links.size(), 0);
  auto first_dir = [&](const RoutingFunction& fn, std::int64_t s, std::int64_t d) {
    Path p = trace(fn, n, up, s, d, 100);
    const auto& l = n.links[static_cast<std::size_t>(topo::link_of_channel(p.hops.at(0).channel))];
    return topo::channel_forward(p.hops[0].channel) ? l.dir : -l.dir;
  };
  auto parity = dor(n);
  auto plus = dor(n, {{"tie", "plus"}});
  int parity_plus = 0, parity_minus = 0;
  for (int x = 0; x < 4; ++x) {
    // Half-way in X: (x,0,0) -> (x+2,0,0).
    std::int64_t s = chip(n, {x, 0, 0}), d = chip(n, {(x + 2) % 4, 0, 0});
    int dp = first_dir(*parity, s, d);
    CHECK(dp == (x % 2 == 0 ? +1 : -1));
    (dp > 0 ? parity_plus : parity_minus)++;
    CHECK(first_dir(*plus, s, d) == +1);
    CHECK(trace(*parity, n, up, s, d, 100).hops.size() == 2);
  }
  CHECK(parity_plus == 2);
  CHECK(parity_minus == 2);
  // Mid-dimension the direction is kept: from an odd start both hops go -.
  Path p = trace(*parity, n, up, chip(n, {1, 0, 0}), chip(n, {3, 0, 0}), 100);
  REQUIRE(p.hops.size() == 2);
  CHECK(n.nodes[static_cast<std::size_t>(n.channel_dst(p.hops[0].channel))].coord ==
        std::vector<int>{0, 0, 0});
}

TEST_CASE("DOR: a failed link makes exactly the pairs crossing it unreachable", "[route]") {
  auto n = torus({4, 4, 4});
  const std::int64_t a = chip(n, {1, 1, 0}), b = chip(n, {2, 1, 0});
  std::int64_t failed = -1;
  for (auto& l : n.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) failed = l.id;
  REQUIRE(failed >= 0);
  topo::Faults f;
  f.links.push_back({failed, "explicit"});
  auto fn = dor(n, json::object(), f);
  // Expected: the healthy network's DOR paths that use the link, in either direction.
  std::vector<char> up(n.links.size(), 0);
  std::int64_t crossing = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> first;
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t d = 0; d < n.n_chip; ++d) {
      if (s == d) continue;
      Path p = trace(*fn, n, up, s, d, 100);
      bool uses = false;
      for (auto& h : p.hops) uses |= topo::link_of_channel(h.channel) == failed;
      if (uses) {
        ++crossing;
        if (first.size() < kMaxListedUnreachable) first.push_back({s, d});
      }
    }
  REQUIRE(crossing > 0);
  Verification v = verify_routing(*fn, n, f);
  CHECK(v.pairs == 64 * 63);
  CHECK(v.unreachable_pairs == crossing);
  REQUIRE(v.unreachable.size() == first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(v.unreachable[i].src == first[i].first);
    CHECK(v.unreachable[i].dst == first[i].second);
    CHECK(v.unreachable[i].reason.find("failed link " + std::to_string(failed)) !=
          std::string::npos);
  }
  std::int64_t delivered =
      std::accumulate(v.hops.histogram.begin(), v.hops.histogram.end(), std::int64_t{0});
  CHECK(delivered == v.pairs - crossing);
  // The shared-per-destination path and the per-pair path agree.
  PerPair slow(*fn);
  Verification w = verify_routing(slow, n, f);
  CHECK(w.unreachable_pairs == v.unreachable_pairs);
  CHECK(w.hops.histogram == v.hops.histogram);
  CHECK(w.cdg.edges == v.cdg.edges);
  for (std::size_t i = 0; i < w.unreachable.size(); ++i)
    CHECK(w.unreachable[i].reason == v.unreachable[i].reason);
}

TEST_CASE("DOR: a failed chip is not demand, and blocks the paths through it", "[route]") {
  auto n = torus({4, 4});
  topo::Faults f;
  f.chips.push_back({chip(n, {1, 0}), "explicit"});
  auto fn = dor(n, json::object(), f);
  Verification v = verify_routing(*fn, n, f);
  CHECK(v.pairs == 15 * 14);
  // (0,0) -> (2,0) goes + through (1,0) by parity: blocked by the failed chip.
  bool found = false;
  for (auto& u : v.unreachable)
    if (u.src == chip(n, {0, 0}) && u.dst == chip(n, {2, 0})) {
      found = true;
      CHECK(u.reason == "failed chip " + std::to_string(chip(n, {1, 0})));
    }
  CHECK(found);
}

TEST_CASE("DOR: parameters are checked through the registry", "[route]") {
  auto n = torus({4, 4, 4});
  ParamErrors cli{ErrorKind::Usage, [](const ParamSpec& p) { return p.name; }};
  const Algorithm& a = *find_algorithm("dor");
  auto code = [&](json params, const topo::Network& net) {
    try {
      build_routing(a, params, net, {}, cli);
    } catch (const Error& e) {
      return e.exit_code();
    }
    return 0;
  };
  CHECK(code({{"dimension_order", {2, 0, 1}}}, n) == 0);
  CHECK(code({{"dimension_order", {0, 1}}}, n) == 2);
  CHECK(code({{"dimension_order", {0, 0, 1}}}, n) == 2);
  CHECK(code({{"dimension_order", {0, 1, 3}}}, n) == 2);
  CHECK(code({{"wild", true}}, n) == 2);
  auto fat = n;
  fat.family = "fat-tree";
  CHECK(code(json::object(), fat) == 4);
  try {
    require_algorithm("nope", ErrorKind::Usage, "--algorithm");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.exit_code() == 2);
    CHECK(std::string(e.what()).find("dor") != std::string::npos);
  }
  // Another dimension order: still minimal, still deadlock-free, Z finished first.
  auto fn = dor(n, {{"dimension_order", {2, 1, 0}}});
  std::vector<char> up(n.links.size(), 0);
  Path p = trace(*fn, n, up, chip(n, {0, 0, 0}), chip(n, {2, 3, 1}), 100);
  REQUIRE(p.hops.size() == 4);
  CHECK(n.links[static_cast<std::size_t>(topo::link_of_channel(p.hops[0].channel))].dim == 2);
  CHECK(verify_routing(*fn, n, {}).deadlock_free);
}

TEST_CASE("routing section: round trip and strictness", "[route]") {
  auto n = torus({4, 4, 4});
  ParamErrors cli{ErrorKind::Usage, [](const ParamSpec& p) { return p.name; }};
  Built b =
      build_routing(*find_algorithm("dor"), {{"dateline", false}, {"tie", "plus"}}, n, {}, cli);
  RoutingSection s;
  s.algorithm = "dor";
  s.params = b.params;
  s.vc_count = b.fn->vc_count();
  s.verification = verify_routing(*b.fn, n, {});
  s.network_fingerprint = "0123456789abcdef";
  json j = to_json(s);
  CHECK(j["params"] == json({{"dimension_order", {0, 1, 2}},
                             {"tie", "plus"},
                             {"dateline", false},
                             {"dateline_vc", "from-wrap"}}));
  CHECK(j["verification"]["cdg"]["cycle"].is_array());
  ObjReader r(j, "test", "/routing");
  RoutingSection back = parse_routing(r);
  CHECK(to_json(back) == j);
  auto fn = make_routing(back, n, {});
  CHECK(fn->vc_count() == 1);

  auto rejects = [](json bad) {
    ObjReader rr(bad, "test", "/routing");
    try {
      parse_routing(rr);
    } catch (const Error& e) {
      return e.exit_code() == 3;
    }
    return false;
  };
  json bad = j;
  bad["extra"] = 1;
  CHECK(rejects(bad));
  bad = j;
  bad["params"]["colour"] = "red";
  CHECK(rejects(bad));
  bad = j;
  bad["verification"]["cdg"]["loops"] = 0;
  CHECK(rejects(bad));
  bad = j;
  bad["verification"]["unreachable"] = {{{"src", 0}, {"dst", 1}, {"reason", "x"}, {"why", "y"}}};
  CHECK(rejects(bad));
  bad = j;
  bad["algorithm"] = "teleport";
  CHECK(rejects(bad));
  bad = j;
  bad["params"]["tie"] = "minus";
  CHECK(rejects(bad));
  bad = j;
  bad["verification"]["deadlock_free"] = true; // but a cycle is listed
  CHECK(rejects(bad));

  // A vc_count that the parameters do not give is refused when the routing is rebuilt.
  RoutingSection wrong = back;
  wrong.vc_count = 2;
  CHECK_THROWS_AS(make_routing(wrong, n, {}), Error);
}

TEST_CASE("DOR: parallel verification equals the per-pair walk on a larger faulty torus",
          "[route]") {
  // 256 chips: verify_routing() deals destinations to one worker per core and merges them;
  // the per-pair path (PerPair is not source-independent) runs single-threaded.
  auto n = torus({8, 8, 4});
  topo::Faults f;
  f.links.push_back({17, "explicit"});
  f.links.push_back({200, "explicit"});
  f.chips.push_back({chip(n, {3, 5, 2}), "explicit"});
  auto fn = dor(n, json::object(), f);
  Verification v = verify_routing(*fn, n, f);
  PerPair slow(*fn);
  Verification w = verify_routing(slow, n, f);
  CHECK(v.deadlock_free);
  CHECK(v.pairs == w.pairs);
  CHECK(v.unreachable_pairs > 0);
  CHECK(v.unreachable_pairs == w.unreachable_pairs);
  CHECK(v.hops.histogram == w.hops.histogram);
  CHECK(v.cdg.vertices == w.cdg.vertices);
  CHECK(v.cdg.edges == w.cdg.edges);
  REQUIRE(v.unreachable.size() == w.unreachable.size());
  for (std::size_t i = 0; i < v.unreachable.size(); ++i) {
    CHECK(v.unreachable[i].src == w.unreachable[i].src);
    CHECK(v.unreachable[i].dst == w.unreachable[i].dst);
    CHECK(v.unreachable[i].reason == w.unreachable[i].reason);
  }
}
