// Nothing lost, nothing forged (lib/topo): faults added to a network's own (make_faults with
// the existing faults), the options that would rebuild a network agree with it or are refused
// (check_build_agrees), the metrics of the surviving network next to the nominal ones (against
// brute force written here and values worked out by hand), the BookSim export's notes on what
// anynet cannot hold, --where keys and --pick of a truncated list.
#include "core/units.hpp"
#include "doc/document.hpp"
#include "topo/composed.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/invariants.hpp"
#include "topo/metrics.hpp"
#include "topo/reuse.hpp"
#include "topo/torus.hpp"

#include "doc/topo_json.hpp"
#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::topo;

namespace {

// The surviving network computed here, independently of the library: a link is down when it
// failed or touches a failed chip.
struct Survivors {
  std::vector<char> chip_alive;
  std::vector<std::pair<std::int64_t, std::int64_t>> links; // live links (parallel ones kept)
  std::int64_t chips = 0;
};
Survivors survivors_of(const Network& n, const Faults& f) {
  Survivors s;
  s.chip_alive.assign(static_cast<std::size_t>(n.n_chip), 1);
  for (auto& c : f.chips) s.chip_alive[static_cast<std::size_t>(c.chip)] = 0;
  std::set<std::int64_t> failed;
  for (auto& l : f.links) failed.insert(l.link);
  auto dead = [&](std::int64_t v) {
    return v < n.n_chip && !s.chip_alive[static_cast<std::size_t>(v)];
  };
  for (auto& l : n.links)
    if (!failed.count(l.id) && !dead(l.a) && !dead(l.b)) s.links.push_back({l.a, l.b});
  for (char a : s.chip_alive) s.chips += a;
  return s;
}

// Plain BFS distances over the live links (-1: unreached).
std::vector<std::int64_t> distances(const Network& n, const Survivors& s, std::int64_t src) {
  std::vector<std::vector<std::int64_t>> adj(n.nodes.size());
  for (auto [a, b] : s.links) {
    adj[static_cast<std::size_t>(a)].push_back(b);
    adj[static_cast<std::size_t>(b)].push_back(a);
  }
  std::vector<std::int64_t> d(n.nodes.size(), -1);
  std::vector<std::int64_t> q{src};
  d[static_cast<std::size_t>(src)] = 0;
  for (std::size_t h = 0; h < q.size(); ++h)
    for (auto v : adj[static_cast<std::size_t>(q[h])])
      if (d[static_cast<std::size_t>(v)] < 0)
        d[static_cast<std::size_t>(v)] = d[static_cast<std::size_t>(q[h])] + 1, q.push_back(v);
  return d;
}

// Unit-capacity augmenting paths (Ford-Fulkerson with BFS) between two nodes of the live
// multigraph: the number of link-disjoint paths.
std::int64_t disjoint_paths(const Network& n, const Survivors& s, std::int64_t from,
                            std::int64_t to) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> cap;
  std::vector<std::set<std::int64_t>> adj(n.nodes.size());
  for (auto [a, b] : s.links) {
    cap[{a, b}]++, cap[{b, a}]++;
    adj[static_cast<std::size_t>(a)].insert(b), adj[static_cast<std::size_t>(b)].insert(a);
  }
  std::int64_t flow = 0;
  for (;;) {
    std::vector<std::int64_t> parent(n.nodes.size(), -1);
    parent[static_cast<std::size_t>(from)] = from;
    std::vector<std::int64_t> q{from};
    for (std::size_t h = 0; h < q.size() && parent[static_cast<std::size_t>(to)] < 0; ++h)
      for (auto v : adj[static_cast<std::size_t>(q[h])])
        if (parent[static_cast<std::size_t>(v)] < 0 && cap[{q[h], v}] > 0)
          parent[static_cast<std::size_t>(v)] = q[h], q.push_back(v);
    if (parent[static_cast<std::size_t>(to)] < 0) return flow;
    for (std::int64_t v = to; v != from; v = parent[static_cast<std::size_t>(v)]) {
      auto u = parent[static_cast<std::size_t>(v)];
      cap[{u, v}]--, cap[{v, u}]++;
    }
    ++flow;
  }
}

struct Brute {
  bool connected = true;
  std::int64_t diameter = 0, path_diversity = 0;
  std::int64_t bisection = -1; // -1: not computed (networks with switches, over 20 chips)
};

// Diameter and connectivity by BFS from every surviving chip; path diversity from the first
// surviving chip to every other one (a minimum cut between two chips separates the first chip
// from one of them); bisection by trying every split of the surviving chips (switchless, at
// most 20 chips).
Brute brute(const Network& n, const Faults& f) {
  Survivors s = survivors_of(n, f);
  std::vector<std::int64_t> chips;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (s.chip_alive[static_cast<std::size_t>(c)]) chips.push_back(c);
  Brute b;
  for (auto c : chips) {
    auto d = distances(n, s, c);
    for (auto t : chips) {
      if (d[static_cast<std::size_t>(t)] < 0) b.connected = false;
      b.diameter = std::max(b.diameter, d[static_cast<std::size_t>(t)]);
    }
  }
  b.path_diversity = INT64_MAX;
  for (std::size_t i = 1; i < chips.size(); ++i)
    b.path_diversity = std::min(b.path_diversity, disjoint_paths(n, s, chips[0], chips[i]));
  const auto M = static_cast<int>(chips.size());
  if (n.nodes.size() == static_cast<std::size_t>(n.n_chip) && M <= 20) {
    b.bisection = INT64_MAX;
    for (std::uint32_t mask = 0; mask < (1u << M); ++mask) {
      if (__builtin_popcount(mask) != M / 2) continue;
      std::vector<char> side(static_cast<std::size_t>(n.n_chip), 0);
      for (int i = 0; i < M; ++i)
        side[static_cast<std::size_t>(chips[static_cast<std::size_t>(i)])] = (mask >> i) & 1u;
      std::int64_t cut = 0;
      for (auto [x, y] : s.links)
        cut += side[static_cast<std::size_t>(x)] != side[static_cast<std::size_t>(y)];
      b.bisection = std::min(b.bisection, cut);
    }
  }
  return b;
}

Faults faults_of(const Network& n, std::vector<std::string> links, std::vector<std::string> chips,
                 std::vector<std::int64_t> ocs = {}) {
  FaultRequest r;
  r.links = std::move(links);
  r.chips = std::move(chips);
  r.ocs = std::move(ocs);
  return make_faults(n, r);
}

} // namespace

TEST_CASE("degraded metrics: a 4x4 torus without chips 0 and 5 and link 1-2, by hand",
          "[integrity][degraded]") {
  Network n = test::grid_network("torus", {4, 4}, {1, 1});
  Faults f = faults_of(n, {"1-2"}, {"0", "5"});
  DegradedMetrics m = degraded_metrics(n, f);
  // 32 links; chips 0 and 5 are not neighbours: 4 + 4 of their links and link 1-2 are down.
  CHECK(m.surviving_chips == 14);
  CHECK(m.surviving_links == 23);
  CHECK(m.connected);
  // Chip 1 = (1,0) keeps one link, to 13 = (1,3): path diversity 1. 13 is 4 hops from
  // 7 = (3,1) (2 in x, 2 in y, as in the full torus), so chips 1 and 7 are 5 apart; no pair is
  // farther (the brute force below).
  CHECK(m.diameter == std::optional<std::int64_t>(5));
  CHECK(m.diameter_method == "exact");
  CHECK(m.path_diversity == 1);
  CHECK(m.path_diversity_method == "exact");
  CHECK(m.bisection_links == 6);
  CHECK(m.bisection_bandwidth_bytes_per_s == 6 * 50e9);
  Brute b = brute(n, f);
  CHECK(b.connected);
  CHECK(b.diameter == 5);
  CHECK(b.path_diversity == 1);
  CHECK(b.bisection == 6);
  // The nominal figures stay those of the fault-free torus.
  CHECK(n.metrics.diameter == 4);
  CHECK(n.metrics.bisection_links == 8);
  CHECK(n.metrics.path_diversity == 4);
}

TEST_CASE("degraded metrics: OCS 17 of an 8x8x8 torus takes 8 links out of the y bisection",
          "[integrity][degraded]") {
  Network n = test::grid_network("torus", {8, 8, 8}, {2, 2, 2});
  Faults f = faults_of(n, {}, {}, {17});
  // OCS 17: dimension 1, face position 1 = x%4 + 4 (z%4): x in {1, 5}, z in {0, 4}, leaving
  // y in {3, 7} in + direction: 8 links, every one across the cut y in [0,4) | [4,8).
  REQUIRE(f.links.size() == 8);
  DegradedMetrics m = degraded_metrics(n, f);
  CHECK(m.surviving_chips == 512);
  CHECK(m.surviving_links == 3 * 512 - 8);
  CHECK(m.connected);
  // The y cut crosses 128 - 8 links; no balanced cut can cross fewer, since every one crossed
  // at least 128 links before and only 8 are gone: exact.
  CHECK(n.metrics.bisection_links == 128);
  CHECK(m.bisection_links == 120);
  CHECK(m.bisection_bandwidth_bytes_per_s == 120 * 50e9);
  CHECK(m.bisection_bandwidth_method == "exact");
  // The two ends of a failed link are 3 hops apart now, but no pair is farther than 12.
  CHECK(m.diameter == std::optional<std::int64_t>(12));
  CHECK(m.diameter_method == "exact");
  // 16 chips lost one of 6 links: at most 5 disjoint paths, and 5 there are.
  CHECK(m.path_diversity == 5);
  CHECK(m.path_diversity_method == "exact");
  Brute b = brute(n, f);
  CHECK(b.diameter == 12);
  CHECK(b.path_diversity == 5);
}

TEST_CASE("degraded metrics: a chip cut off makes the network disconnected, without diameter",
          "[integrity][degraded]") {
  Network n = test::grid_network("torus", {4, 4}, {1, 1});
  Faults f = faults_of(n, {}, {"1", "3", "4", "12"}); // chip 0's four neighbours
  DegradedMetrics m = degraded_metrics(n, f);
  CHECK(m.surviving_chips == 12);
  CHECK(m.surviving_links == 32 - 16); // 4 chips of 4 links, none shared
  CHECK_FALSE(m.connected);
  CHECK_FALSE(m.diameter.has_value());
  CHECK(m.path_diversity == 0);
  Brute b = brute(n, f);
  CHECK_FALSE(b.connected);
  CHECK(b.bisection == 6);
  CHECK(m.bisection_links >= b.bisection);
  CHECK(m.bisection_links == 6);
}

TEST_CASE("degraded metrics equal brute force on switchless families with random faults",
          "[integrity][degraded]") {
  std::vector<Network> nets = {test::grid_network("torus", {4, 4}, {1, 1}),
                               test::grid_network("torus", {3, 5}, {1, 1}),
                               test::grid_network("mesh", {4, 4}, {2, 2}),
                               test::grid_network("torus", {2, 2, 4}, {1, 1, 1})};
  for (auto& n : nets)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      FaultRequest r;
      r.random_links = 1 + static_cast<std::int64_t>(seed % 3);
      r.seed = seed;
      r.chips = {std::to_string(seed * 5 % static_cast<std::uint64_t>(n.n_chip))};
      Faults f = make_faults(n, r);
      DegradedMetrics m = degraded_metrics(n, f);
      Brute b = brute(n, f);
      INFO(n.family << " " << n.n_chip << " seed " << seed);
      CHECK(m.connected == b.connected);
      if (b.connected) {
        CHECK(m.diameter == std::optional<std::int64_t>(b.diameter));
        CHECK(m.path_diversity == b.path_diversity);
      }
      // The bisection is an upper bound, and exact where it says so.
      CHECK(m.bisection_links >= b.bisection);
      if (m.bisection_bandwidth_method == "exact") CHECK(m.bisection_links == b.bisection);
    }
}

TEST_CASE("degraded metrics on a switched network equal brute force", "[integrity][degraded]") {
  auto list = test::enum_family("fat-tree", test::context_for(32));
  REQUIRE(!list.items.empty());
  const Candidate& c = list.items[0];
  Network n = generate(test::context_for(32), c, {});
  REQUIRE(n.nodes.size() > 32u);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    FaultRequest r;
    r.random_links = static_cast<std::int64_t>(2 * seed);
    r.seed = seed;
    r.chips = {"3"};
    Faults f = make_faults(n, r);
    DegradedMetrics m = degraded_metrics(n, f);
    Brute b = brute(n, f);
    INFO(c.id << " seed " << seed);
    CHECK(m.surviving_chips == 31);
    CHECK(m.surviving_links == static_cast<std::int64_t>(survivors_of(n, f).links.size()));
    CHECK(m.connected == b.connected);
    if (b.connected) {
      CHECK(m.diameter == std::optional<std::int64_t>(b.diameter));
      CHECK(m.path_diversity == b.path_diversity);
    }
  }
}

TEST_CASE("degraded metrics fall back to labelled bounds past their work limits",
          "[integrity][degraded]") {
  Network n = test::grid_network("torus", {4, 4}, {1, 1});
  Faults f = faults_of(n, {"1-2"}, {"0", "5"});
  DegradedLimits tiny;
  tiny.diameter_work = 1;
  tiny.path_diversity_size = 1;
  DegradedMetrics m = degraded_metrics(n, f, tiny);
  CHECK(m.diameter_method == "lower-bound");
  REQUIRE(m.diameter.has_value());
  CHECK(*m.diameter >= 1);
  CHECK(*m.diameter <= 5); // the exact diameter (above)
  CHECK(m.path_diversity_method == "upper-bound");
  CHECK(m.path_diversity >= 1); // the smallest surviving degree: chip 1's one link
  CHECK(m.path_diversity == 1);
  // A mesh whose smallest degree is above its path diversity: 4x4 mesh without link 5-6
  // and 9-10 ... corners have degree 2 anyway; the bound is the smallest degree, >= exact.
  Network mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  Faults g = faults_of(mesh, {"5-6"}, {});
  DegradedMetrics exact = degraded_metrics(mesh, g), bound = degraded_metrics(mesh, g, tiny);
  CHECK(bound.path_diversity >= exact.path_diversity);
  CHECK(bound.diameter <= exact.diameter);
}

TEST_CASE("degraded metrics in the document: written next to the nominal ones, read back, checked",
          "[integrity][degraded][doc]") {
  Document d;
  d.context = test::context_for(16);
  auto cand = test::grid_candidate("torus", {4, 4}, {1, 1});
  d.candidate = cand;
  d.network = generate(*d.context, cand, {});
  d.faults = faults_of(*d.network, {}, {"1", "3", "4", "12"});
  d.network->metrics.degraded = degraded_metrics(*d.network, *d.faults);
  refresh_fingerprint(d);
  const std::string text = dump_document(d, false);
  json j = json::parse(text);
  const json& m = j["network"]["metrics"];
  CHECK(m["diameter"] == 4); // nominal
  CHECK(m["bisection_links"] == 8);
  CHECK(m["degraded"]["connected"] == false);
  CHECK(m["degraded"]["diameter"].is_null());
  CHECK(m["degraded"]["surviving_chips"] == 12);
  CHECK(m["degraded"]["surviving_links"] == 16);
  CHECK(m["degraded"]["path_diversity"] == 0);
  Document e = parse_document(text, "stdin");
  REQUIRE(e.network->metrics.degraded);
  CHECK(dump_document(e, false) == text);
  CHECK(dump_document(e, true) == dump_document(d, true)); // the pretty writer too
  auto rejects = [&](const std::function<void(json&)>& edit, const std::string& needle) {
    json k = json::parse(text);
    edit(k);
    try {
      parse_document(k.dump(), "stdin");
      FAIL("accepted: " << needle);
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::Input);
      CHECK_THAT(std::string(err.where()) + " " + err.what(), Catch::Contains(needle));
    }
  };
  rejects([](json& k) { k["network"]["metrics"]["degraded"]["connected"] = true; },
          "/network/metrics/degraded/diameter");
  rejects([](json& k) { k["network"]["metrics"]["degraded"]["diameter_method"] = "guess"; },
          "diameter_method");
  rejects([](json& k) { k["network"]["metrics"]["degraded"]["bisection_bandwidth_method"] = "x"; },
          "bisection_bandwidth_method");
  rejects([](json& k) { k["network"]["metrics"]["degraded"]["extra"] = 1; }, "extra");
}

TEST_CASE("faults add to a network's own: same as asking for them at once", "[integrity]") {
  Network n = test::grid_network("torus", {8, 8, 8}, {2, 2, 2});
  FaultRequest first;
  first.links = {"5-6"};
  first.ocs = {17};
  Faults a = make_faults(n, first);
  FaultRequest second;
  second.chips = {"100"};
  second.links = {"5-6", "#0"}; // 5-6 is failed already: it keeps its cause
  second.ocs = {3, 17};
  second.random_links = 2;
  second.seed = 9;
  Faults merged = make_faults(n, second, &a);
  FaultRequest once;
  once.links = {"5-6", "#0"};
  once.chips = {"100"};
  once.ocs = {17, 3};
  once.random_links = 2;
  once.seed = 9;
  Faults all = make_faults(n, once);
  CHECK(fingerprint(n, &merged) == fingerprint(n, &all));
  CHECK(merged.ocs == std::vector<std::int64_t>{3, 17});
  CHECK(merged.random_seed == std::optional<std::uint64_t>(9));
  REQUIRE(merged.chips.size() == 1);
  CHECK(merged.chips[0].chip == 100);
  std::map<std::int64_t, std::string> cause;
  for (auto& l : merged.links) cause[l.link] = l.cause;
  CHECK(cause.at(5 * 3 + 0) == "explicit"); // 5-6: chip 5's + link in dimension 0
  CHECK(cause.at(0) == "explicit");
  // A second random draw would need a second seed the faults section cannot hold.
  FaultRequest again;
  again.random_links = 1;
  again.seed = 3;
  CHECK(kind_of([&] { make_faults(n, again, &merged); }) == ErrorKind::Usage);
  // Nothing asked: the faults come back unchanged.
  CHECK(fingerprint(n, &merged) == [&] {
    Faults same = make_faults(n, FaultRequest{}, &merged);
    return fingerprint(n, &same);
  }());
}

TEST_CASE("options that would rebuild a kept network must agree with it", "[integrity]") {
  // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
  const auto made = torus_from_shape("4x4x8/b2x2x2", "test");
  const Context& ctx = made.first;
  const Candidate& cand = made.second;
  GenerateOptions o;
  o.link_bandwidth.every = 32e9;
  o.link_latency.every = 100e-9;
  o.twist = true;
  Network n = generate(ctx, cand, o);
  auto agrees = [&](const BuildRequest& r, const Candidate* c = nullptr,
                    const CandidateList* l = nullptr) {
    check_build_agrees(n, c ? c : &cand, l, r);
  };
  BuildRequest r;
  CHECK_NOTHROW(agrees(r));
  r.link_bandwidth.every = 32e9;
  r.link_latency.every = 100e-9;
  r.twist = true;
  r.pick = "torus:4x4x8/b2x2x2";
  r.direct = cand;
  r.direct_option = "--torus";
  CHECK_NOTHROW(agrees(r));
  auto refused = [&](const std::function<void(BuildRequest&)>& edit, const std::string& where) {
    BuildRequest q = r;
    edit(q);
    try {
      agrees(q);
      FAIL("agreed: " << where);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK(e.where() == where);
    }
  };
  refused([](BuildRequest& q) { q.link_bandwidth.every = 50e9; }, "{link_bw}");
  refused([](BuildRequest& q) { q.link_latency.every = 1e-6; }, "{link_latency}");
  refused([](BuildRequest& q) { q.pick.emplace("torus:4x8x4/b2x2x2"); }, "{pick}");
  refused([](BuildRequest& q) { q.pick.emplace(1, '0'); },
          "{pick}"); // no list to look the index up in
  refused(
      [&](BuildRequest& q) {
        q.direct = torus_from_shape("4x4x8", "t").second;
        q.direct_option = "--torus";
      },
      "--torus");
  // A pick by index in the document's list names the network's candidate.
  CandidateList list;
  Candidate other = torus_from_shape("8x4x4/b2x2x2", "t").second;
  list.items = {other, cand};
  list.total = 2;
  BuildRequest byindex;
  byindex.pick = "1";
  CHECK_NOTHROW(agrees(byindex, &cand, &list));
  byindex.pick = "0";
  CHECK(kind_of([&] { agrees(byindex, &cand, &list); }) == ErrorKind::Usage);
  // --twist on a regular torus.
  Network plain = test::grid_network("torus", {4, 4, 8}, {2, 2, 2});
  BuildRequest tw;
  tw.twist = true;
  CHECK(kind_of([&] { check_build_agrees(plain, &cand, nullptr, tw); }) == ErrorKind::Usage);
}

TEST_CASE("booksim export: notes on merged parallel links, one bandwidth, rounded latencies",
          "[integrity][export]") {
  // A 2x2x2 torus: every dimension of size 2 joins each pair of neighbours twice.
  Network n = test::grid_network("torus", {2, 2, 2}, {1, 1, 1});
  REQUIRE(n.links.size() == 24u);
  std::vector<std::string> notes;
  std::string text = export_network(n, nullptr, ExportFormat::BookSim, &notes);
  REQUIRE(notes.size() == 1);
  // 24 links over 12 neighbour pairs: 12 dropped.
  CHECK_THAT(notes[0], Catch::Contains("12 parallel links dropped"));
  CHECK_THAT(notes[0], Catch::Contains("12 router pairs"));
  CHECK_THAT(notes[0], Catch::Contains("12 of 24 live links exported"));
  // Only router/node lines: anynet has no comments.
  for (std::size_t p = 0; p < text.size();) {
    CHECK(text.compare(p, 7, "router ") == 0);
    p = text.find('\n', p) + 1;
  }
  // A failed link of a pair leaves its twin: one pair fewer merged.
  Faults f = faults_of(n, {"#0"}, {});
  notes.clear();
  export_network(n, &f, ExportFormat::BookSim, &notes);
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0], Catch::Contains("11 parallel links dropped"));
  CHECK_THAT(notes[0], Catch::Contains("12 of 23 live links exported"));
  // A 4x4 torus has no parallel links, one bandwidth and whole-cycle latencies: no notes.
  Network plain = test::grid_network("torus", {4, 4}, {1, 1});
  notes.clear();
  export_network(plain, nullptr, ExportFormat::BookSim, &notes);
  CHECK(notes.empty());
  // Two bandwidths and a latency of 1.5 cycles: both said.
  plain.links[3].bandwidth_bytes_per_s = 25e9;
  plain.links[4].latency_s = 1.5e-9;
  notes.clear();
  export_network(plain, nullptr, ExportFormat::BookSim, &notes);
  REQUIRE(notes.size() == 2);
  CHECK_THAT(notes[0], Catch::Contains("no link bandwidth"));
  CHECK_THAT(notes[0], Catch::Contains("2.5e+10 .. 5e+10"));
  CHECK_THAT(notes[1], Catch::Contains("1 link latencies are not whole cycles"));
  // The other formats carry every link's own bandwidth and latency and need no notes.
  for (auto [fmt, bw] :
       {std::pair{ExportFormat::NetworkX, "25000000000.0"},
        std::pair{ExportFormat::GraphML, "2.5e+10"}, std::pair{ExportFormat::Dot, "2.5e+10"}}) {
    notes.clear();
    std::string t = export_network(plain, nullptr, fmt, &notes);
    CHECK(notes.empty());
    CHECK_THAT(t, Catch::Contains(bw));
    CHECK_THAT(t, Catch::Contains("1.5e-09"));
  }
}

TEST_CASE("--where keys: the family's attr_keys, n_endpoint, chips_per_board; others refused",
          "[integrity][where]") {
  // Every family's candidates have exactly the keys it declares.
  for (const Family* f : families())
    for (std::int64_t n : {16, 64, 128}) {
      Context ctx = test::context_for(n);
      ctx.scope = Scope::InterRack;
      auto list = enumerate(ctx, {f}, 5);
      std::set<std::string> declared;
      for (auto& k : f->attr_keys()) declared.insert(k);
      for (auto& c : list.items) {
        std::set<std::string> have;
        for (auto& [k, v] : c.family_attrs.items()) have.insert(k);
        INFO(c.id);
        CHECK(have == declared);
      }
    }
  const Family& torus = require_family("torus", "t");
  const Family& fat = require_family("fat-tree", "t");
  auto where = [](const std::string& text) { return parse_where(text, "--where"); };
  CHECK_NOTHROW(check_where_keys(where("dimension_sizes=4,n_endpoint=64"), {&torus}, "--where"));
  CHECK_NOTHROW(check_where_keys(where("k=8,chips_per_board=4"), {&fat}, "--where"));
  CHECK_NOTHROW(check_where_keys(where("k=8"), families(), "--where")); // some family has k
  try {
    check_where_keys(where("k=8"), {&torus}, "--where");
    FAIL("accepted k on the torus");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Usage);
    CHECK(e.where() == "--where");
    CHECK_THAT(e.what(), Catch::Contains("'k' is not a key of the torus family"));
    CHECK_THAT(e.what(),
               Catch::Contains("keys: dimension_sizes, board_shape, n_endpoint, chips_per_board"));
  }
  CHECK(kind_of([&] { check_where_keys(where("kk=8"), families(), "--where"); }) ==
        ErrorKind::Usage);
}

TEST_CASE("--pick of a candidate a truncated list left out says so", "[integrity][pick]") {
  Context ctx = test::context_for(64);
  auto full = test::enum_family("torus", ctx);
  auto cut = test::enum_family("torus", ctx, 2);
  REQUIRE(cut.truncated());
  REQUIRE(full.items.size() > 2);
  const std::string absent = full.items.back().id;
  CHECK(pick_candidate(cut, cut.items[1].id, "--pick").id == cut.items[1].id);
  CHECK(pick_candidate(cut, "1", "--pick").id == cut.items[1].id);
  for (const std::string& p : {absent, std::string("7")}) {
    try {
      pick_candidate(cut, p, "--pick");
      FAIL("picked " << p);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK_THAT(e.what(), Catch::Contains("the first 2 of " + std::to_string(full.total)));
      CHECK_THAT(e.what(), Catch::Contains("{all}"));
      CHECK_THAT(e.what(), Catch::Contains("{where}"));
    }
  }
  // A complete list does not talk of truncation.
  try {
    pick_candidate(full, "torus:9x9x9/b1x1x1", "--pick");
    FAIL("picked");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), !Catch::Contains("--all"));
  }
}

TEST_CASE("parallel links beyond chip_radix: the first link over the bound is named",
          "[topo][integrity]") {
  // A 4x4 torus has one link per pair, dimension and direction; copies of chip 5's + link in
  // dimension 0 (5 -> 6) pass chip_radix 2 at the second copy, whichever links come between.
  topo::Network n = test::grid_network("torus", {4, 4}, {1, 1});
  auto copy_of = [&](std::int64_t link) {
    topo::Link l = n.links[static_cast<std::size_t>(link)];
    l.id = static_cast<std::int64_t>(n.links.size());
    n.links.push_back(l);
  };
  n.chip_radix = 2;
  CHECK_NOTHROW(check_invariants(n, ErrorKind::Input, "t"));
  copy_of(5 * 2);
  copy_of(3 * 2 + 1); // another pair, once
  CHECK_NOTHROW(check_invariants(n, ErrorKind::Input, "t"));
  copy_of(5 * 2);
  try {
    check_invariants(n, ErrorKind::Input, "t");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Input);
    CHECK(std::string(e.what()).find("nodes 5 and 6 have more parallel links than chip_radix 2") !=
          std::string::npos);
  }
  // The same pair the other way round (6 -> 5 in direction -1) counts as the same direction.
  n.links.pop_back();
  topo::Link rev = n.links[10];
  std::swap(rev.a, rev.b);
  rev.dir = -rev.dir;
  rev.id = static_cast<std::int64_t>(n.links.size());
  n.links.push_back(rev);
  CHECK(kind_of([&] { check_invariants(n, ErrorKind::Input, "t"); }) == ErrorKind::Input);
}

TEST_CASE("link bandwidth and latency per link kind", "[integrity]") {
  // 4x4x4 in boards of 2x2x2: each board holds 3 x 4 = 12 of its 64 x 3 = 192 links (c2c, 96
  // in all); the other 96 join boards of one rack (b2b).
  const auto made = torus_from_shape("4x4x4/b2x2x2", "test");
  const auto bw = [](const std::string& t) { return parse_bandwidth(t, "--link-bw"); };
  const auto lat = [](const std::string& t) { return parse_time(t, "--link-latency"); };
  GenerateOptions o;
  o.link_bandwidth = parse_per_kind("50GB/s,c2c=200GB/s", "--link-bw", bw);
  o.link_latency = parse_per_kind("c2c=100ns", "--link-latency", lat);
  const Network n = generate(made.first, made.second, o);
  std::map<std::pair<LinkKind, double>, int> seen;
  for (const Link& l : n.links) {
    CHECK(l.latency_s == (l.kind == LinkKind::C2C ? 100e-9 : kDefaultLinkParams.latency_s));
    ++seen[{l.kind, l.bandwidth_bytes_per_s}];
  }
  CHECK(seen == std::map<std::pair<LinkKind, double>, int>{{{LinkKind::C2C, 200e9}, 96},
                                                           {{LinkKind::B2B, 50e9}, 96}});
  // What topo-gen keeps: the kinds named must agree, the others are not asked about.
  BuildRequest r;
  r.link_bandwidth = parse_per_kind("c2c=200GB/s", "--link-bw", bw);
  CHECK_NOTHROW(check_build_agrees(n, &made.second, nullptr, r));
  r.link_bandwidth = parse_per_kind("b2b=50GB/s,c2c=200GB/s,p2p=7GB/s", "--link-bw", bw);
  CHECK_NOTHROW(check_build_agrees(n, &made.second, nullptr, r)); // no p2p link to disagree
  r.link_bandwidth = parse_per_kind("200GB/s", "--link-bw", bw);  // the b2b links have 50
  CHECK_THROWS_AS(check_build_agrees(n, &made.second, nullptr, r), Error);
  // Refused: unknown kinds, a kind twice, two figures for every link, a bad figure.
  for (const char* bad : {"x2x=1GB/s", "c2c=1GB/s,c2c=2GB/s", "1GB/s,2GB/s", "c2c=", "c2c=1ns",
                          "nic=1GB/s,nic=2GB/s", "nics=1GB/s"}) {
    CAPTURE(bad);
    try {
      (void)parse_per_kind(bad, "--link-bw", bw);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK(e.where() == "--link-bw");
    }
  }
}

TEST_CASE("nic= sets the links between a chip and a switch, over their kind", "[integrity]") {
  // A composed network: c2c scale-up links (chip to its NVSwitch: not NIC links), b2b NIC links
  // (chip to leaf), r2r leaf to spine. nic= takes the NIC links out of b2b's figure.
  const auto cc = composed_candidate(
      parse_composition("switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8"), "t");
  const auto lat = [](const std::string& t) { return parse_time(t, "--link-latency"); };
  GenerateOptions o;
  o.link_latency = parse_per_kind("1us,b2b=7us,nic=3ns", "--link-latency", lat);
  const Network n = generate(cc.first, cc.second, o);
  std::map<std::pair<std::string, double>, int> seen;
  for (const Link& l : n.links) {
    const bool chip_a = n.nodes[static_cast<std::size_t>(l.a)].kind == NodeKind::Chip;
    const bool chip_b = n.nodes[static_cast<std::size_t>(l.b)].kind == NodeKind::Chip;
    ++seen[{to_string(l.kind) + (chip_a != chip_b ? "+chip" : ""), l.latency_s}];
  }
  // 16 chips x 2 switches scale-up, 16 NICs, 8 leaves (2 units x 4 rails) x 2 uplinks (as many
  // as down: full bisection).
  CHECK(seen == std::map<std::pair<std::string, double>, int>{
                    {{"c2c+chip", 1e-6}, 32}, {{"b2b+chip", 3e-9}, 16}, {{"r2r", 1e-6}, 16}});
  // What topo-gen keeps agrees with the same request, not with another NIC figure.
  BuildRequest r;
  r.link_latency = o.link_latency;
  CHECK_NOTHROW(check_build_agrees(n, &cc.second, nullptr, r));
  r.link_latency = parse_per_kind("nic=4ns", "--link-latency", lat);
  CHECK_THROWS_AS(check_build_agrees(n, &cc.second, nullptr, r), Error);
}

TEST_CASE("a failed switch takes every link it has down, and the document says which",
          "[integrity][faults]") {
  // topo-enum's first fat-tree of 64 chips; its last node is a spine switch.
  topo::Context ctx = test::context_for(64);
  ctx.scope = Scope::InterRack;
  const CandidateList l = test::enum_family("fat-tree", ctx, 1);
  REQUIRE(!l.items.empty());
  Document d;
  d.context = ctx;
  d.candidate = l.items.front();
  d.network = generate(ctx, l.items.front(), {});
  const Network& n = *d.network;
  REQUIRE(static_cast<std::int64_t>(n.nodes.size()) > n.n_chip);
  const std::int64_t sw = static_cast<std::int64_t>(n.nodes.size()) - 1; // a spine
  std::set<std::int64_t> its;
  for (const Link& k : n.links)
    if (k.a == sw || k.b == sw) its.insert(k.id);
  REQUIRE(!its.empty());
  FaultRequest q;
  q.switches = {std::to_string(sw), std::to_string(sw)};
  q.links = {"#" + std::to_string(*its.begin())}; // explicit keeps its cause
  const Faults f = make_faults(n, q);
  CHECK(f.switches == std::vector<std::int64_t>{sw});
  std::set<std::int64_t> got;
  for (const FailedLink& x : f.links) {
    got.insert(x.link);
    CHECK(x.cause == (x.link == *its.begin() ? "explicit" : "switch"));
  }
  CHECK(got == its);
  // Refused: a chip, a node beyond the network, not a number.
  for (const std::string& bad :
       std::vector<std::string>{"0", std::to_string(n.nodes.size()), "spine"}) {
    FaultRequest b;
    b.switches = {bad};
    CHECK(kind_of([&] { make_faults(n, b); }) == ErrorKind::Usage);
  }
  // The faults section: "switches" written, read back, in the fingerprint; a switch whose links
  // are not all failed, a chip, unsorted lists are refused.
  d.faults = f;
  refresh_fingerprint(d);
  const std::string text = dump_document(d, false);
  Document e = parse_document(text, "stdin");
  REQUIRE(e.faults);
  CHECK(e.faults->switches == std::vector<std::int64_t>{sw});
  CHECK(dump_document(e, false) == text);
  Faults no_switch = f;
  no_switch.switches.clear();
  CHECK(fingerprint(n, &no_switch) != fingerprint(n, &f));
  const json j = json::parse(text);
  CHECK(j["faults"]["switches"] == json::array({sw}));
  for (const json& edit : {json::array({sw - 1}), json::array({0}), json::array({sw, sw}),
                           json::array({static_cast<std::int64_t>(n.nodes.size())})}) {
    json k = j;
    k["faults"]["switches"] = edit;
    CAPTURE(edit.dump());
    CHECK(kind_of([&] { parse_document(k.dump(), "stdin"); }) == ErrorKind::Input);
  }
  FaultRequest plain;
  plain.links = {"#0"};
  CHECK_FALSE(to_json(make_faults(n, plain), n).contains("switches"));
}
