#include "route/cdg.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"
#include "route/dependency_graph.hpp"

#include <algorithm>
#include <unordered_set>

namespace icnkit::route {
namespace {

struct WalkState {
  std::int64_t channel;
  int vc;
  std::uint32_t flags;
  std::int64_t src;
  std::int64_t depth; // hops taken so far
};

} // namespace

// Explores the routing function's states within one scope (one destination when the function is
// source-independent, one pair otherwise), each state once, adding the dependencies it finds and
// remembering the choice trace() would take from each state, so that the reachability check
// needs no routing calls of its own.
struct CdgExplorer::Impl {
  Impl(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
       std::int64_t hop_limit)
      : fn(fn), n(n), down_links(f.down_links(n)), down_chips(f.down_chips(n)), vcs(fn.vc_count()),
        hop_limit(hop_limit), g(n.channel_count() * vcs),
        seen(static_cast<std::size_t>(n.channel_count() * vcs), 0), next(seen.size(), kUnknown),
        next_stamp(seen.size(), 0), injection(static_cast<std::size_t>(n.n_chip), kUnknown) {
    // Flat per-channel tables: the walks look channels up tens of millions of times, and the
    // Link records are too large to stay in cache.
    const auto C = static_cast<std::size_t>(n.channel_count());
    src.resize(C);
    dst.resize(C);
    blocked.resize(C);
    for (std::size_t ch = 0; ch < C; ++ch) {
      const auto c = static_cast<std::int64_t>(ch);
      src[ch] = n.channel_src(c);
      dst[ch] = n.channel_dst(c);
      blocked[ch] = down_links[static_cast<std::size_t>(topo::link_of_channel(c))] ||
                    down_chips[static_cast<std::size_t>(dst[ch])];
    }
  }

  void walk(std::int64_t s_src, std::int64_t s_dst) {
    PacketState p{s_src, -1, 0, s_src, s_dst, 0};
    fn.route_into(p, buf);
    injection[static_cast<std::size_t>(s_src)] = push_choices(p, -1, 0);
    while (!stack.empty()) {
      WalkState s = stack.back();
      stack.pop_back();
      const std::int64_t node = dst[static_cast<std::size_t>(s.channel)];
      if (node == s_dst) continue;
      if (s.depth >= hop_limit) {
        ++over_limit;
        continue;
      }
      PacketState q{node, s.channel, s.vc, s.src, s_dst, s.flags};
      fn.route_into(q, buf);
      const std::int64_t v = s.channel * vcs + s.vc;
      const std::int64_t first = push_choices(q, v, s.depth);
      if (s.flags == 0) {
        next[static_cast<std::size_t>(v)] = first;
        next_stamp[static_cast<std::size_t>(v)] = stamp;
      }
    }
  }

  // Adds the dependencies and pushes the new states; returns trace()'s choice (see next()).
  std::int64_t push_choices(const PacketState& p, std::int64_t from_vertex, std::int64_t depth) {
    std::int64_t first = kUnknown;
    for (const Choice& c : buf) {
      if (c.channel < 0 || c.channel >= static_cast<std::int64_t>(src.size()) ||
          src[static_cast<std::size_t>(c.channel)] != p.node)
        fail_runtime("deadlock check", "the routing function chose channel " +
                                           std::to_string(c.channel) +
                                           ", which does not leave chip " + std::to_string(p.node));
      if (c.vc < 0 || c.vc >= vcs)
        fail_runtime("deadlock check", "the routing function chose VC " + std::to_string(c.vc) +
                                           " but declares " + std::to_string(vcs) + " VC classes");
      // A hop onto a failed link or chip is never taken: no packet ever holds that channel.
      if (blocked[static_cast<std::size_t>(c.channel)]) continue;
      const std::int64_t v = c.channel * vcs + c.vc;
      if (first == kUnknown) first = c.flags == 0 ? v : kFlagged;
      g.use(v);
      if (from_vertex >= 0) g.add(from_vertex, v);
      if (mark(v, c.flags)) stack.push_back({c.channel, c.vc, c.flags, p.src, depth + 1});
    }
    if (first == kUnknown) { // nothing permitted is up: say why, as trace() would
      std::string why;
      detail::pick(buf, n, down_links, down_chips, p.node, &why);
      reasons.push_back(why);
      first = -2 - static_cast<std::int64_t>(reasons.size());
    }
    return first;
  }

  // True when the state is new in this scope.
  bool mark(std::int64_t v, std::uint32_t flags) {
    if (flags == 0) {
      auto& s = seen[static_cast<std::size_t>(v)];
      if (s == stamp) return false;
      s = stamp;
      return true;
    }
    return seen_flagged.insert((static_cast<std::uint64_t>(v) << 32) ^ flags).second;
  }

  const RoutingFunction& fn;
  const topo::Network& n;
  std::vector<char> down_links, down_chips;
  int vcs;
  std::int64_t hop_limit;
  DependencyGraph g;
  std::vector<std::uint32_t> seen; // per vertex: the scope that last saw it (states with flags 0)
  std::unordered_set<std::uint64_t> seen_flagged;
  std::vector<std::int64_t> next; // per vertex, valid when next_stamp == stamp
  std::vector<std::uint32_t> next_stamp;
  std::vector<std::int64_t> injection; // per source chip, for the current scope
  std::vector<std::string> reasons;    // of the current scope
  std::uint32_t stamp = 0;
  std::vector<std::int64_t> src, dst; // per channel
  std::vector<char> blocked;          // per channel: its link or its far chip is down
  std::vector<WalkState> stack;
  std::vector<Choice> buf;
  std::int64_t over_limit = 0;
};

CdgExplorer::CdgExplorer(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                         std::int64_t hop_limit) {
  if (fn.vc_count() < 1)
    fail_runtime("deadlock check", "the routing function declares no VC class");
  impl_ = std::make_unique<Impl>(fn, n, f, hop_limit);
}
CdgExplorer::~CdgExplorer() = default;

void CdgExplorer::begin_scope() {
  ++impl_->stamp;
  impl_->seen_flagged.clear();
  impl_->reasons.clear();
}
void CdgExplorer::walk(std::int64_t src, std::int64_t dst) {
  impl_->walk(src, dst);
}
int CdgExplorer::vcs() const {
  return impl_->vcs;
}
std::int64_t CdgExplorer::injection_next(std::int64_t src) const {
  return impl_->injection[static_cast<std::size_t>(src)];
}
CdgExplorer::Tables CdgExplorer::tables() const {
  return {impl_->next.data(), impl_->next_stamp.data(), impl_->stamp, impl_->dst.data(),
          impl_->vcs};
}
std::int64_t CdgExplorer::next(std::int64_t vertex) const {
  const auto v = static_cast<std::size_t>(vertex);
  return impl_->next_stamp[v] == impl_->stamp ? impl_->next[v] : kUnknown;
}
std::int64_t CdgExplorer::vertex_node(std::int64_t vertex) const {
  return impl_->dst[static_cast<std::size_t>(vertex / impl_->vcs)];
}
const std::string& CdgExplorer::reason(std::int64_t code) const {
  return impl_->reasons[static_cast<std::size_t>(-code - 3)];
}

void CdgExplorer::absorb(const CdgExplorer& other) {
  impl_->g.absorb(other.impl_->g);
  impl_->over_limit += other.impl_->over_limit;
}

CdgSummary CdgExplorer::summary() const {
  return summarize(impl_->g, impl_->n, impl_->vcs, impl_->over_limit);
}

CdgSummary check_deadlock(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                          std::int64_t hop_limit) {
  CdgExplorer x(fn, n, f, hop_limit);
  const auto down = f.down_chips(n);
  std::vector<std::int64_t> live;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!down[static_cast<std::size_t>(c)]) live.push_back(c);
  Progress progress("deadlock check", live.size());
  const bool shared = fn.source_independent();
  for (std::size_t k = 0; k < live.size(); ++k) {
    const std::int64_t dst = live[k];
    if (shared) x.begin_scope();
    for (std::int64_t src : live) {
      if (src == dst) continue;
      if (!shared) x.begin_scope();
      x.walk(src, dst);
    }
    progress.update(k + 1);
  }
  progress.finish();
  return x.summary();
}

} // namespace icnkit::route
