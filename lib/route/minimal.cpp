#include "route/minimal.hpp"

#include "core/error.hpp"

#include <algorithm>

namespace icnkit::route {

bool chips_transit(const topo::Network& n) {
  return static_cast<std::int64_t>(n.nodes.size()) == n.n_chip;
}

void distances_to(const topo::Network& n, const Adjacency& adj, std::int64_t dst,
                  const std::vector<char>& down_links, const std::vector<char>& down_nodes,
                  std::vector<std::int32_t>& dist) {
  const bool transit = chips_transit(n);
  const bool faulty = !down_links.empty() || !down_nodes.empty();
  dist.assign(n.nodes.size(), -1);
  if (!down_nodes.empty() && down_nodes[static_cast<std::size_t>(dst)]) return;
  thread_local std::vector<std::int32_t> queue;
  queue.resize(n.nodes.size());
  std::size_t tail = 0;
  dist[static_cast<std::size_t>(dst)] = 0;
  queue[tail++] = static_cast<std::int32_t>(dst);
  for (std::size_t head = 0; head < tail; ++head) {
    const std::int64_t u = queue[head];
    // Only the destination and transit nodes pass distances on.
    if (u != dst && u < n.n_chip && !transit) continue;
    const std::int32_t du = dist[static_cast<std::size_t>(u)] + 1;
    const std::int64_t* c = adj.begin(u);
    const std::int32_t* w = adj.neighbours(u);
    for (const std::int64_t* end = adj.end(u); c != end; ++c, ++w) {
      const auto v = static_cast<std::size_t>(*w);
      if (dist[v] >= 0) continue;
      if (faulty) {
        if (!down_links.empty() && down_links[static_cast<std::size_t>(topo::link_of_channel(*c))])
          continue;
        if (!down_nodes.empty() && down_nodes[v]) continue;
      }
      dist[v] = du;
      queue[tail++] = *w;
    }
  }
}

MinimalRouting::MinimalRouting(const topo::Network& n, const topo::Faults& f, MinimalOptions o)
    : n_(n), opt_(o), adj_(n), V_(n.nodes.size()), transit_(chips_transit(n)) {
  const auto entries = static_cast<std::int64_t>(V_) * n.n_chip;
  if (entries > kMaxMinimalTable)
    fail_infeasible("--algorithm", "minimal routing tables for " + std::to_string(n.nodes.size()) +
                                       " nodes x " + std::to_string(n.n_chip) + " chips (" +
                                       std::to_string(entries >> 20) +
                                       " MiB) are too large; use a family's own routing");
  const auto down_links = f.down_links(n);
  auto down_nodes = f.down_chips(n);
  usable_.resize(static_cast<std::size_t>(n.channel_count()));
  for (std::int64_t c = 0; c < n.channel_count(); ++c)
    usable_[static_cast<std::size_t>(c)] =
        !down_links[static_cast<std::size_t>(topo::link_of_channel(c))] &&
        !down_nodes[static_cast<std::size_t>(n.channel_dst(c))];
  dist_.assign(static_cast<std::size_t>(entries), kUnreachable);
  std::vector<std::int32_t> d;
  for (std::int64_t dst = 0; dst < n.n_chip; ++dst) {
    distances_to(n, adj_, dst, down_links, down_nodes, d);
    std::uint8_t* row = &dist_[static_cast<std::size_t>(dst) * V_];
    for (std::size_t v = 0; v < V_; ++v) {
      if (d[v] < 0) continue;
      if (d[v] >= kUnreachable)
        fail_infeasible("--algorithm", "a minimal path is longer than 254 hops");
      row[v] = static_cast<std::uint8_t>(d[v]);
      if (static_cast<std::int64_t>(v) < n.n_chip && !down_nodes[v])
        longest_ = std::max(longest_, d[v]);
    }
  }
}

std::vector<Choice> MinimalRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void MinimalRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const std::uint8_t* row = &dist_[static_cast<std::size_t>(p.dst) * V_];
  const std::uint8_t here = row[static_cast<std::size_t>(p.node)];
  if (here == kUnreachable || here == 0) return; // no route: the check reports it
  const int vc = opt_.hop_vcs && p.in_channel >= 0 ? std::min(p.vc + 1, vc_count() - 1) : 0;
  for (const std::int64_t* c = adj_.begin(p.node); c != adj_.end(p.node); ++c) {
    if (!usable_[static_cast<std::size_t>(*c)]) continue;
    const std::int64_t next = n_.channel_dst(*c);
    if (row[static_cast<std::size_t>(next)] + 1 != here) continue;
    if (next != p.dst && next < n_.n_chip && !transit_) continue; // chips do not forward
    out.push_back({*c, vc, 0});
    if (!opt_.ecmp) return;
  }
}

} // namespace icnkit::route
