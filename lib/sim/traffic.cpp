#include "sim/traffic.hpp"

#include "core/error.hpp"
#include "core/units.hpp"
#include "sim/symmetry.hpp"

#include <algorithm>

namespace icnkit::sim {

AllToAllTraffic::AllToAllTraffic(const topo::Network& n, const topo::Faults& f,
                                 const route::RoutingFunction& fn, double bytes_per_node,
                                 const AllToAllOptions& o)
    : net_(n), fn_(fn), down_links_(f.down_links(n)), ecmp_(o.ecmp), seed_(o.seed), faults_(f),
      pattern_(o.pattern) {
  std::vector<char> down_chips = f.down_chips(n);
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!(static_cast<std::size_t>(c) < down_chips.size() &&
          down_chips[static_cast<std::size_t>(c)]))
      live_.push_back(c);
  const std::int64_t k = static_cast<std::int64_t>(live_.size());
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
  for (std::size_t i = 0; i < live_.size(); ++i) sources_.push_back(i);
  if (o.symmetry && pattern_ == AllToAllPattern::Simultaneous)
    if (auto t = dor_translations(fn, n, f)) {
      // No chip is down here, so live_[i] == i.
      sources_.assign(t->sources.begin(), t->sources.end());
      orbits_ = FlowOrbits{std::move(t->channel_rep), t->order, {}};
    }
  // Flows held at once: a step's.
  const std::int64_t held = pattern_ == AllToAllPattern::Pairwise
                                ? k
                                : static_cast<std::int64_t>(sources_.size()) * (k - 1);
  const std::int64_t hops = std::max<std::int64_t>(1, n.metrics.diameter / 2 + 1);
  const std::int64_t need = held * (kTrafficBytesPerFlow + kTrafficBytesPerHop * hops);
  if (need > o.max_bytes) {
    fail_infeasible("{max_memory}",
                    "the all-to-all over " + std::to_string(k) + " chips holds " +
                        std::to_string(held) + " flows at once, about " + format_mib(need) +
                        ", more than " + format_mib(o.max_bytes) +
                        ": raise {max_memory}, or take {traffic} all-to-all-pairwise (" +
                        std::to_string(k) + " flows at a time)");
  }
}

void AllToAllTraffic::flows(std::size_t step, StepFlows& out) const {
  out.clear();
  const std::size_t k = live_.size();
  if (k < 2) return;
  const bool pairwise = pattern_ == AllToAllPattern::Pairwise;
  const bool pow2 = (k & (k - 1)) == 0;
  const std::size_t round = step + 1;
  const std::size_t held = pairwise ? k : sources_.size() * (k - 1);
  out.flows.reserve(held);
  // Paths are about the mean hop count long; start from the diameter's worth per flow / 2.
  out.channels.reserve(
      held * static_cast<std::size_t>(std::max<std::int64_t>(1, net_.metrics.diameter / 2 + 1)));
  // Generous: a minimal route never revisits a node, an adaptive one may detour a little.
  const std::int64_t max_hops = 2 * static_cast<std::int64_t>(net_.nodes.size()) + 8;
  std::int64_t undelivered = 0;
  std::string example;
  route::Spreader spreader(fn_, net_, faults_, ecmp_, seed_, max_hops);
  route::Spread p;
  auto emit = [&](std::size_t i, std::size_t j) {
    const std::int64_t s = live_[i], t = live_[j];
    spreader.spread(s, t, p);
    if (!p.delivered) {
      if (undelivered++ == 0)
        example = std::to_string(s) + " -> " + std::to_string(t) +
                  (p.reason.empty() ? std::string() : " (" + p.reason + ")");
      return;
    }
    if (orbits_)
      for (std::int64_t& ch : p.channels) ch = orbits_->channel_rep[static_cast<std::size_t>(ch)];
    out.add_split(s, t, bytes_per_flow_, p.channels, p.shares);
  };
  if (pairwise) {
    for (std::size_t i = 0; i < k; ++i) emit(i, pow2 ? i ^ round : (i + round) % k);
  } else {
    for (std::size_t i : sources_)
      for (std::size_t j = 0; j < k; ++j)
        if (j != i) emit(i, j);
  }
  if (undelivered > 0)
    fail_infeasible("routing", "the routing cannot deliver " + std::to_string(undelivered) +
                                   " of " + std::to_string(k * (k - 1)) + " chip pairs, e.g. " +
                                   example + ": the all-to-all baseline needs every pair");
}

} // namespace icnkit::sim
