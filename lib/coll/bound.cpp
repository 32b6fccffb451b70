#include "coll/bound.hpp"

#include "core/max_flow.hpp"
#include "sim/report.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace icnkit::coll {

// cut_rate: x* = min over the cuts U (a chip of C on each side) of B+(U) / |C_U|, C_U = C n U,
// n = |C|. The ranks are taken as sinks in an order t_1 .. t_n, and the ranks before t_i are
// merged into the source. For x >= 0 and i, the flow network G(x, i): the nodes V plus a
// source s, an arc s -> t_j of infinite capacity for j < i, an arc s -> t_j of capacity x for
// j > i, and for every live link {a, b} of bandwidth w the arcs a -> b and b -> a of capacity w
// (one pair of opposite arcs). A finite s-t_i cut is {s} + U with U a set of nodes holding
// t_1 .. t_{i-1} and not t_i; its capacity is x |C - U - {t_i}| + B+(U) =
// x (n-1) - x |C_U| + B+(U). Hence
//   min cut of G(x, i) >= x (n-1)  <=>  B+(U) >= x |C_U| for every U in the family F_i   (*)
// of the node sets holding t_1 .. t_{i-1} and not t_i. A cut of the bound's range misses some
// rank; with t_i the first it misses, U is in F_i: the F_i cover the range, so x <= x* iff (*)
// holds for every i. (Merging is not needed for that, a sink alone would do; it shortens the
// augmenting paths, most of a sink's flow coming from the ranks merged around it.)
// The search (Dinkelbach's, sink by sink): x starts at a cut's ratio (U = V - {t1}, t1 a rank of
// least injection: B_t1 / (n-1)), so x >= x* throughout. For each i, a minimum cut U of
// G(x, i) (the source side of a maximum flow): if B+(U) / |C_U| < x, U is a cut of the range
// (t_1 .. t_{i-1} are in U, t_i is not; C_U = {t_1} when i = 1 is not empty either, see below)
// with a smaller ratio: x takes it and i is tried again. Otherwise B+(U) - x |C_U| >= 0 for the
// minimum U, so the min cut is >= x (n-1): (*) holds for i at x, and at every smaller x the
// later sinks bring. (A flow reaching x (n-1) shows it directly: the search stops there.) After
// the last sink (*) holds for every i at a cut's ratio: x = x*. (For i = 1 a minimum U may hold
// no rank; its value x (n-1) + B+(U) then shows (*).) Each retry on one sink lowers |C_U|
// strictly (the minimizer of B+(U) - x |C_U| holds fewer ranks as x falls), so a sink takes at
// most n retries; in practice the sweep makes one or two improvements in all.
// Rounding: Dinic's 1e-12 relative tolerance can leave a cut within that of the minimum; a
// ratio counts as smaller only below x (1 - 1e-12), and every ratio is summed from the links.
std::optional<CutRate> cut_rate(const std::vector<std::int64_t>& chips, const topo::Network& net,
                                const topo::Faults& faults) {
  const std::size_t n = chips.size(), V = net.nodes.size();
  if (n < 2) return std::nullopt;
  // Live links between two distinct nodes, parallel ones merged: (a, b, bandwidth), a < b.
  const std::vector<char> down = faults.down_links(net);
  std::vector<std::tuple<std::size_t, std::size_t, double>> edges;
  for (std::size_t l = 0; l < net.links.size(); ++l) {
    const topo::Link& k = net.links[l];
    if (down[l] || k.a == k.b || !(k.bandwidth_bytes_per_s > 0)) continue;
    edges.emplace_back(static_cast<std::size_t>(std::min(k.a, k.b)),
                       static_cast<std::size_t>(std::max(k.a, k.b)), k.bandwidth_bytes_per_s);
  }
  std::sort(edges.begin(), edges.end());
  std::size_t m = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (m > 0 && std::get<0>(edges[m - 1]) == std::get<0>(edges[i]) &&
        std::get<1>(edges[m - 1]) == std::get<1>(edges[i]))
      std::get<2>(edges[m - 1]) += std::get<2>(edges[i]);
    else
      edges[m++] = edges[i];
  }
  edges.resize(m);
  if (static_cast<double>(n) * static_cast<double>(V + 2 * m) > kCutBoundMaxWork)
    return std::nullopt;
  auto bandwidth_out = [&](const std::vector<char>& in) {
    double b = 0;
    for (auto& [a, c, w] : edges)
      if (in[a] != in[c]) b += w;
    return b;
  };
  auto ranks_in = [&](const std::vector<char>& in) {
    std::size_t k = 0;
    for (std::int64_t c : chips) k += in[static_cast<std::size_t>(c)] != 0;
    return k;
  };
  std::vector<double> inj(V, 0.0);
  std::vector<std::vector<std::size_t>> adj(V);
  for (auto& [a, c, w] : edges) {
    inj[a] += w, inj[c] += w;
    adj[a].push_back(c), adj[c].push_back(a);
  }

  // The sinks: a rank of least injection first, then the others in breadth-first order from
  // it (each near ranks merged already), the unreachable ones last.
  std::size_t first = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (inj[static_cast<std::size_t>(chips[i])] < inj[static_cast<std::size_t>(chips[first])])
      first = i;
  std::vector<std::size_t> rank_of(V, n); // index in `chips`, n for nodes that are no rank
  for (std::size_t i = 0; i < n; ++i) rank_of[static_cast<std::size_t>(chips[i])] = i;
  std::vector<std::size_t> order;
  std::vector<char> seen(V, 0);
  std::vector<std::size_t> queue{static_cast<std::size_t>(chips[first])};
  seen[queue[0]] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    if (rank_of[queue[q]] < n) order.push_back(rank_of[queue[q]]);
    for (std::size_t v : adj[queue[q]])
      if (!seen[v]) seen[v] = 1, queue.push_back(v);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!seen[static_cast<std::size_t>(chips[i])]) order.push_back(i);

  CutRate best;
  best.side.assign(V, 1);
  best.side[static_cast<std::size_t>(chips[first])] = 0;
  best.rate = inj[static_cast<std::size_t>(chips[first])] / static_cast<double>(n - 1);
  if (!(best.rate > 0)) return best;

  MaxFlow g(V + 1);
  const std::size_t s = V;
  for (auto& [a, c, w] : edges) g.add_arc(a, c, w, w);
  std::vector<std::size_t> from_s(n);
  for (std::size_t i = 0; i < n; ++i)
    from_s[i] = g.add_arc(s, static_cast<std::size_t>(chips[i]), 0);
  std::vector<char> merged(n, 0);
  for (std::size_t ti : order) {
    const auto t = static_cast<std::size_t>(chips[ti]);
    for (std::size_t retry = 0; retry <= n; ++retry) {
      for (std::size_t i = 0; i < n; ++i)
        g.set_capacity(from_s[i], merged[i] ? std::numeric_limits<double>::infinity()
                                  : i == ti ? 0
                                            : best.rate);
      const double need = best.rate * static_cast<double>(n - 1);
      if (g.run(s, t, need) >= need) break;
      std::vector<char> in = g.source_side(s);
      in.resize(V);
      const std::size_t k = ranks_in(in);
      if (k == 0 || in[t]) break;
      const double ratio = bandwidth_out(in) / static_cast<double>(k);
      if (!(ratio < best.rate * (1 - 1e-12))) break;
      best = {ratio, std::move(in)};
      if (!(best.rate > 0)) return best;
    }
    merged[ti] = 1;
  }
  return best;
}

std::vector<double> injection_bandwidths(const topo::Network& net, const topo::Faults& faults) {
  const std::vector<char> down = faults.down_links(net);
  const std::vector<char> down_chips = faults.down_chips(net);
  std::vector<double> inj(static_cast<std::size_t>(net.n_chip), 0.0);
  for (std::size_t l = 0; l < net.links.size(); ++l) {
    if (down[l]) continue;
    const topo::Link& k = net.links[l];
    if (k.a == k.b) continue; // a self-loop carries nothing between ranks
    for (std::int64_t end : {k.a, k.b})
      if (end < net.n_chip && !down_chips[static_cast<std::size_t>(k.a == end ? k.b : k.a)])
        inj[static_cast<std::size_t>(end)] += k.bandwidth_bytes_per_s;
  }
  return inj;
}

std::optional<Bound> collective_bound(const std::string& collective,
                                      const std::vector<std::int64_t>& chips, double bytes,
                                      const topo::Network& net, const topo::Faults& faults,
                                      std::int64_t group, bool in_network) {
  const auto n = static_cast<double>(group > 0 ? group : static_cast<std::int64_t>(chips.size()));
  if (n < 2) return std::nullopt;
  const std::vector<char> down_chips = faults.down_chips(net);
  const std::vector<double> inj = injection_bandwidths(net, faults);
  double b_inj = std::numeric_limits<double>::infinity();
  for (std::int64_t c : chips) b_inj = std::min(b_inj, inj[static_cast<std::size_t>(c)]);
  if (!(b_inj > 0)) return std::nullopt;
  double factor = (n - 1) / n;
  if (collective == "all-reduce") factor = in_network ? 1 : 2 * (n - 1) / n;
  if (collective == "broadcast" || collective == "reduce") factor = 1;
  Bound b{factor * bytes / b_inj,
          in_network ? sim::kBoundInjectionInNetwork : sim::kBoundInjection};
  const double bis = net.metrics.bisection_bandwidth_bytes_per_s;
  std::int64_t live = 0;
  for (std::int64_t c = 0; c < net.n_chip; ++c) live += !down_chips[static_cast<std::size_t>(c)];
  if (collective == "all-to-all" && bis > 0 &&
      static_cast<std::int64_t>(chips.size()) == net.n_chip && live == net.n_chip) {
    const double t = n * bytes / (4 * bis);
    if (t > b.time_s) b = {t, sim::kBoundBisection};
  }
  if ((collective == "all-gather" || collective == "reduce-scatter") && !in_network &&
      (group == 0 || group == static_cast<std::int64_t>(chips.size())))
    if (auto c = cut_rate(chips, net, faults); c && c->rate > 0) {
      const double t = bytes / n / c->rate;
      if (t > b.time_s * (1 + 1e-9)) b = {t, sim::kBoundCut};
    }
  return b;
}

} // namespace icnkit::coll

namespace icnkit::coll {

std::optional<Bound> all_to_all_v_bound(const std::vector<std::vector<std::int64_t>>& groups,
                                        const std::vector<double>& item_bytes,
                                        const topo::Network& net, const topo::Faults& faults) {
  const std::vector<double> inj = injection_bandwidths(net, faults);
  std::optional<Bound> b;
  for (const auto& g : groups) {
    const std::size_t n = g.size();
    if (n < 2 || item_bytes.size() != n * n) continue;
    for (std::size_t i = 0; i < n; ++i) {
      double out = 0, in = 0;
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) { // a rank's item for itself stays
          out += item_bytes[i * n + j];
          in += item_bytes[j * n + i];
        }
      const double bw = inj[static_cast<std::size_t>(g[i])];
      if (!(bw > 0)) return std::nullopt;
      const double t = std::max(out, in) / bw;
      if (!b || t > b->time_s) b = Bound{t, sim::kBoundInjection};
    }
  }
  return b;
}

} // namespace icnkit::coll
