#include "route/hop_tally.hpp"

#include <algorithm>

namespace icnkit::route {

void HopTally::absorb(const HopTally& o) {
  for (std::size_t h = 0; h < o.counts_.size(); ++h)
    for (std::size_t s = 0; s < o.counts_[h].size(); ++s)
      if (o.counts_[h][s])
        add(static_cast<std::int64_t>(h), static_cast<std::int64_t>(s), o.counts_[h][s]);
}

std::int64_t HopTally::delivered() const {
  std::int64_t d = 0;
  for (const auto& row : counts_)
    for (std::int64_t c : row) d += c;
  return d;
}

HopStats HopTally::stats() const {
  HopStats st;
  std::int64_t delivered = 0, total = 0, stretched = 0;
  std::vector<std::int64_t> hops_by_shortest; // [s]: total hops of the pairs with shortest s
  for (std::size_t h = 0; h < counts_.size(); ++h) {
    std::int64_t at_h = 0;
    for (std::size_t s = 0; s < counts_[h].size(); ++s) {
      const std::int64_t c = counts_[h][s];
      if (!c) continue;
      at_h += c;
      if (s == 0) continue;
      if (s >= hops_by_shortest.size()) hops_by_shortest.resize(s + 1, 0);
      hops_by_shortest[s] += c * static_cast<std::int64_t>(h);
      stretched += c;
      st.stretch_max = std::max(st.stretch_max, static_cast<double>(h) / static_cast<double>(s));
      if (h > s) st.non_minimal_pairs += c;
    }
    st.histogram.push_back(at_h);
    delivered += at_h;
    total += at_h * static_cast<std::int64_t>(h);
  }
  while (!st.histogram.empty() && st.histogram.back() == 0) st.histogram.pop_back();
  st.max = st.histogram.empty() ? 0 : static_cast<std::int64_t>(st.histogram.size()) - 1;
  st.mean = delivered ? static_cast<double>(total) / static_cast<double>(delivered) : 0.0;
  double sum = 0;
  for (std::size_t s = 1; s < hops_by_shortest.size(); ++s)
    if (hops_by_shortest[s])
      sum += static_cast<double>(hops_by_shortest[s]) / static_cast<double>(s);
  st.stretch_mean = stretched ? sum / static_cast<double>(stretched) : 1.0;
  return st;
}

} // namespace icnkit::route
