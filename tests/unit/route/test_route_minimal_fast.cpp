// Minimal routing on networks with switches: the per-attachment distances (route/minimal.hpp)
// against a BFS from every destination, and the per-attachment verification and load
// (route/minimal_symmetry.hpp) against the all-pairs computation (verify_routing_all_pairs(),
// uniform_load_all_pairs()): the routing section must be the same to the byte and the load of
// every channel the same number, on small fat-trees (2 and 3 layers, oversubscribed, parallel
// links, boards of two chips), a dragonfly, a dragonfly+, a HyperX and a single switch, with
// every option (ECMP, random, first; hop VCs or one VC), no fault, 1 and 3 random failed links
// (two seeds), a failed chip, and a failed switch (its links down: chips cut off included).
#include "route/load.hpp"
#include "route/minimal.hpp"
#include "route/minimal_symmetry.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/symmetric.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <random>
#include <set>

using namespace icnkit;
using namespace icnkit::route;

using namespace icnkit::test::routing;

namespace {

// The first candidate of `family` for n chips matching `where`, generated.
topo::Network generated(const std::string& family, std::int64_t n_chip, const std::string& where,
                        std::int64_t chip_radix = 1,
                        topo::IntraBoardTopo intra = topo::IntraBoardTopo::None) {
  topo::Context ctx = test::context_for(n_chip);
  ctx.scope = topo::Scope::InterRack;
  ctx.chip_radix = chip_radix;
  ctx.intra_board_topo = intra;
  topo::Where w = topo::parse_where(where, "test");
  auto l = topo::enumerate(ctx, {&topo::require_family(family, "test")}, 1, std::nullopt, &w);
  REQUIRE(l.items.size() == 1);
  return topo::generate(ctx, l.items[0], {});
}

topo::Faults failed_chip(std::int64_t chip) {
  topo::Faults f;
  f.chips.push_back({chip, "explicit"});
  return f;
}

// A failed switch: every link of node `sw` down.
topo::Faults failed_switch(const topo::Network& n, std::int64_t sw) {
  topo::Faults f;
  for (const topo::Link& l : n.links)
    if (l.a == sw || l.b == sw) f.links.push_back({l.id, "explicit"});
  return f;
}

// A hand-made two-level tree where chips hang off one or two leaves, some over two parallel
// links, in mixed channel orders: attachments of two switches, chips 2 hops from a destination
// that share one of its switches, and "first" picking different leaves for chips of the same
// attachment.
topo::Network multi_homed() {
  topo::Network n;
  n.family = "custom";
  n.n_chip = 12;
  const std::int64_t leaves = 4, spines = 3;
  for (std::int64_t v = 0; v < n.n_chip + leaves + spines; ++v) {
    topo::Node node;
    node.id = v;
    node.kind = v < n.n_chip ? topo::NodeKind::Chip : topo::NodeKind::Switch;
    n.nodes.push_back(node);
  }
  auto link = [&](std::int64_t a, std::int64_t b) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = a;
    l.b = b;
    n.links.push_back(l);
  };
  const std::int64_t leaf0 = n.n_chip, spine0 = n.n_chip + leaves;
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    const std::int64_t home = leaf0 + c % leaves, other = leaf0 + (c / 3) % leaves;
    if (c % 2) link(c, home);
    if (other != home) link(c, other);
    link(c, home);
    if (c % 5 == 0) link(home, c); // a parallel link, the other way round
  }
  for (std::int64_t l = 0; l < leaves; ++l)
    for (std::int64_t s = 0; s < spines; ++s)
      if ((l + s) % 4 != 3) link(leaf0 + l, spine0 + s);
  n.metrics.diameter = 4;
  return n;
}

std::vector<topo::Faults> fault_sets(const topo::Network& n) {
  const auto nodes = static_cast<std::int64_t>(n.nodes.size());
  return {{},
          failed_links(n, 1, 1),
          failed_links(n, 1, 2),
          failed_links(n, 3, 1),
          failed_links(n, 3, 2),
          failed_chip(n.n_chip / 2 + 1),
          failed_switch(n, nodes - 1), // the last switch (a spine, a core, a router)
          failed_switch(n, n.n_chip)}; // the first (a leaf: its chips are cut off)
}

const std::vector<json> kParams = {json::object(),
                                   {{"paths", "first"}},
                                   {{"paths", "random"}},
                                   {{"vc_scheme", "none"}},
                                   {{"paths", "first"}, {"vc_scheme", "none"}},
                                   {{"paths", "random"}, {"vc_scheme", "none"}}};

struct Tally {
  int verified = 0, loads = 0;
};

// The fast path must apply to the verification; the load's may decline (a split not a power of
// two), and then uniform_load() must still equal the reference.
void same_as_all_pairs(const topo::Network& n, const json& params, const topo::Faults& f,
                       Tally& t) {
  auto fn = build("minimal", n, f, params);
  // The analysis minimal routing registers (route/symmetric.hpp), as verify_routing() reaches it.
  const auto analysis = fn->symmetric_analysis();
  REQUIRE(analysis != nullptr);
  const auto fast = analysis->verify(n, f);
  REQUIRE(fast.has_value());
  const Verification ref = verify_routing_all_pairs(*fn, n, f);
  CHECK(section_text(*fast, "minimal") == section_text(ref, "minimal"));
  CHECK(section_text(verify_routing(*fn, n, f), "minimal") == section_text(ref, "minimal"));
  ++t.verified;

  const LoadReport lr = uniform_load_all_pairs(*fn, n, f, ref.hop_limit);
  const auto load = analysis->uniform_load(n, f);
  const LoadReport used = uniform_load(*fn, n, f, ref.hop_limit);
  for (const LoadReport* r : {load ? &*load : nullptr, &used}) {
    if (!r) continue;
    CHECK(r->channel_load == lr.channel_load);
    CHECK(r->max_load == lr.max_load);
    CHECK(r->mean_load == lr.mean_load);
    CHECK(r->max_channel == lr.max_channel);
    CHECK(r->throughput_bound == lr.throughput_bound);
    CHECK(r->split_exact == lr.split_exact);
  }
  if (load) ++t.loads;
}

void check_family(const topo::Network& n, int min_loads) {
  Tally t;
  for (const auto& f : fault_sets(n))
    for (const auto& p : kParams) {
      INFO(n.family << " " << n.n_chip << " chips, params " << p.dump() << ", " << f.links.size()
                    << " failed links, " << f.chips.size() << " failed chips");
      same_as_all_pairs(n, p, f, t);
    }
  CHECK(t.loads >= min_loads);
}

// Hops from every node to every chip, as the BFS of distances_to() gives them; and the longest
// minimal path between live chips, the routing's VC count with hop VCs.
void same_as_bfs(const topo::Network& n, const topo::Faults& f) {
  const MinimalRouting m(n, f, {});
  const Adjacency adj(n);
  const auto down_links = f.down_links(n);
  const auto down_nodes = f.down_chips(n);
  std::vector<std::int32_t> d;
  int longest = 0;
  for (std::int64_t dst = 0; dst < n.n_chip; ++dst) {
    distances_to(n, adj, dst, down_links, down_nodes, d);
    for (std::int64_t v = 0; v < static_cast<std::int64_t>(n.nodes.size()); ++v) {
      INFO("node " << v << " to chip " << dst);
      REQUIRE(m.distance(v, dst) == d[static_cast<std::size_t>(v)]);
      if (v < n.n_chip && !down_nodes[static_cast<std::size_t>(v)])
        longest = std::max(longest, d[static_cast<std::size_t>(v)]);
    }
  }
  CHECK(m.longest() == longest);
  CHECK(m.vc_count() == std::max(1, longest));
}

} // namespace

TEST_CASE("minimal distances per attachment = a BFS from every chip", "[route][minimal-fast]") {
  std::vector<topo::Network> nets = {
      generated("fat-tree", 32, "layers=3,k=8,osr=1"),
      generated("fat-tree", 16, "layers=2,k=8,osr=1", 2), // two links per chip
      generated("dragonfly", 36, "p=2,a=4,h=1,g=5"),
      // Boards of full meshes: chips joined to chips as well as to their switch.
      generated("fat-tree", 16, "layers=2,k=8,osr=1,chips_per_board=2", 1,
                topo::IntraBoardTopo::FullMesh),
      multi_homed(), torus({3, 4}), // no switches: the table
  };
  for (const auto& n : nets) {
    INFO(n.family << " " << n.n_chip << " chips");
    same_as_bfs(n, {});
    same_as_bfs(n, failed_links(n, 3, 7));
    same_as_bfs(n, failed_chip(1));
    if (n.nodes.size() > static_cast<std::size_t>(n.n_chip))
      same_as_bfs(n, failed_switch(n, n.n_chip)); // chips cut off
  }
}

TEST_CASE("minimal verification and load per attachment = all pairs: fat-trees",
          "[route][minimal-fast]") {
  check_family(generated("fat-tree", 16, "layers=2,k=8,osr=1"), 24);
  check_family(generated("fat-tree", 16, "layers=3,k=4,osr=1"), 24);
  check_family(generated("fat-tree", 32, "layers=3,k=6,osr=2"), 24);
  check_family(generated("fat-tree", 16, "layers=2,k=8,osr=1", 2), 24); // parallel links
  check_family(generated("fat-tree", 16, "layers=2,k=8,osr=1,chips_per_board=2"), 24);
  // Splits by 3: the load is computed pair by pair (the fast path declines but for "first").
  check_family(generated("fat-tree", 18, "layers=2,k=6,osr=1"), 8);
}

TEST_CASE("minimal verification and load per attachment = all pairs: other switched families",
          "[route][minimal-fast]") {
  check_family(generated("dragonfly", 36, "p=2,a=4,h=1,g=5"), 8);
  check_family(generated("dragonfly+", 32, "p=2,a=4,s=4,g=4"), 8);
  check_family(generated("hyperx", 32, "T=2"), 8);
  check_family(generated("single-switch", 16, "chips_per_board=1"), 24);
  check_family(multi_homed(), 8);
}

TEST_CASE("minimal per attachment declines where it does not apply", "[route][minimal-fast]") {
  // Chips joined to chips (boards of full meshes), and no switches at all: every pair walked.
  auto mesh_boards = generated("fat-tree", 16, "layers=2,k=8,osr=1,chips_per_board=2", 1,
                               topo::IntraBoardTopo::FullMesh);
  auto fn = build("minimal", mesh_boards);
  const auto& m = dynamic_cast<const MinimalRouting&>(*fn);
  CHECK_FALSE(verify_minimal_symmetric(m, mesh_boards, {}).has_value());
  CHECK_FALSE(uniform_load_minimal_symmetric(m, mesh_boards, {}).has_value());
  CHECK_FALSE(fn->symmetric_analysis()->verify(mesh_boards, {}).has_value());
  auto t = torus({4, 4});
  auto ft = build("minimal", t);
  const auto& mt = dynamic_cast<const MinimalRouting&>(*ft);
  CHECK_FALSE(verify_minimal_symmetric(mt, t, {}).has_value());
  CHECK_FALSE(uniform_load_minimal_symmetric(mt, t, {}).has_value());
  CHECK_FALSE(ft->symmetric_analysis()->uniform_load(t, {}).has_value());
}
