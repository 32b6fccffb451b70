#include "route/dor_symmetry.hpp"

#include "route/dependency_graph.hpp"
#include "route/dor.hpp"
#include "route/hop_tally.hpp"
#include "route/symmetric.hpp"
#include "route/verify.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

namespace icnkit::route {
namespace {

// Above these the tables cost more than they save (a ring of hundreds of chips, or failed links
// that cut a large share of all pairs): the caller walks every pair instead.
constexpr std::int64_t kMaxLegHops = std::int64_t{1} << 26;
constexpr std::int64_t kMaxCutPairs = std::int64_t{1} << 26;

struct Leg {
  std::int32_t t, x; // the leg's destination and source coordinate
};

// What both the verification and the load need: the geometry, the failed channels and the leg
// table of every dimension.
class DorTables {
public:
  // The tables and the pairs the faults cut (cut()); false when the symmetric path does not
  // apply.
  bool init(const DorRouting& fn, const topo::Network& n, const topo::Faults& f) {
    return build(fn, n, f) && cut_pairs(cut_);
  }
  // Every pair (src * N + dst) whose fault-free route crosses a failed link, sorted.
  const std::vector<std::uint64_t>& cut() const { return cut_; }

private:
  bool build(const DorRouting& fn, const topo::Network& n, const topo::Faults& f) {
    dor_ = &fn;
    if (!f.chips.empty()) return false;
    n_ = &n;
    const topo::TorusGeometry& geo = dor_->geometry();
    D_ = geo.dims();
    N_ = geo.count();
    if (N_ != n.n_chip || static_cast<std::int64_t>(n.nodes.size()) != N_) return false;
    vcs_ = fn.vc_count();
    std::int64_t hops = 0;
    for (int a = 0; a < D_; ++a) hops += std::int64_t{geo.size(a)} * geo.size(a) * geo.size(a);
    if (hops > kMaxLegHops) return false;
    tab_ = std::make_unique<topo::GridTables>(geo);
    order_ = dor_->options().dimension_order;
    rank_.assign(static_cast<std::size_t>(D_), 0);
    for (int i = 0; i < D_; ++i)
      rank_[static_cast<std::size_t>(order_[static_cast<std::size_t>(i)])] = i;

    down_links_ = f.down_links(n);
    down_chips_ = f.down_chips(n);
    const auto C = static_cast<std::size_t>(n.channel_count());
    blocked_.assign(C, 0);
    line_faulty_.assign(static_cast<std::size_t>(N_ * D_), 0);
    for (std::size_t ch = 0; ch < C; ++ch) {
      const auto c = static_cast<std::int64_t>(ch);
      if (!down_links_[static_cast<std::size_t>(topo::link_of_channel(c))]) continue;
      blocked_[ch] = 1;
      any_fault_ = true;
      const std::int64_t u = n.channel_src(c);
      const int a = n.links[static_cast<std::size_t>(topo::link_of_channel(c))].dim;
      if (a < 0 || a >= D_) return false;
      line_faulty_[static_cast<std::size_t>(line(u, a) * D_ + a)] = 1;
    }
    return build_legs(fn);
  }

public:
  int dims() const { return D_; }
  int vcs() const { return vcs_; }
  std::int64_t chips() const { return N_; }
  int size(int a) const { return dor_->geometry().size(a); }
  std::int64_t stride(int a) const { return dor_->geometry().stride(a); }
  const topo::GridTables& tab() const { return *tab_; }
  const std::vector<int>& order() const { return order_; }
  int rank(int a) const { return rank_[static_cast<std::size_t>(a)]; }
  bool blocked(std::int64_t ch) const { return blocked_[static_cast<std::size_t>(ch)] != 0; }
  bool any_fault() const { return any_fault_; }
  const std::vector<char>& down_links() const { return down_links_; }
  const std::vector<char>& down_chips() const { return down_chips_; }
  // The chip of u's line in dimension a with coordinate 0 there.
  std::int64_t line(std::int64_t u, int a) const { return u - tab_->coord(u, a) * stride(a); }
  bool line_faulty(std::int64_t u, int a) const {
    return line_faulty_[static_cast<std::size_t>(line(u, a) * D_ + a)] != 0;
  }

  // The legs taking the hop from coordinate pos in direction dir on VC vc: [first, last).
  std::pair<const Leg*, const Leg*> legs(int a, int pos, int dir, int vc) const {
    const auto& st = start_[static_cast<std::size_t>(a)];
    const auto k = static_cast<std::size_t>(key(pos, dir, vc));
    const Leg* base = legs_[static_cast<std::size_t>(a)].data();
    return {base + st[k], base + st[k + 1]};
  }

  // Fault-free hops from src to dst: the sum of the ring distances.
  std::int64_t distance(std::int64_t src, std::int64_t dst) const {
    const int* p = tab_->coords(src);
    const int* q = tab_->coords(dst);
    std::int64_t h = 0;
    for (int a = 0; a < D_; ++a) {
      const int s = size(a), d = p[a] > q[a] ? p[a] - q[a] : q[a] - p[a];
      h += std::min(d, s - d);
    }
    return h;
  }

  // True when the arc of w's line in dimension a from coordinate x to w, going dir, has no
  // failed link.
  bool arc_clean(std::int64_t w, int a, int dir, int x) const {
    std::int64_t node = w + (x - tab_->coord(w, a)) * stride(a);
    for (int k = 0; k <= size(a); ++k) {
      if (node == w) return true;
      const std::int64_t ch = tab_->channel(node, a, dir);
      if (blocked(ch)) return false;
      node = n_->channel_dst(ch);
    }
    return false;
  }

private:
  // The pairs cut() gives; false when they are more than kMaxCutPairs.
  bool cut_pairs(std::vector<std::uint64_t>& out) const {
    out.clear();
    if (!any_fault_) return true;
    for (int pass = 0; pass < 2; ++pass) {
      std::int64_t count = 0;
      for (std::int64_t u = 0; u < N_; ++u)
        for (int a = 0; a < D_; ++a)
          for (int dir : {-1, +1}) {
            if (size(a) < 2 || !blocked(tab_->channel(u, a, dir))) continue;
            // The source's dimensions before a and the destination's after it are free.
            const int i = rank(a), pos = tab_->coord(u, a);
            std::vector<std::int64_t> free_src{0}, free_dst{0};
            for (int j = 0; j < D_; ++j) {
              if (j == i) continue;
              const int e = order_[static_cast<std::size_t>(j)];
              auto& list = j < i ? free_src : free_dst;
              std::vector<std::int64_t> next;
              for (std::int64_t l : list)
                for (int y = 0; y < size(e); ++y)
                  next.push_back(l + (y - tab_->coord(u, e)) * stride(e));
              list = std::move(next);
            }
            for (int vc = 0; vc < vcs_; ++vc) {
              auto [first, last] = legs(a, pos, dir, vc);
              count += static_cast<std::int64_t>(last - first) *
                       static_cast<std::int64_t>(free_src.size() * free_dst.size());
              if (pass == 0) continue;
              for (const Leg* g = first; g != last; ++g) {
                const std::int64_t bs = u + (g->x - pos) * stride(a);
                const std::int64_t bd = u + (g->t - pos) * stride(a);
                for (std::int64_t ls : free_src)
                  for (std::int64_t ld : free_dst)
                    out.push_back(static_cast<std::uint64_t>((bs + ls) * N_ + bd + ld));
              }
            }
          }
      if (pass == 0) {
        if (count > kMaxCutPairs) return false;
        out.reserve(static_cast<std::size_t>(count));
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return true;
  }

  int key(int pos, int dir, int vc) const { return (pos * 2 + (dir > 0 ? 1 : 0)) * vcs_ + vc; }

  // Walks the routing function from every x to every t on the line of each dimension through
  // chip 0; the hops it takes are those of every line (see the header).
  bool build_legs(const RoutingFunction& fn) {
    std::vector<Choice> buf;
    legs_.assign(static_cast<std::size_t>(D_), {});
    start_.assign(static_cast<std::size_t>(D_), {});
    for (int a = 0; a < D_; ++a) {
      const int s = size(a);
      std::vector<std::pair<int, Leg>> found; // (key, leg)
      for (int x = 0; s >= 2 && x < s; ++x)
        for (int t = 0; t < s; ++t) {
          if (t == x) continue;
          const std::int64_t src = x * stride(a), dst = t * stride(a);
          PacketState p{src, -1, 0, src, dst, 0};
          for (int steps = 0; p.node != dst; ++steps) {
            fn.route_into(p, buf);
            if (steps > s || buf.size() != 1 || buf[0].flags != 0) return false;
            const Choice& c = buf[0];
            const int dir = c.channel == tab_->channel(p.node, a, +1)   ? +1
                            : c.channel == tab_->channel(p.node, a, -1) ? -1
                                                                        : 0;
            if (dir == 0 || c.vc < 0 || c.vc >= vcs_) return false;
            found.push_back({key(tab_->coord(p.node, a), dir, c.vc),
                             {static_cast<std::int32_t>(t), static_cast<std::int32_t>(x)}});
            p = {n_->channel_dst(c.channel), c.channel, c.vc, src, dst, 0};
          }
        }
      std::sort(found.begin(), found.end(), [](const auto& l, const auto& r) {
        return std::tie(l.first, l.second.t, l.second.x) <
               std::tie(r.first, r.second.t, r.second.x);
      });
      const auto keys = static_cast<std::size_t>(s * 2 * vcs_);
      auto& st = start_[static_cast<std::size_t>(a)];
      st.assign(keys + 1, 0);
      for (auto& [k, g] : found) ++st[static_cast<std::size_t>(k) + 1];
      for (std::size_t k = 0; k < keys; ++k) st[k + 1] += st[k];
      auto& lg = legs_[static_cast<std::size_t>(a)];
      for (auto& [k, g] : found) lg.push_back(g);
    }
    return true;
  }

  const DorRouting* dor_ = nullptr;
  const topo::Network* n_ = nullptr;
  int D_ = 0, vcs_ = 1;
  std::int64_t N_ = 0;
  std::unique_ptr<topo::GridTables> tab_;
  std::vector<int> order_, rank_;
  std::vector<char> down_links_, down_chips_;
  std::vector<char> blocked_;     // per channel: its link is down
  std::vector<char> line_faulty_; // per (line(u, a) * D + a): a link of that line is down
  bool any_fault_ = false;
  std::vector<std::uint64_t> cut_;
  std::vector<std::vector<Leg>> legs_;           // per dimension, sorted by (key, t, x)
  std::vector<std::vector<std::int64_t>> start_; // per dimension, per key: first leg
};

CdgSummary dependency_graph(const RoutingFunction& fn, const topo::Network& n, const DorTables& T) {
  const int D = T.dims(), vcs = T.vcs();
  const topo::GridTables& tab = T.tab();
  DependencyGraph g(n.channel_count() * vcs);
  std::vector<Choice> buf;
  auto follow = [&](std::int64_t from, std::int64_t w, std::int64_t c1, int v1, std::int64_t dst) {
    fn.route_into({w, c1, v1, w, dst, 0}, buf);
    for (const Choice& c : buf) {
      if (T.blocked(c.channel)) continue;
      const std::int64_t to = c.channel * vcs + c.vc;
      g.use(to);
      g.add(from, to);
    }
  };
  for (std::int64_t u = 0; u < T.chips(); ++u)
    for (int a = 0; a < D; ++a) {
      if (T.size(a) < 2) continue;
      const int i = T.rank(a), pos = tab.coord(u, a);
      const bool faulty = T.line_faulty(u, a);
      for (int dir : {-1, +1}) {
        const std::int64_t c1 = tab.channel(u, a, dir);
        if (T.blocked(c1)) continue; // never held
        const std::int64_t w = n.channel_dst(c1);
        const int* cw = tab.coords(w);
        for (int v1 = 0; v1 < vcs; ++v1) {
          const std::int64_t from = c1 * vcs + v1;
          auto [first, last] = T.legs(a, pos, dir, v1);
          for (const Leg* g0 = first; g0 != last;) {
            const Leg* g1 = g0;
            bool witness = !faulty;
            for (; g1 != last && g1->t == g0->t; ++g1)
              if (!witness) witness = T.arc_clean(w, a, dir, g1->x);
            const int t = g0->t;
            g0 = g1;
            if (!witness) continue;
            g.use(from);
            if (t != cw[a]) {
              follow(from, w, c1, v1, w + (t - cw[a]) * T.stride(a));
              continue;
            }
            // The leg ends at w: the next hop is in the first later dimension that differs.
            for (int j = i + 1; j < D; ++j) {
              const int e = T.order()[static_cast<std::size_t>(j)];
              for (int y = 0; y < T.size(e); ++y)
                if (y != cw[e]) follow(from, w, c1, v1, w + (y - cw[e]) * T.stride(e));
            }
          }
        }
      }
    }
  return summarize(g, n, vcs, 0);
}

} // namespace

std::optional<Verification> verify_dor_symmetric(const DorRouting& fn, const topo::Network& n,
                                                 const topo::Faults& f) {
  DorTables T;
  if (!T.init(fn, n, f)) return std::nullopt;
  const std::vector<std::uint64_t>& cut = T.cut();
  const std::int64_t N = T.chips();

  Verification v;
  v.hop_limit = default_hop_limit(n);
  v.cdg = dependency_graph(fn, n, T);
  v.deadlock_free = !v.cdg.cycle.has_value();
  v.pairs = N * (N - 1);

  // Fault-free hop histogram: per dimension, how many offsets lie at each ring distance; the
  // convolution over dimensions counts the offset vectors by total distance, each N pairs.
  std::vector<std::int64_t> offsets{1};
  for (int a = 0; a < T.dims(); ++a) {
    const int s = T.size(a);
    std::vector<std::int64_t> next(offsets.size() + static_cast<std::size_t>(s / 2), 0);
    for (std::size_t h = 0; h < offsets.size(); ++h)
      for (int d = 0; d < s; ++d)
        next[h + static_cast<std::size_t>(std::min(d, s - d))] += offsets[h];
    offsets = std::move(next);
  }
  std::vector<std::int64_t> histogram(offsets.size(), 0);
  for (std::size_t h = 1; h < offsets.size(); ++h) histogram[h] = offsets[h] * N;
  // Pairs cut by a failed link are not delivered; DOR does not route around faults.
  for (std::uint64_t p : cut) {
    const auto src = static_cast<std::int64_t>(p / static_cast<std::uint64_t>(N));
    const auto dst = static_cast<std::int64_t>(p % static_cast<std::uint64_t>(N));
    --histogram[static_cast<std::size_t>(T.distance(src, dst))];
  }
  v.unreachable_pairs = static_cast<std::int64_t>(cut.size());
  for (std::size_t k = 0; k < cut.size() && k < kMaxListedUnreachable; ++k) {
    const auto src = static_cast<std::int64_t>(cut[k] / static_cast<std::uint64_t>(N));
    const auto dst = static_cast<std::int64_t>(cut[k] % static_cast<std::uint64_t>(N));
    Path p = trace(fn, n, T.down_links(), T.down_chips(), src, dst, v.hop_limit);
    v.unreachable.push_back({src, dst, p.reason});
  }
  // Every delivered pair takes a shortest route: its hops are its fault-free shortest hops.
  HopTally tally;
  for (std::size_t h = 1; h < histogram.size(); ++h)
    if (histogram[h])
      tally.add(static_cast<std::int64_t>(h), static_cast<std::int64_t>(h), histogram[h]);
  v.hops = tally.stats();
  return v;
}

std::optional<LoadReport> uniform_load_dor_symmetric(const DorRouting& fn, const topo::Network& n,
                                                     const topo::Faults& f) {
  DorTables T;
  if (!T.init(fn, n, f)) return std::nullopt;
  const std::vector<std::uint64_t>& cut = T.cut();
  const std::int64_t N = T.chips();
  const topo::GridTables& tab = T.tab();
  const auto C = static_cast<std::size_t>(n.channel_count());
  // Whole units per channel: the all-pairs flow splits nothing under DOR, so its sums are these
  // integers exactly.
  std::vector<std::int64_t> load(C, 0);
  for (std::int64_t u = 0; u < N; ++u)
    for (int a = 0; a < T.dims(); ++a) {
      if (T.size(a) < 2) continue;
      const int pos = tab.coord(u, a);
      for (int dir : {-1, +1}) {
        std::int64_t legs = 0;
        for (int vc = 0; vc < T.vcs(); ++vc) {
          auto [first, last] = T.legs(a, pos, dir, vc);
          legs += last - first;
        }
        load[static_cast<std::size_t>(tab.channel(u, a, dir))] += legs * (N / T.size(a));
      }
    }
  LoadReport r;
  // A cut pair's unit stops before the failed channel; one cut at its first hop is traced by
  // the all-pairs flow (and so not split exactly).
  std::vector<Choice> buf;
  for (std::uint64_t p : cut) {
    const auto src = static_cast<std::int64_t>(p / static_cast<std::uint64_t>(N));
    const auto dst = static_cast<std::int64_t>(p % static_cast<std::uint64_t>(N));
    PacketState s{src, -1, 0, src, dst, 0};
    bool stopped = false;
    for (std::int64_t k = 0; s.node != dst; ++k) {
      fn.route_into(s, buf);
      const Choice& c = buf.front();
      if (!stopped && T.blocked(c.channel)) {
        stopped = true;
        if (k == 0) r.split_exact = false;
      }
      if (stopped) --load[static_cast<std::size_t>(c.channel)];
      s = {n.channel_dst(c.channel), c.channel, c.vc, src, dst, 0};
    }
  }
  r.channel_load.assign(C, 0.0);
  for (std::size_t ch = 0; ch < C; ++ch) r.channel_load[ch] = static_cast<double>(load[ch]);
  summarise(r);
  r.throughput_bound = r.max_load > 0 ? static_cast<double>(N - 1) / r.max_load : 0;
  return r;
}

std::shared_ptr<const SymmetricAnalysis> DorRouting::symmetric_analysis() const {
  return std::make_shared<
      SymmetricFunctions<DorRouting, verify_dor_symmetric, uniform_load_dor_symmetric>>(*this);
}

} // namespace icnkit::route
