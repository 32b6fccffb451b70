// The directed channels leaving every node, in channel-id order (compressed rows): what the
// table-driven routings (minimal, D-mod-k) look up at every hop.
#pragma once
#include "topo/network.hpp"

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

private:
  std::vector<std::int64_t> start_;
  std::vector<std::int64_t> channels_;
  std::vector<std::int32_t> neighbours_;
};

} // namespace icnkit::route
