// lib/topo + lib/doc: a network read from a document is checked against its own family's
// structure (Family::check_network), not only against the spec's invariants: the links of a mesh,
// torus or hypercube against its geometry, chip and switch coordinates, family_attrs as the family
// writes them, the switches a family builds. Each case edits a generated network the way a user
// or a fuzzer would, recomputes the fingerprint (so that only the structure check can catch the
// edit; family_attrs is not fingerprinted at all) and expects bad input (exit 3) at the JSON
// pointer worked out by hand from the family's id rules.
#include "doc/document.hpp"
#include "route/registry.hpp"
#include "topo/enumerate.hpp"
#include "topo/torus.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <functional>
#include <optional>

using namespace icnkit;
using namespace icnkit::topo;

namespace {

std::string text_of(Network n) {
  n.fingerprint = fingerprint(n, nullptr);
  Document d;
  d.network = std::move(n);
  return dump_document(d, false);
}

// The document with its JSON edited (for what the fingerprint does not cover).
std::string edited(const std::string& text, const std::function<void(json&)>& edit) {
  json j = json::parse(text);
  edit(j);
  return j.dump();
}

struct Refusal {
  ErrorKind kind;
  std::string where, what;
};

std::optional<Refusal> refusal(const std::string& text) {
  try {
    parse_document(text, "t");
  } catch (const Error& e) {
    return Refusal{e.kind(), e.where(), e.what()};
  }
  return std::nullopt;
}

// The document must be refused as bad input at `where`, with `needle` in the message.
void expect_refused(const std::string& text, const std::string& where, const std::string& needle) {
  auto r = refusal(text);
  REQUIRE(r);
  CHECK(r->kind == ErrorKind::Input);
  CHECK(r->where == where);
  CHECK_THAT(r->what, Catch::Contains(needle));
}
void expect_refused(const Network& n, const std::string& where, const std::string& needle) {
  expect_refused(text_of(n), where, needle);
}

Network generated(const std::string& family, std::int64_t n_chip, const std::string& where,
                  IntraBoardTopo t = IntraBoardTopo::None, std::int64_t chip_radix = 1) {
  Context ctx = test::context_for(n_chip);
  ctx.scope = Scope::InterRack;
  ctx.intra_board_topo = t;
  ctx.chip_radix = chip_radix;
  Where w = parse_where(where, "test");
  auto l = enumerate(ctx, {&require_family(family, "test")}, 1, std::nullopt, &w);
  REQUIRE(l.items.size() == 1);
  return generate(ctx, l.items[0], {});
}

// Builds a routing through the registry with its default parameters.
void build(const std::string& algorithm, const Network& n) {
  route::ParamErrors errors{ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }};
  route::build_routing(*route::find_algorithm(algorithm), json::object(), n, Faults{}, errors);
}

Network twisted_4x4x8() {
  auto [ctx, cand] = torus_from_shape("4x4x8", "test");
  GenerateOptions o;
  o.twist = true;
  return generate(ctx, cand, o);
}

} // namespace

TEST_CASE("validation: every generated network of every family reads back", "[validation]") {
  // The positive control: nothing topo-gen writes is refused.
  int read = 0;
  for (const Family* f : families())
    for (std::int64_t n : {16, 64})
      for (auto t : {IntraBoardTopo::None, IntraBoardTopo::Ring}) {
        Context ctx = test::context_for(n);
        ctx.scope = Scope::InterRack;
        ctx.intra_board_topo = t;
        std::vector<Candidate> cs;
        try {
          cs = enumerate(ctx, {f}, 6).items;
        } catch (const Error&) {
          continue; // intra_board_topo not applicable to this family
        }
        for (auto& c : cs) {
          INFO(c.id);
          Network net;
          try {
            net = generate(ctx, c, {});
          } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Infeasible);
            continue;
          }
          auto r = refusal(text_of(net));
          CHECK_FALSE(r);
          if (r) INFO(r->where << ": " << r->what);
          ++read;
        }
      }
  CHECK(read > 60);
  CHECK_FALSE(refusal(text_of(twisted_4x4x8())));
}

TEST_CASE("validation: link bandwidth and latency within the units' physical bounds",
          "[validation]") {
  // A document written by hand or by another program: 1e308 s used to reach net-sim, whose
  // schedule then "formed a cycle" and printed inf.
  const Network good = test::grid_network("mesh", {4, 4}, {1, 1});
  CHECK_FALSE(refusal(text_of(good)));
  Network n = good;
  n.links[5].latency_s = 1e308;
  expect_refused(n, "t:/network/links/5/latency_s", "at most 1 s");
  n = good;
  n.links[5].latency_s = 1.0; // the bound itself is a latency
  CHECK_FALSE(refusal(text_of(n)));
  n.links[7].bandwidth_bytes_per_s = 1e-300;
  expect_refused(n, "t:/network/links/7/bandwidth_bytes_per_s", "between 1 KB/s and 1 PB/s");
  n = good;
  n.links[7].bandwidth_bytes_per_s = 2e15;
  expect_refused(n, "t:/network/links/7/bandwidth_bytes_per_s", "between 1 KB/s and 1 PB/s");
  n.links[7].bandwidth_bytes_per_s = 1e15;
  CHECK_FALSE(refusal(text_of(n)));
}

TEST_CASE("validation: mesh links against the geometry (swapped, flipped dir or dim, moved)",
          "[validation]") {
  // 4x4 mesh, links in (chip, dimension) order skipping the last layer: chip 0 has links 0
  // (0->1, dim 0) and 1 (0->4, dim 1), chip 1 links 2 (1->2) and 3 (1->5).
  const Network good = test::grid_network("mesh", {4, 4}, {1, 1});
  REQUIRE(good.links[2].a == 1);
  REQUIRE(good.links[3].b == 5);
  CHECK_FALSE(refusal(text_of(good)));
  Network n = good;
  std::swap(n.links[2].a, n.links[2].b); // the router used to exit 1 on this
  expect_refused(n, "t:/network/links/2/a", "not the link a 4x4 mesh has there");
  n = good;
  n.links[2].dir = -1;
  expect_refused(n, "t:/network/links/2/dir",
                 "joins chip 1 to chip 2 in + direction of dimension 0");
  n = good;
  n.links[3].dim = 0; // 1 -> 5 is dimension 1
  expect_refused(n, "t:/network/links/3/dim", "dimension 1");
  n = good;
  n.links[3].dim = -1;
  n.links[3].dir = 0;
  expect_refused(n, "t:/network/links/3/dim", "not the link a 4x4 mesh has there");
  n = good;
  n.links[3].b = 6;
  expect_refused(n, "t:/network/links/3/b", "joins chip 1 to chip 5");

  // The same checks where routing meets an in-process network: exit 3, not a wrong path.
  n = good;
  std::swap(n.links[2].a, n.links[2].b);
  try {
    build("dor", n);
    FAIL("DOR accepted a mesh with a swapped link");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Input);
    CHECK(e.where() == "/network/links/2/a");
  }
}

TEST_CASE("validation: torus links, regular and twisted", "[validation]") {
  // 4x4 torus: link c*2 + d leaves chip c in + direction of dimension d.
  const Network good = test::grid_network("torus", {4, 4}, {1, 1});
  Network n = good;
  std::swap(n.links[5].a, n.links[5].b); // link 5: chip 2, dimension 1, to chip 6
  expect_refused(n, "t:/network/links/5/a", "joins chip 2 to chip 6");
  n = good;
  n.links[5].dir = -1;
  expect_refused(n, "t:/network/links/5/dir", "regular 4x4 torus");
  n = good;
  n.links[4].dim = 1; // chip 2, dimension 0: 2 -> 3
  expect_refused(n, "t:/network/links/4/dim", "dimension 0");

  // Twisted 4x4x8: the first wrap link of a short dimension is link 9 (chip 3 = (3,0,0),
  // dimension 0), which the twist moves from chip 0 to chip (0,0,4) = 64.
  const std::string twisted = text_of(twisted_4x4x8());
  expect_refused(
      edited(twisted, [](json& j) { j["network"]["metrics"]["family_attrs"].erase("twisted"); }),
      "t:/network/links/9/b", "regular 4x4x8 torus");
  expect_refused(
      edited(twisted, [](json& j) { j["network"]["metrics"]["family_attrs"]["twisted"] = "yes"; }),
      "t:/network/metrics/family_attrs/twisted", "expected true or false");
  // A regular torus that says it is twisted: its wrap links are not the twisted ones; and a
  // shape that cannot be twisted at all.
  expect_refused(edited(text_of(test::grid_network("torus", {4, 4, 8}, {1, 1, 1})),
                        [](json& j) { j["network"]["metrics"]["family_attrs"]["twisted"] = true; }),
                 "t:/network/links/9/b", "twisted 4x4x8 torus");
  expect_refused(edited(text_of(good),
                        [](json& j) { j["network"]["metrics"]["family_attrs"]["twisted"] = true; }),
                 "t:/network/metrics/family_attrs/twisted", "3 dimensions");
}

TEST_CASE("validation: chip coordinates (unique, as many as dimensions, inside the shape)",
          "[validation]") {
  const Network mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  Network n = mesh;
  n.nodes[5].coord = n.nodes[4].coord;
  expect_refused(n, "t:/network/nodes/5/coord", "of chip 4: no two nodes sit at one place");
  n = mesh;
  n.nodes[3].coord = {3, 0, 0};
  expect_refused(n, "t:/network/nodes/3/coord",
                 "has 3 coordinates; a 2-dimensional 4x4 mesh has 2");
  n = mesh;
  n.nodes[3].coord.clear();
  expect_refused(n, "t:/network/nodes/3/coord", "has 0 coordinates");
  n = mesh;
  n.nodes[3].coord = {4, 0};
  expect_refused(n, "t:/network/nodes/3/coord/0", "outside dimension 0 of the 4x4 mesh (0..3)");
  n = mesh;
  std::swap(n.nodes[1].coord, n.nodes[4].coord); // unique and inside, but not the ids' places
  expect_refused(n, "t:/network/nodes/1/coord", "chip 1 of the 4x4 mesh is at (1,0), not (0,1)");

  const Network torus = test::grid_network("torus", {2, 2, 4}, {1, 1, 2});
  n = torus;
  n.nodes[15].coord = {1, 1};
  expect_refused(n, "t:/network/nodes/15/coord", "a 3-dimensional 2x2x4 torus has 3");
  n = torus;
  n.nodes[1].board = n.nodes[0].board; // boards of 1x1x2 chips: chip 1 = (1,0,0) is on board 1
  std::swap(n.boards[0].chips, n.boards[1].chips);
  n.nodes[0].board = 1;
  n.nodes[4].board = 1;
  n.nodes[1].board = 0;
  n.nodes[5].board = 0;
  expect_refused(n, "t:/network/nodes/0/board", "board_shape 1x1x2 puts chip 0 on board 0, not 1");

  // Hypercube: a chip's coordinates are the bits of its id.
  const Network cube = generated("hypercube", 8, "n=3");
  n = cube;
  n.nodes[3].coord = n.nodes[2].coord;
  expect_refused(n, "t:/network/nodes/3/coord", "chip 3 has the coordinates (0,1,0) of chip 2");
  n = cube;
  n.nodes[1].coord = {2, 0, 0};
  expect_refused(n, "t:/network/nodes/1/coord/0", "outside dimension 0 of the hypercube (0..1)");

  // Families without coordinates, and HyperX switches (row-major over S, after the chips).
  Network fat = generated("fat-tree", 16, "layers=2,k=8,osr=1");
  fat.nodes[0].coord = {0};
  expect_refused(fat, "t:/network/nodes/0/coord", "a fat-tree's chips have no coordinates");
  const Network hx = generated("hyperx", 16, "L=2,T=1");
  REQUIRE(hx.metrics.family_attrs["S"] == json::array({4, 4}));
  const auto first_switch = static_cast<std::size_t>(hx.n_chip);
  n = hx;
  n.nodes[first_switch + 1].coord = {0, 1};
  expect_refused(n, "t:/network/nodes/" + std::to_string(first_switch + 1) + "/coord",
                 "is at (1,0), not (0,1)");
  n = hx;
  n.nodes[0].coord = {0, 0};
  expect_refused(n, "t:/network/nodes/0/coord", "a hyperx's chips have no coordinates");
}

TEST_CASE("validation: hypercube and ring links", "[validation]") {
  // 8-chip hypercube: chip 0's links 0, 1, 2 go to 1, 2, 4; chip 1's links 3, 4 to 3, 5.
  const Network cube = generated("hypercube", 8, "n=3");
  Network n = cube;
  std::swap(n.links[3].a, n.links[3].b);
  expect_refused(n, "t:/network/links/3/a", "joins chip 1 to chip 3 in + direction of dimension 1");
  n = cube;
  n.links[4].dim = 1;
  expect_refused(n, "t:/network/links/4/dim", "3-dimensional hypercube");

  // A ring of 4 boards of 2 chips, a ring on each board: links 0..7 are the rails (board b's
  // chip i to board b+1's chip i), then the boards' own links (no dimension).
  const Network ring = generated("ring", 8, "n_endpoint=4", IntraBoardTopo::Ring);
  REQUIRE(ring.links.size() == 12);
  REQUIRE(ring.links[2].a == 2);
  n = ring;
  n.links[2].b = 5;
  n.links[2].kind = LinkKind::B2B;
  expect_refused(n, "t:/network/links/2/b", "joins chip 2 to chip 4 of the next board");
  n = ring;
  n.links[2].dim = -1;
  n.links[2].dir = 0;
  expect_refused(n, "t:/network/links/2/dim", "in + direction of dimension 0");
  n = ring;
  n.links[9].dim = 0;
  n.links[9].dir = 1;
  expect_refused(n, "t:/network/links/9/dim", "a link inside a board of a ring has no dimension");
  n = generated("full-mesh", 4, "n_endpoint=4");
  n.links[0].dim = 0;
  n.links[0].dir = 1;
  expect_refused(n, "t:/network/links/0/dim", "a full-mesh's links have no dimension");
}

TEST_CASE("validation: family_attrs, malformed or disagreeing, exit 3 with the pointer",
          "[validation]") {
  auto attrs = [](const Network& n, const std::function<void(json&)>& edit) {
    return edited(text_of(n), [&](json& j) { edit(j["network"]["metrics"]["family_attrs"]); });
  };
  const std::string A = "t:/network/metrics/family_attrs";

  // Fat-tree: null entries used to be an exit-1 type_error in D-mod-k.
  const Network fat = generated("fat-tree", 16, "layers=2,k=8,osr=1");
  REQUIRE(fat.metrics.family_attrs["w_levels"] == json::array({1, 4}));
  expect_refused(attrs(fat, [](json& a) { a["w_levels"][1] = nullptr; }), A + "/w_levels/1",
                 "expected an integer");
  expect_refused(attrs(fat, [](json& a) { a["p_levels"] = json::array({1}); }), A + "/p_levels",
                 "disagrees with k, osr, layers and the board size (expected [1,1])");
  expect_refused(attrs(fat, [](json& a) { a["k"] = "8"; }), A + "/k", "expected an integer");
  expect_refused(attrs(fat, [](json& a) { a["k"] = 7; }), A + "/k", "k must be even");
  expect_refused(attrs(fat, [](json& a) { a.erase("osr"); }), A, "missing key \"osr\"");
  expect_refused(attrs(fat, [](json& a) { a["extra"] = 1; }), A + "/extra", "unknown key");
  expect_refused(attrs(fat, [](json& a) { a = json::array(); }), A, "expected an object");
  // The same through D-mod-k, which used to read them unchecked.
  Document d = parse_document(text_of(fat), "t");
  d.network->metrics.family_attrs["m_levels"][0] = nullptr;
  try {
    build("dmodk", *d.network);
  } catch (const Error& e) {
    CHECK(e.kind() != ErrorKind::Runtime);
  } catch (const std::exception& e) {
    FAIL("D-mod-k threw " << e.what());
  }
  // Switch roles are the family's.
  Network n = fat;
  n.nodes[static_cast<std::size_t>(n.n_chip)].role = "spine";
  expect_refused(n, "t:/network/nodes/16/role", "is a leaf, not a spine");

  // Dragonfly.
  const Network df = generated("dragonfly", 64, "a=4,p=2,h=2");
  expect_refused(attrs(df, [](json& a) { a["a"] = nullptr; }), A + "/a", "expected an integer");
  expect_refused(attrs(df, [](json& a) { a["g"] = 1000; }), A + "/g", "at most 9 groups");
  expect_refused(attrs(df, [](json& a) { a["s"] = 2; }), A + "/s", "unknown key");

  // Hypercube, HyperX, torus, mesh, ring.
  const Network cube = generated("hypercube", 8, "n=3");
  expect_refused(attrs(cube, [](json& a) { a["n"] = 4; }), A + "/n", "2^4 differs from n_chip 8");
  const Network hx = generated("hyperx", 16, "L=2,T=1");
  expect_refused(attrs(hx, [](json& a) { a["S"][1] = nullptr; }), A + "/S/1",
                 "expected an integer");
  expect_refused(attrs(hx, [](json& a) { a["T"] = 2; }), A + "/S", "differs from n_endpoint 16");
  expect_refused(attrs(hx,
                       [](json& a) {
                         a["S"] = json::array({1048576, 1048576});
                       }),
                 A + "/S", "more than 16");
  const Network torus = test::grid_network("torus", {4, 4}, {2, 2});
  expect_refused(attrs(torus, [](json& a) { a["dimension_sizes"][1] = nullptr; }),
                 A + "/dimension_sizes/1", "expected an integer");
  expect_refused(attrs(torus, [](json& a) { a["board_shape"] = json::array({2}); }),
                 A + "/board_shape", "one entry per dimension");
  expect_refused(attrs(torus,
                       [](json& a) {
                         a["dimension_sizes"] = json::array({1048576, 1048576, 1048576, 1048576});
                         a["board_shape"] = json::array({1, 1, 1, 1});
                       }),
                 A + "/dimension_sizes", "product above 16 differs from n_chip 16");
  expect_refused(attrs(torus,
                       [](json& a) {
                         a["board_shape"] = json::array({1, 1});
                       }),
                 "t:/network/metrics/derived_chips_per_board", "product of board_shape");
  const Network mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  expect_refused(attrs(mesh, [](json& a) { a["twisted"] = false; }), A + "/twisted", "unknown key");
  expect_refused(attrs(generated("ring", 8, "n_endpoint=8"), [](json& a) { a["x"] = 1; }), A + "/x",
                 "unknown key");
}

TEST_CASE("validation: an unknown family, or switches a family does not have", "[validation]") {
  Network n = test::grid_network("mesh", {4, 4}, {1, 1});
  n.family = "tours";
  expect_refused(n, "t:/network/family", "unknown family 'tours'");
  n = generated("single-switch", 4, "n_endpoint=4");
  n.nodes[4].role = "leaf";
  expect_refused(n, "t:/network/nodes/4/role", "is a switch, not a leaf");
  n = generated("single-switch", 4, "n_endpoint=4");
  n.family = "full-mesh";
  expect_refused(n, "t:/network/nodes/4", "a full-mesh has no switches");
}
