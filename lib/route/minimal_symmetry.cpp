#include "route/minimal_symmetry.hpp"

#include "core/error.hpp"
#include "route/adjacency.hpp"
#include "route/dependency_graph.hpp"
#include "route/hop_tally.hpp"
#include "route/minimal.hpp"
#include "route/symmetric.hpp"
#include "route/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <vector>

namespace icnkit::route {
namespace {

// Above this many held-state masks (8 bytes each) the merged states cost more than they save:
// the caller walks every pair instead.
constexpr std::int64_t kMaxMasks = std::int64_t{1} << 25;

int log2_exact(std::size_t w) {
  if (w == 0 || (w & (w - 1)) != 0) return -1;
  int k = 0;
  while ((std::size_t{1} << k) < w) ++k;
  return k;
}

// What the verification and the load both need: the live chips, the members of every
// attachment, per-channel ends, and the switches of a column by distance.
class Columns {
public:
  // False when the symmetric path does not apply.
  bool init(const MinimalRouting& fn, const topo::Network& n, const topo::Faults& f) {
    m_ = &fn;
    if (!m_->routes_by_attachment()) return false;
    n_ = &n;
    N_ = n.n_chip;
    S_ = static_cast<std::int64_t>(n.nodes.size()) - N_;
    for (const topo::Link& l : n.links)
      if (l.a < N_ && l.b < N_) return false; // chips joined to chips: not per attachment
    hop_limit_ = default_hop_limit(n);
    if (m_->longest() >= hop_limit_ || m_->longest() > 62) return false;
    down_links_ = f.down_links(n);
    down_chips_ = f.down_chips(n);
    std::int32_t columns = 0;
    for (std::int64_t c = 0; c < N_; ++c) {
      if (down_chips_[static_cast<std::size_t>(c)]) continue;
      live_.push_back(c);
      columns = std::max(columns, m_->attachment(c) + 1);
    }
    members_.assign(static_cast<std::size_t>(columns), {});
    position_.assign(static_cast<std::size_t>(N_), -1);
    for (std::int64_t c : live_) {
      const std::int32_t a = m_->attachment(c);
      if (a < 0) {
        detached_ = true;
        continue;
      }
      auto& M = members_[static_cast<std::size_t>(a)];
      position_[static_cast<std::size_t>(c)] = static_cast<std::int64_t>(M.size());
      M.push_back(c);
    }
    const auto C = static_cast<std::size_t>(n.channel_count());
    src_.resize(C);
    dst_.resize(C);
    for (std::size_t ch = 0; ch < C; ++ch) {
      src_[ch] = static_cast<std::int32_t>(n.channel_src(static_cast<std::int64_t>(ch)));
      dst_[ch] = static_cast<std::int32_t>(n.channel_dst(static_cast<std::int64_t>(ch)));
    }
    adj_ = std::make_unique<Adjacency>(n);
    return true;
  }

  const MinimalRouting& m() const { return *m_; }
  const topo::Network& net() const { return *n_; }
  const Adjacency& adj() const { return *adj_; }
  std::int64_t chips() const { return N_; }
  std::int64_t switches() const { return S_; }
  std::int64_t hop_limit() const { return hop_limit_; }
  const std::vector<std::int64_t>& live() const { return live_; }
  // Live chips with no live link: reach nothing and are reached by nothing.
  bool detached() const { return detached_; }
  std::size_t columns() const { return members_.size(); }
  const std::vector<std::int64_t>& members(std::size_t a) const { return members_[a]; }
  std::int64_t position(std::int64_t chip) const {
    return position_[static_cast<std::size_t>(chip)];
  }
  std::int32_t src(std::int64_t ch) const { return src_[static_cast<std::size_t>(ch)]; }
  std::int32_t dst(std::int64_t ch) const { return dst_[static_cast<std::size_t>(ch)]; }
  const std::vector<char>& down_links() const { return down_links_; }
  const std::vector<char>& down_chips() const { return down_chips_; }

  // A member of column a other than chip x (the destination x's choices are asked toward),
  // -1 when x is its only member.
  std::int64_t other_member(std::size_t a, std::int64_t x) const {
    const auto& M = members_[a];
    if (M[0] != x) return M[0];
    return M.size() > 1 ? M[1] : -1;
  }

  // The switches (node ids) of column a by distance: by_dist[h] = those h hops from a member.
  void by_distance(std::size_t a, std::vector<std::vector<std::int64_t>>& by_dist) const {
    for (auto& v : by_dist) v.clear();
    const std::int64_t d0 = members_[a][0];
    for (std::int64_t s = 0; s < S_; ++s) {
      const int h = m_->distance(N_ + s, d0);
      if (h < 0) continue;
      if (static_cast<std::size_t>(h) >= by_dist.size())
        by_dist.resize(static_cast<std::size_t>(h) + 1);
      by_dist[static_cast<std::size_t>(h)].push_back(N_ + s);
    }
  }

private:
  const MinimalRouting* m_ = nullptr;
  const topo::Network* n_ = nullptr;
  std::int64_t N_ = 0, S_ = 0, hop_limit_ = 0;
  std::vector<std::int64_t> live_;
  bool detached_ = false;
  std::vector<std::vector<std::int64_t>> members_; // per attachment, ascending
  std::vector<std::int64_t> position_;             // per chip: its index among its members
  std::vector<std::int32_t> src_, dst_;            // per channel
  std::vector<char> down_links_, down_chips_;
  std::unique_ptr<Adjacency> adj_;
};

// Per switch, the states held there (per channel into it, a mask of the hops taken on arrival)
// and the choices taken from them: merged per distinct set of choices while a switch has fewer of
// those than channels out (a fat-tree's few: up, or down toward one child), else per channel out
// (a HyperX's many: one set per destination switch). Either way the dependencies are the pairs
// (state held, choice) some column had at once.
class HeldStates {
public:
  HeldStates(const topo::Network& n, const Adjacency& adj)
      : adj_(adj), position_(static_cast<std::size_t>(n.channel_count()), 0),
        nodes_(n.nodes.size()) {
    for (std::int64_t u = 0; u < static_cast<std::int64_t>(n.nodes.size()); ++u)
      for (const std::int64_t* ch = adj.begin(u); ch != adj.end(u); ++ch)
        position_[static_cast<std::size_t>(*ch)] = static_cast<std::int32_t>(ch - adj.begin(u));
  }

  // Adds the states `in` (one mask per channel into u, in adjacency order) held at u when its
  // choices are `out`. False when the masks would be too many to keep.
  bool add(std::int64_t u, const std::vector<Choice>& out, const std::vector<std::uint64_t>& in) {
    Node& node = nodes_[static_cast<std::size_t>(u)];
    const std::size_t deg = in.size();
    if (node.per_channel) {
      for (const Choice& c : out) merge(node.first + channel_row(c.channel, deg), in);
      return true;
    }
    std::uint64_t h = static_cast<std::uint64_t>(u) * 0x9E3779B97F4A7C15ull;
    for (const Choice& c : out)
      h = (h ^ static_cast<std::uint64_t>(c.channel)) * 0xFF51AFD7ED558CCDull;
    auto& bucket = index_[h];
    for (std::size_t i : bucket) {
      const Entry& e = entries_[i];
      if (e.node != u || e.out.size() != out.size()) continue;
      bool same = true;
      for (std::size_t k = 0; k < out.size() && same; ++k) same = e.out[k] == out[k].channel;
      if (same) {
        merge(e.first, in);
        return true;
      }
    }
    if (node.entries.size() + 1 > deg) { // as many sets as channels out: merge per channel
      if (!reserve(deg * deg)) return false;
      node.per_channel = true;
      node.first = masks_.size() - deg * deg;
      for (std::size_t i : node.entries) {
        Entry& e = entries_[i];
        for (std::int64_t o : e.out)
          for (std::size_t k = 0; k < deg; ++k)
            masks_[node.first + channel_row(o, deg) + k] |= masks_[e.first + k];
        e.merged = true;
      }
      for (const Choice& c : out) merge(node.first + channel_row(c.channel, deg), in);
      return true;
    }
    if (!reserve(deg)) return false;
    Entry e;
    e.node = u;
    for (const Choice& c : out) e.out.push_back(c.channel);
    e.first = masks_.size() - deg;
    merge(e.first, in);
    bucket.push_back(entries_.size());
    node.entries.push_back(entries_.size());
    entries_.push_back(std::move(e));
    return true;
  }

  // Calls f(u, channel in, mask, channel out) for every state held and choice taken from it.
  template <class F> void each(F f) const {
    for (const Entry& e : entries_) {
      if (e.merged) continue;
      const std::size_t deg = static_cast<std::size_t>(adj_.end(e.node) - adj_.begin(e.node));
      for (std::size_t k = 0; k < deg; ++k)
        if (masks_[e.first + k])
          for (std::int64_t o : e.out) f(adj_.begin(e.node)[k] ^ 1, masks_[e.first + k], o);
    }
    for (std::size_t u = 0; u < nodes_.size(); ++u) {
      const Node& node = nodes_[u];
      if (!node.per_channel) continue;
      const auto v = static_cast<std::int64_t>(u);
      const std::size_t deg = static_cast<std::size_t>(adj_.end(v) - adj_.begin(v));
      for (std::size_t p = 0; p < deg; ++p)
        for (std::size_t k = 0; k < deg; ++k)
          if (const std::uint64_t m = masks_[node.first + p * deg + k])
            f(adj_.begin(v)[k] ^ 1, m, adj_.begin(v)[p]);
    }
  }

private:
  struct Entry {
    std::int64_t node = 0;
    std::vector<std::int64_t> out;
    std::size_t first = 0; // its masks
    bool merged = false;   // into its node's per-channel masks
  };
  struct Node {
    std::vector<std::size_t> entries;
    bool per_channel = false;
    std::size_t first = 0; // per channel out (adjacency order), its masks
  };

  std::size_t channel_row(std::int64_t ch, std::size_t deg) const {
    return static_cast<std::size_t>(position_[static_cast<std::size_t>(ch)]) * deg;
  }
  void merge(std::size_t first, const std::vector<std::uint64_t>& in) {
    std::uint64_t* m = masks_.data() + first;
    for (std::size_t k = 0; k < in.size(); ++k) m[k] |= in[k];
  }
  bool reserve(std::size_t more) {
    if (static_cast<std::int64_t>(masks_.size() + more) > kMaxMasks) return false;
    masks_.resize(masks_.size() + more, 0);
    return true;
  }

  const Adjacency& adj_;
  std::vector<std::int32_t> position_; // per channel: its place among its node's channels out
  std::vector<Node> nodes_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> index_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> masks_;
};

// The channel-dependency graph of the walks to every destination, per column (see the header);
// std::nullopt when the merged states would be too many.
std::optional<CdgSummary> dependency_graph(const RoutingFunction& fn, const Columns& T) {
  const topo::Network& n = T.net();
  const Adjacency& adj = T.adj();
  const int V = fn.vc_count();
  const bool hop_vcs = T.m().options().hop_vcs;
  auto vc = [&](int taken) { return hop_vcs ? std::min(taken, V - 1) : 0; };
  // held[ch]: bit h when a packet holds channel ch as its h-th hop (this column).
  std::vector<std::uint64_t> held(static_cast<std::size_t>(n.channel_count()), 0);
  std::vector<std::int64_t> touched;
  auto hold = [&](std::int64_t ch, std::uint64_t bits) {
    auto& x = held[static_cast<std::size_t>(ch)];
    if (!x) touched.push_back(ch);
    x |= bits;
  };
  HeldStates states(n, adj);
  std::vector<Choice> buf;
  std::vector<std::uint64_t> in;
  std::vector<std::vector<std::int64_t>> by_dist;
  for (std::size_t a = 0; a < T.columns(); ++a) {
    const auto& M = T.members(a);
    const std::int64_t d0 = M[0];
    // Injections: every live chip's choices toward the members but itself.
    for (std::int64_t x : T.live()) {
      const std::int64_t to = T.other_member(a, x);
      if (to < 0) continue;
      fn.route_into({x, -1, 0, x, to, 0}, buf);
      for (const Choice& c : buf) hold(c.channel, 2);
    }
    // Switches 2 hops or more away, farthest first: what they hold is complete when reached.
    T.by_distance(a, by_dist);
    for (std::size_t h = by_dist.size(); h-- > 2;)
      for (std::int64_t u : by_dist[h]) {
        std::uint64_t here = 0;
        in.clear();
        for (const std::int64_t* ch = adj.begin(u); ch != adj.end(u); ++ch) {
          in.push_back(held[static_cast<std::size_t>(*ch ^ 1)]);
          here |= in.back();
        }
        if (!here) continue;
        fn.route_into({u, -1, 0, u, d0, 0}, buf);
        for (const Choice& c : buf) hold(c.channel, here << 1);
        if (!states.add(u, buf, in)) return std::nullopt;
      }
    // The attachment's switches: per member, everything held but the member's own injections.
    if (by_dist.size() > 1)
      for (std::int64_t u : by_dist[1])
        for (std::int64_t d : M) {
          std::uint64_t here = 0;
          in.clear();
          for (const std::int64_t* ch = adj.begin(u); ch != adj.end(u); ++ch) {
            const std::int64_t c = *ch ^ 1;
            in.push_back(T.src(c) != d ? held[static_cast<std::size_t>(c)] : 0);
            here |= in.back();
          }
          if (!here) continue;
          fn.route_into({u, -1, 0, u, d, 0}, buf);
          if (!states.add(u, buf, in)) return std::nullopt;
        }
    for (std::int64_t ch : touched) held[static_cast<std::size_t>(ch)] = 0;
    touched.clear();
  }
  // The dependencies: every state held at a switch, followed by each choice there.
  DependencyGraph g(n.channel_count() * V);
  states.each([&](std::int64_t in_channel, std::uint64_t mask, std::int64_t out) {
    for (std::uint64_t bits = mask; bits; bits &= bits - 1) {
      const int taken = __builtin_ctzll(bits);
      const std::int64_t from = in_channel * V + vc(taken - 1);
      const std::int64_t to = out * V + vc(taken);
      g.use(from);
      g.use(to);
      g.add(from, to);
    }
  });
  return summarize(g, n, V, 0);
}

} // namespace

std::optional<Verification>
verify_minimal_symmetric(const MinimalRouting& fn, const topo::Network& n, const topo::Faults& f) {
  Columns T;
  if (!T.init(fn, n, f)) return std::nullopt;
  const MinimalRouting& m = T.m();
  // Fault-free hops, for the stretch: the same routing without the faults.
  std::unique_ptr<MinimalRouting> nominal;
  if (!f.empty()) {
    try {
      nominal = std::make_unique<MinimalRouting>(n, topo::Faults{}, m.options());
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  const MinimalRouting& m0 = nominal ? *nominal : m;

  Verification v;
  v.hop_limit = T.hop_limit();
  auto cdg = dependency_graph(fn, T);
  if (!cdg) return std::nullopt;
  v.cdg = std::move(*cdg);
  v.deadlock_free = !v.cdg.cycle.has_value();

  // Chip classes: (live attachment, fault-free attachment); a pair's hops and fault-free hops
  // depend on its chips' classes alone (chips are joined to switches only).
  const auto& live = T.live();
  const auto L = static_cast<std::int64_t>(live.size());
  v.pairs = L * (L - 1);
  std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> ids;
  std::vector<std::int32_t> cls(static_cast<std::size_t>(T.chips()), -1);
  std::vector<std::int64_t> count, rep1, rep2;
  for (std::int64_t c : live) {
    auto [it, fresh] = ids.emplace(std::make_pair(m.attachment(c), m0.attachment(c)),
                                   static_cast<std::int32_t>(count.size()));
    if (fresh) {
      count.push_back(0);
      rep1.push_back(c);
      rep2.push_back(-1);
    }
    const auto k = static_cast<std::size_t>(it->second);
    if (count[k] == 1) rep2[k] = c;
    ++count[k];
    cls[static_cast<std::size_t>(c)] = it->second;
  }
  const std::size_t K = count.size();
  HopTally tally;
  std::vector<std::int64_t> unreachable_from(K, 0); // per source class
  auto pair_of = [&](std::size_t j, std::size_t k) -> std::pair<std::int64_t, std::int64_t> {
    if (j != k) return {rep1[j], rep1[k]};
    return {rep2[j], rep1[k]};
  };
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t j = 0; j < K; ++j) {
      const std::int64_t pairs = count[j] * count[k] - (j == k ? count[k] : 0);
      if (pairs == 0) continue;
      const auto [s, d] = pair_of(j, k);
      const std::int64_t h = m.distance(s, d);
      if (h < 0) {
        v.unreachable_pairs += pairs;
        unreachable_from[j] += pairs;
        continue;
      }
      tally.add(h, std::max<std::int64_t>(m0.distance(s, d), 0), pairs);
    }
  // The first unreachable pairs by (src, dst), with trace()'s reason.
  for (std::int64_t src : live) {
    if (v.unreachable.size() >= kMaxListedUnreachable) break;
    if (!unreachable_from[static_cast<std::size_t>(cls[static_cast<std::size_t>(src)])]) continue;
    for (std::int64_t dst : live) {
      if (dst == src || m.distance(src, dst) >= 0) continue;
      Path p = trace(fn, n, T.down_links(), T.down_chips(), src, dst, v.hop_limit);
      v.unreachable.push_back({src, dst, p.reason});
      if (v.unreachable.size() >= kMaxListedUnreachable) break;
    }
  }
  v.hops = tally.stats();
  return v;
}

std::optional<LoadReport> uniform_load_minimal_symmetric(const MinimalRouting& fn,
                                                         const topo::Network& n,
                                                         const topo::Faults& f) {
  Columns T;
  if (!T.init(fn, n, f)) return std::nullopt;
  const auto L = static_cast<std::int64_t>(T.live().size());
  // Units of 2^-E: every load is at most L^2 units of one, so below 2^52 units of 2^-E.
  int bits = 0;
  while (bits < 62 && (std::int64_t{1} << bits) <= L * L) ++bits;
  const int E = 52 - bits;
  if (E < 0) return std::nullopt;
  const std::int64_t unit = std::int64_t{1} << E;
  const std::int64_t N = T.chips();
  LoadReport r;
  std::vector<std::int64_t> load(static_cast<std::size_t>(n.channel_count()), 0);
  // Per switch (node - N), this column: inflow from above and from non-members, the finest
  // share arriving (its exponent), and the members' injections.
  std::vector<std::int64_t> inflow(static_cast<std::size_t>(T.switches()), 0);
  std::vector<std::int64_t> joined(inflow.size(), 0);
  std::vector<int> fine(inflow.size(), 0);
  std::vector<std::int64_t> own_start, own_channel, own_share; // per member: its injections
  std::vector<Choice> buf;
  std::vector<std::vector<std::int64_t>> by_dist;
  // Live chips without a live link reach no one and no one reaches them: traced, not split.
  if (T.detached() && L > 1) r.split_exact = false;
  for (std::size_t a = 0; a < T.columns(); ++a) {
    const auto& M = T.members(a);
    const auto m = static_cast<std::int64_t>(M.size());
    const std::int64_t d0 = M[0];
    std::fill(inflow.begin(), inflow.end(), 0);
    std::fill(joined.begin(), joined.end(), 0);
    std::fill(fine.begin(), fine.end(), 0);
    own_start.assign(M.size() + 1, 0);
    own_channel.clear();
    own_share.clear();
    int member_fine = 0;
    for (std::int64_t x : T.live()) {
      const bool member = T.m().attachment(x) == static_cast<std::int32_t>(a);
      const std::int64_t to = T.other_member(a, x);
      if (to < 0) continue;
      const std::int64_t dsts = member ? m - 1 : m; // the members x sends one unit to
      fn.route_into({x, -1, 0, x, to, 0}, buf);
      if (buf.empty()) {
        r.split_exact = false; // no route: the pair is traced (and carries nothing)
        continue;
      }
      const int lg = log2_exact(buf.size());
      if (lg < 0 || lg > E) return std::nullopt;
      const std::int64_t share = unit >> lg;
      for (const Choice& c : buf) {
        load[static_cast<std::size_t>(c.channel)] += dsts * share;
        const auto s = static_cast<std::size_t>(T.dst(c.channel) - N);
        if (member) {
          joined[s] += share;
          member_fine = std::max(member_fine, lg);
          own_channel.push_back(c.channel);
          own_share.push_back(share);
        } else {
          inflow[s] += share;
          fine[s] = std::max(fine[s], lg);
        }
      }
      if (member)
        own_start[static_cast<std::size_t>(T.position(x)) + 1] =
            static_cast<std::int64_t>(own_channel.size());
    }
    for (std::size_t i = 1; i < own_start.size(); ++i)
      own_start[i] = std::max(own_start[i], own_start[i - 1]);
    // Switches 2 hops or more away, farthest first: the same flow toward every member.
    T.by_distance(a, by_dist);
    for (std::size_t h = by_dist.size(); h-- > 2;)
      for (std::int64_t u : by_dist[h]) {
        const auto s = static_cast<std::size_t>(u - N);
        const std::int64_t x = inflow[s];
        if (!x) continue;
        fn.route_into({u, -1, 0, u, d0, 0}, buf);
        const int lg = log2_exact(buf.size());
        if (lg < 0 || fine[s] + lg > E || x % static_cast<std::int64_t>(buf.size()) != 0)
          return std::nullopt;
        const std::int64_t share = x >> lg;
        for (const Choice& c : buf) {
          load[static_cast<std::size_t>(c.channel)] += m * share;
          const auto t = static_cast<std::size_t>(T.dst(c.channel) - N);
          inflow[t] += share;
          fine[t] = std::max(fine[t], fine[s] + lg);
        }
      }
    // The attachment's switches: per member, all but its own injections, down its channels.
    if (by_dist.size() > 1)
      for (std::int64_t u : by_dist[1]) {
        const auto s = static_cast<std::size_t>(u - N);
        for (std::size_t i = 0; i < M.size(); ++i) {
          std::int64_t y = inflow[s] + joined[s];
          for (std::int64_t k = own_start[i]; k < own_start[i + 1]; ++k)
            if (T.dst(own_channel[static_cast<std::size_t>(k)]) == u)
              y -= own_share[static_cast<std::size_t>(k)];
          if (!y) continue;
          fn.route_into({u, -1, 0, u, M[i], 0}, buf);
          const int lg = log2_exact(buf.size());
          if (lg < 0 || std::max(fine[s], member_fine) + lg > E ||
              y % static_cast<std::int64_t>(buf.size()) != 0)
            return std::nullopt;
          for (const Choice& c : buf) load[static_cast<std::size_t>(c.channel)] += y >> lg;
        }
      }
  }
  r.channel_load.assign(load.size(), 0.0);
  for (std::size_t ch = 0; ch < load.size(); ++ch)
    r.channel_load[ch] = std::ldexp(static_cast<double>(load[ch]), -E);
  summarise(r);
  const auto Ld = static_cast<double>(L);
  r.throughput_bound = r.max_load > 0 ? (Ld - 1) / r.max_load : 0;
  return r;
}

std::shared_ptr<const SymmetricAnalysis> MinimalRouting::symmetric_analysis() const {
  return std::make_shared<
      SymmetricFunctions<MinimalRouting, verify_minimal_symmetric, uniform_load_minimal_symmetric>>(
      *this);
}

} // namespace icnkit::route
