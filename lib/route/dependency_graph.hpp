// The channel-dependency graph itself: vertices (channel, vc) as ids channel * vcs + vc, the
// distinct dependencies between them, and one cycle when there is one. Shared by the walks of
// cdg.cpp and the symmetric construction of dor_symmetry.cpp, so that both report the same
// counts and, the graph being the same set of edges, the same cycle.
#pragma once
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace icnkit::route {

class DependencyGraph {
public:
  explicit DependencyGraph(std::int64_t vertices)
      : count_(static_cast<std::size_t>(vertices), 0),
        slots_(static_cast<std::size_t>(vertices) * kInline),
        overflow_(static_cast<std::size_t>(vertices)), used_(static_cast<std::size_t>(vertices), 0),
        last_(static_cast<std::size_t>(vertices), -1) {}

  void use(std::int64_t v) {
    char& u = used_[static_cast<std::size_t>(v)];
    if (!u) {
      u = 1;
      ++vertices_;
    }
  }
  void add(std::int64_t u, std::int64_t w) {
    // Out-degrees are tiny (the dimensions a channel can turn into): the first kInline successors
    // live in one flat array, which keeps the tens of millions of duplicate checks in cache.
    const auto uu = static_cast<std::size_t>(u);
    const auto ww = static_cast<std::int32_t>(w);
    // Successive destinations mostly repeat a vertex's last dependency: one small array answers
    // those without touching the slots.
    if (last_[uu] == ww) return;
    last_[uu] = ww;
    std::int32_t* s = &slots_[uu * kInline];
    const std::uint8_t k = count_[uu];
    for (std::uint8_t i = 0; i < k && i < kInline; ++i)
      if (s[i] == ww) return;
    if (k >= kInline) {
      auto& o = overflow_[uu];
      if (std::find(o.begin(), o.end(), ww) != o.end()) return;
      o.push_back(ww);
    } else {
      s[k] = ww;
    }
    if (k < 255) ++count_[uu];
    ++edges_;
  }
  std::int64_t vertices() const { return vertices_; }
  // Adds every vertex and dependency of `o` (a graph over the same vertices).
  void absorb(const DependencyGraph& o) {
    for (std::size_t v = 0; v < o.used_.size(); ++v) {
      if (!o.used_[v]) continue;
      use(static_cast<std::int64_t>(v));
      for (auto w : o.successors(v)) add(static_cast<std::int64_t>(v), w);
    }
  }
  std::int64_t edges() const { return edges_; }

  std::vector<std::int64_t> successors(std::size_t v) const {
    std::vector<std::int64_t> out;
    for (std::uint8_t i = 0; i < count_[v] && i < kInline; ++i)
      out.push_back(slots_[v * kInline + i]);
    for (auto w : overflow_[v]) out.push_back(w);
    std::sort(out.begin(), out.end());
    return out;
  }

  // One cycle as a list of vertices v0 -> v1 -> ... -> v0, or empty. Iterative DFS (a recursive
  // one would overflow the stack on long dependency chains), vertices and successors in id
  // order so the cycle reported is deterministic.
  std::vector<std::int64_t> find_cycle() const {
    const std::size_t V = count_.size();
    std::vector<std::vector<std::int64_t>> succ(V);
    for (std::size_t v = 0; v < V; ++v) succ[v] = successors(v);
    std::vector<char> color(V, 0); // 0 new, 1 on the DFS stack, 2 finished
    std::vector<std::pair<std::int64_t, std::size_t>> stack;
    for (std::size_t root = 0; root < V; ++root) {
      if (color[root] || succ[root].empty()) continue;
      stack.push_back({static_cast<std::int64_t>(root), 0});
      color[root] = 1;
      while (!stack.empty()) {
        auto& [v, next] = stack.back();
        const auto& s = succ[static_cast<std::size_t>(v)];
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
  static constexpr std::uint8_t kInline = 6;
  std::vector<std::uint8_t> count_;
  std::vector<std::int32_t> slots_;
  std::vector<std::vector<std::int32_t>> overflow_;
  std::vector<char> used_;
  std::vector<std::int32_t> last_;
  std::int64_t vertices_ = 0, edges_ = 0;
};

// The summary the routing section records: counts and the cycle as {from, to, link, vc} hops.
inline CdgSummary summarize(const DependencyGraph& g, const topo::Network& n, int vcs,
                            std::int64_t walks_over_hop_limit) {
  CdgSummary s;
  s.vertices = g.vertices();
  s.edges = g.edges();
  s.walks_over_hop_limit = walks_over_hop_limit;
  auto cycle = g.find_cycle();
  if (!cycle.empty()) {
    std::vector<CycleHop> hops;
    for (std::int64_t v : cycle) {
      std::int64_t ch = v / vcs;
      hops.push_back({n.channel_src(ch), n.channel_dst(ch), topo::link_of_channel(ch),
                      static_cast<int>(v % vcs)});
    }
    s.cycle = std::move(hops);
  }
  return s;
}

} // namespace icnkit::route
