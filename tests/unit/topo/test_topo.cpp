// lib/topo: the torus family against the spec (@tbl-spec-topo-23 torus rows), generation,
// metrics against exact computation, the invariants, faults, and the document envelope.
#include "doc/document.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/invariants.hpp"
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

namespace {} // namespace

TEST_CASE("torus N=23 (prime): the empty list, not an error", "[topo][spec]") {
  auto l = test::enum_family("torus", test::context_for(23));
  CHECK(l.items.empty());
  CHECK(l.total == 0);
  CHECK_FALSE(l.truncated());
}

TEST_CASE("torus N=32: several results whose derived chips_per_board cover 1,2,4,8,16",
          "[topo][spec]") {
  auto l = test::enum_family("torus", test::context_for(32));
  CHECK(l.items.size() > 1);
  std::set<std::int64_t> cpb;
  for (auto& c : l.items) cpb.insert(c.derived_chips_per_board);
  for (std::int64_t want : {1, 2, 4, 8, 16}) CHECK(cpb.count(want) == 1);
}

TEST_CASE("dense-pcb-impractical exactly above chips_per_board_max", "[topo][spec]") {
  for (std::int64_t cap : {4, 16}) {
    auto l = test::enum_family("torus", test::context_for(64, cap));
    for (auto& c : l.items) {
      bool dense = std::count(c.warnings.begin(), c.warnings.end(), "dense-pcb-impractical") == 1;
      CHECK(dense == (c.derived_chips_per_board > cap));
    }
  }
  // The spec's row: derived C_board = 32 > 16.
  auto l = test::enum_family("torus", test::context_for(32));
  bool seen = false;
  for (auto& c : l.items)
    if (c.derived_chips_per_board == 32) {
      seen = true;
      CHECK(std::count(c.warnings.begin(), c.warnings.end(), "dense-pcb-impractical") == 1);
    }
  CHECK(seen);
}

TEST_CASE("torus enumeration equals a brute-force search of the spec's rules", "[topo][spec]") {
  for (std::int64_t n : {12, 16, 32, 36, 64, 96}) {
    // Brute force: every (S, B) with 2 or 3 dims, S_d >= 2, prod S = n, B_d | S_d, and
    // max(B) <= 2 min(B) unless B is all ones.
    std::set<std::string> expect;
    auto ok_b = [](const std::vector<int>& B) {
      int mn = *std::min_element(B.begin(), B.end()), mx = *std::max_element(B.begin(), B.end());
      return mx == 1 || mx <= 2 * mn;
    };
    auto id = [](const std::vector<int>& S, const std::vector<int>& B) {
      return torus_candidate_id({S, B});
    };
    for (int a = 2; a <= n; ++a)
      for (int b = 2; b <= n; ++b) {
        if (a * b == n)
          for (int x = 1; x <= a; ++x)
            for (int y = 1; y <= b; ++y)
              if (a % x == 0 && b % y == 0 && ok_b({x, y})) expect.insert(id({a, b}, {x, y}));
        for (int c = 2; c <= n; ++c)
          if (a * b * c == n)
            for (int x = 1; x <= a; ++x)
              for (int y = 1; y <= b; ++y)
                for (int z = 1; z <= c; ++z)
                  if (a % x == 0 && b % y == 0 && c % z == 0 && ok_b({x, y, z}))
                    expect.insert(id({a, b, c}, {x, y, z}));
      }
    auto l = test::enum_family("torus", test::context_for(n));
    std::set<std::string> got;
    for (auto& c : l.items) got.insert(c.id);
    CHECK(got == expect);
    CHECK(l.total == static_cast<std::int64_t>(expect.size()));
  }
}

TEST_CASE("shape permutations are distinct results", "[topo]") {
  auto l = test::enum_family("torus", test::context_for(32));
  std::set<std::string> ids;
  for (auto& c : l.items) ids.insert(c.id);
  CHECK(ids.count("torus:2x4x4/b1x1x1"));
  CHECK(ids.count("torus:4x2x4/b1x1x1"));
  CHECK(ids.count("torus:4x4x2/b1x1x1"));
}

TEST_CASE("warnings: asymmetric, degenerate-dimension; status follows warnings", "[topo][spec]") {
  auto l = test::enum_family("torus", test::context_for(64));
  std::map<std::string, Candidate> by;
  for (auto& c : l.items) by[c.id] = c;
  auto has = [](const Candidate& c, const std::string& w) {
    return std::count(c.warnings.begin(), c.warnings.end(), w) == 1;
  };
  CHECK(by.at("torus:4x4x4/b2x2x2").warnings.empty());
  CHECK(by.at("torus:4x4x4/b2x2x2").status() == "recommended");
  CHECK(has(by.at("torus:2x32/b1x1"), "asymmetric")); // 32/2 = 16 > 4
  CHECK(has(by.at("torus:2x32/b1x1"), "degenerate-dimension"));
  CHECK_FALSE(has(by.at("torus:4x16/b1x1"), "asymmetric")); // 16/4 = 4, not > 4
  CHECK(has(by.at("torus:2x4x8/b1x1x1"), "degenerate-dimension"));
  for (auto& c : l.items) CHECK((c.status() == "edge-case") == !c.warnings.empty());
}

TEST_CASE("at most 50 results, recommended first; total counts them all", "[topo][spec]") {
  auto all = test::enum_family("torus", test::context_for(1024));
  auto capped = test::enum_family("torus", test::context_for(1024), kDefaultResultCap);
  REQUIRE(all.total > 50);
  CHECK(capped.items.size() == 50);
  CHECK(capped.total == all.total);
  CHECK(capped.truncated());
  bool seen_edge = false;
  for (auto& c : all.items) {
    if (!c.warnings.empty())
      seen_edge = true;
    else
      CHECK_FALSE(seen_edge);
  }
}

TEST_CASE("torus refuses a non-none intra_board_topo", "[topo][spec]") {
  auto c = test::context_for(64);
  c.intra_board_topo = IntraBoardTopo::Ring;
  CHECK(kind_of([&] { test::enum_family("torus", c); }) == ErrorKind::Infeasible);
}

TEST_CASE("every spec family is in the registry; an unknown name is a usage error", "[topo]") {
  for (const char* name : {"fat-tree", "dragonfly", "dragonfly+", "torus", "mesh", "hypercube",
                           "hyperx", "ring", "full-mesh", "single-switch", "composed", "custom"})
    CHECK(require_family(name, "--family").name() == name);
  CHECK(families().size() == 12);
  CHECK(test::enumerated_families().size() == 10); // composed and custom come from topo-gen
  CHECK(kind_of([] { require_family("donut", "--family"); }) == ErrorKind::Usage);
}

TEST_CASE("generated torus: ids, coordinates, one link per chip per dimension", "[topo]") {
  Network n = test::grid_network("torus", {4, 4, 4}, {2, 2, 2});
  TorusGeometry g = TorusGeometry::of(n, "test");
  REQUIRE(n.links.size() == 64 * 3);
  for (auto& v : n.nodes) {
    CHECK(v.id == v.coord[0] + 4 * (v.coord[1] + 4 * v.coord[2]));
    CHECK(g.coords(v.id) == v.coord);
  }
  std::vector<int> degree(64, 0);
  for (auto& l : n.links) {
    degree[static_cast<std::size_t>(l.a)]++;
    degree[static_cast<std::size_t>(l.b)]++;
    auto ca = n.nodes[static_cast<std::size_t>(l.a)].coord,
         cb = n.nodes[static_cast<std::size_t>(l.b)].coord;
    CHECK(cb[static_cast<std::size_t>(l.dim)] == (ca[static_cast<std::size_t>(l.dim)] + 1) % 4);
    CHECK(l.dir == 1);
    CHECK(l.bandwidth_bytes_per_s == 50e9);
    CHECK(l.latency_s == 1e-6);
  }
  for (int d : degree) CHECK(d == 6);
}

TEST_CASE("a size-2 dimension keeps both links: a multigraph", "[topo]") {
  Network n = test::grid_network("torus", {2, 4}, {1, 1});
  int between01 = 0;
  for (auto& l : n.links)
    if ((l.a == 0 && l.b == 1) || (l.a == 1 && l.b == 0)) ++between01;
  CHECK(between01 == 2);
  CHECK(n.links.size() == 16);
}

TEST_CASE("boards are cubes of board_shape (cube packing)", "[topo]") {
  Network n = test::grid_network("torus", {4, 4, 4}, {2, 2, 1});
  REQUIRE(n.boards.size() == 16);
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
  // Links inside a board are c2c, the rest b2b (one rack).
  for (auto& l : n.links) {
    bool same = n.nodes[static_cast<std::size_t>(l.a)].board ==
                n.nodes[static_cast<std::size_t>(l.b)].board;
    CHECK(l.kind == (same ? LinkKind::C2C : LinkKind::B2B));
  }
}

TEST_CASE("torus metrics match exact computation", "[topo]") {
  for (auto S : std::vector<std::vector<int>>{{4, 4},
                                              {2, 4},
                                              {3, 4},
                                              {2, 3},
                                              {3, 3},
                                              {2, 2, 4},
                                              {2, 8},
                                              {2, 9},
                                              {3, 5},
                                              {3, 6},
                                              {4, 5}}) {
    Network n = test::grid_network("torus", S, std::vector<int>(S.size(), 1));
    INFO("shape " << n.metrics.family_attrs.dump());
    CHECK(n.metrics.diameter == exact_diameter(n));
    CHECK(n.metrics.bisection_links == test::brute_bisection_links(n));
    bool longest_even = *std::max_element(S.begin(), S.end()) % 2 == 0;
    CHECK(n.metrics.bisection_bandwidth_method == (longest_even ? "closed-form" : "heuristic"));
    CHECK(n.metrics.bisection_bandwidth_bytes_per_s == Approx(n.metrics.bisection_links * 50e9));
    CHECK(n.metrics.link_count == static_cast<std::int64_t>(n.links.size()));
    CHECK(n.metrics.switch_count == 0);
    CHECK(n.metrics.path_diversity == 2 * static_cast<std::int64_t>(S.size()));
  }
}

TEST_CASE("every invariant fires on a deliberately broken network", "[topo]") {
  const Network good = test::grid_network("torus", {4, 4}, {2, 2});
  CHECK_NOTHROW(check_invariants(good, ErrorKind::Input, "t"));
  auto broken = [&](const std::function<void(Network&)>& edit, const std::string& needle) {
    Network n = good;
    edit(n);
    try {
      check_invariants(n, ErrorKind::Input, "t");
      FAIL("not caught: " << needle);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Input);
      CHECK_THAT(e.what(), Catch::Contains(needle));
    }
  };
  broken([](Network& n) { n.boards[1].chips[0] = n.boards[0].chips[0]; }, "is on two boards");
  broken([](Network& n) { n.boards[0].chips.pop_back(); }, "holds 3 chips");
  broken(
      [](Network& n) {
        n.boards[0].chips[3] = n.boards[1].chips[0];
        n.boards[1].chips[0] = 99;
      },
      "not a chip");
  broken([](Network& n) { std::swap(n.boards[0].chips[0], n.boards[1].chips[0]); },
         "disagree with the hierarchy");
  broken(
      [](Network& n) {
        n.racks.push_back({1, 0, {}});
        n.pods[0].racks.push_back(1);
      },
      "rack 1 is empty");
  broken([](Network& n) { n.pods.push_back({1, {}}); }, "pod 1 is empty");
  broken([](Network& n) { n.nodes[3].tier = 7; }, "not at tier 6");
  broken(
      [](Network& n) { // a switch at board level
        Node s;
        s.id = 16;
        s.kind = NodeKind::Switch;
        s.role = "switch";
        s.ports = 64;
        s.tier = 7;
        n.nodes.push_back(s);
        n.links.push_back(
            {static_cast<std::int64_t>(n.links.size()), 0, 16, LinkKind::B2B, -1, 0, 1e9, 0});
      },
      "switches belong to tier 8");
  broken(
      [](Network& n) { // a rack switch of another rack
        n.racks.push_back({1, 0, {3}});
        n.racks[0].boards.pop_back();
        n.pods[0].racks.push_back(1);
        n.boards[3].rack = 1;
        for (auto c : n.boards[3].chips) n.nodes[static_cast<std::size_t>(c)].rack = 1;
        Node s;
        s.id = 16;
        s.kind = NodeKind::Switch;
        s.role = "switch";
        s.ports = 64;
        s.tier = 8;
        s.rack = 1;
        s.pod = 0;
        n.nodes.push_back(s);
        n.links.push_back(
            {static_cast<std::int64_t>(n.links.size()), 0, 16, LinkKind::B2B, -1, 0, 1e9, 0});
      },
      "switch of another rack");
  broken(
      [](Network& n) { // a rack switch of pod 0 joined to the pod switch of pod 1
        n.pods.push_back({1, {1}});
        n.racks.push_back({1, 1, {3}});
        n.racks[0].boards.pop_back();
        n.boards[3].rack = 1;
        for (auto c : n.boards[3].chips)
          n.nodes[static_cast<std::size_t>(c)].rack = 1,
          n.nodes[static_cast<std::size_t>(c)].pod = 1;
        Node r;
        r.id = 16;
        r.kind = NodeKind::Switch;
        r.role = "leaf";
        r.ports = 64;
        r.tier = 8;
        r.rack = 0;
        r.pod = 0;
        n.nodes.push_back(r);
        Node p;
        p.id = 17;
        p.kind = NodeKind::Switch;
        p.role = "spine";
        p.ports = 64;
        p.tier = 9;
        p.pod = 1;
        n.nodes.push_back(p);
        n.links.push_back(
            {static_cast<std::int64_t>(n.links.size()), 16, 17, LinkKind::R2R, -1, 0, 1e9, 0});
      },
      "switch of another pod");
  broken(
      [](Network& n) { // a switch without a role
        Node s;
        s.id = 16;
        s.kind = NodeKind::Switch;
        s.ports = 64;
        s.tier = 8;
        s.rack = 0;
        s.pod = 0;
        n.nodes.push_back(s);
        n.links.push_back(
            {static_cast<std::int64_t>(n.links.size()), 0, 16, LinkKind::B2B, -1, 0, 1e9, 0});
      },
      "has no role");
  broken(
      [](Network& n) { // more links on a switch than it has ports
        Node s;
        s.id = 16;
        s.kind = NodeKind::Switch;
        s.role = "switch";
        s.ports = 2;
        s.tier = 8;
        s.rack = 0;
        s.pod = 0;
        n.nodes.push_back(s);
        for (std::int64_t c : {0, 1, 2})
          n.links.push_back(
              {static_cast<std::int64_t>(n.links.size()), c, 16, LinkKind::B2B, -1, 0, 1e9, 0});
      },
      "has 3 links but 2 ports");
  broken(
      [](Network& n) {
        auto l = n.links[0];
        l.id = static_cast<std::int64_t>(n.links.size());
        n.links.push_back(l);
      },
      "parallel links");
  broken(
      [](Network& n) { // cut chip 5 off entirely: isolated chip
        std::vector<Link> keep;
        for (auto l : n.links)
          if (l.a != 5 && l.b != 5) {
            l.id = static_cast<std::int64_t>(keep.size());
            keep.push_back(l);
          }
        n.links = keep;
      },
      "chip 5 has no link");
  broken(
      [](Network& n) { // two halves: drop every dimension-0 link between x=1|2 and x=3|0, and dim 1
        std::vector<Link> keep;
        for (auto l : n.links)
          if (l.dim == 0 && (l.a % 4 == 1 || l.a % 4 == 3))
            continue;
          else if (l.dim == 1)
            continue;
          else {
            l.id = static_cast<std::int64_t>(keep.size());
            keep.push_back(l);
          }
        n.links = keep;
      },
      "not connected");
}

TEST_CASE("faults: by coordinates, ids and link id; unknown ones are usage errors", "[topo]") {
  Network n = test::grid_network("torus", {4, 4, 4}, {1, 1, 1});
  FaultRequest r;
  r.links = {"(1,1,0)-(2,1,0)", "#7", "0-16"};
  r.chips = {"(3,3,3)"};
  Faults f = make_faults(n, r);
  REQUIRE(f.links.size() == 3);
  // Sorted by id: "0-16" is chip 0's + link in dimension 2 (id 0*3+2), "#7", and
  // "(1,1,0)-(2,1,0)" is chip 5's + link in dimension 0 (id 5*3+0).
  CHECK(f.links[0].link == 2);
  CHECK(f.links[1].link == 7);
  CHECK(f.links[2].link == 15);
  CHECK(f.chips.size() == 1);
  CHECK(f.chips[0].chip == 63);
  auto down = f.down_links(n);
  CHECK(std::count(down.begin(), down.end(), 1) == 3 + 6);
  for (auto bad : {"0-2", "(9,9,9)-(0,0,0)", "#999", "a-b", "5"}) {
    FaultRequest q;
    q.links = {bad};
    CHECK(kind_of([&] { make_faults(n, q); }) == ErrorKind::Usage);
  }
  FaultRequest q;
  q.chips = {"64"};
  CHECK(kind_of([&] { make_faults(n, q); }) == ErrorKind::Usage);
}

TEST_CASE("random link faults are deterministic for a seed and distinct", "[topo]") {
  Network n = test::grid_network("torus", {8, 8}, {1, 1});
  FaultRequest r;
  r.random_links = 10;
  r.seed = 42;
  Faults a = make_faults(n, r), b = make_faults(n, r);
  REQUIRE(a.links.size() == 10);
  for (std::size_t i = 0; i < a.links.size(); ++i) CHECK(a.links[i].link == b.links[i].link);
  r.seed = 43;
  Faults c = make_faults(n, r);
  bool differs = false;
  for (std::size_t i = 0; i < c.links.size(); ++i) differs |= c.links[i].link != a.links[i].link;
  CHECK(differs);
  r.random_links = 1000;
  CHECK(kind_of([&] { make_faults(n, r); }) == ErrorKind::Usage);
}

TEST_CASE("document: round trip, schema, unknown keys, fingerprints", "[topo][doc]") {
  Document d;
  d.context = test::context_for(16);
  auto cand = test::grid_candidate("torus", {4, 4}, {2, 2});
  d.candidate = cand;
  d.network = generate(*d.context, cand, {});
  FaultRequest fr;
  fr.links = {"0-1"};
  d.faults = make_faults(*d.network, fr);
  refresh_fingerprint(d);
  std::string text = dump_document(d, false);
  Document e = parse_document(text, "stdin");
  CHECK(dump_document(e, false) == text);
  CHECK(e.network->fingerprint == d.network->fingerprint);

  // The fingerprint covers the faults.
  Document nf = d;
  nf.faults.reset();
  refresh_fingerprint(nf);
  CHECK(nf.network->fingerprint != d.network->fingerprint);

  auto rejects = [&](const std::function<void(json&)>& edit, const std::string& needle) {
    json j = json::parse(text);
    edit(j);
    try {
      parse_document(j.dump(), "stdin");
      FAIL("accepted: " << needle);
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::Input);
      CHECK_THAT(std::string(err.where()) + " " + err.what(), Catch::Contains(needle));
    }
  };
  rejects([](json& j) { j["schema"] = "icnkit/2"; }, "icnkit/1");
  rejects([](json& j) { j["netwrok"] = 1; }, "/netwrok");
  rejects([](json& j) { j["network"]["links"][3]["bandwith"] = 1; }, "/network/links/3/bandwith");
  rejects([](json& j) { j["network"]["links"][3]["latency_s"] = 2e-6; }, "edited after topo-gen");
  rejects([](json& j) { j["faults"]["links"][0]["link"] = 5; }, "endpoints disagree");
  rejects([](json& j) { j["context"]["n_chip"] = 0; }, "n_chip");
  rejects([](json& j) { j["context"]["n_chip"] = "abc"; }, "n_chip");
  rejects([](json& j) { j.erase("schema"); }, "schema");
  json ok = json::parse(text);
  ok["ext"] = {{"owner", "me"}};
  CHECK_NOTHROW(parse_document(ok.dump(), "stdin"));
  CHECK_THROWS_AS(parse_document("{not json", "stdin"), Error);
  CHECK_THROWS_AS(parse_document("", "stdin"), Error);
}

TEST_CASE("documents write each link kind's usual bandwidth and latency once", "[topo][doc]") {
  Document d;
  d.context = test::context_for(16);
  auto cand = test::grid_candidate("torus", {4, 4}, {2, 2});
  d.candidate = cand;
  d.network = generate(*d.context, cand, {});
  Network& n = *d.network;
  // Make one link slower and one slower and longer: the defaults stay the majority's.
  n.links[5].bandwidth_bytes_per_s = 1e9;
  n.links[7].bandwidth_bytes_per_s = 1e9;
  n.links[7].latency_s = 3e-6;
  refresh_fingerprint(d);
  // The majority pair per kind, counted here independently of link_defaults().
  std::map<std::string, std::map<std::pair<double, double>, int>> count;
  for (const Link& l : n.links) ++count[to_string(l.kind)][{l.bandwidth_bytes_per_s, l.latency_s}];
  REQUIRE(count.size() == 2); // c2c inside a board, b2b between boards

  const std::string text = dump_document(d, false);
  const json j = json::parse(text);
  CHECK(json::parse(dump_document(d, true)) == j); // the fast writer and the tree agree
  const json& defaults = j["network"]["link_defaults"];
  CHECK(defaults.size() == count.size());
  for (const auto& [kind, pairs] : count) {
    auto best = std::max_element(pairs.begin(), pairs.end(),
                                 [](auto& a, auto& b) { return a.second < b.second; });
    CHECK(defaults[kind]["bandwidth_bytes_per_s"].get<double>() == best->first.first);
    CHECK(defaults[kind]["latency_s"].get<double>() == best->first.second);
  }
  // Only the figures that differ are written.
  for (std::size_t k = 0; k < n.links.size(); ++k) {
    const json& l = j["network"]["links"][k];
    CAPTURE(k);
    CHECK(l.contains("bandwidth_bytes_per_s") == (k == 5 || k == 7));
    CHECK(l.contains("latency_s") == (k == 7));
  }
  // Round trip: every link's figures come back, and so does the text.
  Document e = parse_document(text, "stdin");
  for (std::size_t k = 0; k < n.links.size(); ++k) {
    CHECK(e.network->links[k].bandwidth_bytes_per_s == n.links[k].bandwidth_bytes_per_s);
    CHECK(e.network->links[k].latency_s == n.links[k].latency_s);
  }
  CHECK(dump_document(e, false) == text);

  // The older form, every link with both figures and no link_defaults, reads the same network.
  json old = j;
  old["network"].erase("link_defaults");
  for (std::size_t k = 0; k < n.links.size(); ++k) {
    old["network"]["links"][k]["bandwidth_bytes_per_s"] = n.links[k].bandwidth_bytes_per_s;
    old["network"]["links"][k]["latency_s"] = n.links[k].latency_s;
  }
  Document o = parse_document(old.dump(), "stdin");
  CHECK(dump_document(o, false) == text);

  // A link that leaves a figure out needs its kind's default; defaults obey the links' bounds.
  auto rejects = [&](const std::function<void(json&)>& edit, const std::string& needle) {
    json x = j;
    edit(x);
    try {
      parse_document(x.dump(), "stdin");
      FAIL("accepted: " << needle);
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::Input);
      CHECK_THAT(std::string(err.where()) + " " + err.what(), Catch::Contains(needle));
    }
  };
  const std::string kind0 = to_string(n.links[0].kind);
  rejects([&](json& x) { x["network"]["link_defaults"].erase(kind0); },
          "link_defaults has no " + kind0);
  rejects([&](json& x) { x["network"]["link_defaults"][kind0]["bandwidth_bytes_per_s"] = 1; },
          "/network/link_defaults/" + kind0 + "/bandwidth_bytes_per_s");
  rejects([&](json& x) { x["network"]["link_defaults"][kind0]["latency_s"] = -1; },
          "latency must not be negative");
  rejects([](json& x) { x["network"]["link_defaults"]["x2x"] = json::object(); }, "x2x");
  // Changing a default changes every link that uses it: the fingerprint catches the edit.
  rejects([&](json& x) { x["network"]["link_defaults"][kind0]["latency_s"] = 5e-6; },
          "edited after topo-gen");
}
