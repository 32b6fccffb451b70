#include "topo/metrics.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>
#include <deque>
#include <queue>
#include <set>

namespace icnkit::topo {

namespace {
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

Graph make_graph(const Network& n) {
  Graph g(n.nodes.size());
  for (const Link& l : n.links)
    boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b), g);
  return g;
}

std::vector<std::int64_t> distances(const Graph& g, std::size_t src) {
  std::vector<std::int64_t> dist(boost::num_vertices(g), -1);
  dist[src] = 0;
  boost::breadth_first_search(g, boost::vertex(src, g),
                              boost::visitor(boost::make_bfs_visitor(
                                  boost::record_distances(dist.data(), boost::on_tree_edge()))));
  return dist;
}

// A flow network over the nodes plus source S and sink T: each pair of linked nodes two arcs
// whose capacity is the number of links between them (undirected flow), S -> every
// chip of side 0 and every chip of side 1 -> T with unbounded capacity (when chip_side is
// given), or S -> a and b -> T (for a single pair).
struct FlowNet {
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using G = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<
          boost::edge_capacity_t, long,
          boost::property<boost::edge_residual_capacity_t, long,
                          boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
  G g;
  std::size_t S, T;

  explicit FlowNet(const Network& n)
      : g(n.nodes.size() + 2), S(n.nodes.size()), T(n.nodes.size() + 1) {
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    pairs.reserve(n.links.size());
    for (const Link& l : n.links) pairs.push_back({std::min(l.a, l.b), std::max(l.a, l.b)});
    std::sort(pairs.begin(), pairs.end());
    // An undirected link is two arcs, each with its own zero-capacity reverse (push-relabel
    // tells reverse arcs by their zero capacity); parallel links add up.
    for (std::size_t i = 0; i < pairs.size();) {
      std::size_t j = i;
      while (j < pairs.size() && pairs[j] == pairs[i]) ++j;
      auto a = static_cast<std::size_t>(pairs[i].first),
           b = static_cast<std::size_t>(pairs[i].second);
      arc(a, b, static_cast<long>(j - i), 0);
      arc(b, a, static_cast<long>(j - i), 0);
      i = j;
    }
  }
  Traits::edge_descriptor arc(std::size_t u, std::size_t v, long cap, long back) {
    auto cap_map = boost::get(boost::edge_capacity, g);
    auto rev = boost::get(boost::edge_reverse, g);
    auto e1 = boost::add_edge(u, v, g).first;
    auto e2 = boost::add_edge(v, u, g).first;
    cap_map[e1] = cap;
    cap_map[e2] = back;
    rev[e1] = e2;
    rev[e2] = e1;
    return e1;
  }
  void set_capacity(Traits::edge_descriptor e, long cap) {
    boost::get(boost::edge_capacity, g)[e] = cap;
  }
  long flow() { return boost::push_relabel_max_flow(g, S, T); }
  // Nodes reachable from S in the residual graph: the source side of a minimum cut.
  std::vector<char> source_side() {
    auto res = boost::get(boost::edge_residual_capacity, g);
    std::vector<char> seen(boost::num_vertices(g), 0);
    std::deque<std::size_t> q{S};
    seen[S] = 1;
    while (!q.empty()) {
      auto u = q.front();
      q.pop_front();
      for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
        auto v = boost::target(*e, g);
        if (!seen[v] && res[*e] > 0) {
          seen[v] = 1;
          q.push_back(v);
        }
      }
    }
    return seen;
  }
};

constexpr long kUnbounded = 1L << 40;

// Minimum cuts for many chip partitions of one network: the flow network is built once, with
// S -> chip and chip -> T arcs whose capacity each partition sets (unbounded or none).
class PartitionCutter {
public:
  explicit PartitionCutter(const Network& n) : n_(n), f_(n) {
    for (std::int64_t c = 0; c < n.n_chip; ++c) {
      from_s_.push_back(f_.arc(f_.S, static_cast<std::size_t>(c), 0, 0));
      to_t_.push_back(f_.arc(static_cast<std::size_t>(c), f_.T, 0, 0));
    }
  }
  Cut cut(const std::vector<char>& chip_side) {
    for (std::size_t c = 0; c < from_s_.size(); ++c) {
      f_.set_capacity(from_s_[c], chip_side[c] == 0 ? kUnbounded : 0);
      f_.set_capacity(to_t_[c], chip_side[c] == 0 ? 0 : kUnbounded);
    }
    f_.flow();
    auto src = f_.source_side();
    std::vector<char> side(n_.nodes.size());
    for (std::size_t v = 0; v < n_.nodes.size(); ++v) side[v] = src[v] ? 0 : 1;
    return cut_of(n_, side);
  }

private:
  const Network& n_;
  FlowNet f_;
  std::vector<FlowNet::Traits::edge_descriptor> from_s_, to_t_;
};

} // namespace

std::int64_t eccentricity(const Network& n, std::int64_t src) {
  auto d = distances(make_graph(n), static_cast<std::size_t>(src));
  return *std::max_element(d.begin(), d.end());
}

std::int64_t exact_diameter(const Network& n) {
  Graph g = make_graph(n);
  std::int64_t best = 0;
  for (std::size_t v = 0; v < n.nodes.size(); ++v) {
    auto d = distances(g, v);
    best = std::max(best, *std::max_element(d.begin(), d.end()));
  }
  return best;
}

std::int64_t exact_chip_diameter(const Network& n) {
  Graph g = make_graph(n);
  std::int64_t best = 0;
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    auto d = distances(g, static_cast<std::size_t>(c));
    for (std::int64_t x = 0; x < n.n_chip; ++x)
      best = std::max(best, d[static_cast<std::size_t>(x)]);
  }
  return best;
}

std::int64_t switched_chip_diameter(const Network& n, std::int64_t one_board_diameter) {
  if (n.boards.size() == 1) return std::min<std::int64_t>(2, one_board_diameter);
  const auto N = n.n_chip;
  const auto V = static_cast<std::int64_t>(n.nodes.size());
  // The switch graph (parallel links once) and the switches chips hang from.
  std::vector<std::vector<std::int64_t>> adj(static_cast<std::size_t>(V - N));
  std::vector<char> bearing(static_cast<std::size_t>(V - N), 0);
  for (const Link& l : n.links) {
    bool sa = l.a >= N, sb = l.b >= N;
    if (sa && sb) {
      adj[static_cast<std::size_t>(l.a - N)].push_back(l.b - N);
      adj[static_cast<std::size_t>(l.b - N)].push_back(l.a - N);
    } else if (sa != sb) {
      bearing[static_cast<std::size_t>((sa ? l.a : l.b) - N)] = 1;
    }
  }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  // Bit-parallel BFS (64 sources at a time): seen[v] and frontier[v] hold one bit per source.
  const std::size_t S = adj.size();
  std::vector<std::size_t> sources;
  for (std::size_t s = 0; s < S; ++s)
    if (bearing[s]) sources.push_back(s);
  std::int64_t worst = 0;
  std::vector<std::uint64_t> seen(S), frontier(S), next(S);
  for (std::size_t base = 0; base < sources.size(); base += 64) {
    const std::size_t batch = std::min<std::size_t>(64, sources.size() - base);
    const std::uint64_t all = batch == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << batch) - 1;
    std::fill(seen.begin(), seen.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    for (std::size_t k = 0; k < batch; ++k)
      seen[sources[base + k]] = frontier[sources[base + k]] |= std::uint64_t{1} << k;
    for (std::int64_t level = 1;; ++level) {
      bool any = false;
      for (std::size_t v = 0; v < S; ++v) {
        std::uint64_t m = 0;
        for (auto u : adj[v]) m |= frontier[static_cast<std::size_t>(u)];
        next[v] = m & ~seen[v];
      }
      for (std::size_t v = 0; v < S; ++v) {
        if (!next[v]) continue;
        any = true;
        seen[v] |= next[v];
        if (bearing[v]) worst = std::max(worst, level);
      }
      frontier.swap(next);
      if (!any) break;
    }
    for (std::size_t v = 0; v < S; ++v)
      if (bearing[v] && seen[v] != all) return -1; // not connected
  }
  return worst + 2;
}

std::int64_t min_chip_degree(const Network& n) {
  std::vector<std::int64_t> deg(static_cast<std::size_t>(n.n_chip), 0);
  for (const Link& l : n.links) {
    if (l.a < n.n_chip) deg[static_cast<std::size_t>(l.a)]++;
    if (l.b < n.n_chip) deg[static_cast<std::size_t>(l.b)]++;
  }
  return deg.empty() ? 0 : *std::min_element(deg.begin(), deg.end());
}

std::int64_t edge_disjoint_paths(const Network& n, std::int64_t a, std::int64_t b) {
  FlowNet f(n);
  f.arc(f.S, static_cast<std::size_t>(a), kUnbounded, 0);
  f.arc(static_cast<std::size_t>(b), f.T, kUnbounded, 0);
  return f.flow();
}

std::int64_t exact_path_diversity(const Network& n) {
  std::int64_t best = INT64_MAX;
  for (std::int64_t c = 1; c < n.n_chip; ++c) best = std::min(best, edge_disjoint_paths(n, 0, c));
  return best == INT64_MAX ? 0 : best;
}

Cut cut_of(const Network& n, const std::vector<char>& side) {
  Cut c;
  for (const Link& l : n.links)
    if (side[static_cast<std::size_t>(l.a)] != side[static_cast<std::size_t>(l.b)]) {
      c.links++;
      c.bandwidth_bytes_per_s += l.bandwidth_bytes_per_s;
    }
  return c;
}

Cut cut_with_switches(const Network& n, const std::vector<char>& chip_side) {
  return PartitionCutter(n).cut(chip_side);
}

std::vector<std::vector<char>> structural_partitions(const Network& n,
                                                     const std::vector<std::vector<char>>& extra) {
  const auto N = static_cast<std::size_t>(n.n_chip);
  std::vector<std::vector<char>> parts = extra;
  std::vector<char> p = chip_halves(n); // half the boards, racks, groups
  parts.push_back(p);
  if (!n.boards.empty() && n.boards[0].chips.size() > 1) {
    // Every board split in half (its first half of chips on side 0); odd boards alternate.
    std::size_t k = 0;
    for (auto& b : n.boards) {
      std::size_t h = b.chips.size() / 2 + (b.chips.size() % 2 ? (k++ % 2) : 0);
      for (std::size_t i = 0; i < b.chips.size(); ++i)
        p[static_cast<std::size_t>(b.chips[i])] = i < h ? 0 : 1;
    }
    parts.push_back(p);
  }
  if (n.boards.size() > 1) {
    // Alternate boards (every switch keeps half its boards), with one board moved or split
    // when that is needed for balance: take chips board by board, alternating sides, until
    // one side holds floor(N/2).
    std::fill(p.begin(), p.end(), 1);
    std::size_t zero = 0;
    for (std::size_t b = 0; b < n.boards.size() && zero < N / 2; b += 2)
      for (auto c : n.boards[b].chips)
        if (zero < N / 2) p[static_cast<std::size_t>(c)] = 0, ++zero;
    for (std::size_t b = 1; b < n.boards.size() && zero < N / 2; b += 2)
      for (auto c : n.boards[b].chips)
        if (zero < N / 2) p[static_cast<std::size_t>(c)] = 0, ++zero;
    parts.push_back(p);
  }
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  return parts;
}

Cut heuristic_bisection(const Network& n, const std::vector<std::vector<char>>& extra) {
  // Every partition with its switches placed optimally (a max-flow each): scoring them with
  // a cheaper placement first loses the best cut on dragonflies (the tests compare with brute
  // force).
  auto parts = structural_partitions(n, extra);
  PartitionCutter cutter(n);
  Cut best;
  best.links = INT64_MAX;
  for (auto& part : parts) {
    Cut c = cutter.cut(part);
    if (c.links < best.links) best = c;
  }
  return best;
}

std::vector<char> chip_halves(const Network& n) {
  const auto N = static_cast<std::size_t>(n.n_chip);
  std::vector<char> p(N);
  for (std::size_t c = 0; c < N; ++c) p[c] = c < N / 2 ? 0 : 1;
  return p;
}

std::vector<char> place_switches_by_majority(const Network& n, const std::vector<char>& chip_side) {
  std::vector<char> side(n.nodes.size(), 1);
  std::vector<std::int64_t> zero(n.nodes.size(), 0), one(n.nodes.size(), 0);
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    side[static_cast<std::size_t>(c)] = chip_side[static_cast<std::size_t>(c)];
  for (const Link& l : n.links)
    for (auto [x, y] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
      if (x < n.n_chip && y >= n.n_chip)
        (chip_side[static_cast<std::size_t>(x)] ? one : zero)[static_cast<std::size_t>(y)]++;
  for (std::size_t v = static_cast<std::size_t>(n.n_chip); v < n.nodes.size(); ++v)
    side[v] = zero[v] > one[v] ? 0 : 1;
  return side;
}

Cut closed_form_cut(const Network& n, std::int64_t links, const std::vector<char>& partition) {
  // The switches with the majority of their chips is the cut the closed forms count; the
  // optimal placement (max-flow) is the fallback, and a disagreement a bug.
  Cut c = cut_of(n, place_switches_by_majority(n, partition));
  if (c.links != links) c = cut_with_switches(n, partition);
  if (c.links != links)
    fail_runtime(n.family + " metrics", "the bisection cut crosses " + std::to_string(c.links) +
                                            " links, the closed form says " +
                                            std::to_string(links));
  return c;
}

void set_bisection(Network& n, const Cut& c, const char* method) {
  n.metrics.bisection_links = c.links;
  n.metrics.bisection_bandwidth_bytes_per_s = c.bandwidth_bytes_per_s;
  n.metrics.bisection_bandwidth_method = method;
}

namespace {

// Undirected adjacency of the surviving links, parallel links once, in CSR form.
struct Adjacency {
  std::vector<std::int64_t> start, to;
  std::size_t size() const { return start.size() - 1; }
};

Adjacency adjacency_of(const Network& s) {
  std::vector<std::pair<std::int64_t, std::int64_t>> e;
  e.reserve(2 * s.links.size());
  for (const Link& l : s.links) e.push_back({l.a, l.b}), e.push_back({l.b, l.a});
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  Adjacency a;
  a.start.assign(s.nodes.size() + 1, 0);
  for (auto& [u, v] : e) a.start[static_cast<std::size_t>(u) + 1]++;
  for (std::size_t i = 1; i < a.start.size(); ++i) a.start[i] += a.start[i - 1];
  a.to.reserve(e.size());
  for (auto& [u, v] : e) a.to.push_back(v);
  return a;
}

// Hop distances from `src` over the adjacency (-1: unreached).
std::vector<std::int64_t> bfs(const Adjacency& a, std::int64_t src) {
  std::vector<std::int64_t> d(a.size(), -1);
  std::vector<std::int64_t> q{src};
  d[static_cast<std::size_t>(src)] = 0;
  for (std::size_t h = 0; h < q.size(); ++h) {
    auto u = static_cast<std::size_t>(q[h]);
    for (auto k = a.start[u]; k < a.start[u + 1]; ++k) {
      auto v = static_cast<std::size_t>(a.to[static_cast<std::size_t>(k)]);
      if (d[v] < 0) d[v] = d[u] + 1, q.push_back(static_cast<std::int64_t>(v));
    }
  }
  return d;
}

// The largest distance between two of `chips` (all in one component), BFS from 64 of them at a
// time with one bit per source; nullopt once `budget` work is spent.
std::optional<std::int64_t>
chip_diameter(const Adjacency& a, const std::vector<std::int64_t>& chips, std::int64_t budget) {
  const std::size_t V = a.size();
  std::vector<char> target(V, 0);
  for (auto c : chips) target[static_cast<std::size_t>(c)] = 1;
  std::vector<std::uint64_t> seen(V), frontier(V), next(V);
  std::int64_t worst = 0, work = 0;
  for (std::size_t base = 0; base < chips.size(); base += 64) {
    const std::size_t batch = std::min<std::size_t>(64, chips.size() - base);
    std::fill(seen.begin(), seen.end(), 0);
    std::fill(frontier.begin(), frontier.end(), 0);
    for (std::size_t k = 0; k < batch; ++k) {
      auto c = static_cast<std::size_t>(chips[base + k]);
      seen[c] = frontier[c] |= std::uint64_t{1} << k;
    }
    for (std::int64_t level = 1;; ++level) {
      work += static_cast<std::int64_t>(V + a.to.size());
      if (work > budget) return std::nullopt;
      bool any = false;
      for (std::size_t v = 0; v < V; ++v) {
        std::uint64_t m = 0;
        for (auto k = a.start[v]; k < a.start[v + 1]; ++k)
          m |= frontier[static_cast<std::size_t>(a.to[static_cast<std::size_t>(k)])];
        next[v] = m & ~seen[v];
      }
      for (std::size_t v = 0; v < V; ++v) {
        if (!next[v]) continue;
        any = true;
        seen[v] |= next[v];
        if (target[v]) worst = std::max(worst, level);
      }
      frontier.swap(next);
      if (!any) break;
    }
  }
  return worst;
}

// A lower bound on that diameter: the largest eccentricity among chips found by BFS sweeps,
// each from the chip farthest from the previous one.
std::int64_t chip_diameter_lower_bound(const Adjacency& a, const std::vector<std::int64_t>& chips) {
  std::int64_t best = 0, src = chips.front();
  for (int sweep = 0; sweep < 6; ++sweep) {
    auto d = bfs(a, src);
    std::int64_t far = src, ecc = 0;
    for (auto c : chips)
      if (d[static_cast<std::size_t>(c)] > ecc) ecc = d[static_cast<std::size_t>(c)], far = c;
    best = std::max(best, ecc);
    if (far == src) break;
    src = far;
  }
  return best;
}

// Link-disjoint paths from chip `from` to every other chip of `chips`: the smallest count.
// The flow network is built once; each run sets which chip drains to the sink.
std::int64_t chip_path_diversity(const Network& s, const std::vector<std::int64_t>& chips) {
  FlowNet f(s);
  f.arc(f.S, static_cast<std::size_t>(chips.front()), kUnbounded, 0);
  std::vector<FlowNet::Traits::edge_descriptor> to_t;
  for (std::size_t i = 1; i < chips.size(); ++i)
    to_t.push_back(f.arc(static_cast<std::size_t>(chips[i]), f.T, 0, 0));
  std::int64_t best = INT64_MAX;
  for (std::size_t i = 0; i < to_t.size(); ++i) {
    if (i) f.set_capacity(to_t[i - 1], 0);
    f.set_capacity(to_t[i], kUnbounded);
    best = std::min<std::int64_t>(best, f.flow());
  }
  return best == INT64_MAX ? 0 : best;
}

// Coordinate cuts: for each dimension d of the chips' coordinates (size S = largest + 1), the
// chips with (x_d - o) mod S < S/2 on side 0, for every offset o when S <= 16, else for the
// offsets that put a cut boundary next to a failed link or chip (and offset 0).
std::vector<std::vector<char>> coordinate_partitions(const Network& n,
                                                     const std::vector<char>& link_down,
                                                     const std::vector<char>& chip_down) {
  std::vector<std::vector<char>> parts;
  const auto N = static_cast<std::size_t>(n.n_chip);
  if (N == 0) return parts;
  const std::size_t D = n.nodes[0].coord.size();
  for (std::size_t c = 0; c < N; ++c)
    if (n.nodes[c].coord.size() != D) return parts;
  for (std::size_t d = 0; d < D; ++d) {
    int S = 0;
    for (std::size_t c = 0; c < N; ++c) S = std::max(S, n.nodes[c].coord[d] + 1);
    if (S < 2) continue;
    std::set<int> offsets;
    if (S <= 16) {
      for (int o = 0; o < S; ++o) offsets.insert(o);
    } else {
      auto near = [&](int x) { // boundaries just below and above x, on either half
        for (int o : {x, x + 1, x + S - S / 2, x + 1 + S - S / 2})
          if (offsets.size() < 64) offsets.insert(((o % S) + S) % S);
      };
      offsets.insert(0);
      for (const Link& l : n.links)
        if (link_down[static_cast<std::size_t>(l.id)] && l.a < n.n_chip)
          near(n.nodes[static_cast<std::size_t>(l.a)].coord[d]);
      for (std::size_t c = 0; c < N; ++c)
        if (chip_down[c]) near(n.nodes[c].coord[d]);
    }
    for (int o : offsets) {
      std::vector<char> p(N);
      for (std::size_t c = 0; c < N; ++c)
        p[c] = (((n.nodes[c].coord[d] - o) % S) + S) % S < S / 2 ? 0 : 1;
      parts.push_back(std::move(p));
    }
  }
  return parts;
}

// Moves surviving chips across until the surviving chips split floor(M/2) : ceil(M/2), each
// time the chip whose move adds the fewest chip-to-chip links to the cut (lowest id on ties).
void rebalance(const Adjacency& a, std::vector<char>& side, const std::vector<char>& alive,
               std::int64_t M) {
  const auto N = static_cast<std::int64_t>(side.size());
  std::int64_t zero = 0;
  for (std::int64_t c = 0; c < N; ++c)
    zero += alive[static_cast<std::size_t>(c)] && !side[static_cast<std::size_t>(c)];
  const std::int64_t lo = M / 2, hi = M - M / 2;
  if (zero >= lo && zero <= hi) return;
  const char from = zero > hi ? 0 : 1;
  std::int64_t moves = zero > hi ? zero - hi : lo - zero;
  // gain(c) = chip neighbours across - chip neighbours alongside: the cut shrinks by it.
  auto gain = [&](std::int64_t c) {
    std::int64_t g = 0;
    auto u = static_cast<std::size_t>(c);
    for (auto k = a.start[u]; k < a.start[u + 1]; ++k) {
      auto v = a.to[static_cast<std::size_t>(k)];
      if (v >= N || !alive[static_cast<std::size_t>(v)]) continue;
      g += side[static_cast<std::size_t>(v)] != side[u] ? 1 : -1;
    }
    return g;
  };
  using Entry = std::pair<std::int64_t, std::int64_t>; // (gain, -id): the largest first
  std::priority_queue<Entry> q;
  for (std::int64_t c = 0; c < N; ++c)
    if (alive[static_cast<std::size_t>(c)] && side[static_cast<std::size_t>(c)] == from)
      q.push({gain(c), -c});
  while (moves > 0 && !q.empty()) {
    auto [g, negc] = q.top();
    q.pop();
    const std::int64_t c = -negc;
    if (side[static_cast<std::size_t>(c)] != from || gain(c) != g) continue; // stale
    side[static_cast<std::size_t>(c)] = static_cast<char>(1 - from);
    --moves;
    auto u = static_cast<std::size_t>(c);
    for (auto k = a.start[u]; k < a.start[u + 1]; ++k) {
      auto v = a.to[static_cast<std::size_t>(k)];
      if (v < N && alive[static_cast<std::size_t>(v)] && side[static_cast<std::size_t>(v)] == from)
        q.push({gain(v), -v});
    }
  }
}

} // namespace

DegradedMetrics degraded_metrics(const Network& n, const Faults& f, const DegradedLimits& limits) {
  const std::vector<char> link_down = f.down_links(n), chip_down = f.down_chips(n);
  Network s; // the survivors: every node (failed chips isolated), the live links
  s.family = n.family;
  s.n_chip = n.n_chip;
  s.nodes = n.nodes;
  for (const Link& l : n.links)
    if (!link_down[static_cast<std::size_t>(l.id)]) s.links.push_back(l);
  DegradedMetrics m;
  m.surviving_links = static_cast<std::int64_t>(s.links.size());
  std::vector<std::int64_t> chips;
  std::vector<char> alive(static_cast<std::size_t>(n.n_chip), 0);
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!chip_down[static_cast<std::size_t>(c)])
      chips.push_back(c), alive[static_cast<std::size_t>(c)] = 1;
  m.surviving_chips = static_cast<std::int64_t>(chips.size());
  m.diameter_method = "exact";
  m.path_diversity_method = "exact";
  m.bisection_bandwidth_method = "exact";
  if (chips.size() < 2) {
    m.diameter = 0;
    return m;
  }
  const Adjacency adj = adjacency_of(s);

  // Connected, diameter, path diversity.
  auto d0 = bfs(adj, chips.front());
  m.connected = std::all_of(chips.begin(), chips.end(),
                            [&](std::int64_t c) { return d0[static_cast<std::size_t>(c)] >= 0; });
  if (m.connected) {
    // Each batch of the exact search takes about as many BFS levels as the nominal diameter:
    // when that estimate passes the limit, go straight to the bound.
    const auto batches = static_cast<std::int64_t>((chips.size() + 63) / 64);
    const auto level = static_cast<std::int64_t>(adj.size() + adj.to.size());
    const bool hopeless =
        batches * level > limits.diameter_work / std::max<std::int64_t>(1, n.metrics.diameter);
    std::optional<std::int64_t> d;
    if (!hopeless) d = chip_diameter(adj, chips, limits.diameter_work);
    if (d) {
      m.diameter = *d;
    } else {
      m.diameter = chip_diameter_lower_bound(adj, chips);
      m.diameter_method = "lower-bound";
    }
    const auto size = static_cast<std::int64_t>(chips.size()) *
                      static_cast<std::int64_t>(s.nodes.size() + s.links.size());
    if (size <= limits.path_diversity_size) {
      m.path_diversity = chip_path_diversity(s, chips);
    } else {
      std::vector<std::int64_t> deg(static_cast<std::size_t>(n.n_chip), 0);
      for (const Link& l : s.links) {
        if (l.a < n.n_chip) deg[static_cast<std::size_t>(l.a)]++;
        if (l.b < n.n_chip) deg[static_cast<std::size_t>(l.b)]++;
      }
      m.path_diversity = INT64_MAX;
      for (auto c : chips)
        m.path_diversity = std::min(m.path_diversity, deg[static_cast<std::size_t>(c)]);
      m.path_diversity_method = "upper-bound";
    }
  }

  // Bisection: every candidate partition balanced over the survivors, switches placed best.
  auto parts = structural_partitions(n, coordinate_partitions(n, link_down, chip_down));
  const bool switched = s.nodes.size() > static_cast<std::size_t>(n.n_chip);
  std::optional<PartitionCutter> cutter;
  if (switched) cutter.emplace(s);
  Cut best;
  best.links = INT64_MAX;
  for (auto& part : parts) {
    rebalance(adj, part, alive, m.surviving_chips);
    Cut c = switched ? cutter->cut(part) : cut_of(s, part);
    if (c.links < best.links ||
        (c.links == best.links && c.bandwidth_bytes_per_s < best.bandwidth_bytes_per_s))
      best = c;
  }
  m.bisection_links = best.links;
  m.bisection_bandwidth_bytes_per_s = best.bandwidth_bytes_per_s;
  const auto& nominal = n.metrics;
  const bool bound = nominal.bisection_bandwidth_method == "exact" ||
                     nominal.bisection_bandwidth_method == "closed-form";
  const std::int64_t down = static_cast<std::int64_t>(n.links.size()) - m.surviving_links;
  const bool exact = best.links == 0 || (bound && best.links <= nominal.bisection_links - down);
  m.bisection_bandwidth_method = exact ? "exact" : "heuristic";
  return m;
}

} // namespace icnkit::topo
