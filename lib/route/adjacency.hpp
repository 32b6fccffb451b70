// The directed channels leaving every node, in channel-id order (compressed rows): what the
// table-driven routings (minimal, D-mod-k) look up at every hop.
#pragma once
#include "topo/network.hpp"

#include <algorithm>

#include <cstdint>
#include <vector>

namespace icnkit::route {

class Adjacency {
public:
  explicit Adjacency(const topo::Network& n) : start_(n.nodes.size() + 1, 0) {
    for (const topo::Link& l : n.links)
      ++start_[static_cast<std::size_t>(l.a) + 1], ++start_[static_cast<std::size_t>(l.b) + 1];
    for (std::size_t v = 0; v + 1 < start_.size(); ++v) start_[v + 1] += start_[v];
    channels_.resize(static_cast<std::size_t>(start_.back()));
    std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
    neighbours_.resize(channels_.size());
    for (const topo::Link& l : n.links) {
      const auto ia = static_cast<std::size_t>(fill[static_cast<std::size_t>(l.a)]++);
      const auto ib = static_cast<std::size_t>(fill[static_cast<std::size_t>(l.b)]++);
      channels_[ia] = topo::channel_of(l.id, true);
      neighbours_[ia] = static_cast<std::int32_t>(l.b);
      channels_[ib] = topo::channel_of(l.id, false);
      neighbours_[ib] = static_cast<std::int32_t>(l.a);
    }
    // Per node, its channels' positions sorted by far node (then position).
    by_neighbour_.resize(channels_.size());
    for (std::size_t v = 0; v + 1 < start_.size(); ++v) {
      const auto b = static_cast<std::size_t>(start_[v]),
                 e = static_cast<std::size_t>(start_[v + 1]);
      for (std::size_t i = b; i < e; ++i) by_neighbour_[i] = static_cast<std::int32_t>(i - b);
      std::sort(by_neighbour_.begin() + static_cast<std::ptrdiff_t>(b),
                by_neighbour_.begin() + static_cast<std::ptrdiff_t>(e),
                [&](std::int32_t x, std::int32_t y) {
                  return std::pair(neighbours_[b + static_cast<std::size_t>(x)], x) <
                         std::pair(neighbours_[b + static_cast<std::size_t>(y)], y);
                });
    }
  }
  // The channels leaving node v: [begin, end).
  const std::int64_t* begin(std::int64_t v) const {
    return channels_.data() + start_[static_cast<std::size_t>(v)];
  }
  const std::int64_t* end(std::int64_t v) const {
    return channels_.data() + start_[static_cast<std::size_t>(v) + 1];
  }

  // The far node of each of those channels (same order).
  const std::int32_t* neighbours(std::int64_t v) const {
    return neighbours_.data() + start_[static_cast<std::size_t>(v)];
  }
  // Calls f(channel) for every channel from v to w, in the order begin(v)..end(v) lists them,
  // in O(log degree + their number): a full mesh's chip has a thousand channels.
  template <class F> void for_each_to(std::int64_t v, std::int64_t w, F&& f) const {
    const auto b = static_cast<std::size_t>(start_[static_cast<std::size_t>(v)]);
    const auto first = by_neighbour_.begin() + static_cast<std::ptrdiff_t>(b);
    const auto last = by_neighbour_.begin() + start_[static_cast<std::size_t>(v) + 1];
    auto it = std::lower_bound(first, last, w, [&](std::int32_t x, std::int64_t node) {
      return neighbours_[b + static_cast<std::size_t>(x)] < node;
    });
    for (; it != last && neighbours_[b + static_cast<std::size_t>(*it)] == w; ++it)
      f(channels_[b + static_cast<std::size_t>(*it)]);
  }

private:
  std::vector<std::int64_t> start_;
  std::vector<std::int64_t> channels_;
  std::vector<std::int32_t> neighbours_;
  std::vector<std::int32_t> by_neighbour_;
};

} // namespace icnkit::route
