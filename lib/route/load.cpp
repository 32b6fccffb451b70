#include "route/load.hpp"

#include "core/progress.hpp"
#include "route/symmetric.hpp"

#include <algorithm>

namespace icnkit::route {

void summarise(LoadReport& r) {
  double sum = 0;
  std::int64_t used = 0;
  for (std::size_t ch = 0; ch < r.channel_load.size(); ++ch) {
    const double x = r.channel_load[ch];
    if (x <= 0) continue;
    sum += x;
    ++used;
    if (x > r.max_load) {
      r.max_load = x;
      r.max_channel = static_cast<std::int64_t>(ch);
    }
  }
  r.mean_load = used ? sum / static_cast<double>(used) : 0;
}

LoadReport uniform_load(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                        std::int64_t hop_limit) {
  if (const auto analysis = fn.symmetric_analysis())
    if (auto r = analysis->uniform_load(n, f)) return std::move(*r);
  return uniform_load_all_pairs(fn, n, f, hop_limit);
}

LoadReport uniform_load_all_pairs(const RoutingFunction& fn, const topo::Network& n,
                                  const topo::Faults& f, std::int64_t hop_limit) {
  return demand_load(fn, n, f, hop_limit, nullptr);
}

LoadReport demand_load(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                       std::int64_t hop_limit, const Demand& demand) {
  // Without a demand every ordered pair of distinct live chips sends one unit.
  auto weight = [&](std::int64_t src, std::int64_t dst) { return demand ? demand(src, dst) : 1.0; };
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  const int vcs = fn.vc_count();
  const auto C = static_cast<std::size_t>(n.channel_count());
  const std::size_t V = C * static_cast<std::size_t>(vcs);
  std::vector<char> blocked(C);
  for (std::size_t ch = 0; ch < C; ++ch)
    blocked[ch] =
        down_links[static_cast<std::size_t>(
            topo::link_of_channel(static_cast<std::int64_t>(ch)))] ||
        down_chips[static_cast<std::size_t>(n.channel_dst(static_cast<std::int64_t>(ch)))];
  std::vector<std::int64_t> live;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!down_chips[static_cast<std::size_t>(c)]) live.push_back(c);

  LoadReport r;
  r.channel_load.assign(C, 0.0);
  // Per destination: the states' successors, in-degrees and inflow.
  std::vector<std::uint32_t> stamp(V, 0);
  std::vector<std::vector<std::int64_t>> succ(V);
  std::vector<std::int32_t> indeg(V, 0);
  std::vector<double> inflow(V, 0.0);
  std::vector<std::int64_t> order, stack, queue;
  std::vector<Choice> buf;
  std::vector<char> traced(static_cast<std::size_t>(n.n_chip), 0);
  auto live_choices = [&](const PacketState& p, std::vector<std::int64_t>& out, bool& flagged) {
    fn.route_into(p, buf);
    out.clear();
    flagged = false;
    for (const Choice& c : buf) {
      if (blocked[static_cast<std::size_t>(c.channel)]) continue;
      if (c.flags != 0) flagged = true;
      out.push_back(c.channel * vcs + c.vc);
    }
  };
  auto trace_pair = [&](std::int64_t src, std::int64_t dst) {
    const double w = weight(src, dst);
    if (w <= 0) return;
    r.split_exact = false;
    Path p = trace(fn, n, down_links, down_chips, src, dst, hop_limit);
    for (const Hop& h : p.hops) r.channel_load[static_cast<std::size_t>(h.channel)] += w;
  };
  Progress progress("link load", live.size());
  std::uint32_t k = 0;
  std::vector<std::int64_t> inj;
  for (std::int64_t dst : live) {
    ++k;
    if (!fn.source_independent()) {
      for (std::int64_t src : live)
        if (src != dst) trace_pair(src, dst);
      progress.update(k);
      continue;
    }
    // Explore the states reachable from every source (flag-free ones only).
    order.clear();
    stack.clear();
    std::fill(traced.begin(), traced.end(), 0);
    bool ok = true;
    auto visit = [&](std::int64_t v) {
      if (stamp[static_cast<std::size_t>(v)] == k) return;
      stamp[static_cast<std::size_t>(v)] = k;
      indeg[static_cast<std::size_t>(v)] = 0;
      inflow[static_cast<std::size_t>(v)] = 0;
      succ[static_cast<std::size_t>(v)].clear();
      stack.push_back(v);
    };
    for (std::int64_t src : live) {
      if (src == dst || weight(src, dst) <= 0) continue;
      bool flagged = false;
      live_choices({src, -1, 0, src, dst, 0}, inj, flagged);
      if (flagged || inj.empty()) {
        traced[static_cast<std::size_t>(src)] = 1;
        continue;
      }
      for (auto v : inj) visit(v);
      while (!stack.empty() && ok) {
        const std::int64_t v = stack.back();
        stack.pop_back();
        order.push_back(v);
        const std::int64_t ch = v / vcs;
        const std::int64_t node = n.channel_dst(ch);
        if (node == dst) continue;
        bool fl = false;
        live_choices({node, ch, static_cast<int>(v % vcs), src, dst, 0},
                     succ[static_cast<std::size_t>(v)], fl);
        if (fl) ok = false; // a flagged state: not a graph of states
        for (auto w : succ[static_cast<std::size_t>(v)]) visit(w);
      }
      if (!ok) break;
    }
    if (ok) {
      for (auto v : order)
        for (auto w : succ[static_cast<std::size_t>(v)]) ++indeg[static_cast<std::size_t>(w)];
      for (std::int64_t src : live) {
        if (src == dst || traced[static_cast<std::size_t>(src)]) continue;
        const double w = weight(src, dst);
        if (w <= 0) continue;
        bool flagged = false;
        live_choices({src, -1, 0, src, dst, 0}, inj, flagged);
        for (auto v : inj)
          inflow[static_cast<std::size_t>(v)] += w / static_cast<double>(inj.size());
      }
      // Kahn: a state passes its inflow on once all its predecessors have.
      queue.clear();
      for (auto v : order)
        if (indeg[static_cast<std::size_t>(v)] == 0) queue.push_back(v);
      std::size_t done = 0;
      for (std::size_t head = 0; head < queue.size(); ++head, ++done) {
        const std::int64_t v = queue[head];
        const double x = inflow[static_cast<std::size_t>(v)];
        r.channel_load[static_cast<std::size_t>(v / vcs)] += x;
        const auto& s = succ[static_cast<std::size_t>(v)];
        for (auto w : s) {
          inflow[static_cast<std::size_t>(w)] += x / static_cast<double>(s.size());
          if (--indeg[static_cast<std::size_t>(w)] == 0) queue.push_back(w);
        }
      }
      if (done != order.size()) ok = false; // the states loop: undo and trace instead
      if (!ok)
        for (std::size_t head = 0; head < queue.size(); ++head)
          r.channel_load[static_cast<std::size_t>(queue[head] / vcs)] -=
              inflow[static_cast<std::size_t>(queue[head])];
    }
    for (std::int64_t src : live)
      if (src != dst && (!ok || traced[static_cast<std::size_t>(src)])) trace_pair(src, dst);
    progress.update(k);
  }
  progress.finish();
  summarise(r);
  const auto L = static_cast<double>(live.size());
  r.throughput_bound = r.max_load > 0 ? (demand ? 1.0 : L - 1) / r.max_load : 0;
  return r;
}

} // namespace icnkit::route
