// lib/route beyond DOR, the deadlock proofs: WFR on faulty tori, odd-even and FTHOE on 2-D
// meshes, D-mod-k on fat-trees, minimal routing on every family; the deadlock checker proving
// them acyclic or finding the cycle. The paths taken, load, stretch, emitted tables and bad input
// are in test_routing_paths.cpp. Expected values come from independent computations (a BFS over
// HOE states), never from the code under test.
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

// The 64-chip dragonfly p=2, a=4, h=2, g=9 (boards of one chip), built once.
const topo::Network& dragonfly64() {
  static const topo::Network n =
      family_network("dragonfly", 64, "p=2,a=4,h=2,g=9,chips_per_board=1", topo::Scope::InterRack);
  return n;
}

void check_closed_walk(const topo::Network& n, const std::vector<CycleHop>& cycle) {
  REQUIRE(cycle.size() >= 2);
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const auto& h = cycle[i];
    const auto& next = cycle[(i + 1) % cycle.size()];
    CHECK(h.to == next.from); // consecutive channels, the last one closing on the first
    const auto& l = n.links[static_cast<std::size_t>(h.link)];
    CHECK(((l.a == h.from && l.b == h.to) || (l.b == h.from && l.a == h.to)));
  }
}

// A reported cycle is a closed walk, and each of its dependencies is one the routing makes: a
// packet holding hop i's channel and VC may, for some destination, be sent on to hop i+1's.
void check_finds_cycle(const RoutingFunction& fn, const topo::Network& n) {
  Verification v = verify_routing(fn, n, {});
  CHECK_FALSE(v.deadlock_free);
  REQUIRE(v.cdg.cycle);
  CHECK_FALSE(v.cdg.cycle->empty());
  const auto& cycle = *v.cdg.cycle;
  check_closed_walk(n, cycle);
  auto channel = [&](const CycleHop& h) {
    return topo::channel_of(h.link, n.links[static_cast<std::size_t>(h.link)].a == h.from);
  };
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const CycleHop& h = cycle[i];
    const CycleHop& next = cycle[(i + 1) % cycle.size()];
    bool made = false;
    for (std::int64_t d = 0; d < n.n_chip && !made; ++d) {
      if (d == h.to) continue;
      const std::int64_t src = h.from < n.n_chip ? h.from : (d == 0 ? 1 : 0);
      for (const Choice& c : fn.route({h.to, channel(h), h.vc, src, d, 0}))
        made = made || (c.channel == channel(next) && c.vc == next.vc);
    }
    INFO("cycle hop " << i << ": " << h.from << " -> " << h.to << " vc " << h.vc);
    CHECK(made);
  }
}

bool transit(const topo::Network& n, std::int64_t v) {
  const bool switched = std::any_of(n.nodes.begin(), n.nodes.end(),
                                    [](auto& x) { return x.kind == topo::NodeKind::Switch; });
  return !switched || n.nodes[static_cast<std::size_t>(v)].kind == topo::NodeKind::Switch;
}

// Hops from every node to chip dst over live links and nodes, only switches forwarding where
// there are switches (BFS from dst); -1 where unreachable.
std::vector<int> hops_to(const topo::Network& n, const std::vector<char>& down_links,
                         const std::vector<char>& down_nodes, std::int64_t dst) {
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> adj(n.nodes.size());
  for (auto& l : n.links) {
    if (down_links[static_cast<std::size_t>(l.id)]) continue;
    adj[static_cast<std::size_t>(l.a)].push_back({l.b, l.id});
    adj[static_cast<std::size_t>(l.b)].push_back({l.a, l.id});
  }
  std::vector<int> dist(n.nodes.size(), -1);
  if (down_nodes[static_cast<std::size_t>(dst)]) return dist;
  std::deque<std::int64_t> q{dst};
  dist[static_cast<std::size_t>(dst)] = 0;
  while (!q.empty()) {
    const std::int64_t u = q.front();
    q.pop_front();
    if (u != dst && !transit(n, u)) continue;
    for (auto [w, link] : adj[static_cast<std::size_t>(u)]) {
      (void)link;
      if (dist[static_cast<std::size_t>(w)] >= 0 || down_nodes[static_cast<std::size_t>(w)])
        continue;
      dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(u)] + 1;
      q.push_back(w);
    }
  }
  return dist;
}

// Directions of mesh moves: east (+x), west, north (+y), south; none at injection.
constexpr int dE = 0, dW = 1, dN = 2, dS = 3, dNone = 4;
int move_dir(int cols, std::int64_t a, std::int64_t b) {
  if (b == a + 1 && b % cols != 0) return dE;
  if (b == a - 1 && a % cols != 0) return dW;
  if (b == a + cols) return dN;
  if (b == a - cols) return dS;
  FAIL("not a mesh move");
  return dNone;
}

// --- HOE, computed independently ---------------------------------------------------------

struct HoeMesh {
  int cols, rows;
  std::vector<char> link_down, node_down;
  std::vector<std::vector<std::pair<int, std::int64_t>>> out; // per chip: (dir, neighbour)
  std::vector<std::vector<std::int64_t>> out_link;            // per chip: the links of `out`

  std::int64_t label(std::int64_t c) const {
    const int x = static_cast<int>(c % cols), y = static_cast<int>(c / cols);
    return y % 2 == 0 ? std::int64_t{y} * cols + x : std::int64_t{y} * cols + (cols - 1 - x);
  }
  bool raising(std::int64_t from, std::int64_t to) const { return label(to) > label(from); }
};

HoeMesh hoe_mesh(const topo::Network& n, int cols, const topo::Faults& f) {
  HoeMesh m;
  m.cols = cols;
  m.rows = static_cast<int>(n.n_chip / cols);
  m.link_down = my_down_links(n, f);
  m.node_down = my_down_nodes(n, f);
  m.out.resize(static_cast<std::size_t>(n.n_chip));
  m.out_link.resize(static_cast<std::size_t>(n.n_chip));
  for (auto& l : n.links) {
    m.out[static_cast<std::size_t>(l.a)].push_back({move_dir(cols, l.a, l.b), l.b});
    m.out_link[static_cast<std::size_t>(l.a)].push_back(l.id);
    m.out[static_cast<std::size_t>(l.b)].push_back({move_dir(cols, l.b, l.a), l.a});
    m.out_link[static_cast<std::size_t>(l.b)].push_back(l.id);
  }
  return m;
}

// connected[s][d]: an HOE-legal path of live links and chips leads from s to d (BFS over
// (chip, last move)); with `minimal`, a path of moves that each bring it closer to d.
std::vector<std::vector<char>> hoe_connected(const HoeMesh& m, bool minimal) {
  const auto V = m.out.size();
  std::vector<std::vector<char>> conn(V, std::vector<char>(V, 0));
  std::vector<char> seen(V * 5);
  std::deque<std::pair<std::int64_t, int>> q;
  auto dist = [&](std::int64_t a, std::int64_t b) {
    return std::abs(a % m.cols - b % m.cols) + std::abs(a / m.cols - b / m.cols);
  };
  for (std::size_t s = 0; s < V; ++s) {
    if (m.node_down[s]) continue;
    const std::size_t targets = minimal ? V : 1;
    for (std::size_t t = 0; t < targets; ++t) {
      if (minimal && (m.node_down[t] || t == s)) continue;
      std::fill(seen.begin(), seen.end(), 0);
      q.clear();
      q.push_back({static_cast<std::int64_t>(s), dNone});
      seen[s * 5 + dNone] = 1;
      while (!q.empty()) {
        auto [v, last] = q.front();
        q.pop_front();
        if (!minimal) conn[s][static_cast<std::size_t>(v)] = 1;
        if (minimal && static_cast<std::size_t>(v) == t) {
          conn[s][t] = 1;
          break;
        }
        const auto& outs = m.out[static_cast<std::size_t>(v)];
        for (std::size_t i = 0; i < outs.size(); ++i) {
          const auto [dir, u] = outs[i];
          if (m.link_down[static_cast<std::size_t>(m.out_link[static_cast<std::size_t>(v)][i])] ||
              m.node_down[static_cast<std::size_t>(u)])
            continue;
          if (last != dNone) {
            if ((last ^ dir) == 1) continue; // U-turn
            // The previous move raised the label iff it went from v's predecessor up to v:
            // recomputed from the direction it took into v.
            const std::int64_t prev = last == dE   ? v - 1
                                      : last == dW ? v + 1
                                      : last == dN ? v - m.cols
                                                   : v + m.cols;
            if (m.raising(prev, v) && !m.raising(v, u)) continue;
          }
          if (minimal &&
              dist(u, static_cast<std::int64_t>(t)) >= dist(v, static_cast<std::int64_t>(t)))
            continue;
          auto& sn = seen[static_cast<std::size_t>(u) * 5 + static_cast<std::size_t>(dir)];
          if (sn) continue;
          sn = 1;
          q.push_back({u, dir});
        }
      }
    }
  }
  return conn;
}

struct MeshScenario {
  std::string name;
  topo::Faults faults;
};

std::int64_t at(int cols, int x, int y) {
  return std::int64_t{y} * cols + x;
}

// The seed's fault scenarios on an n x n mesh.
std::vector<MeshScenario> seed_scenarios(const topo::Network& net, int n) {
  const int m = n / 2;
  auto link = [&](int x0, int y0, int x1, int y1) {
    return link_between(net, at(n, x0, y0), at(n, x1, y1));
  };
  std::vector<MeshScenario> s;
  s.push_back({"fault-free", {}});
  s.push_back({"one link", make({link(m - 1, m, m, m)})});
  s.push_back({"one node", make({}, {at(n, m, m)})});
  const int a = n / 4, b = 3 * n / 4;
  s.push_back({"4 nodes + 4 links",
               make({link(1, m, 2, m), link(m, 1, m, 2), link(n - 3, m + 1, n - 2, m + 1),
                     link(m - 1, n - 2, m - 1, n - 1)},
                    {at(n, a, a), at(n, b, a), at(n, a, b), at(n, b, b)})});
  std::vector<std::int64_t> block2, block3, crack;
  for (int y = m - 1; y <= m; ++y)
    for (int x = m - 1; x <= m; ++x) block2.push_back(at(n, x, y));
  for (int y = m - 1; y <= m + 1; ++y)
    for (int x = m - 1; x <= m + 1; ++x) block3.push_back(at(n, x, y));
  for (int x = m - 3; x <= m + 2; ++x) crack.push_back(at(n, x, m));
  s.push_back({"2x2 block", make({}, block2)});
  s.push_back({"3x3 block", make({}, block3)});
  s.push_back({"1x6 crack", make({}, crack)});
  return s;
}

// Everything FTHOE promises on one scenario, against the independent HOE BFS.
void check_fthoe(const topo::Network& net, int n /* columns */, const topo::Faults& f,
                 std::int64_t* unconnected_out = nullptr) {
  auto fn = build("fthoe", net, f);
  const HoeMesh m = hoe_mesh(net, n, f);
  const auto conn = hoe_connected(m, false);
  const auto minconn = hoe_connected(m, true);
  std::int64_t live = 0, unconnected = 0;
  for (std::size_t s = 0; s < conn.size(); ++s) {
    if (m.node_down[s]) continue;
    ++live;
    for (std::size_t d = 0; d < conn.size(); ++d)
      if (d != s && !m.node_down[d] && !conn[s][d]) ++unconnected;
  }
  if (unconnected_out) *unconnected_out = unconnected;

  Verification v = verify_routing(*fn, net, f);
  CHECK(v.deadlock_free);
  CHECK(v.cdg.walks_over_hop_limit == 0);
  CHECK(v.pairs == live * (live - 1));
  CHECK(v.unreachable_pairs == unconnected);
  CHECK(v.unreachable.size() ==
        std::min<std::size_t>(kMaxListedUnreachable, static_cast<std::size_t>(unconnected)));
  // The list: the first unconnected pairs in (src, dst) order.
  std::vector<Pair> first;
  for (std::size_t s = 0; s < conn.size() && first.size() < kMaxListedUnreachable; ++s)
    for (std::size_t d = 0; d < conn.size() && first.size() < kMaxListedUnreachable; ++d)
      if (d != s && !m.node_down[s] && !m.node_down[d] && !conn[s][d])
        first.push_back({static_cast<std::int64_t>(s), static_cast<std::int64_t>(d)});
  for (std::size_t i = 0; i < v.unreachable.size(); ++i) {
    const auto& u = v.unreachable[i];
    INFO("listed unreachable " << u.src << " -> " << u.dst << ": " << u.reason);
    CHECK_FALSE(conn[static_cast<std::size_t>(u.src)][static_cast<std::size_t>(u.dst)]);
    if (i < first.size()) CHECK(Pair{u.src, u.dst} == first[i]);
  }
  if (f.empty()) {
    CHECK(v.hops.stretch_max == 1);
    CHECK(v.hops.non_minimal_pairs == 0);
  }

  // Every pair's path: delivered iff connected, on live elements, HOE-legal turns, and
  // minimal whenever a minimal HOE-legal path exists.
  std::int64_t bad_turns = 0, bad_delivery = 0, not_minimal = 0, dead_hops = 0;
  for (std::int64_t s = 0; s < net.n_chip; ++s) {
    if (m.node_down[static_cast<std::size_t>(s)]) continue;
    for (std::int64_t d = 0; d < net.n_chip; ++d) {
      if (d == s || m.node_down[static_cast<std::size_t>(d)]) continue;
      Path p = trace(*fn, net, m.link_down, m.node_down, s, d, 4 * net.n_chip);
      const bool c = conn[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)];
      if (p.delivered != c) {
        ++bad_delivery;
        UNSCOPED_INFO("pair " << s << " -> " << d << " delivered " << p.delivered
                              << " HOE-connected " << c << " " << p.reason);
      }
      std::int64_t at_node = s, prev = -1;
      for (auto& h : p.hops) {
        const std::int64_t next = net.channel_dst(h.channel);
        CHECK(net.channel_src(h.channel) == at_node);
        if (m.link_down[static_cast<std::size_t>(topo::link_of_channel(h.channel))] ||
            m.node_down[static_cast<std::size_t>(next)])
          ++dead_hops;
        if (prev >= 0) {
          const int d0 = move_dir(n, prev, at_node), d1 = move_dir(n, at_node, next);
          if ((d0 ^ d1) == 1 || (m.raising(prev, at_node) && !m.raising(at_node, next))) {
            ++bad_turns;
            UNSCOPED_INFO("pair " << s << " -> " << d << ": illegal turn at chip " << at_node);
          }
        }
        prev = at_node;
        at_node = next;
      }
      const auto manhattan =
          static_cast<std::size_t>(std::abs(s % n - d % n) + std::abs(s / n - d / n));
      if (p.delivered && minconn[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] &&
          p.hops.size() != manhattan) {
        ++not_minimal;
        UNSCOPED_INFO("pair " << s << " -> " << d << ": " << p.hops.size() << " hops, a minimal "
                              << "HOE path has " << manhattan);
      }
    }
  }
  CHECK(bad_delivery == 0);
  CHECK(bad_turns == 0);
  CHECK(dead_hops == 0);
  CHECK(not_minimal == 0);
}

} // namespace

// --- 1. deadlock proofs ---------------------------------------------------------------------

TEST_CASE("WFR: deadlock-free and complete for every single link fault of 4x4x4",
          "[routing-families]") {
  auto n = torus({4, 4, 4});
  REQUIRE(n.links.size() == 192);
  for (const auto& l : n.links) {
    INFO("failed link " << l.id << " (" << l.a << " - " << l.b << ")");
    auto f = make({l.id});
    check_proof(*build("wfr", n, f), n, f, 64);
  }
}

TEST_CASE("WFR: deadlock-free and complete for every single link fault of 8x4x4",
          "[routing-families][slow]") {
  auto n = torus({8, 4, 4});
  REQUIRE(n.links.size() == 384);
  for (const auto& l : n.links) {
    INFO("failed link " << l.id << " (" << l.a << " - " << l.b << ") dim " << l.dim);
    auto f = make({l.id});
    check_proof(*build("wfr", n, f), n, f, 128);
  }
}

TEST_CASE("WFR: another dimension order and the plus tie, every single link fault of 4x4x4",
          "[routing-families]") {
  auto n = torus({4, 4, 4});
  const json params = {{"dimension_order", {2, 0, 1}}, {"tie", "plus"}};
  for (const auto& l : n.links) {
    INFO("failed link " << l.id << " (" << l.a << " - " << l.b << ")");
    auto f = make({l.id});
    check_proof(*build("wfr", n, f, params), n, f, 64);
  }
}

TEST_CASE("WFR: one failed link in each dimension at once", "[routing-families]") {
  for (std::vector<int> S : {std::vector<int>{4, 4, 4}, {8, 4, 4}}) {
    auto n = torus(S);
    // Far apart: an X link on line (y,z) = (0,0), a Y link at x = 2, z = 1 and a Z link at
    // x = 3, y = 2 (the last of them crossing the Z wrap-around).
    auto f = make({link_between(n, tid(S, {0, 0, 0}), tid(S, {1, 0, 0})),
                   link_between(n, tid(S, {2, 1, 1}), tid(S, {2, 2, 1})),
                   link_between(n, tid(S, {3, 2, 3}), tid(S, {3, 2, 0}))});
    INFO("torus " << S[0] << "x" << S[1] << "x" << S[2]);
    check_proof(*build("wfr", n, f), n, f, n.n_chip);
  }
}

TEST_CASE("odd-even: deadlock-free, complete and minimal on fault-free 8x8 and 16x16",
          "[routing-families]") {
  for (int k : {8, 16}) {
    auto n = mesh({k, k});
    auto fn = build("odd-even", n);
    Verification v = check_proof(*fn, n, {}, n.n_chip);
    CHECK(v.hops.stretch_max == 1);
    CHECK(v.hops.non_minimal_pairs == 0);
  }
}

TEST_CASE("odd-even: every permitted hop is productive and obeys Chiu's turn rules",
          "[routing-families]") {
  // All the adaptive choices, not only the first: per destination a search over the states
  // (chip, arrival channel, flags) a packet can reach from any source.
  for (std::vector<int> S : {std::vector<int>{8, 8}, {7, 5}}) {
    const int k = S[0]; // columns
    auto n = mesh(S);
    auto fn = build("odd-even", n);
    std::int64_t violations = 0, states = 0;
    for (std::int64_t d = 0; d < n.n_chip; ++d) {
      std::set<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> seen;
      std::vector<PacketState> stack;
      for (std::int64_t s = 0; s < n.n_chip; ++s)
        if (s != d) stack.push_back({s, -1, 0, s, d, 0});
      while (!stack.empty()) {
        PacketState p = stack.back();
        stack.pop_back();
        if (p.node == d || !seen.insert({p.node, p.in_channel, p.flags}).second) continue;
        ++states;
        auto choices = fn->route(p);
        if (choices.empty()) ++violations;
        const int x = static_cast<int>(p.node % k);
        const int last =
            p.in_channel < 0 ? dNone : move_dir(k, n.channel_src(p.in_channel), p.node);
        for (auto& c : choices) {
          REQUIRE(n.channel_src(c.channel) == p.node);
          const std::int64_t next = n.channel_dst(c.channel);
          const int dir = move_dir(k, p.node, next);
          const auto dist = [&](std::int64_t a) {
            return std::abs(a % k - d % k) + std::abs(a / k - d / k);
          };
          bool ok = dist(next) == dist(p.node) - 1;
          if (last == dE && x % 2 == 0 && (dir == dN || dir == dS))
            ok = false; // EN, ES in even column
          if ((last == dN || last == dS) && x % 2 == 1 && dir == dW)
            ok = false; // NW, SW in odd column
          if (!ok) {
            ++violations;
            UNSCOPED_INFO("at chip " << p.node << " toward " << d << ": move " << dir << " after "
                                     << last);
          }
          stack.push_back({next, c.channel, c.vc, p.src, d, c.flags});
        }
      }
    }
    INFO("mesh " << S[0] << "x" << S[1]);
    CHECK(states > 0);
    CHECK(violations == 0);
  }
}

TEST_CASE("FTHOE: deadlock-free and delivers exactly the HOE-connected pairs (8x8)",
          "[routing-families]") {
  auto n = mesh({8, 8});
  for (auto& sc : seed_scenarios(n, 8)) {
    INFO("8x8, " << sc.name);
    check_fthoe(n, 8, sc.faults);
  }
}

TEST_CASE("FTHOE: deadlock-free and delivers exactly the HOE-connected pairs (16x16)",
          "[routing-families][slow]") {
  auto n = mesh({16, 16});
  for (auto& sc : seed_scenarios(n, 16)) {
    INFO("16x16, " << sc.name);
    check_fthoe(n, 16, sc.faults);
  }
}

TEST_CASE("FTHOE: a wall with one gap leaves pairs no HOE-legal path connects",
          "[routing-families]") {
  // Row 4 (even) of an 8x8 mesh fails except its chip x = 0. A packet from below passes the gap
  // going N, a raising move; on row 5 (odd) E lowers the label and W cannot be taken from
  // x = 0, and every way back down is a lowering move: row 5 east of the gap is out of reach.
  // The mesh itself stays connected.
  auto n = mesh({8, 8});
  std::vector<std::int64_t> wall;
  for (int x = 1; x < 8; ++x) wall.push_back(at(8, x, 4));
  auto f = make({}, wall);
  CHECK_NOTHROW(require_connected(n, f));
  std::int64_t unconnected = 0;
  check_fthoe(n, 8, f, &unconnected);
  CHECK(unconnected > 0);
  const HoeMesh m = hoe_mesh(n, 8, f);
  const auto conn = hoe_connected(m, false);
  CHECK_FALSE(conn[static_cast<std::size_t>(at(8, 3, 1))][static_cast<std::size_t>(at(8, 5, 5))]);
  CHECK(conn[static_cast<std::size_t>(at(8, 3, 1))][static_cast<std::size_t>(at(8, 5, 6))]);
  Verification v = verify_routing(*build("fthoe", n, f), n, f);
  CHECK(v.unreachable_pairs > 0);
}

TEST_CASE("FTHOE: random faults and non-square meshes against the HOE BFS", "[routing-families]") {
  // Meshes with odd and even sides; per seed 1..6 random failed links and 1..4 random failed
  // chips (SplitMix64, so the scenarios are the same everywhere).
  for (std::vector<int> S : {std::vector<int>{8, 8}, {7, 5}, {6, 9}}) {
    auto n = mesh(S);
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      SplitMix64 rng(seed * 7919 + static_cast<std::uint64_t>(S[0]));
      std::vector<std::int64_t> links, chips;
      for (std::uint64_t i = 0; i < seed; ++i)
        links.push_back(static_cast<std::int64_t>(rng.below(n.links.size())));
      for (std::uint64_t i = 0; i < 1 + seed % 4; ++i)
        chips.push_back(static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n.n_chip))));
      INFO("mesh " << S[0] << "x" << S[1] << ", seed " << seed);
      check_fthoe(n, S[0], make(links, chips));
    }
    INFO("mesh " << S[0] << "x" << S[1] << ", fault-free");
    check_fthoe(n, S[0], {});
  }
}

TEST_CASE("odd-even: non-square meshes", "[routing-families]") {
  for (std::vector<int> S : {std::vector<int>{7, 5}, {6, 9}, {2, 8}}) {
    auto n = mesh(S);
    INFO("mesh " << S[0] << "x" << S[1]);
    Verification v = check_proof(*build("odd-even", n), n, {}, n.n_chip);
    CHECK(v.hops.non_minimal_pairs == 0);
  }
}

TEST_CASE("D-mod-k: deadlock-free, complete and minimal on 2- and 3-layer fat-trees",
          "[routing-families]") {
  struct Case {
    std::int64_t n_chip;
    const char* where;
    std::int64_t chip_radix;
  };
  for (const Case& c : {Case{32, "k=8,layers=2,osr=1,chips_per_board=1", 1},
                        Case{32, "k=8,layers=2,osr=1,chips_per_board=4", 1},
                        Case{32, "k=8,layers=2,osr=1,chips_per_board=2", 2},
                        Case{32, "k=6,layers=2,osr=2,chips_per_board=2", 1},
                        Case{16, "k=4,layers=3,osr=1,chips_per_board=1", 1},
                        Case{32, "k=4,layers=3,osr=1,chips_per_board=2", 1},
                        Case{64, "k=4,layers=3,osr=1,chips_per_board=4", 2},
                        Case{64, "k=8,layers=3,osr=1,chips_per_board=1", 2}}) {
    INFO(c.n_chip << " chips, " << c.where << ", chip_radix " << c.chip_radix);
    auto n = family_network("fat-tree", c.n_chip, c.where, topo::Scope::IntraRack, c.chip_radix);
    auto fn = build("dmodk", n);
    // The claim the flit engine trusts instead of tracing each pair, and the proof of it.
    CHECK(fn->delivers_every_pair_fault_free());
    Verification v = check_proof(*fn, n, {}, c.n_chip);
    CHECK(v.hops.non_minimal_pairs == 0); // up to the nearest common ancestor, then down
    CHECK(v.hops.stretch_max == 1);
  }
}

TEST_CASE("HyperX DOR: one hop per differing dimension, in order, from the coordinates",
          "[routing-families]") {
  struct Case {
    std::int64_t n_chip;
    const char* where;
    std::int64_t chip_radix;
    std::vector<int> order;
  };
  for (const Case& c : {Case{24, "L=2,T=2,chips_per_board=1", 1, {0, 1}},
                        Case{24, "L=2,T=2,chips_per_board=1", 1, {1, 0}},
                        Case{64, "L=2,T=4,chips_per_board=1", 1, {0, 1}},
                        Case{48, "L=3,T=2,chips_per_board=2", 2, {2, 0, 1}}}) {
    auto n = family_network("hyperx", c.n_chip, c.where, topo::Scope::InterRack, c.chip_radix);
    INFO(c.where << ", chip_radix " << c.chip_radix << ", order " << c.order[0] << c.order[1]);
    auto fn = build("dor", n, {}, {{"dimension_order", c.order}});
    CHECK(fn->vc_count() == 1);
    check_proof(*fn, n, {}, c.n_chip);
    // Expected from the document alone: each chip's switch (its links), the switches by their
    // coordinates.
    std::map<std::vector<int>, std::int64_t> at;
    for (const topo::Node& v : n.nodes)
      if (v.kind == topo::NodeKind::Switch) at[v.coord] = v.id;
    std::vector<std::int64_t> sw(static_cast<std::size_t>(n.n_chip), -1);
    for (const topo::Link& l : n.links)
      if (l.a < n.n_chip && l.b >= n.n_chip) sw[static_cast<std::size_t>(l.a)] = l.b;
    const auto down = my_down_links(n, {});
    for (std::int64_t a = 0; a < n.n_chip; ++a)
      for (std::int64_t b = 0; b < n.n_chip; ++b) {
        if (a == b) continue;
        std::vector<std::int64_t> want{sw[static_cast<std::size_t>(a)]};
        std::vector<int> cur = n.nodes[static_cast<std::size_t>(want[0])].coord;
        const std::vector<int>& to = n.nodes[static_cast<std::size_t>(sw[b])].coord;
        for (int d : c.order)
          if (cur[static_cast<std::size_t>(d)] != to[static_cast<std::size_t>(d)]) {
            cur[static_cast<std::size_t>(d)] = to[static_cast<std::size_t>(d)];
            want.push_back(at.at(cur));
          }
        want.push_back(b);
        Path p = trace(*fn, n, down, a, b, 16);
        REQUIRE(p.delivered);
        std::vector<std::int64_t> got;
        for (const Hop& h : p.hops) got.push_back(n.channel_dst(h.channel));
        INFO(a << " -> " << b);
        CHECK(got == want);
      }
  }
  CHECK(kind_of([&] { build("dor", dragonfly64()); }) == ErrorKind::Infeasible);
}

TEST_CASE("dragonfly MIN: one global link at most, a local hop on either side at most",
          "[routing-families]") {
  // Checked from the document alone: a router's group is its rack; a path is chip, its router,
  // at most one local hop, the global link (when the groups differ), at most one local hop,
  // the chip; class 0 before the global link and 1 from it on.
  const std::pair<std::int64_t, const char*> cases[] = {
      {72, "p=2,a=4,h=2,g=9,chips_per_board=1"},  // one global link per pair of groups
      {80, "p=2,a=4,h=2,g=5,chips_per_board=2"}}; // two per pair, two chips per board
  for (const auto& c : cases) {
    const char* where = c.second;
    INFO(where);
    auto n = family_network("dragonfly", c.first, where, topo::Scope::InterRack);
    auto fn = build("dragonfly-min", n);
    CHECK(fn->vc_count() == 2);
    CHECK(fn->delivers_every_pair_fault_free()); // proved by the walk of every pair below
    check_proof(*fn, n, {}, n.n_chip);
    auto group = [&](std::int64_t v) { return n.nodes[static_cast<std::size_t>(v)].rack; };
    const auto down = my_down_links(n, {});
    for (std::int64_t a = 0; a < n.n_chip; ++a)
      for (std::int64_t b = 0; b < n.n_chip; ++b) {
        if (a == b) continue;
        Path p = trace(*fn, n, down, a, b, 16);
        INFO(a << " -> " << b);
        REQUIRE(p.delivered);
        int global = 0, local_before = 0, local_after = 0;
        for (std::size_t k = 1; k + 1 < p.hops.size(); ++k) {
          const std::int64_t ch = p.hops[k].channel;
          const bool g = group(n.channel_src(ch)) != group(n.channel_dst(ch));
          global += g;
          (global == 0 ? local_before : local_after) += g ? 0 : 1;
          CHECK(p.hops[k].vc == (global > 0 ? 1 : 0));
        }
        const bool same_group = group(n.channel_dst(p.hops.front().channel)) ==
                                group(n.channel_src(p.hops.back().channel));
        CHECK(global == (same_group ? 0 : 1));
        CHECK(local_before <= 1);
        CHECK(local_after <= 1);
      }
  }
  CHECK(kind_of([&] { build("dragonfly-min", torus({4, 4})); }) == ErrorKind::Infeasible);
}

TEST_CASE("minimal --paths random: every minimal hop permitted, chosen at random by a simulator",
          "[routing-families]") {
  // On a fat-tree, with one VC class: up*/down* paths, so deadlock-free (BookSim's nca).
  auto n = family_network("fat-tree", 64, "k=8,layers=3,osr=1,chips_per_board=1");
  auto rnd = build("minimal", n, {}, {{"paths", "random"}, {"vc_scheme", "none"}});
  auto ecmp = build("minimal", n, {}, {{"paths", "ecmp"}, {"vc_scheme", "none"}});
  CHECK(rnd->random_choice());
  CHECK_FALSE(ecmp->random_choice());
  check_proof(*rnd, n, {}, 64);
  // The same permitted hops as ECMP everywhere.
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(n.nodes.size()); ++v)
    for (std::int64_t d = 0; d < n.n_chip; d += 7) {
      PacketState p{v, -1, 0, 0, d, 0};
      std::vector<Choice> a = rnd->route(p), b = ecmp->route(p);
      REQUIRE(a.size() == b.size());
      for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].channel == b[k].channel);
    }
}

TEST_CASE("minimal (hop VCs): deadlock-free and complete on one candidate of every family",
          "[routing-families]") {
  topo::Context ctx = test::context_for(64);
  ctx.scope = topo::Scope::InterRack;
  std::set<std::string> seen;
  for (const topo::Family* fam : test::enumerated_families()) {
    seen.insert(fam->name());
    auto l = topo::enumerate(ctx, {fam}, 1);
    INFO("family " << fam->name());
    REQUIRE(!l.items.empty());
    INFO("candidate " << l.items.front().id);
    auto n = topo::generate(ctx, l.items.front(), {});
    auto fn = build("minimal", n, {}, {{"vc_scheme", "hops"}});
    Verification v = check_proof(*fn, n, {}, 64);
    CHECK(v.hops.non_minimal_pairs == 0);
  }
  for (const char* f : {"fat-tree", "dragonfly", "dragonfly+", "torus", "hypercube", "hyperx",
                        "ring", "full-mesh", "single-switch", "mesh"})
    CHECK(seen.count(f) == 1);
}

TEST_CASE("minimal: random faults on a torus and a dragonfly", "[routing-families]") {
  // Expected from a BFS here: the pairs the live network connects (only switches forward in
  // the dragonfly), and per (node, destination) the live channels one hop closer.
  auto t = torus({4, 4, 4});
  const topo::Network& dfly = dragonfly64();
  for (const topo::Network* np : std::vector<const topo::Network*>{&t, &dfly}) {
    const topo::Network& n = *np;
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
      topo::FaultRequest req;
      req.random_links = 6;
      req.seed = seed;
      topo::Faults f = topo::make_faults(n, req);
      INFO(n.family << ", seed " << seed);
      REQUIRE(f.links.size() == 6);
      const auto down_links = my_down_links(n, f);
      const auto down_nodes = my_down_nodes(n, f);
      std::vector<std::vector<int>> dist;
      std::int64_t unconnected = 0;
      for (std::int64_t d = 0; d < n.n_chip; ++d) {
        dist.push_back(hops_to(n, down_links, down_nodes, d));
        for (std::int64_t s = 0; s < n.n_chip; ++s)
          if (s != d && dist.back()[static_cast<std::size_t>(s)] < 0) ++unconnected;
      }
      for (const char* paths : {"ecmp", "first"}) {
        INFO("paths " << paths);
        auto fn = build("minimal", n, f, {{"vc_scheme", "hops"}, {"paths", paths}});
        Verification v = verify_routing(*fn, n, f);
        CHECK(v.deadlock_free);
        CHECK(v.pairs == 64 * 63);
        CHECK(v.unreachable_pairs == unconnected);
        if (unconnected == 0)
          CHECK_NOTHROW(require_connected(n, f));
        else
          CHECK(kind_of([&] { require_connected(n, f); }) == ErrorKind::Infeasible);
        // Choices: ECMP all live channels one hop closer, in channel order; first: the first.
        std::int64_t wrong = 0;
        for (std::int64_t d = 0; d < n.n_chip; ++d)
          for (std::int64_t v0 = 0; v0 < static_cast<std::int64_t>(n.nodes.size()); ++v0) {
            if (v0 == d || down_nodes[static_cast<std::size_t>(v0)]) continue;
            const auto& dd = dist[static_cast<std::size_t>(d)];
            std::vector<std::int64_t> expect;
            for (std::int64_t ch = 0; ch < n.channel_count(); ++ch) {
              if (n.channel_src(ch) != v0) continue;
              const std::int64_t w = n.channel_dst(ch);
              if (down_links[static_cast<std::size_t>(topo::link_of_channel(ch))] ||
                  down_nodes[static_cast<std::size_t>(w)] || dd[static_cast<std::size_t>(v0)] < 0 ||
                  dd[static_cast<std::size_t>(w)] != dd[static_cast<std::size_t>(v0)] - 1)
                continue;
              if (w != d && !transit(n, w)) continue;
              expect.push_back(ch);
            }
            std::sort(expect.begin(), expect.end());
            if (std::string(paths) == "first" && expect.size() > 1) expect.resize(1);
            std::vector<std::int64_t> got;
            for (auto& c : fn->route({v0, -1, 0, v0, d, 0})) got.push_back(c.channel);
            if (got != expect) {
              ++wrong;
              UNSCOPED_INFO("node " << v0 << " -> chip " << d << ": " << got.size()
                                    << " choices, expected " << expect.size());
            }
          }
        CHECK(wrong == 0);
        // Hop k of every delivered path is on VC k-1 (the classes count hops).
        std::int64_t bad_vc = 0;
        for (std::int64_t s = 0; s < n.n_chip; ++s)
          for (std::int64_t d = 0; d < n.n_chip; ++d) {
            if (s == d) continue;
            Path p = trace(*fn, n, down_links, down_nodes, s, d, 64);
            CHECK(p.delivered ==
                  (dist[static_cast<std::size_t>(d)][static_cast<std::size_t>(s)] >= 0));
            if (p.delivered)
              CHECK(static_cast<int>(p.hops.size()) ==
                    dist[static_cast<std::size_t>(d)][static_cast<std::size_t>(s)]);
            for (std::size_t i = 0; i < p.hops.size(); ++i)
              if (p.hops[i].vc != static_cast<int>(i) || p.hops[i].vc >= fn->vc_count()) ++bad_vc;
          }
        CHECK(bad_vc == 0);
      }
    }
  }
}

TEST_CASE("the checker finds the cycle: minimal with one VC, DOR without dateline",
          "[routing-families]") {
  SECTION("minimal, vc_scheme none, 4x4x4 torus") {
    auto n = torus({4, 4, 4});
    check_finds_cycle(*build("minimal", n, {}, {{"vc_scheme", "none"}}), n);
  }
  SECTION("minimal, vc_scheme none, dragonfly p=2 a=4 h=2 g=9") {
    const topo::Network& n = dragonfly64();
    REQUIRE(n.n_chip == 64);
    check_finds_cycle(*build("minimal", n, {}, {{"vc_scheme", "none"}}), n);
  }
  SECTION("DOR without dateline, 8x4x4 torus") {
    auto n = torus({8, 4, 4});
    check_finds_cycle(*build("dor", n, {}, {{"dateline", false}}), n);
  }
}
