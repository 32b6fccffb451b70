// lib/route beyond DOR: WFR on faulty tori, odd-even and FTHOE on 2-D meshes, D-mod-k on
// fat-trees, minimal routing on every family; the deadlock checker proving them acyclic or
// finding the cycle; load, stretch, emitted tables and bad input. Expected values come from
// independent computations (a BFS over HOE states, channel counts of shift permutations,
// hand-derived loads), never from the code under test.
#include "route/cdg.hpp"
#include "route/emit.hpp"
#include "route/load.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"

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

namespace {

using Pair = std::pair<std::int64_t, std::int64_t>;

// The first candidate of a family that `where` matches, generated.
topo::Network family_network(const std::string& family, std::int64_t n_chip,
                             const std::string& where, topo::Scope scope = topo::Scope::IntraRack,
                             std::int64_t chip_radix = 1) {
  topo::Context ctx = test::context_for(n_chip);
  ctx.scope = scope;
  ctx.chip_radix = chip_radix;
  topo::Where w;
  if (!where.empty()) w = topo::parse_where(where, "t");
  auto l = topo::enumerate(ctx, {&topo::require_family(family, "t")}, 1, std::nullopt,
                           where.empty() ? nullptr : &w);
  INFO(family << " " << n_chip << " " << where);
  REQUIRE(!l.items.empty());
  return topo::generate(ctx, l.items.front(), {});
}

// The 64-chip dragonfly p=2, a=4, h=2, g=9 (boards of one chip), built once.
const topo::Network& dragonfly64() {
  static const topo::Network n =
      family_network("dragonfly", 64, "p=2,a=4,h=2,g=9,chips_per_board=1", topo::Scope::InterRack);
  return n;
}

// The link joining chips a and b (found by scanning the links, not by the geometry classes).
std::int64_t link_between(const topo::Network& n, std::int64_t a, std::int64_t b) {
  std::int64_t found = -1;
  for (auto& l : n.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) {
      REQUIRE(found < 0); // a simple graph here
      found = l.id;
    }
  REQUIRE(found >= 0);
  return found;
}

topo::Faults make(std::vector<std::int64_t> links, std::vector<std::int64_t> chips = {}) {
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  std::sort(chips.begin(), chips.end());
  chips.erase(std::unique(chips.begin(), chips.end()), chips.end());
  topo::Faults f;
  for (auto l : links) f.links.push_back({l, "explicit"});
  for (auto c : chips) f.chips.push_back({c, "explicit"});
  return f;
}

// Per link / per node "down" flags computed here from the fault lists.
std::vector<char> my_down_links(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down(n.links.size(), 0);
  std::set<std::int64_t> chips;
  for (auto& c : f.chips) chips.insert(c.chip);
  for (auto& l : f.links) down[static_cast<std::size_t>(l.link)] = 1;
  for (auto& l : n.links)
    if (chips.count(l.a) || chips.count(l.b)) down[static_cast<std::size_t>(l.id)] = 1;
  return down;
}
std::vector<char> my_down_nodes(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down(n.nodes.size(), 0);
  for (auto& c : f.chips) down[static_cast<std::size_t>(c.chip)] = 1;
  return down;
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

// Every pair delivered, no dependency cycle.
Verification check_proof(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                         std::int64_t live_chips) {
  Verification v = verify_routing(fn, n, f);
  CHECK(v.deadlock_free);
  CHECK(!v.cdg.cycle);
  CHECK(v.cdg.walks_over_hop_limit == 0);
  CHECK(v.pairs == live_chips * (live_chips - 1));
  CHECK(v.unreachable_pairs == 0);
  CHECK(v.unreachable.empty());
  return v;
}

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

// Chips of a torus by coordinates (id = x0 + S0*(x1 + S1*x2), as the document format fixes).
std::int64_t tid(const std::vector<int>& S, std::vector<int> c) {
  std::int64_t id = 0, stride = 1;
  for (std::size_t d = 0; d < S.size(); ++d) {
    id += ((c[d] % S[d] + S[d]) % S[d]) * stride;
    stride *= S[d];
  }
  return id;
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
