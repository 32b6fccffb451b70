// lib/topo: every family's generated network and metrics against independent computation.
// For each family, chip count, intra_board_topo and chip_radix, the candidates enumerate
// returns (cap 40) are generated and their metrics compared with the exact reference tools of
// topo/metrics.hpp (BFS diameter, max-flow path diversity) and with a brute-force bisection
// (every balanced chip partition, switches placed optimally by max-flow); a few networks are
// checked against figures derived by hand; generation is deterministic.
#include "topo/enumerate.hpp"
#include "topo/metrics.hpp"
#include "topo/network.hpp"

#include "doc/topo_json.hpp"
#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::topo;

namespace {

const std::vector<IntraBoardTopo> kIntras = {IntraBoardTopo::None, IntraBoardTopo::Ring,
                                             IntraBoardTopo::FullMesh, IntraBoardTopo::Torus};

constexpr std::size_t kCap = 40;
// The exact path diversity (N-1 max-flows) runs on networks of at most this many nodes.
constexpr std::size_t kExactNodes = 256;
// The BFS diameter check (N breadth-first searches) runs on networks of at most this many.
constexpr std::size_t kDiameterNodes = 1024;

// A context for family f: n chips, the family's own (first) scope, the board topology and the
// chip radix given.
Context context_of(const Family& f, std::int64_t n, IntraBoardTopo t, std::int64_t radix) {
  Context c = test::context_for(n);
  c.scope = f.scopes().front();
  c.intra_board_topo = t;
  c.chip_radix = radix;
  return c;
}

std::string describe(const Family& f, const Context& c) {
  std::ostringstream s;
  s << f.name() << " n_chip " << c.n_chip << " scope " << to_string(c.scope) << " intra "
    << to_string(c.intra_board_topo) << " chip_radix " << c.chip_radix;
  return s.str();
}

std::int64_t count_switches(const Network& n) {
  return std::count_if(n.nodes.begin(), n.nodes.end(),
                       [](const Node& v) { return v.kind == NodeKind::Switch; });
}

// Link ends at every node, parallel links counted.
std::vector<std::int64_t> degrees(const Network& n) {
  std::vector<std::int64_t> d(n.nodes.size(), 0);
  for (const Link& l : n.links) {
    d[static_cast<std::size_t>(l.a)]++;
    d[static_cast<std::size_t>(l.b)]++;
  }
  return d;
}

// Generates c; a failed check (not an abort) when generation throws.
bool try_generate(const Context& ctx, const Candidate& c, Network& out) {
  try {
    out = topo::generate(ctx, c, {});
    return true;
  } catch (const std::exception& e) {
    FAIL_CHECK("generate threw: " << e.what());
  }
  return false;
}

// Twin classes of the chips: u and v are twins when every other node has as many links to u
// as to v (parallel links counted; u-v links themselves aside). Twins form classes in which
// any permutation is an automorphism of the network, so a cut depends only on how many chips
// of each class lie on each side. cls[c] = the class of chip c, classes numbered from 0.
std::vector<std::size_t> twin_classes(const Network& n, std::size_t& count) {
  const auto N = static_cast<std::size_t>(n.n_chip), V = n.nodes.size();
  std::vector<std::vector<std::int64_t>> mult(N, std::vector<std::int64_t>(V, 0));
  for (const Link& l : n.links) {
    auto a = static_cast<std::size_t>(l.a), b = static_cast<std::size_t>(l.b);
    if (a < N) mult[a][b]++;
    if (b < N) mult[b][a]++;
  }
  std::vector<std::size_t> cls(N, SIZE_MAX);
  count = 0;
  for (std::size_t a = 0; a < N; ++a) {
    if (cls[a] != SIZE_MAX) continue;
    cls[a] = count;
    for (std::size_t b = a + 1; b < N; ++b) {
      if (cls[b] != SIZE_MAX) continue;
      bool twins = true;
      for (std::size_t w = 0; w < V && twins; ++w)
        if (w != a && w != b && mult[a][w] != mult[b][w]) twins = false;
      if (twins) cls[b] = count;
    }
    ++count;
  }
  return cls;
}

// The cheapest placement of the switches for a chip partition: a maximum flow from the chips
// of side 0 to those of side 1 (every other node free), by shortest augmenting paths over the
// links (parallel links as one arc of their multiplicity each way). Stops once the flow
// reaches `bound` (the cut then costs at least that). An independent re-implementation of
// what cut_with_switches computes, fast enough for tens of thousands of partitions; the
// brute force below checks the two agree.
class ChipPartitionFlow {
public:
  explicit ChipPartitionFlow(const Network& n)
      : N_(static_cast<std::size_t>(n.n_chip)), V_(n.nodes.size()) {
    std::map<std::pair<std::size_t, std::size_t>, std::int64_t> mult;
    for (const Link& l : n.links) {
      auto a = static_cast<std::size_t>(std::min(l.a, l.b));
      auto b = static_cast<std::size_t>(std::max(l.a, l.b));
      if (a != b) mult[{a, b}]++;
    }
    std::vector<std::size_t> deg(V_, 0);
    for (auto& [ab, m] : mult) deg[ab.first]++, deg[ab.second]++;
    first_.assign(V_ + 1, 0);
    for (std::size_t v = 0; v < V_; ++v) first_[v + 1] = first_[v] + deg[v];
    to_.resize(first_[V_]);
    rev_.resize(first_[V_]);
    cap_.resize(first_[V_]);
    std::vector<std::size_t> fill(first_.begin(), first_.end() - 1);
    for (auto& [ab, m] : mult) {
      std::size_t x = fill[ab.first]++, y = fill[ab.second]++;
      to_[x] = ab.second, rev_[x] = y, cap_[x] = m;
      to_[y] = ab.first, rev_[y] = x, cap_[y] = m;
    }
    seen_.assign(V_, 0);
    parent_.assign(V_, 0);
    queue_.resize(V_);
  }

  std::int64_t flow(const std::vector<char>& side, std::int64_t bound) {
    res_ = cap_;
    std::int64_t total = 0;
    while (total < bound) {
      ++stamp_;
      std::size_t head = 0, tail = 0, found = SIZE_MAX;
      for (std::size_t c = 0; c < N_; ++c)
        if (side[c] == 0) seen_[c] = stamp_, queue_[tail++] = c;
      while (head < tail && found == SIZE_MAX) {
        const std::size_t u = queue_[head++];
        for (std::size_t a = first_[u]; a < first_[u + 1]; ++a) {
          const std::size_t v = to_[a];
          if (res_[a] <= 0 || seen_[v] == stamp_) continue;
          seen_[v] = stamp_;
          parent_[v] = a;
          if (v < N_ && side[v] == 1) {
            found = v;
            break;
          }
          queue_[tail++] = v;
        }
      }
      if (found == SIZE_MAX) break;
      std::int64_t push = INT64_MAX;
      for (std::size_t v = found; !(v < N_ && side[v] == 0); v = to_[rev_[parent_[v]]])
        push = std::min(push, res_[parent_[v]]);
      for (std::size_t v = found; !(v < N_ && side[v] == 0); v = to_[rev_[parent_[v]]]) {
        res_[parent_[v]] -= push;
        res_[rev_[parent_[v]]] += push;
      }
      total += push;
    }
    return total;
  }

private:
  std::size_t N_, V_;
  std::vector<std::size_t> first_, to_, rev_, parent_, queue_;
  std::vector<std::int64_t> cap_, res_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
};

// The minimum bisection by brute force: every partition of the chips into floor(N/2) on side
// 0 and the rest on side 1, each with its switches placed optimally; the fewest links
// crossing. Exhaustive up to automorphism: partitions that differ by a permutation of twin
// chips cost the same, so per twin class only the number on side 0 matters; for even N only
// partitions with a chip of chip 0's class on side 0 (the others are complements of those).
// Networks without switches need no placement (cut_of). With switches, every partition's
// flow is bounded by the best so far; cut_with_switches (metrics.hpp) must agree with the
// flow on the minimising partition and on a sample of the others.
std::int64_t brute_bisection(const Network& n) {
  const auto N = static_cast<std::size_t>(n.n_chip);
  const bool chips_only = n.nodes.size() == N;
  std::size_t nclass = 0;
  const std::vector<std::size_t> cls = twin_classes(n, nclass);
  std::vector<std::vector<std::size_t>> members(nclass);
  for (std::size_t c = 0; c < N; ++c) members[cls[c]].push_back(c);
  std::vector<std::size_t> room(nclass + 1, 0); // chips in classes i.. (for pruning)
  for (std::size_t i = nclass; i-- > 0;) room[i] = room[i + 1] + members[i].size();

  ChipPartitionFlow flow(n);
  std::vector<char> side(N, 1), best_side;
  std::int64_t best = INT64_MAX, partitions = 0, sampled = 0;
  // Class i takes k of its chips to side 0, `left` still to place.
  std::function<void(std::size_t, std::size_t)> place = [&](std::size_t i, std::size_t left) {
    if (i == nclass) {
      ++partitions;
      std::int64_t cut = 0;
      if (chips_only) {
        cut = cut_of(n, side).links;
      } else if (partitions % 211 == 1) { // a sample: the flow unbounded against the oracle
        cut = flow.flow(side, INT64_MAX);
        CHECK(cut == cut_with_switches(n, side).links);
        ++sampled;
      } else {
        cut = flow.flow(side, best);
      }
      if (cut < best) best = cut, best_side = side;
      return;
    }
    const std::size_t size = members[i].size();
    const std::size_t lo = (N % 2 == 0 && i == cls[0]) ? 1 : 0;
    for (std::size_t k = lo; k <= std::min(size, left); ++k) {
      if (left - k > room[i + 1]) continue;
      for (std::size_t j = 0; j < size; ++j) side[members[i][j]] = j < k ? 0 : 1;
      place(i + 1, left - k);
    }
    for (std::size_t j = 0; j < size; ++j) side[members[i][j]] = 1;
  };
  place(0, N / 2);
  REQUIRE(best < INT64_MAX);
  if (!chips_only) {
    CHECK(sampled >= 1);
    CHECK(cut_with_switches(n, best_side).links == best);
  }
  return best;
}

// The one candidate of `family` for ctx that `pick` accepts (of every candidate, uncapped).
Candidate find_candidate(const std::string& family, const Context& ctx,
                         const std::function<bool(const Candidate&)>& pick) {
  auto l = test::enum_family(family, ctx);
  std::vector<Candidate> found;
  for (auto& c : l.items)
    if (pick(c)) found.push_back(c);
  INFO(family << ": " << l.items.size() << " candidates");
  REQUIRE(found.size() == 1);
  return found[0];
}

// Whether family_attrs[key] is the integer v.
bool attr_is(const Candidate& c, const char* key, std::int64_t v) {
  return c.family_attrs.contains(key) && c.family_attrs[key].is_number_integer() &&
         c.family_attrs[key].get<std::int64_t>() == v;
}

} // namespace

TEST_CASE("every family: metrics equal exact computation on the built graph",
          "[family-metrics][slow]") {
  // Per family: networks generated, diameters and path diversities checked exactly.
  std::map<std::string, std::int64_t> generated, diameters, diversities;
  for (const Family* f : test::enumerated_families()) {
    // 256 chips only where the networks stay small (their exact checks: diameter only).
    std::vector<std::int64_t> sizes = {16, 32, 64, 128};
    if (f->name() == "fat-tree" || f->name() == "dragonfly+") sizes.push_back(256);
    generated[f->name()] = diameters[f->name()] = diversities[f->name()] = 0;
    for (std::int64_t n_chip : sizes)
      for (IntraBoardTopo t : kIntras)
        for (std::int64_t radix : {1, 2}) {
          const Context ctx = context_of(*f, n_chip, t, radix);
          INFO(describe(*f, ctx));
          if (f->leaf() == Leaf::Chip && t != IntraBoardTopo::None) {
            // Chip-leaf families have no boards to wire: asked alone, an infeasible request.
            CHECK(kind_of([&] { topo::enumerate(ctx, {f}, kCap); }) == ErrorKind::Infeasible);
            continue;
          }
          const CandidateList l = topo::enumerate(ctx, {f}, kCap);
          CHECK(l.items.size() <= kCap);
          CHECK(l.items.size() == std::min<std::size_t>(kCap, static_cast<std::size_t>(l.total)));
          for (std::size_t index = 0; index < l.items.size(); ++index) {
            const Candidate& c = l.items[index];
            INFO("candidate " << c.id);
            Network net;
            if (!try_generate(ctx, c, net)) continue;
            ++generated[f->name()];
            const Metrics& m = net.metrics;
            const auto N = static_cast<std::size_t>(n_chip);
            CHECK(net.n_chip == n_chip);
            CHECK(c.family == f->name());
            CHECK(m.link_count == static_cast<std::int64_t>(net.links.size()));
            CHECK(m.switch_count == count_switches(net));
            CHECK(m.derived_chips_per_board == c.derived_chips_per_board);
            // Chips 0..N-1, then the switches; every board holds C chips.
            REQUIRE(net.nodes.size() >= N);
            for (std::size_t v = 0; v < net.nodes.size(); ++v) {
              CHECK(net.nodes[v].id == static_cast<std::int64_t>(v));
              CHECK((net.nodes[v].kind == NodeKind::Chip) == (v < N));
            }
            CHECK(static_cast<std::int64_t>(net.boards.size()) * c.derived_chips_per_board ==
                  n_chip);
            for (const Board& b : net.boards)
              CHECK(static_cast<std::int64_t>(b.chips.size()) == c.derived_chips_per_board);
            // Switches: tier 8..10, a role, room for every link end.
            const auto deg = degrees(net);
            for (std::size_t v = N; v < net.nodes.size(); ++v) {
              const Node& s = net.nodes[v];
              INFO("switch " << v << " role '" << s.role << "' ports " << s.ports << " degree "
                             << deg[v]);
              CHECK(s.tier >= 8);
              CHECK(s.tier <= 10);
              CHECK_FALSE(s.role.empty());
              CHECK(s.ports >= deg[v]);
            }
            // Exact checks: the BFS diameter up to kDiameterNodes nodes; the N-1 max-flows of
            // the path diversity up to kExactNodes nodes, on every candidate up to 64 chips and
            // a deterministic stride of them above (the max-flows dominate the run time).
            if (net.nodes.size() > kDiameterNodes) continue;
            ++diameters[f->name()];
            CHECK(m.diameter == exact_chip_diameter(net));
            const std::size_t stride = n_chip <= 64 ? 1 : 8;
            if (net.nodes.size() > kExactNodes || index % stride != 0) continue;
            ++diversities[f->name()];
            CHECK(m.path_diversity == exact_path_diversity(net));
          }
        }
  }
  // Not vacuous: every family generated and exactly checked networks.
  std::ostringstream s;
  std::int64_t all[3] = {0, 0, 0};
  for (auto& [name, count] : generated) {
    s << name << " " << count << "/" << diameters[name] << "/" << diversities[name] << "; ";
    all[0] += count;
    all[1] += diameters[name];
    all[2] += diversities[name];
    INFO(name);
    CHECK(count >= 8);
    CHECK(diameters[name] >= 8);
    CHECK(diversities[name] >= 4);
  }
  WARN("family-metrics: " << all[0] << " networks generated, " << all[1] << " diameters and "
                          << all[2]
                          << " path diversities checked exactly (per family generated/"
                             "diameter/path diversity: "
                          << s.str() << ")");
  CHECK(generated.size() == test::enumerated_families().size());
  CHECK(all[0] >= 4000);
  CHECK(all[1] >= 3000);
  CHECK(all[2] >= 1500);
}

TEST_CASE("every family: the bisection is never below the brute-force minimum, and a closed "
          "form equals it",
          "[family-metrics][slow]") {
  std::int64_t checked = 0, closed = 0, heuristic = 0, heuristic_exact = 0;
  double worst = 1.0;
  std::string worst_id;
  // Per family: networks, and heuristic figures / those equal to the minimum.
  std::map<std::string, std::int64_t> per_family, heur, heur_exact;
  for (const Family* f : test::enumerated_families()) {
    per_family[f->name()] = heur[f->name()] = heur_exact[f->name()] = 0;
    for (std::int64_t n_chip : {8, 12, 16})
      for (IntraBoardTopo t : kIntras)
        for (std::int64_t radix : {1, 2}) {
          if (f->leaf() == Leaf::Chip && t != IntraBoardTopo::None) continue; // Infeasible
          const Context ctx = context_of(*f, n_chip, t, radix);
          INFO(describe(*f, ctx));
          for (const Candidate& c : topo::enumerate(ctx, {f}, kCap).items) {
            INFO("candidate " << c.id);
            Network net;
            if (!try_generate(ctx, c, net)) continue;
            const Metrics& m = net.metrics;
            const std::int64_t B = brute_bisection(net);
            INFO("reported " << m.bisection_links << " (" << m.bisection_bandwidth_method
                             << "), brute-force minimum " << B);
            ++checked;
            ++per_family[f->name()];
            CHECK(B > 0);
            // The reported figure is a balanced cut, so never below the minimum.
            CHECK(m.bisection_links >= B);
            // Every link has the default 50 GB/s: the bandwidth is the links times that.
            CHECK(m.bisection_bandwidth_bytes_per_s ==
                  Approx(static_cast<double>(m.bisection_links) * 50e9));
            if (m.bisection_bandwidth_method == "closed-form") {
              ++closed;
              CHECK(m.bisection_links == B);
            } else {
              CHECK(m.bisection_bandwidth_method == "heuristic");
              ++heuristic;
              ++heur[f->name()];
              if (m.bisection_links == B) ++heuristic_exact, ++heur_exact[f->name()];
              const double ratio = static_cast<double>(m.bisection_links) /
                                   static_cast<double>(std::max<std::int64_t>(B, 1));
              if (ratio > worst) {
                worst = ratio;
                worst_id = describe(*f, ctx) + " " + c.id + ": " +
                           std::to_string(m.bisection_links) + " vs " + std::to_string(B);
              }
            }
          }
        }
  }
  std::ostringstream s;
  for (auto& [name, count] : per_family)
    s << name << " " << count << " (heuristic " << heur_exact[name] << "/" << heur[name]
      << " minimal); ";
  WARN("bisection: " << checked << " networks (" << s.str() << ") " << closed << " closed-form, "
                     << heuristic << " heuristic of which " << heuristic_exact
                     << " equal the minimum; worst heuristic ratio " << worst << " ("
                     << (worst_id.empty() ? "none" : worst_id) << ")");
  for (auto& [name, count] : per_family) {
    INFO(name);
    CHECK(count >= 4);
  }
  CHECK(closed >= 50);
}

TEST_CASE("hand-derived metrics: hypercube, ring, full-mesh, single-switch", "[family-metrics]") {
  SECTION("hypercube n = 4 (16 chips)") {
    auto ctx = test::context_for(16);
    Candidate c =
        find_candidate("hypercube", ctx, [](const Candidate& x) { return attr_is(x, "n", 4); });
    Network n = topo::generate(ctx, c, {});
    // Addresses of 4 bits: the farthest pair differs in all 4 -> diameter 4.
    CHECK(n.metrics.diameter == 4);
    // One link per chip per dimension, each shared by two chips: 16 * 4 / 2 = 32.
    CHECK(n.metrics.link_count == 32);
    CHECK(n.links.size() == 32);
    CHECK(n.metrics.switch_count == 0);
    // Cut along one dimension: two 3-cubes joined by 16 / 2 = 8 links (the known minimum).
    CHECK(n.metrics.bisection_links == 8);
    CHECK(n.metrics.bisection_bandwidth_method == "closed-form");
    // The 4-cube is 4-regular and 4-edge-connected.
    CHECK(n.metrics.path_diversity == 4);
  }
  SECTION("ring of 16 boards of 1 chip") {
    auto ctx = test::context_for(16);
    Candidate c = find_candidate("ring", ctx, [](const Candidate& x) {
      return x.n_endpoint == 16 && x.derived_chips_per_board == 1;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.diameter == 8);    // a 16-cycle: the antipode is 16 / 2 = 8 hops away
    CHECK(n.metrics.link_count == 16); // one link per board to the next
    CHECK(n.metrics.switch_count == 0);
    CHECK(n.metrics.bisection_links == 2); // a cycle cut into two arcs crosses twice
    CHECK(n.metrics.bisection_bandwidth_method == "closed-form");
    CHECK(n.metrics.path_diversity == 2); // the two ways round
  }
  SECTION("ring of 4 boards of 4 chips, intra ring: a 4x4 torus") {
    auto ctx = test::context_for(16);
    ctx.intra_board_topo = IntraBoardTopo::Ring;
    Candidate c = find_candidate("ring", ctx, [](const Candidate& x) {
      return x.n_endpoint == 4 && x.derived_chips_per_board == 4;
    });
    Network n = topo::generate(ctx, c, {});
    // Rails (4-cycles over the boards) x boards (4-cycles over the chips) = C4 x C4, the 4x4
    // torus: diameter 2 + 2 = 4, 4 rails * 4 + 4 boards * 4 = 32 links, 4-regular and
    // 4-edge-connected, bisection 2 * 4 = 8 (cut the ring of boards twice, 4 rails each).
    CHECK(n.metrics.diameter == 4);
    CHECK(n.metrics.link_count == 32);
    CHECK(n.metrics.path_diversity == 4);
    CHECK(n.metrics.bisection_links == 8);
  }
  SECTION("full-mesh of 8 boards of 1 chip") {
    auto ctx = test::context_for(8);
    Candidate c = find_candidate("full-mesh", ctx, [](const Candidate& x) {
      return x.n_endpoint == 8 && x.derived_chips_per_board == 1;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.diameter == 1);    // K8: every pair adjacent
    CHECK(n.metrics.link_count == 28); // 8 * 7 / 2
    CHECK(n.metrics.switch_count == 0);
    CHECK(n.metrics.bisection_links == 16); // 4 * 4 pairs across the halves
    CHECK(n.metrics.bisection_bandwidth_method == "closed-form");
    CHECK(n.metrics.path_diversity == 7); // K8 is 7-edge-connected
  }
  SECTION("single-switch of 16 boards of 1 chip") {
    auto ctx = test::context_for(16);
    Candidate c = find_candidate("single-switch", ctx, [](const Candidate& x) {
      return x.n_endpoint == 16 && x.derived_chips_per_board == 1;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.diameter == 2);    // chip - switch - chip
    CHECK(n.metrics.link_count == 16); // one per chip
    CHECK(n.metrics.switch_count == 1);
    CHECK(n.metrics.bisection_links == 8); // the 8 chips away from the switch lose their link
    CHECK(n.metrics.bisection_bandwidth_method == "closed-form");
    CHECK(n.metrics.path_diversity == 1); // a chip's single link
  }
  SECTION("single-switch of 4 boards of 4 chips, intra full-mesh") {
    auto ctx = test::context_for(16);
    ctx.intra_board_topo = IntraBoardTopo::FullMesh;
    Candidate c = find_candidate("single-switch", ctx, [](const Candidate& x) {
      return x.n_endpoint == 4 && x.derived_chips_per_board == 4;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.diameter == 2);    // other boards through the switch, board-mates 1
    CHECK(n.metrics.link_count == 40); // 16 chip-switch + 4 boards * K4's 6
    CHECK(n.metrics.switch_count == 1);
    // Two whole boards on the switch's far side: their 8 switch links; splitting a board
    // costs at least 4 of its K4 links besides.
    CHECK(n.metrics.bisection_links == 8);
    // A chip's degree is 1 + 3 = 4, and 4 disjoint paths exist: direct (or via the switch),
    // and through each of the 3 board-mates (their own switch links or on-board link).
    CHECK(n.metrics.path_diversity == 4);
  }
}

TEST_CASE("hand-derived metrics: fat-tree, hyperx, dragonfly, dragonfly+", "[family-metrics]") {
  SECTION("fat-tree 2 layers k = 4 osr = 1, 8 boards of 2 chips") {
    auto ctx = test::context_for(16);
    Candidate c = find_candidate("fat-tree", ctx, [](const Candidate& x) {
      return attr_is(x, "k", 4) && attr_is(x, "layers", 2) && attr_is(x, "osr", 1) &&
             x.n_endpoint == 8;
    });
    CHECK(c.derived_chips_per_board == 2); // 16 chips / 8 boards
    Network n = topo::generate(ctx, c, {});
    // d (osr + 1) = k osr: d = 2, u = 2. N_leaf = 8 / 2 = 4 leaves, u = 2 spines: 6 switches.
    CHECK(n.metrics.switch_count == 6);
    CHECK(std::count_if(n.nodes.begin(), n.nodes.end(),
                        [](const Node& v) { return v.role == "leaf"; }) == 4);
    CHECK(std::count_if(n.nodes.begin(), n.nodes.end(),
                        [](const Node& v) { return v.role == "spine"; }) == 2);
    // 16 chip-leaf links + 4 leaves * 2 spines trunks of C * chip_radix = 2 lanes = 16: 32.
    CHECK(n.metrics.link_count == 32);
    // chip - leaf - spine - leaf - chip.
    CHECK(n.metrics.diameter == 4);
    // Halves of the leaves: 2 leaves * 2 spines * 2 lanes = 8 = N / 2 (non-blocking: no less).
    CHECK(n.metrics.bisection_links == 8);
    CHECK(n.metrics.path_diversity == 1); // a chip's single link to its leaf
  }
  SECTION("hyperx S = [4, 4], T = 1 on 16 chips") {
    auto ctx = test::context_for(16);
    ctx.scope = Scope::InterRack;
    Candidate c = find_candidate("hyperx", ctx, [](const Candidate& x) {
      return x.family_attrs.value("S", json::array()) == json::array({4, 4}) && attr_is(x, "T", 1);
    });
    CHECK(c.n_endpoint == 16); // T * 4 * 4 boards
    CHECK(c.derived_chips_per_board == 1);
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.switch_count == 16); // 4 * 4
    // 16 chip links + per dimension 4 lines of K4 (6 links each) = 24, twice: 16 + 48 = 64.
    CHECK(n.metrics.link_count == 64);
    // chip - switch - (one hop per dimension that differs, at most 2) - switch - chip.
    CHECK(n.metrics.diameter == 4);
    CHECK(n.metrics.path_diversity == 1);
    // Every switch on one side, 8 chips on the other: 8 links. No balanced cut is cheaper:
    // with s switches on chip 0's side, |s - 8| chips sit apart from their switch, and for
    // 1 <= s <= 15 at least 6 switch links are cut (K4 x K4 is 6-edge-connected), at least
    // 14 for 7 <= s <= 9 (6s - 2 * the at most 14 edges 7 vertices span).
    CHECK(n.metrics.bisection_links == 8);
  }
  SECTION("dragonfly p = 2, a = 4, h = 1, g = 2 on 16 boards of 1 chip") {
    auto ctx = test::context_for(16);
    ctx.scope = Scope::InterRack;
    Candidate c = find_candidate("dragonfly", ctx, [](const Candidate& x) {
      return attr_is(x, "p", 2) && attr_is(x, "a", 4) && attr_is(x, "h", 1) && attr_is(x, "g", 2) &&
             x.n_endpoint == 16;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.switch_count == 8); // g * a routers
    // 16 chip links + local 2 groups * K4's 6 = 12 + global: a * h = 4 ports per group, all
    // to the one other group: 4. Total 32.
    CHECK(n.metrics.link_count == 32);
    // Every router has one global link to the other group: router to any router there is
    // at most global + local = 2 hops, and some pairs need both: 2 + 2 = 4.
    CHECK(n.metrics.diameter == 4);
    CHECK(n.metrics.path_diversity == 1);
  }
  SECTION("dragonfly+ p = 2, a = 4, s = 2, g = 3 on 16 boards of 1 chip (inter-rack)") {
    auto ctx = test::context_for(16);
    ctx.scope = Scope::InterRack;
    Candidate c = find_candidate("dragonfly+", ctx, [](const Candidate& x) {
      return attr_is(x, "p", 2) && attr_is(x, "a", 4) && attr_is(x, "s", 2) && attr_is(x, "g", 3) &&
             x.n_endpoint == 16;
    });
    Network n = topo::generate(ctx, c, {});
    CHECK(n.metrics.switch_count == 18); // 3 groups * (4 leaves + 2 spines)
    // 16 chip links + local 3 * 4 * 2 = 24 + global: s (s - 1) = 2 ports per group, one link
    // per pair of the 3 groups = 3. Total 43.
    CHECK(n.metrics.link_count == 43);
    // Boards 6/5/5 over the groups, every leaf holds one; between groups: chip - leaf -
    // spine - (global) - spine - leaf - chip, and nothing shorter (leaves touch only their
    // group's spines): 5.
    CHECK(n.metrics.diameter == 5);
    CHECK(n.metrics.path_diversity == 1);
  }
}

TEST_CASE("every family: generating a candidate twice gives the same network", "[family-metrics]") {
  std::int64_t compared = 0;
  for (const Family* f : families())
    for (std::int64_t n_chip : {16, 32})
      for (IntraBoardTopo t : {IntraBoardTopo::None, IntraBoardTopo::Ring})
        for (std::int64_t radix : {1, 2}) {
          if (f->leaf() == Leaf::Chip && t != IntraBoardTopo::None) continue;
          const Context ctx = context_of(*f, n_chip, t, radix);
          INFO(describe(*f, ctx));
          for (const Candidate& c : topo::enumerate(ctx, {f}, 10).items) {
            INFO("candidate " << c.id);
            Network a, b;
            if (!try_generate(ctx, c, a) || !try_generate(ctx, c, b)) continue;
            ++compared;
            const std::string fa = fingerprint(a, nullptr), fb = fingerprint(b, nullptr);
            CHECK_FALSE(fa.empty());
            CHECK(fa == fb);
            CHECK(to_json(a).dump() == to_json(b).dump());
          }
        }
  CHECK(compared >= 100);
}
