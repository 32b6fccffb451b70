// lib/topo: the TPU v4 twisted torus (docs/algorithms.md §Twisted torus) and the OCS fault model
// (docs/algorithms.md §OCS fault model). Expected values are derived by hand in the comments or
// computed here by independent brute force, never copied from the code under test.
#include "doc/document.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/invariants.hpp"
#include "topo/metrics.hpp"
#include "topo/torus.hpp"
#include "topo/torus_geometry.hpp"

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

Network torus(const std::vector<int>& S, bool twist, std::vector<int> B = {}) {
  if (B.empty()) B.assign(S.size(), 1);
  Candidate c = test::grid_candidate("torus", S, B);
  Context ctx;
  ctx.n_chip = c.n_endpoint;
  GenerateOptions o;
  o.twist = twist;
  return generate(ctx, c, o); // checks every invariant
}

std::int64_t chip_at(const Network& n, const std::vector<int>& c) {
  for (auto& v : n.nodes)
    if (v.coord == c) return v.id;
  FAIL("no chip at the coordinates");
  return -1;
}

// The link leaving the chip at c in + direction of dimension d, found by its a/dim/dir (not by
// the id layout, which is checked separately).
const Link& plus_link(const Network& n, const std::vector<int>& c, int d) {
  const std::int64_t a = chip_at(n, c);
  for (auto& l : n.links)
    if (l.a == a && l.dim == d && l.dir == +1) return l;
  FAIL("no + link");
  return n.links[0];
}

std::vector<int> far_coord(const Network& n, const std::vector<int>& c, int d) {
  return n.nodes[static_cast<std::size_t>(plus_link(n, c, d).b)].coord;
}

// The definition, written out independently: + step in d; a short dimension's wrap (k-1 -> 0)
// adds k (mod 2k) to every long coordinate.
std::vector<int> twisted_step(const std::vector<int>& S, std::vector<int> c, int d) {
  const int k = *std::min_element(S.begin(), S.end());
  if (++c[d] < S[d]) return c;
  c[d] = 0;
  if (S[d] == k)
    for (std::size_t e = 0; e < S.size(); ++e)
      if (S[e] == 2 * k) c[e] = (c[e] + k) % (2 * k);
  return c;
}

// Chips with coordinate x_d < S_d / 2 on side 0 (S_d even).
std::vector<char> half_along(const Network& n, int d, int size) {
  std::vector<char> side(static_cast<std::size_t>(n.n_chip));
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    side[static_cast<std::size_t>(c)] =
        n.nodes[static_cast<std::size_t>(c)].coord[static_cast<std::size_t>(d)] < size / 2 ? 0 : 1;
  return side;
}

} // namespace

TEST_CASE("twisted torus: wrap links of the short dimensions shift +k in every long one",
          "[topo][twist]") {
  // 4x4x8: the X and Y wraps shift +4 in Z (docs/algorithms.md §Twisted torus).
  Network a = torus({4, 4, 8}, true);
  CHECK(far_coord(a, {3, 1, 2}, 0) == std::vector<int>{0, 1, 6});
  CHECK(far_coord(a, {3, 0, 5}, 0) == std::vector<int>{0, 0, 1});
  CHECK(far_coord(a, {2, 3, 5}, 1) == std::vector<int>{2, 0, 1});
  CHECK(far_coord(a, {1, 2, 7}, 2) == std::vector<int>{1, 2, 0}); // long wrap: regular
  CHECK(far_coord(a, {1, 2, 3}, 2) == std::vector<int>{1, 2, 4}); // inner link: regular
  // 4x8x8: the X wraps shift +4 in Y and +4 in Z at once.
  Network b = torus({4, 8, 8}, true);
  CHECK(far_coord(b, {3, 5, 6}, 0) == std::vector<int>{0, 1, 2});
  CHECK(far_coord(b, {3, 0, 0}, 0) == std::vector<int>{0, 4, 4});
  CHECK(far_coord(b, {1, 7, 3}, 1) == std::vector<int>{1, 0, 3});
  CHECK(far_coord(b, {1, 3, 7}, 2) == std::vector<int>{1, 3, 0});
  // 8x4x4 (the long dimension first): the Y and Z wraps shift +4 in X.
  Network c = torus({8, 4, 4}, true);
  CHECK(far_coord(c, {5, 3, 1}, 1) == std::vector<int>{1, 0, 1});
  CHECK(far_coord(c, {6, 2, 3}, 2) == std::vector<int>{2, 2, 0});
  CHECK(far_coord(c, {7, 1, 2}, 0) == std::vector<int>{0, 1, 2});
  // 2x2x4: k = 2, the size-2 rings' second links become twisted (no longer parallel).
  Network d = torus({2, 2, 4}, true);
  CHECK(far_coord(d, {0, 1, 3}, 0) == std::vector<int>{1, 1, 3});
  CHECK(far_coord(d, {1, 1, 3}, 0) == std::vector<int>{0, 1, 1});
  CHECK(far_coord(d, {0, 1, 2}, 1) == std::vector<int>{0, 0, 0});

  // Every link, against the definition; ids, dim/dir and layout of the regular torus.
  for (const auto& S : std::vector<std::vector<int>>{{4, 4, 8},
                                                     {4, 8, 8},
                                                     {8, 4, 4},
                                                     {4, 8, 4},
                                                     {8, 8, 4},
                                                     {2, 2, 4},
                                                     {2, 4, 4},
                                                     {3, 6, 3}}) {
    INFO(join_sizes(S));
    Network t = torus(S, true), r = torus(S, false);
    REQUIRE(t.links.size() == r.links.size());
    std::int64_t moved = 0, wraps = 0;
    const int k = *std::min_element(S.begin(), S.end());
    for (std::size_t i = 0; i < t.links.size(); ++i) {
      const Link& l = t.links[i];
      const Link& q = r.links[i];
      CHECK(l.id == static_cast<std::int64_t>(i));
      CHECK(l.a == q.a);
      CHECK(l.a == static_cast<std::int64_t>(i) / 3);
      CHECK(l.dim == static_cast<int>(i % 3));
      CHECK(l.dir == +1);
      CHECK(l.dim == q.dim);
      const auto& ca = t.nodes[static_cast<std::size_t>(l.a)].coord;
      CHECK(t.nodes[static_cast<std::size_t>(l.b)].coord == twisted_step(S, ca, l.dim));
      const bool short_wrap =
          S[static_cast<std::size_t>(l.dim)] == k && ca[static_cast<std::size_t>(l.dim)] == k - 1;
      wraps += short_wrap;
      if (!short_wrap) {
        CHECK(l.b == q.b); // every other link is the regular torus's
        CHECK(l.kind == q.kind);
      }
      moved += l.b != q.b;
    }
    CHECK(moved == wraps); // and every short wrap moved
    CHECK(wraps == t.n_chip / k * std::count(S.begin(), S.end(), k));
    CHECK(t.metrics.family_attrs.at("twisted") == true);
    CHECK_FALSE(r.metrics.family_attrs.contains("twisted"));
    CHECK_NOTHROW(check_invariants(t, ErrorKind::Runtime, "test"));
  }
}

TEST_CASE("twisted torus: refused shapes are infeasible", "[topo][twist]") {
  for (const auto& S : std::vector<std::vector<int>>{
           {4, 4, 4}, {4, 4, 12}, {4, 8}, {8, 4}, {4, 8, 16}, {2, 4, 8}, {3, 6, 9}, {8, 8, 8}}) {
    INFO(join_sizes(S));
    CHECK(kind_of([&] { torus(S, true); }) == ErrorKind::Infeasible);
    CHECK(twist_problem(S) != "");
    CHECK_NOTHROW(torus(S, false));
  }
  for (const auto& S : std::vector<std::vector<int>>{{4, 4, 8}, {8, 4, 8}, {2, 2, 4}, {6, 12, 12}})
    CHECK(twist_problem(S) == "");
  // Only a torus twists (the framework).
  Candidate m = test::grid_candidate("mesh", {4, 4, 8}, {1, 1, 1});
  Context ctx;
  ctx.n_chip = 128;
  GenerateOptions o;
  o.twist = true;
  CHECK(kind_of([&] { generate(ctx, m, o); }) == ErrorKind::Infeasible);
}

TEST_CASE("twisted torus: vertex-transitive, diameters 8->6, 10->6", "[topo][twist]") {
  struct Row {
    std::vector<int> S;
    // Diameters (docs/algorithms.md §Twisted torus; 2x2x4 by a separate BFS).
    std::int64_t regular, twisted;
  };
  for (const Row& row : std::vector<Row>{
           {{4, 4, 8}, 8, 6}, {{4, 8, 8}, 10, 6}, {{8, 4, 4}, 8, 6}, {{2, 2, 4}, 4, 3}}) {
    INFO(join_sizes(row.S));
    Network r = torus(row.S, false), t = torus(row.S, true);
    CHECK(r.metrics.diameter == row.regular);
    CHECK(t.metrics.diameter == row.twisted);
    // BFS from every chip: the same eccentricity everywhere (vertex-transitive), so the metric
    // (BFS from chip 0) is the exact diameter.
    std::set<std::int64_t> ecc;
    for (std::int64_t c = 0; c < t.n_chip; ++c) ecc.insert(eccentricity(t, c));
    CHECK(ecc == std::set<std::int64_t>{row.twisted});
    CHECK(exact_chip_diameter(t) == row.twisted);
  }
}

TEST_CASE("twisted torus: bisection bound and path diversity", "[topo][twist]") {
  // 4x4x8 regular: 2N/8 = 32 links (the Z half). Twisted, the Z half also cuts every X and Y
  // wrap (each shifts z by 4): 32 + 32 + 32 = 96; the X half cuts the 32 links x=1->2 and the
  // 32 X wraps: 64, and so does the Y half. The bound is the best of these: 64 (2x).
  Network r = torus({4, 4, 8}, false), t = torus({4, 4, 8}, true);
  CHECK(r.metrics.bisection_links == 32);
  CHECK(cut_of(t, half_along(t, 2, 8)).links == 96);
  CHECK(cut_of(t, half_along(t, 0, 4)).links == 64);
  CHECK(cut_of(t, half_along(t, 1, 4)).links == 64);
  CHECK(t.metrics.bisection_links == 64);
  CHECK(t.metrics.bisection_bandwidth_method == "heuristic");
  CHECK(t.metrics.bisection_bandwidth_bytes_per_s == Approx(64 * t.links[0].bandwidth_bytes_per_s));
  // 4x8x8: regular 2N/8 = 64; twisted, the X half cuts 64 + 64 X wraps = 128, each long half
  // 64 + every X wrap (64) = 128.
  Network r2 = torus({4, 8, 8}, false), t2 = torus({4, 8, 8}, true);
  CHECK(r2.metrics.bisection_links == 64);
  CHECK(cut_of(t2, half_along(t2, 0, 4)).links == 128);
  CHECK(cut_of(t2, half_along(t2, 1, 8)).links == 128);
  CHECK(t2.metrics.bisection_links == 128);
  // 2x2x4 (16 chips): brute force over every balanced partition. Regular: 2N/4 = 8; twisted:
  // the x half cuts 8 x links + 8 x wraps = 16, and nothing cuts fewer.
  Network r3 = torus({2, 2, 4}, false), t3 = torus({2, 2, 4}, true);
  CHECK(test::brute_bisection_links(r3) == 8);
  CHECK(test::brute_bisection_links(t3) == 16);
  CHECK(t3.metrics.bisection_links == test::brute_bisection_links(t3));
  CHECK(t3.metrics.bisection_links == 16);

  // Path diversity: 6 link-disjoint paths between any two chips, twisted or not (2x2x4's
  // size-2 rings keep two links each either way).
  CHECK(exact_path_diversity(t3) == 6);
  CHECK(exact_path_diversity(r3) == 6);
  CHECK(exact_path_diversity(t) == 6);
  CHECK(t.metrics.path_diversity == 6);
  CHECK(t3.metrics.path_diversity == 6);
}

TEST_CASE("twisted torus: DOR / ring geometry refuses it", "[topo][twist]") {
  Network t = torus({4, 4, 8}, true);
  CHECK(kind_of([&] { TorusGeometry::of(t, "DOR"); }) == ErrorKind::Infeasible);
  CHECK(TorusGeometry::shape_of(t, "test").sizes() == std::vector<int>{4, 4, 8});
  CHECK(TorusGeometry::twisted(t));
  Network r = torus({4, 4, 8}, false);
  CHECK_FALSE(TorusGeometry::twisted(r));
  CHECK_NOTHROW(TorusGeometry::of(r, "DOR"));
  // "twisted": false is a regular torus; a twisted one stripped of its flag is caught by its
  // links; a flag that is not a boolean is bad input.
  r.metrics.family_attrs["twisted"] = false;
  CHECK_NOTHROW(TorusGeometry::of(r, "DOR"));
  t.metrics.family_attrs.erase("twisted");
  CHECK(kind_of([&] { TorusGeometry::of(t, "DOR"); }) == ErrorKind::Input);
  r.metrics.family_attrs["twisted"] = "yes";
  CHECK(kind_of([&] { TorusGeometry::of(r, "DOR"); }) == ErrorKind::Input);
}

TEST_CASE("OCS faults: link sets of the 48 OCSes", "[topo][ocs]") {
  // The link OCS i carries on one cube: dimension d = i/16, the chip at x_d = 3 whose other
  // coordinates (lower dimension first) are (p%4, p/4), p = i%16.
  Network c = torus({4, 4, 4}, false);
  CHECK(ocs_links(c, 0) == std::vector<std::int64_t>{plus_link(c, {3, 0, 0}, 0).id});
  CHECK(ocs_links(c, 17) == std::vector<std::int64_t>{plus_link(c, {1, 3, 0}, 1).id});
  CHECK(ocs_links(c, 38) == std::vector<std::int64_t>{plus_link(c, {2, 1, 3}, 2).id});
  CHECK(ocs_links(c, 47) == std::vector<std::int64_t>{plus_link(c, {3, 3, 3}, 2).id});
  for (int i = 0; i < kOcsCount; ++i) CHECK(ocs_links(c, i).size() == 1);

  // 8x4x4: dimension 0 crosses cube boundaries at x = 3 and x = 7 on one line: 2 links; the
  // other dimensions, one boundary (the wrap) on 2 lines (x0 = a and a + 4): 2 links.
  Network e = torus({8, 4, 4}, false);
  CHECK(ocs_links(e, 0) ==
        std::vector<std::int64_t>{plus_link(e, {3, 0, 0}, 0).id, plus_link(e, {7, 0, 0}, 0).id});
  for (int i = 0; i < kOcsCount; ++i) CHECK(ocs_links(e, i).size() == 2);

  // 8x8x8: 2 boundaries x 2 x 2 lines = 8 links per OCS, and the 48 OCSes partition the
  // 3 x 512 / 4 = 384 cube-boundary links.
  Network g = torus({8, 8, 8}, false);
  std::map<std::int64_t, int> owner;
  for (int i = 0; i < kOcsCount; ++i) {
    auto ls = ocs_links(g, i);
    CHECK(ls.size() == 8);
    CHECK(std::is_sorted(ls.begin(), ls.end()));
    const int d = i / 16, p = i % 16;
    const int lo = d == 0 ? 1 : 0, hi = d == 2 ? 1 : 2;
    for (auto id : ls) {
      const Link& l = g.links[static_cast<std::size_t>(id)];
      const auto& ca = g.nodes[static_cast<std::size_t>(l.a)].coord;
      const auto& cb = g.nodes[static_cast<std::size_t>(l.b)].coord;
      CHECK(l.dim == d);
      CHECK(ca[static_cast<std::size_t>(d)] % 4 == 3);
      CHECK(ca[static_cast<std::size_t>(d)] / 4 != cb[static_cast<std::size_t>(d)] / 4);
      CHECK(ca[static_cast<std::size_t>(lo)] % 4 + 4 * (ca[static_cast<std::size_t>(hi)] % 4) == p);
      CHECK(owner.emplace(id, i).second); // in no other OCS
    }
  }
  std::int64_t boundary = 0;
  for (auto& l : g.links) {
    const auto& ca = g.nodes[static_cast<std::size_t>(l.a)].coord;
    const auto& cb = g.nodes[static_cast<std::size_t>(l.b)].coord;
    bool crosses = false;
    for (std::size_t k = 0; k < 3; ++k) crosses |= ca[k] / 4 != cb[k] / 4;
    if (crosses) {
      ++boundary;
      CHECK(owner.count(l.id) == 1);
    }
  }
  CHECK(boundary == 384);
  CHECK(owner.size() == 384);

  // Twisted 4x4x8: OCS 0 carries the X links leaving (3,0,0) and (3,0,4), both twisted wraps
  // (to (0,0,4) and (0,0,0)); OCS 32 (Z, p = 0) the Z links leaving (0,0,3) and (0,0,7).
  Network t = torus({4, 4, 8}, true);
  auto t0 = ocs_links(t, 0);
  REQUIRE(t0.size() == 2);
  CHECK(t.nodes[static_cast<std::size_t>(t.links[static_cast<std::size_t>(t0[0])].b)].coord ==
        std::vector<int>{0, 0, 4});
  CHECK(t.nodes[static_cast<std::size_t>(t.links[static_cast<std::size_t>(t0[1])].b)].coord ==
        std::vector<int>{0, 0, 0});
  CHECK(ocs_links(t, 32) ==
        std::vector<std::int64_t>{plus_link(t, {0, 0, 3}, 2).id, plus_link(t, {0, 0, 7}, 2).id});
}

TEST_CASE("OCS faults: errors, causes, the faults section", "[topo][ocs]") {
  Network c = torus({4, 4, 4}, false);
  for (int bad : {-1, 48, 100}) CHECK(kind_of([&] { ocs_links(c, bad); }) == ErrorKind::Usage);
  for (const auto& S : std::vector<std::vector<int>>{{4, 4}, {4, 4, 6}, {2, 4, 8}, {8, 8, 2}}) {
    INFO(join_sizes(S));
    Network n = torus(S, false);
    CHECK(kind_of([&] { ocs_links(n, 0); }) == ErrorKind::Usage);
  }
  Network mesh = test::grid_network("mesh", {4, 4, 4}, {1, 1, 1});
  CHECK(kind_of([&] { ocs_links(mesh, 0); }) == ErrorKind::Usage);
  FaultRequest bad;
  bad.ocs = {48};
  CHECK(kind_of([&] { make_faults(c, bad); }) == ErrorKind::Usage);

  // Causes; the OCS list sorted and unique; an explicit failure keeps its cause.
  Network g = torus({8, 8, 8}, false);
  FaultRequest q;
  q.ocs = {17, 3, 17};
  std::string ref = "#"; // (one string, appended: GCC 12's -Wrestrict misfires on "#" + s)
  ref += std::to_string(ocs_links(g, 3)[0]);
  q.links = {ref};
  Faults f = make_faults(g, q);
  CHECK(f.ocs == std::vector<std::int64_t>{3, 17});
  REQUIRE(f.links.size() == 16);
  std::set<std::int64_t> want;
  for (int i : {3, 17})
    for (auto id : ocs_links(g, i)) want.insert(id);
  std::set<std::int64_t> got;
  for (auto& l : f.links) {
    got.insert(l.link);
    CHECK(l.cause == (l.link == ocs_links(g, 3)[0] ? "explicit" : "ocs"));
  }
  CHECK(got == want);
  // Random links are drawn among the others.
  q.random_links = 5;
  Faults fr = make_faults(g, q);
  CHECK(fr.links.size() == 21);

  // The faults section: "ocs" written, read back, checked, and in the fingerprint.
  Document d;
  d.context = test::context_for(512);
  d.candidate = test::grid_candidate("torus", {8, 8, 8}, {1, 1, 1});
  d.network = g;
  d.faults = f;
  refresh_fingerprint(d);
  const std::string text = dump_document(d, false);
  Document e = parse_document(text, "stdin");
  REQUIRE(e.faults);
  CHECK(e.faults->ocs == std::vector<std::int64_t>{3, 17});
  CHECK(dump_document(e, false) == text);
  json j = json::parse(text);
  CHECK(j["faults"]["ocs"] == json::array({3, 17}));
  Faults no_ocs = f;
  no_ocs.ocs.clear();
  CHECK(fingerprint(g, &no_ocs) != fingerprint(g, &f));
  for (auto edit : {json::array({17, 3}), json::array({3, 3}), json::array({48}), json("3")}) {
    json k = j;
    k["faults"]["ocs"] = edit;
    CHECK(kind_of([&] { parse_document(k.dump(), "stdin"); }) == ErrorKind::Input);
  }
  // Without OCS faults the key is absent.
  FaultRequest plain;
  plain.links = {"0-1"};
  CHECK_FALSE(to_json(make_faults(g, plain), g).contains("ocs"));
}

TEST_CASE("twisted torus and OCS faults are deterministic", "[topo][twist][ocs]") {
  Network a = torus({4, 8, 8}, true, {2, 2, 2}), b = torus({4, 8, 8}, true, {2, 2, 2});
  CHECK(to_json(a).dump() == to_json(b).dump());
  FaultRequest q;
  q.ocs = {1, 40};
  CHECK(to_json(make_faults(a, q), a).dump() == to_json(make_faults(b, q), b).dump());
}
