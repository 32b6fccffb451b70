// The deadlock checker (route/cdg.hpp) against a reference written here: the channel-dependency
// graph built by enumerating every routing state — every (src, dst) walk following every
// permitted choice — and a plain recursive DFS for the cycle. The checker's edge and vertex
// counts and its verdict must equal the reference's, through check_deadlock() and through
// verify_routing() (parallel, merged), for DOR with and without datelines, WFR with faults,
// minimal routing, the mesh algorithms, D-mod-k, and routings written here whose cycles exist
// only through VC changes (a checker that dropped dependencies between different VCs would
// call them acyclic with no edges).
#include "route/cdg.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace icnkit;
using namespace icnkit::route;

using namespace icnkit::test::routing;

namespace {

topo::Faults faults(std::vector<std::int64_t> links, std::vector<std::int64_t> chips = {}) {
  topo::Faults f;
  for (auto l : links) f.links.push_back({l, "explicit"});
  for (auto c : chips) f.chips.push_back({c, "explicit"});
  return f;
}

// The link joining chips a and b, found by scanning the links.
std::int64_t link_between(const topo::Network& n, std::int64_t a, std::int64_t b) {
  for (auto& l : n.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) return l.id;
  FAIL("no link " << a << " - " << b);
  return -1;
}

using Vertex = std::pair<std::int64_t, int>; // (channel, vc)

struct Reference {
  std::set<Vertex> vertices;
  std::map<Vertex, std::set<Vertex>> succ;
  std::int64_t edges = 0;
  std::int64_t longest_walk = 0;
};

// Every state of every walk: from each live source to each other live destination, a packet
// state is (node, arrival channel, VC, flags); each permitted choice onto a usable channel
// (its link up, the chip at its end up) is a dependency from the channel held to the one
// asked for, and a new state. A state is expanded once per pair.
Reference reference_cdg(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f) {
  std::set<std::int64_t> dead_chips, dead_links;
  for (auto& c : f.chips) dead_chips.insert(c.chip);
  for (auto& l : f.links) dead_links.insert(l.link);
  auto usable = [&](std::int64_t ch) {
    const topo::Link& l = n.links[static_cast<std::size_t>(ch / 2)];
    return !dead_links.count(l.id) && !dead_chips.count(l.a) && !dead_chips.count(l.b);
  };
  auto head = [&](std::int64_t ch) { // the node a channel leads to
    const topo::Link& l = n.links[static_cast<std::size_t>(ch / 2)];
    return ch % 2 == 0 ? l.b : l.a;
  };
  auto tail = [&](std::int64_t ch) {
    const topo::Link& l = n.links[static_cast<std::size_t>(ch / 2)];
    return ch % 2 == 0 ? l.a : l.b;
  };
  Reference r;
  for (std::int64_t src = 0; src < n.n_chip; ++src) {
    if (dead_chips.count(src)) continue;
    for (std::int64_t dst = 0; dst < n.n_chip; ++dst) {
      if (dst == src || dead_chips.count(dst)) continue;
      using State = std::tuple<std::int64_t, int, std::uint32_t>; // arrival channel, vc, flags
      std::set<State> seen;
      struct Item {
        std::int64_t node, channel;
        int vc;
        std::uint32_t flags;
        std::int64_t depth;
      };
      std::vector<Item> todo{{src, -1, 0, 0, 0}};
      while (!todo.empty()) {
        Item it = todo.back();
        todo.pop_back();
        if (it.node == dst) continue;
        r.longest_walk = std::max(r.longest_walk, it.depth);
        REQUIRE(it.depth < 4 * n.n_chip); // the routings here do not loop
        for (const Choice& c : fn.route({it.node, it.channel, it.vc, src, dst, it.flags})) {
          REQUIRE(tail(c.channel) == it.node);
          REQUIRE(c.vc >= 0);
          REQUIRE(c.vc < fn.vc_count());
          if (!usable(c.channel)) continue;
          const Vertex to{c.channel, c.vc};
          r.vertices.insert(to);
          if (it.channel >= 0) r.succ[{it.channel, it.vc}].insert(to);
          if (seen.insert({c.channel, c.vc, c.flags}).second)
            todo.push_back({head(c.channel), c.channel, c.vc, c.flags, it.depth + 1});
        }
      }
    }
  }
  for (auto& [v, s] : r.succ) r.edges += static_cast<std::int64_t>(s.size());
  return r;
}

// Plain recursive DFS with three colours: true when the graph has a cycle.
bool has_cycle(const Reference& r) {
  std::map<Vertex, int> colour; // 0 new, 1 on the path, 2 done
  std::function<bool(const Vertex&)> visit = [&](const Vertex& v) {
    colour[v] = 1;
    auto it = r.succ.find(v);
    if (it != r.succ.end())
      for (const Vertex& w : it->second) {
        if (colour[w] == 1) return true;
        if (colour[w] == 0 && visit(w)) return true;
      }
    colour[v] = 2;
    return false;
  };
  for (const Vertex& v : r.vertices)
    if (colour[v] == 0 && visit(v)) return true;
  return false;
}

// The checker, both ways, equals the reference; returns the reference's verdict (true: cyclic).
bool compare(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f = {}) {
  const Reference ref = reference_cdg(fn, n, f);
  const bool cyclic = has_cycle(ref);
  INFO("reference: " << ref.vertices.size() << " vertices, " << ref.edges << " edges, "
                     << (cyclic ? "cyclic" : "acyclic"));
  const CdgSummary s = check_deadlock(fn, n, f, default_hop_limit(n));
  CHECK(s.vertices == static_cast<std::int64_t>(ref.vertices.size()));
  CHECK(s.edges == ref.edges);
  CHECK(s.cycle.has_value() == cyclic);
  CHECK(s.walks_over_hop_limit == 0);
  const Verification v = verify_routing(fn, n, f);
  CHECK(v.cdg.vertices == static_cast<std::int64_t>(ref.vertices.size()));
  CHECK(v.cdg.edges == ref.edges);
  CHECK(v.deadlock_free == !cyclic);
  // A reported cycle is made of dependencies the reference found.
  for (const auto* cyc : {&s.cycle, &v.cdg.cycle}) {
    if (!*cyc) continue;
    const auto& hops = **cyc;
    REQUIRE(hops.size() >= 2);
    for (std::size_t i = 0; i < hops.size(); ++i) {
      const CycleHop& a = hops[i];
      const CycleHop& b = hops[(i + 1) % hops.size()];
      auto channel = [&](const CycleHop& h) {
        return topo::channel_of(h.link, n.links[static_cast<std::size_t>(h.link)].a == h.from);
      };
      auto it = ref.succ.find({channel(a), a.vc});
      CHECK((it != ref.succ.end() && it->second.count({channel(b), b.vc}) == 1));
    }
  }
  return cyclic;
}

// DOR without dateline (one VC) re-labelled: the VC of each hop is chosen by `rule` from the
// VC the packet arrived on (-1 at injection). The channels are DOR's, so the dependencies
// between channels are DOR's; which VCs they join is the rule's.
struct Relabelled : RoutingFunction {
  std::unique_ptr<RoutingFunction> dor;
  int vcs;
  std::function<int(int)> rule;
  Relabelled(const topo::Network& n, int vcs, std::function<int(int)> rule,
             const char* tie = "parity")
      : dor(build("dor", n, {}, {{"dateline", false}, {"tie", tie}})), vcs(vcs),
        rule(std::move(rule)) {}
  int vc_count() const override { return vcs; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override {
    PacketState q = p;
    q.vc = 0;
    auto out = dor->route(q);
    for (Choice& c : out) c.vc = rule(p.in_channel < 0 ? -1 : p.vc);
    return out;
  }
};

} // namespace

TEST_CASE("checker = reference: DOR with datelines (acyclic)", "[route][checker]") {
  for (std::vector<int> S : {std::vector<int>{4, 4, 4}, {8, 4, 4}, {3, 5}, {2, 4, 3}})
    for (const char* tie : {"parity", "plus"}) {
      INFO(S.size() << "-D torus, first size " << S[0] << ", tie " << tie);
      auto n = torus(S);
      CHECK_FALSE(compare(*build("dor", n, {}, {{"tie", tie}}), n));
    }
}

TEST_CASE("checker = reference: DOR without datelines", "[route][checker]") {
  // Rings of 8 and of 5 close a cycle; on rings of 4 only the plus tie does (see test_route).
  auto n844 = torus({8, 4, 4});
  CHECK(compare(*build("dor", n844, {}, {{"dateline", false}}), n844));
  auto n5 = torus({5, 5});
  CHECK(compare(*build("dor", n5, {}, {{"dateline", false}}), n5));
  auto n444 = torus({4, 4, 4});
  CHECK(compare(*build("dor", n444, {}, {{"dateline", false}, {"tie", "plus"}}), n444));
  CHECK_FALSE(compare(*build("dor", n444, {}, {{"dateline", false}}), n444));
  // Faults remove dependencies: DOR's cycles lie within rings, and a failed chip breaks its
  // rings'. Chips (0,0) and (1,1) of 4x4 leave X rings y = 2, 3 intact; the diagonal breaks
  // every ring.
  auto n44 = torus({4, 4});
  auto plus44 = build("dor", n44, {}, {{"dateline", false}, {"tie", "plus"}});
  CHECK(compare(*plus44, n44, faults({}, {0, 5})));
  CHECK_FALSE(compare(*plus44, n44, faults({}, {0, 5, 10, 15})));
}

TEST_CASE("checker = reference: WFR with faults", "[route][checker]") {
  auto n = torus({4, 4, 4});
  // One failed link in each dimension, then three at once.
  const std::int64_t x = link_between(n, 21, 22), y = link_between(n, 21, 25),
                     z = link_between(n, 21, 37);
  for (auto f : {faults({x}), faults({y}), faults({z}), faults({x, y, z})}) {
    INFO(f.links.size() << " failed links, first " << f.links.front().link);
    CHECK_FALSE(compare(*build("wfr", n, f), n, f));
    CHECK_FALSE(
        compare(*build("wfr", n, f, {{"tie", "plus"}, {"dimension_order", {2, 0, 1}}}), n, f));
  }
  auto m = torus({8, 4, 4});
  auto f = faults({link_between(m, 7, 0), link_between(m, 40, 48)}); // an X wrap link, a Y link
  CHECK_FALSE(compare(*build("wfr", m, f), m, f));
}

TEST_CASE("checker = reference: minimal routing", "[route][checker]") {
  auto n = torus({4, 4});
  for (const char* paths : {"ecmp", "first"}) {
    INFO("paths " << paths);
    CHECK_FALSE(compare(*build("minimal", n, {}, {{"paths", paths}}), n));
  }
  // One VC: with ECMP the 2-hop routes of a ring of 4 go both ways, closing the ring; "first"
  // takes the lowest channel id, whatever the reference finds of that.
  CHECK(compare(*build("minimal", n, {}, {{"vc_scheme", "none"}}), n));
  compare(*build("minimal", n, {}, {{"paths", "first"}, {"vc_scheme", "none"}}), n);
  auto f = faults({link_between(n, 0, 1), link_between(n, 5, 9)}, {10});
  CHECK_FALSE(compare(*build("minimal", n, f), n, f));
  auto t = torus({3, 3, 3});
  CHECK_FALSE(compare(*build("minimal", t), t));
  CHECK(compare(*build("minimal", t, {}, {{"vc_scheme", "none"}}), t));
  // A tree-like network: one VC is enough there.
  topo::Context ctx = test::context_for(16);
  auto l = topo::enumerate(ctx, {&topo::require_family("fat-tree", "t")}, 1);
  REQUIRE(!l.items.empty());
  auto ft = topo::generate(ctx, l.items.front(), {});
  CHECK_FALSE(compare(*build("minimal", ft, {}, {{"vc_scheme", "none"}}), ft));
  CHECK_FALSE(compare(*build("dmodk", ft), ft));
}

TEST_CASE("checker = reference: mesh DOR, odd-even and FTHOE", "[route][checker]") {
  auto m = mesh({5, 4});
  CHECK_FALSE(compare(*build("dor", m), m));
  CHECK_FALSE(compare(*build("odd-even", m), m));
  auto f = faults({link_between(m, 6, 7), link_between(m, 12, 17)});
  CHECK_FALSE(compare(*build("fthoe", m, f), m, f));
}

TEST_CASE("checker = reference: routings cyclic only through VC changes", "[route][checker]") {
  // 8x4x4, DOR's channels, every hop on the other VC than the one before: each VC alone has no
  // dependency at all, yet the 8-rings close cycles of even length through both VCs.
  auto n = torus({8, 4, 4});
  Relabelled alternate(n, 2, [](int vc) { return vc < 0 ? 0 : 1 - vc; });
  CHECK(compare(alternate, n));
  // Three VCs in turn (hop k on VC k mod 3): a cycle has to go round a ring of 8 three times
  // to come back to its VC, using every dependency (c_i, v) -> (c_i+1, v+1 mod 3). Under the
  // plus tie 4-hop routes go + from every chip, so all of them exist: cyclic. Under parity
  // they start at even coordinates only, so (c_i, 2) -> (c_i+1, 0) (a third hop going on to a
  // fourth) exists only for even i, and the 3-times-round walk meets an odd one: acyclic.
  Relabelled three_plus(
      n, 3, [](int vc) { return (vc + 1) % 3; }, "plus");
  CHECK(compare(three_plus, n));
  Relabelled three_parity(n, 3, [](int vc) { return (vc + 1) % 3; });
  CHECK_FALSE(compare(three_parity, n));
  // Hop k on VC k (the diameter is 8, so 8 classes): every dependency goes up a class, acyclic,
  // and every edge joins two different VCs.
  Relabelled hops(n, 8, [](int vc) { return vc + 1; });
  CHECK_FALSE(compare(hops, n));
  // The same alternation on 4x4x4 with the parity tie: DOR's own graph is acyclic there, and
  // so is any relabelling of it.
  auto m = torus({4, 4, 4});
  Relabelled alternate4(m, 2, [](int vc) { return vc < 0 ? 0 : 1 - vc; });
  CHECK_FALSE(compare(alternate4, m));
}

TEST_CASE("checker: literal edge counts of a 5 x 2 torus", "[route][checker]") {
  // DOR without dateline, X first. On an X ring of 5, routes have 1 or 2 hops each way, so each
  // of its 10 channels leads on to the next channel in its direction (2-hop routes) and to the
  // one Y channel the tie rule picks at the chip it enters (routes that turn into Y there):
  // 2 successors per X channel, 20 per ring, 40 in all. Y routes are 1 hop: Y channels have no
  // successor.
  auto n = torus({5, 2});
  Relabelled plain(n, 1, [](int) { return 0; });
  CHECK(reference_cdg(plain, n, {}).edges == 40);
  CHECK(check_deadlock(plain, n, {}, default_hop_limit(n)).edges == 40);
  // Alternating VCs. X -> X: the first X hop is on VC 0 and the second on VC 1, and no route
  // has a third: one edge per X channel, 20. X -> Y: after one X hop (VC 0, then Y on VC 1) or
  // two (VC 1, then Y on VC 0): two edges per X channel, 40. Every edge joins different VCs.
  Relabelled alternate(n, 2, [](int vc) { return vc < 0 ? 0 : 1 - vc; });
  CHECK(reference_cdg(alternate, n, {}).edges == 60);
  CHECK(check_deadlock(alternate, n, {}, default_hop_limit(n)).edges == 60);
}
