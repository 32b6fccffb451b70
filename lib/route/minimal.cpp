#include "route/minimal.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <map>
#include <utility>

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
    if (tail == dist.size()) break; // every node reached: the rest would find nothing new
  }
}

MinimalRouting::MinimalRouting(const topo::Network& n, const topo::Faults& f, MinimalOptions o)
    : n_(n), opt_(o), adj_(n), V_(n.nodes.size()), transit_(chips_transit(n)) {
  const auto entries = static_cast<std::int64_t>(V_) * n.n_chip;
  if (transit_ && entries > kMaxMinimalTable)
    fail_infeasible("{algorithm}", "minimal routing tables for " + std::to_string(n.nodes.size()) +
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
  if (transit_)
    build_table(down_links, down_nodes);
  else
    build_columns(down_nodes);
}

void MinimalRouting::build_table(const std::vector<char>& down_links,
                                 const std::vector<char>& down_nodes) {
  dist_.assign(V_ * static_cast<std::size_t>(n_.n_chip), kUnreachable);
  std::vector<std::int32_t> d;
  for (std::int64_t dst = 0; dst < n_.n_chip; ++dst) {
    distances_to(n_, adj_, dst, down_links, down_nodes, d);
    std::uint8_t* row = &dist_[static_cast<std::size_t>(dst) * V_];
    for (std::size_t v = 0; v < V_; ++v) {
      if (d[v] < 0) continue;
      if (d[v] >= kUnreachable)
        fail_infeasible("{algorithm}", "a minimal path is longer than 254 hops");
      row[v] = static_cast<std::uint8_t>(d[v]);
      if (static_cast<std::int64_t>(v) < n_.n_chip && !down_nodes[v])
        longest_ = std::max(longest_, d[v]);
    }
  }
}

void MinimalRouting::build_columns(const std::vector<char>& down_nodes) {
  const std::int64_t N = n_.n_chip;
  S_ = V_ - static_cast<std::size_t>(N);
  down_ = down_nodes;
  // Each live chip's live switches (its attachment) and live chip peers.
  std::map<std::vector<std::int32_t>, std::int32_t> ids;
  std::vector<const std::vector<std::int32_t>*> keys; // per attachment
  attachment_.assign(static_cast<std::size_t>(N), -1);
  reach_start_.assign(static_cast<std::size_t>(N) + 1, 0);
  peers_start_.assign(static_cast<std::size_t>(N) + 1, 0);
  std::vector<std::int32_t> sw, pe;
  for (std::int64_t c = 0; c < N; ++c) {
    sw.clear();
    pe.clear();
    if (!down_[static_cast<std::size_t>(c)]) {
      const std::int32_t* w = adj_.neighbours(c);
      for (const std::int64_t* ch = adj_.begin(c); ch != adj_.end(c); ++ch, ++w) {
        if (!usable_[static_cast<std::size_t>(*ch)]) continue;
        if (*w >= N)
          sw.push_back(static_cast<std::int32_t>(*w - N));
        else if (*w != c) // a link to itself joins it to no other chip
          pe.push_back(*w);
      }
    }
    std::sort(sw.begin(), sw.end());
    sw.erase(std::unique(sw.begin(), sw.end()), sw.end());
    std::sort(pe.begin(), pe.end());
    pe.erase(std::unique(pe.begin(), pe.end()), pe.end());
    reach_.insert(reach_.end(), sw.begin(), sw.end());
    peers_.insert(peers_.end(), pe.begin(), pe.end());
    reach_start_[static_cast<std::size_t>(c) + 1] = static_cast<std::int64_t>(reach_.size());
    peers_start_[static_cast<std::size_t>(c) + 1] = static_cast<std::int64_t>(peers_.size());
    if (sw.empty()) continue;
    auto [it, fresh] = ids.emplace(sw, static_cast<std::int32_t>(keys.size()));
    if (fresh) keys.push_back(&it->first);
    attachment_[static_cast<std::size_t>(c)] = it->second;
  }
  const auto K = static_cast<std::int64_t>(keys.size());
  const std::int64_t entries = K * static_cast<std::int64_t>(S_);
  if (entries > kMaxMinimalTable)
    fail_infeasible("{algorithm}", "minimal routing tables for " + std::to_string(K) +
                                       " chip attachments x " + std::to_string(S_) + " switches (" +
                                       std::to_string(entries >> 20) +
                                       " MiB) are too large; use a family's own routing");

  // The live switch-to-switch links (compressed rows).
  std::vector<std::int64_t> start(S_ + 1, 0);
  std::vector<std::int32_t> next;
  for (std::size_t s = 0; s < S_; ++s) {
    const std::int64_t u = N + static_cast<std::int64_t>(s);
    const std::int32_t* w = adj_.neighbours(u);
    for (const std::int64_t* ch = adj_.begin(u); ch != adj_.end(u); ++ch, ++w)
      if (usable_[static_cast<std::size_t>(*ch)] && *w >= N)
        next.push_back(static_cast<std::int32_t>(*w - N));
    start[s + 1] = static_cast<std::int64_t>(next.size());
  }
  // One BFS over the switches per attachment, from its switches at 1 hop.
  dist_.assign(static_cast<std::size_t>(entries), kUnreachable);
  std::vector<std::int32_t> queue(S_);
  for (std::int64_t a = 0; a < K; ++a) {
    std::uint8_t* col = &dist_[static_cast<std::size_t>(a) * S_];
    std::size_t tail = 0;
    for (std::int32_t s : *keys[static_cast<std::size_t>(a)]) {
      col[s] = 1;
      queue[tail++] = s;
    }
    for (std::size_t head = 0; head < tail; ++head) {
      const auto u = static_cast<std::size_t>(queue[head]);
      const int du = col[u] + 1;
      for (std::int64_t i = start[u]; i < start[u + 1]; ++i) {
        const auto v = static_cast<std::size_t>(next[static_cast<std::size_t>(i)]);
        if (col[v] != kUnreachable) continue;
        if (du >= kUnreachable)
          fail_infeasible("{algorithm}", "a minimal path is longer than 254 hops");
        col[v] = static_cast<std::uint8_t>(du);
        queue[tail++] = static_cast<std::int32_t>(v);
      }
    }
  }

  // The longest minimal path between live chips: between chips v != dst not joined by a link,
  // 1 + the least hops of v's switches in dst's column, so per pair of attachments.
  std::vector<std::int64_t> members(static_cast<std::size_t>(K), 0);
  for (std::int64_t c = 0; c < N; ++c)
    if (attachment_[static_cast<std::size_t>(c)] >= 0)
      ++members[static_cast<std::size_t>(attachment_[static_cast<std::size_t>(c)])];
  std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> joined; // (v's, dst's): pairs
  for (std::int64_t c = 0; c < N; ++c)
    for (std::int64_t i = peers_start_[static_cast<std::size_t>(c)];
         i < peers_start_[static_cast<std::size_t>(c) + 1]; ++i) {
      longest_ = std::max(longest_, 1);
      ++joined[{attachment_[static_cast<std::size_t>(c)],
                attachment_[static_cast<std::size_t>(peers_[static_cast<std::size_t>(i)])]}];
    }
  for (std::int64_t a = 0; a < K; ++a) {
    const std::uint8_t* col = &dist_[static_cast<std::size_t>(a) * S_];
    for (std::int64_t b = 0; b < K; ++b) {
      int best = kUnreachable;
      for (std::int32_t s : *keys[static_cast<std::size_t>(b)]) best = std::min<int>(best, col[s]);
      if (best == kUnreachable) continue;
      std::int64_t pairs = members[static_cast<std::size_t>(a)] *
                           (members[static_cast<std::size_t>(b)] - (a == b ? 1 : 0));
      if (!joined.empty()) {
        auto it = joined.find({static_cast<std::int32_t>(b), static_cast<std::int32_t>(a)});
        if (it != joined.end()) pairs -= it->second;
      }
      if (pairs <= 0) continue;
      if (best + 1 >= kUnreachable)
        fail_infeasible("{algorithm}", "a minimal path is longer than 254 hops");
      longest_ = std::max(longest_, best + 1);
    }
  }
}

bool MinimalRouting::chips_adjacent(std::int64_t a, std::int64_t b) const {
  if (peers_.empty()) return false;
  const std::int32_t* first = peers_.data() + peers_start_[static_cast<std::size_t>(a)];
  const std::int32_t* last = peers_.data() + peers_start_[static_cast<std::size_t>(a) + 1];
  return std::binary_search(first, last, static_cast<std::int32_t>(b));
}

int MinimalRouting::switched_distance(std::int64_t v, std::int64_t dst) const {
  if (down_[static_cast<std::size_t>(dst)]) return -1;
  if (v == dst) return 0;
  const std::int32_t a = attachment_[static_cast<std::size_t>(dst)];
  const std::int64_t N = n_.n_chip;
  if (v >= N) {
    if (a < 0) return -1;
    const std::uint8_t d =
        dist_[static_cast<std::size_t>(a) * S_ + static_cast<std::size_t>(v - N)];
    return d == kUnreachable ? -1 : d;
  }
  if (down_[static_cast<std::size_t>(v)]) return -1;
  if (chips_adjacent(v, dst)) return 1;
  if (a < 0) return -1;
  const std::uint8_t* col = &dist_[static_cast<std::size_t>(a) * S_];
  int best = kUnreachable;
  for (std::int64_t i = reach_start_[static_cast<std::size_t>(v)];
       i < reach_start_[static_cast<std::size_t>(v) + 1]; ++i)
    best = std::min<int>(best, col[reach_[static_cast<std::size_t>(i)]]);
  return best == kUnreachable ? -1 : best + 1;
}

std::vector<Choice> MinimalRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void MinimalRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const int vc_next = opt_.hop_vcs && p.in_channel >= 0 ? std::min(p.vc + 1, vc_count() - 1) : 0;
  const std::uint8_t* row = transit_ ? &dist_[static_cast<std::size_t>(p.dst) * V_] : nullptr;
  const int here = !transit_ ? switched_distance(p.node, p.dst)
                   : row[static_cast<std::size_t>(p.node)] == kUnreachable
                       ? -1
                       : row[static_cast<std::size_t>(p.node)];
  if (here <= 0) return; // no route: the check reports it
  if (here == 1) {       // only a link to dst itself: found without a scan of every channel
    bool done = false;
    adj_.for_each_to(p.node, p.dst, [&](std::int64_t c) {
      if (done || !usable_[static_cast<std::size_t>(c)]) return;
      out.push_back({c, vc_next, 0});
      done = !opt_.ecmp;
    });
    return;
  }
  if (transit_) {
    for (const std::int64_t* c = adj_.begin(p.node); c != adj_.end(p.node); ++c) {
      if (!usable_[static_cast<std::size_t>(*c)]) continue;
      const std::int64_t next = n_.channel_dst(*c);
      if (row[static_cast<std::size_t>(next)] + 1 != here) continue;
      out.push_back({*c, vc_next, 0});
      if (!opt_.ecmp) return;
    }
    return;
  }
  const std::int64_t N = n_.n_chip;
  const std::int32_t a = attachment_[static_cast<std::size_t>(p.dst)];
  const std::uint8_t* col = a >= 0 ? &dist_[static_cast<std::size_t>(a) * S_] : nullptr;
  const std::int32_t* w = adj_.neighbours(p.node);
  for (const std::int64_t* c = adj_.begin(p.node); c != adj_.end(p.node); ++c, ++w) {
    if (!usable_[static_cast<std::size_t>(*c)]) continue;
    int there;
    if (*w == p.dst)
      there = 0;
    else if (*w < N)
      continue; // chips do not forward
    else
      there = col ? col[*w - N] : kUnreachable;
    if (there + 1 != here) continue;
    out.push_back({*c, vc_next, 0});
    if (!opt_.ecmp) return;
  }
}

} // namespace icnkit::route
