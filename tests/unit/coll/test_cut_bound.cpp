// The all-gather / reduce-scatter cut bound (coll/bound.hpp, cut_rate; ForestColl): the library's
// max-flow search against a brute force over every node subset on small networks, the relation
// to the injection bound, and where the cut bound is the one reported.
#include "coll/bound.hpp"
#include "topo/metrics.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

using namespace icnkit;

namespace {

bool close(double got, double want, double rel = 1e-9) {
  return std::abs(got - want) <= rel * std::abs(want);
}

// The oracle: max over every node subset U with a rank on each side of |C_U| / B+(U) (seconds
// per byte of a shard), B+(U) summed over the live links crossing U. Infinite when a cut with
// ranks inside has no live bandwidth.
double brute_force_inverse_rate(const topo::Network& net, const std::vector<std::int64_t>& chips,
                                const topo::Faults& f) {
  const std::size_t V = net.nodes.size();
  REQUIRE(V <= 20);
  const std::vector<char> down = f.down_links(net);
  double worst = 0;
  for (std::uint32_t mask = 1; mask + 1 < (1u << V); ++mask) {
    std::size_t in = 0;
    for (std::int64_t c : chips) in += (mask >> c) & 1u;
    if (in == 0 || in == chips.size()) continue;
    double b = 0;
    for (const topo::Link& l : net.links)
      if (!down[static_cast<std::size_t>(l.id)] && (((mask >> l.a) ^ (mask >> l.b)) & 1u))
        b += l.bandwidth_bytes_per_s;
    worst = std::max(worst,
                     b > 0 ? static_cast<double>(in) / b : std::numeric_limits<double>::infinity());
  }
  return worst;
}

// The all-gather injection bound for bytes S written from the definition: (n-1)/n S over the
// smallest live injection bandwidth among the ranks.
double injection_bound(const topo::Network& net, const std::vector<std::int64_t>& chips,
                       const topo::Faults& f, double S) {
  const std::vector<char> down = f.down_links(net);
  double least = std::numeric_limits<double>::infinity();
  for (std::int64_t c : chips) {
    double b = 0;
    for (const topo::Link& l : net.links)
      if (!down[static_cast<std::size_t>(l.id)] && l.a != l.b && (l.a == c || l.b == c))
        b += l.bandwidth_bytes_per_s;
    least = std::min(least, b);
  }
  const double n = static_cast<double>(chips.size());
  return (n - 1) / n * S / least;
}

std::vector<std::int64_t> all_chips(const topo::Network& net) {
  std::vector<std::int64_t> c;
  for (std::int64_t i = 0; i < net.n_chip; ++i) c.push_back(i);
  return c;
}

// Checks cut_rate against the oracle and the injection bound, and collective_bound's choice;
// returns the cut bound for S.
double check_against_oracle(const topo::Network& net, const std::vector<std::int64_t>& chips,
                            const topo::Faults& f = {}, double S = 48 * 1048576.0) {
  const double n = static_cast<double>(chips.size());
  const auto r = coll::cut_rate(chips, net, f);
  REQUIRE(r);
  const double want = brute_force_inverse_rate(net, chips, f) * S / n;
  INFO(net.family << " " << net.nodes.size() << " nodes, " << chips.size() << " ranks");
  if (std::isinf(want)) { // the live network separates two ranks
    CHECK(r->rate == 0);
    return want;
  }
  const double got = S / n / r->rate;
  CHECK(close(got, want));
  // The witness cut attains the rate.
  REQUIRE(r->side.size() == net.nodes.size());
  const std::vector<char> down = f.down_links(net);
  double b = 0;
  std::size_t in = 0;
  for (const topo::Link& l : net.links)
    if (!down[static_cast<std::size_t>(l.id)] &&
        r->side[static_cast<std::size_t>(l.a)] != r->side[static_cast<std::size_t>(l.b)])
      b += l.bandwidth_bytes_per_s;
  for (std::int64_t c : chips) in += r->side[static_cast<std::size_t>(c)] != 0;
  CHECK(in >= 1);
  CHECK(in < chips.size());
  CHECK(close(b / static_cast<double>(in), r->rate));
  // Never below the injection bound; collective_bound reports the larger, "cut" when above.
  const double inj = injection_bound(net, chips, f, S);
  CHECK(got >= inj * (1 - 1e-9));
  for (const char* coll : {"all-gather", "reduce-scatter"}) {
    const auto bound = coll::collective_bound(coll, chips, S, net, f);
    REQUIRE(bound);
    CHECK(close(bound->time_s, std::max(got, inj)));
    CHECK(bound->kind == (got > inj * (1 + 1e-9) ? "cut" : "injection"));
  }
  // Other collectives keep their bounds.
  const auto ar = coll::collective_bound("all-reduce", chips, S, net, f);
  REQUIRE(ar);
  CHECK(ar->kind == "injection");
  return got;
}

// The first candidate of `family` for n chips (inter-rack scope) that `keep` accepts, generated
// with every link at bw.
topo::Network generated(const std::string& family, std::int64_t n,
                        const std::function<bool(const topo::Candidate&)>& keep, double bw = 50e9) {
  topo::Context ctx = test::context_for(n);
  ctx.scope = topo::Scope::InterRack;
  topo::CandidateList l = test::enum_family(family, ctx);
  std::string ids;
  for (const topo::Candidate& c : l.items) {
    ids += " " + c.id;
    if (!keep(c)) continue;
    topo::GenerateOptions o;
    o.link_bandwidth.every = bw;
    topo::Network net = topo::generate(ctx, c, o);
    net.fingerprint = topo::fingerprint(net, nullptr);
    return net;
  }
  FAIL("no candidate of " << family << " among" << ids);
  return {};
}

// A network built by hand: `chips` chips then `switches` switches, links (a, b, bandwidth).
struct HandLink {
  std::int64_t a, b;
  double bw;
};
topo::Network by_hand(std::int64_t chips, std::int64_t switches,
                      const std::vector<HandLink>& links) {
  topo::Network n;
  n.family = "test";
  n.n_chip = chips;
  for (std::int64_t i = 0; i < chips + switches; ++i) {
    topo::Node v;
    v.id = i;
    v.kind = i < chips ? topo::NodeKind::Chip : topo::NodeKind::Switch;
    n.nodes.push_back(v);
  }
  for (const HandLink& h : links) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = h.a;
    l.b = h.b;
    l.bandwidth_bytes_per_s = h.bw;
    n.links.push_back(l);
  }
  return n;
}

// Two leaves (8, 9) of 4 chips (links 0-7 of bandwidth B) under two spines (10, 11), each leaf
// linked to each spine at up/2 (links 8-11: 8-10, 8-11, 9-10, 9-11).
topo::Network tapered_tree(double B, double up) {
  std::vector<HandLink> links;
  for (std::int64_t c = 0; c < 8; ++c) links.push_back({c, 8 + c / 4, B});
  for (std::int64_t leaf : {8, 9})
    for (std::int64_t spine : {10, 11}) links.push_back({leaf, spine, up / 2});
  return by_hand(8, 4, links);
}

topo::Faults failed(std::vector<std::int64_t> links, std::vector<std::int64_t> chips = {}) {
  topo::Faults f;
  for (auto l : links) f.links.push_back({l, "explicit"});
  for (auto c : chips) f.chips.push_back({c, "explicit"});
  return f;
}

std::int64_t attr(const topo::Candidate& c, const char* key) {
  return c.family_attrs.at(key).get<std::int64_t>();
}

} // namespace

TEST_CASE("cut bound: the brute force over every cut on small networks", "[cut_bound]") {
  SECTION("a single switch of 4 chips") {
    const topo::Network net =
        generated("single-switch", 4, [](const topo::Candidate&) { return true; });
    check_against_oracle(net, all_chips(net));
    check_against_oracle(net, {1, 2, 3}, failed({}, {0}));
    check_against_oracle(net, all_chips(net), failed({0}));
    check_against_oracle(net, {1, 3});
  }
  SECTION("a hand-built tree, tapered and not") {
    for (double up : {25e9, 100e9, 200e9, 400e9}) {
      const topo::Network net = tapered_tree(50e9, up);
      check_against_oracle(net, all_chips(net));
      check_against_oracle(net, {0, 1, 4});
      check_against_oracle(net, all_chips(net), failed({8}));
      check_against_oracle(net, {0, 1, 2, 4, 5, 6, 7}, failed({}, {3}));
    }
  }
  SECTION("an uneven tree: the binding cut holds the rank of least injection") {
    // Chips 0-5 on switch 8 (chip 0 at 0.9B), chips 6-7 on switch 9, 8-9 at B/2: the six
    // shards of switch 8's side leave through B/2 (x* = B/12), and only a sink on the small side
    // finds that cut.
    const double B = 50e9;
    std::vector<HandLink> links{{0, 8, 0.9 * B}};
    for (std::int64_t c = 1; c < 8; ++c) links.push_back({c, c < 6 ? 8 : 9, B});
    links.push_back({8, 9, B / 2});
    const topo::Network net = by_hand(8, 2, links);
    check_against_oracle(net, all_chips(net));
    CHECK(close(coll::cut_rate(all_chips(net), net, {})->rate, B / 12));
    check_against_oracle(net, {0, 1, 2, 6});
    check_against_oracle(net, all_chips(net), failed({3}));
  }
  SECTION("a generated 2-layer fat-tree with an oversubscribed spine") {
    const topo::Network net = generated("fat-tree", 8, [](const topo::Candidate& c) {
      return attr(c, "layers") == 2 && attr(c, "osr") >= 2;
    });
    REQUIRE(net.nodes.size() <= 18);
    check_against_oracle(net, all_chips(net));
    check_against_oracle(net, all_chips(net),
                         failed({static_cast<std::int64_t>(net.links.size()) - 1}));
    check_against_oracle(net, {0, 2, 5, 7});
  }
  SECTION("a 4-ring") {
    const topo::Network net = generated("ring", 4, [](const topo::Candidate&) { return true; });
    check_against_oracle(net, all_chips(net));
    check_against_oracle(net, all_chips(net), failed({1}));
    check_against_oracle(net, {0, 2});
  }
  SECTION("tori 3x3 and 2x4") {
    for (auto shape : {std::vector<int>{3, 3}, std::vector<int>{2, 4}}) {
      const topo::Network net = test::routing::torus(shape);
      check_against_oracle(net, all_chips(net));
      check_against_oracle(net, all_chips(net), failed({0, 5}));
      check_against_oracle(net, {0, 1, 2, 3, 5, 6, 7}, failed({}, {4}));
      check_against_oracle(net, {0, 1, 5, 6});
    }
  }
  SECTION("a small hyperx and dragonfly") {
    for (const char* family : {"hyperx", "dragonfly"}) {
      topo::Network net;
      for (std::int64_t n : {8, 6, 12, 16}) {
        topo::Context ctx = test::context_for(n);
        ctx.scope = topo::Scope::InterRack;
        topo::CandidateList l = test::enum_family(family, ctx);
        for (const topo::Candidate& c : l.items) {
          topo::GenerateOptions o;
          o.link_bandwidth.every = 40e9;
          topo::Network g = topo::generate(ctx, c, o);
          if (g.nodes.size() <= 18) {
            net = std::move(g);
            break;
          }
        }
        if (!net.nodes.empty()) break;
      }
      INFO(family);
      REQUIRE(!net.nodes.empty());
      check_against_oracle(net, all_chips(net));
      check_against_oracle(net, all_chips(net), failed({2}));
      check_against_oracle(net, all_chips(net),
                           failed({static_cast<std::int64_t>(net.links.size()) - 1}));
      check_against_oracle(net, {0, net.n_chip - 1});
    }
  }
}

TEST_CASE("cut bound: equals the injection bound on a non-blocking fat-tree", "[cut_bound]") {
  for (std::int64_t n : {16, 64, 256}) {
    const topo::Network net =
        generated("fat-tree", n, [](const topo::Candidate& c) { return attr(c, "osr") == 1; });
    INFO(net.nodes.size() << " nodes");
    const double S = 1 << 26;
    const auto b = coll::collective_bound("all-gather", all_chips(net), S, net, {});
    REQUIRE(b);
    CHECK(b->kind == "injection");
    const auto r = coll::cut_rate(all_chips(net), net, {});
    REQUIRE(r);
    CHECK(close(S / static_cast<double>(n) / r->rate, injection_bound(net, all_chips(net), {}, S)));
  }
}

TEST_CASE("cut bound: larger than injection on tapered trees, not on a ring", "[cut_bound]") {
  const double B = 50e9, S = 1 << 24;
  // A leaf's uplinks carry B/2 in all: its 4 shards leave through them, x* = (B/2) / 4.
  const topo::Network tree = tapered_tree(B, B / 2);
  auto b = coll::collective_bound("all-gather", all_chips(tree), S, tree, {});
  REQUIRE(b);
  CHECK(b->kind == "cut");
  CHECK(close(b->time_s, S / 8 / (B / 8)));
  // A generated fat-tree is never tapered that much with links of one speed (at osr 3 a leaf's
  // uplinks carry a third of its chips' injection; the cut around all leaves but one binds only
  // below (n-k)/(n-1) of a chip's, k chips a leaf), but with slower switch-to-switch links it
  // is: 64 chips, 4 leaves of k = 16, each with 8 uplinks at B/16 (B/2 up a leaf). The cut
  // around the other three leaves and the spines: 48 shards through B/2, time = 48 S/64 / (B/2)
  // = 1.5 S/B, above (n-1)/n S/B.
  topo::Network ft = generated(
      "fat-tree", 64, [](const topo::Candidate& c) { return c.id == "fat-tree:2L-k6-osr2/c4"; });
  auto cuts = coll::collective_bound("reduce-scatter", all_chips(ft), S, ft, {});
  REQUIRE(cuts);
  CHECK(cuts->kind == "injection");
  std::int64_t uplinks = 0;
  for (topo::Link& l : ft.links)
    if (std::min(l.a, l.b) >= ft.n_chip) l.bandwidth_bytes_per_s = B / 16, ++uplinks;
  REQUIRE(uplinks == 4 * 8);
  cuts = coll::collective_bound("reduce-scatter", all_chips(ft), S, ft, {});
  REQUIRE(cuts);
  CHECK(cuts->kind == "cut");
  CHECK(close(cuts->time_s, 1.5 * S / B));
  // The small one against the brute force: 2 leaves of 4 chips, 2 spines, uplinks at B/4.
  topo::Network small = generated(
      "fat-tree", 8, [](const topo::Candidate& c) { return c.id == "fat-tree:2L-k6-osr2/c1"; });
  for (topo::Link& l : small.links)
    if (std::min(l.a, l.b) >= small.n_chip) l.bandwidth_bytes_per_s = B / 4;
  CHECK(close(check_against_oracle(small, all_chips(small), {}, S), S / B));
  cuts = coll::collective_bound("all-gather", all_chips(small), S, small, {});
  REQUIRE(cuts);
  CHECK(cuts->kind == "cut");
  // A ring of 8 is not tapered: the cut around one chip (2B for 7 shards) is the tightest, the
  // injection bound's, and a half ring (2B for 4 shards) is looser.
  std::vector<HandLink> ring;
  for (std::int64_t i = 0; i < 8; ++i) ring.push_back({i, (i + 1) % 8, B});
  const topo::Network r8 = by_hand(8, 0, ring);
  b = coll::collective_bound("all-gather", all_chips(r8), S, r8, {});
  REQUIRE(b);
  CHECK(b->kind == "injection");
  CHECK(close(coll::cut_rate(all_chips(r8), r8, {})->rate, 2 * B / 7));
  // With ranks 0-3 only, the other half relays: still the cut around one rank (2B for 3).
  CHECK(close(coll::cut_rate({0, 1, 2, 3}, r8, {})->rate, 2 * B / 3));
  // Several groups: not computed, the injection bound stays.
  b = coll::collective_bound("all-gather", all_chips(r8), S, r8, {}, 4);
  REQUIRE(b);
  CHECK(b->kind == "injection");
}

TEST_CASE("cut bound: a separated network and the size limit", "[cut_bound]") {
  // Chips 0-1 and 2-3 in two pieces: rate 0, collective_bound keeps the injection bound.
  const topo::Network two = by_hand(4, 0, {{0, 1, 10e9}, {2, 3, 10e9}});
  const auto r = coll::cut_rate(all_chips(two), two, {});
  REQUIRE(r);
  CHECK(r->rate == 0);
  const auto b = coll::collective_bound("all-gather", all_chips(two), 1e6, two, {});
  REQUIRE(b);
  CHECK(b->kind == "injection");
  // A star too large (2,400 ranks x (2,401 nodes + 2 x 2,400 links) > kCutBoundMaxWork): not
  // computed.
  const std::int64_t big = 2400;
  std::vector<HandLink> star;
  for (std::int64_t c = 0; c < big; ++c) star.push_back({c, big, 10e9});
  const topo::Network s = by_hand(big, 1, star);
  CHECK(!coll::cut_rate(all_chips(s), s, {}));
}
