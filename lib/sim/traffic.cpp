#include "sim/traffic.hpp"

#include "core/error.hpp"

#include <algorithm>

namespace icnkit::sim {

AllToAllTraffic::AllToAllTraffic(const topo::Network& n, const topo::Faults& f,
                                 const route::RoutingFunction& fn, double bytes_per_node,
                                 std::int64_t max_flows, AllToAllPattern pattern)
    : net_(n), fn_(fn), down_links_(f.down_links(n)), pattern_(pattern) {
  std::vector<char> down_chips = f.down_chips(n);
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!(static_cast<std::size_t>(c) < down_chips.size() &&
          down_chips[static_cast<std::size_t>(c)]))
      live_.push_back(c);
  const std::int64_t k = static_cast<std::int64_t>(live_.size());
  const std::int64_t flows = k * (k - 1);
  if (flows > max_flows)
    fail_infeasible("--traffic",
                    "all-to-all over " + std::to_string(k) + " chips is " + std::to_string(flows) +
                        " flows, more than the analytic engine's practical limit of " +
                        std::to_string(max_flows) +
                        " (about 1448 chips); simulate a schedule from coll-sched instead");
  if (k > 0) bytes_per_flow_ = bytes_per_node / static_cast<double>(k);
  if (pattern_ == AllToAllPattern::Mpich)
    pattern_ = bytes_per_flow_ <= kMpichMediumMessage ? AllToAllPattern::Simultaneous
                                                      : AllToAllPattern::Pairwise;
  if (pattern_ == AllToAllPattern::Pairwise) {
    phases_ = {"pairwise"};
    steps_.assign(static_cast<std::size_t>(std::max<std::int64_t>(k - 1, 1)), StepInfo{});
    for (std::size_t r = 1; r < steps_.size(); ++r)
      steps_[r].after = {static_cast<std::int64_t>(r) - 1};
  }
}

void AllToAllTraffic::flows(std::size_t step, StepFlows& out) const {
  out.clear();
  const std::size_t k = live_.size();
  if (k < 2) return;
  const bool pairwise = pattern_ == AllToAllPattern::Pairwise;
  const bool pow2 = (k & (k - 1)) == 0;
  const std::size_t round = step + 1;
  out.flows.reserve(pairwise ? k : k * (k - 1));
  // Paths are about the mean hop count long; start from the diameter's worth per flow / 2.
  out.channels.reserve(
      k * (k - 1) *
      static_cast<std::size_t>(std::max<std::int64_t>(1, net_.metrics.diameter / 2 + 1)));
  // Generous: a minimal route never revisits a node, an adaptive one may detour a little.
  const std::int64_t max_hops = 2 * static_cast<std::int64_t>(net_.nodes.size()) + 8;
  std::int64_t undelivered = 0;
  std::string example;
  std::vector<std::int64_t> chans;
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j) continue;
      if (pairwise && j != (pow2 ? i ^ round : (i + round) % k)) continue;
      const std::int64_t s = live_[i], t = live_[j];
      route::Path p = route::trace(fn_, net_, down_links_, s, t, max_hops);
      if (!p.delivered) {
        if (undelivered++ == 0)
          example = std::to_string(s) + " -> " + std::to_string(t) +
                    (p.reason.empty() ? std::string() : " (" + p.reason + ")");
        continue;
      }
      chans.clear();
      for (const route::Hop& h : p.hops) chans.push_back(h.channel);
      out.add(s, t, bytes_per_flow_, chans);
    }
  if (undelivered > 0)
    fail_infeasible("routing", "the routing cannot deliver " + std::to_string(undelivered) +
                                   " of " + std::to_string(k * (k - 1)) + " chip pairs, e.g. " +
                                   example + ": the all-to-all baseline needs every pair");
}

} // namespace icnkit::sim
