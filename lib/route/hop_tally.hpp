// Hop statistics of delivered pairs, tallied exactly: an integer count per (hops, fault-free
// shortest hops). Counts add in any order, so tallies made by any number of workers, or by
// classes of pairs at once (the symmetric paths), merge to the same HopStats bit for bit: the
// floating-point figures are computed once, from the counts, in a fixed order.
#pragma once
#include "route/routing_section.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

class HopTally {
public:
  // `pairs` delivered pairs of `hops` hops each, whose fault-free shortest path has `shortest`
  // hops (0 when unknown: counted in the histogram, not in the stretch).
  void add(std::int64_t hops, std::int64_t shortest, std::int64_t pairs = 1) {
    const auto h = static_cast<std::size_t>(hops), s = static_cast<std::size_t>(shortest);
    if (h >= counts_.size()) counts_.resize(h + 1);
    auto& row = counts_[h];
    if (s >= row.size()) row.resize(s + 1, 0);
    row[s] += pairs;
  }
  void absorb(const HopTally& o);
  std::int64_t delivered() const;
  // mean: total hops / delivered pairs; stretch_mean: the sum over shortest lengths s of
  // (total hops of the pairs whose shortest path is s) / s, added in increasing s, over the
  // pairs with a known shortest path.
  HopStats stats() const;

private:
  std::vector<std::vector<std::int64_t>> counts_; // [hops][shortest]
};

} // namespace icnkit::route
