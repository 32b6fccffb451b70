#include "route/cdg.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"

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

class Graph {
public:
  explicit Graph(std::int64_t vertices)
      : succ_(static_cast<std::size_t>(vertices)), used_(static_cast<std::size_t>(vertices), 0) {}

  void use(std::int64_t v) {
    if (!used_[static_cast<std::size_t>(v)]) {
      used_[static_cast<std::size_t>(v)] = 1;
      ++vertices_;
    }
  }
  void add(std::int64_t u, std::int64_t w) {
    auto& s = succ_[static_cast<std::size_t>(u)];
    // Out-degrees are tiny (the dimensions a channel can turn into), so a scan beats a hash set.
    for (auto x : s)
      if (x == w) return;
    s.push_back(w);
    ++edges_;
  }
  std::int64_t vertices() const { return vertices_; }
  std::int64_t edges() const { return edges_; }

  // One cycle as a list of vertices v0 -> v1 -> ... -> v0, or empty. Iterative DFS (a recursive
  // one would overflow the stack on long dependency chains), vertices and successors in id
  // order so the cycle reported is deterministic.
  std::vector<std::int64_t> find_cycle() {
    for (auto& s : succ_) std::sort(s.begin(), s.end());
    const std::size_t V = succ_.size();
    std::vector<char> color(V, 0); // 0 new, 1 on the DFS stack, 2 finished
    std::vector<std::pair<std::int64_t, std::size_t>> stack;
    for (std::size_t root = 0; root < V; ++root) {
      if (color[root] || succ_[root].empty()) continue;
      stack.push_back({static_cast<std::int64_t>(root), 0});
      color[root] = 1;
      while (!stack.empty()) {
        auto& [v, next] = stack.back();
        const auto& s = succ_[static_cast<std::size_t>(v)];
        if (next == s.size()) {
          color[static_cast<std::size_t>(v)] = 2;
          stack.pop_back();
          continue;
        }
        std::int64_t w = s[next++];
        if (color[static_cast<std::size_t>(w)] == 1) {
          std::vector<std::int64_t> cycle;
          std::size_t i = stack.size();
          while (stack[i - 1].first != w) --i;
          for (; i <= stack.size(); ++i) cycle.push_back(stack[i - 1].first);
          return cycle;
        }
        if (color[static_cast<std::size_t>(w)] == 0) {
          color[static_cast<std::size_t>(w)] = 1;
          stack.push_back({w, 0});
        }
      }
    }
    return {};
  }

private:
  std::vector<std::vector<std::int64_t>> succ_;
  std::vector<char> used_;
  std::int64_t vertices_ = 0, edges_ = 0;
};

// Explores the routing function's states within one scope (one destination when the function is
// source-independent, one pair otherwise), each state once, adding the dependencies it finds.
class Walker {
public:
  Walker(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f, std::int64_t hop_limit,
         Graph& g)
      : fn_(fn), n_(n), down_links_(f.down_links(n)), down_chips_(f.down_chips(n)), vcs_(fn.vc_count()),
        hop_limit_(hop_limit), g_(g), seen_(static_cast<std::size_t>(n.channel_count() * vcs_), 0) {}

  void begin_scope() {
    ++stamp_;
    seen_flagged_.clear();
  }

  void walk(std::int64_t src, std::int64_t dst) {
    PacketState p{src, -1, 0, src, dst, 0};
    fn_.route_into(p, buf_);
    push_choices(p, -1, 0);
    while (!stack_.empty()) {
      WalkState s = stack_.back();
      stack_.pop_back();
      std::int64_t node = n_.channel_dst(s.channel);
      if (node == dst) continue;
      if (s.depth >= hop_limit_) {
        ++over_limit_;
        continue;
      }
      PacketState q{node, s.channel, s.vc, s.src, dst, s.flags};
      fn_.route_into(q, buf_);
      push_choices(q, s.channel * vcs_ + s.vc, s.depth);
    }
  }

  std::int64_t over_limit() const { return over_limit_; }

private:
  void push_choices(const PacketState& p, std::int64_t from_vertex, std::int64_t depth) {
    for (const Choice& c : buf_) {
      if (c.channel < 0 || c.channel >= n_.channel_count() || n_.channel_src(c.channel) != p.node)
        fail_runtime("deadlock check", "the routing function chose channel " + std::to_string(c.channel) +
                                           ", which does not leave chip " + std::to_string(p.node));
      if (c.vc < 0 || c.vc >= vcs_)
        fail_runtime("deadlock check", "the routing function chose VC " + std::to_string(c.vc) +
                                           " but declares " + std::to_string(vcs_) + " VC classes");
      // A hop onto a failed link or chip is never taken: no packet ever holds that channel.
      if (down_links_[static_cast<std::size_t>(topo::link_of_channel(c.channel))] ||
          down_chips_[static_cast<std::size_t>(n_.channel_dst(c.channel))])
        continue;
      std::int64_t v = c.channel * vcs_ + c.vc;
      g_.use(v);
      if (from_vertex >= 0) g_.add(from_vertex, v);
      if (mark(v, c.flags)) stack_.push_back({c.channel, c.vc, c.flags, p.src, depth + 1});
    }
  }

  // True when the state is new in this scope.
  bool mark(std::int64_t v, std::uint32_t flags) {
    if (flags == 0) {
      auto& s = seen_[static_cast<std::size_t>(v)];
      if (s == stamp_) return false;
      s = stamp_;
      return true;
    }
    return seen_flagged_.insert((static_cast<std::uint64_t>(v) << 32) ^ flags).second;
  }

  const RoutingFunction& fn_;
  const topo::Network& n_;
  std::vector<char> down_links_, down_chips_;
  int vcs_;
  std::int64_t hop_limit_;
  Graph& g_;
  std::vector<std::uint32_t> seen_; // per vertex: the scope that last saw it (states with flags 0)
  std::unordered_set<std::uint64_t> seen_flagged_;
  std::uint32_t stamp_ = 0;
  std::vector<WalkState> stack_;
  std::vector<Choice> buf_;
  std::int64_t over_limit_ = 0;
};

} // namespace

CdgSummary check_deadlock(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                          std::int64_t hop_limit) {
  const int vcs = fn.vc_count();
  if (vcs < 1) fail_runtime("deadlock check", "the routing function declares no VC class");
  Graph g(n.channel_count() * vcs);
  Walker w(fn, n, f, hop_limit, g);
  const auto down = f.down_chips(n);
  std::vector<std::int64_t> live;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!down[static_cast<std::size_t>(c)]) live.push_back(c);

  Progress progress("deadlock check", live.size());
  const bool shared = fn.source_independent();
  for (std::size_t k = 0; k < live.size(); ++k) {
    const std::int64_t dst = live[k];
    if (shared) w.begin_scope();
    for (std::int64_t src : live) {
      if (src == dst) continue;
      if (!shared) w.begin_scope();
      w.walk(src, dst);
    }
    progress.update(k + 1);
  }
  progress.finish();

  CdgSummary s;
  s.vertices = g.vertices();
  s.edges = g.edges();
  s.walks_over_hop_limit = w.over_limit();
  auto cycle = g.find_cycle();
  if (!cycle.empty()) {
    std::vector<CycleHop> hops;
    for (std::int64_t v : cycle) {
      std::int64_t ch = v / vcs;
      hops.push_back({n.channel_src(ch), n.channel_dst(ch), topo::link_of_channel(ch), static_cast<int>(v % vcs)});
    }
    s.cycle = std::move(hops);
  }
  return s;
}

} // namespace icnkit::route
