#include "coll/bound.hpp"

#include <algorithm>
#include <limits>

namespace icnkit::coll {

std::optional<Bound> collective_bound(const std::string& collective,
                                      const std::vector<std::int64_t>& chips, double bytes,
                                      const topo::Network& net, const topo::Faults& faults,
                                      std::int64_t group) {
  const auto n = static_cast<double>(group > 0 ? group : static_cast<std::int64_t>(chips.size()));
  if (n < 2) return std::nullopt;
  const std::vector<char> down = faults.down_links(net);
  const std::vector<char> down_chips = faults.down_chips(net);
  std::vector<double> inj(static_cast<std::size_t>(net.n_chip), 0.0);
  for (std::size_t l = 0; l < net.links.size(); ++l) {
    if (down[l]) continue;
    const topo::Link& k = net.links[l];
    if (k.a == k.b) continue; // a self-loop carries nothing between ranks
    for (std::int64_t end : {k.a, k.b})
      if (end < net.n_chip && !down_chips[static_cast<std::size_t>(k.a == end ? k.b : k.a)])
        inj[static_cast<std::size_t>(end)] += k.bandwidth_bytes_per_s;
  }
  double b_inj = std::numeric_limits<double>::infinity();
  for (std::int64_t c : chips) b_inj = std::min(b_inj, inj[static_cast<std::size_t>(c)]);
  if (!(b_inj > 0)) return std::nullopt;
  double factor = (n - 1) / n;
  if (collective == "all-reduce") factor = 2 * (n - 1) / n;
  if (collective == "broadcast" || collective == "reduce") factor = 1;
  Bound b{factor * bytes / b_inj, "injection"};
  const double bis = net.metrics.bisection_bandwidth_bytes_per_s;
  std::int64_t live = 0;
  for (std::int64_t c = 0; c < net.n_chip; ++c) live += !down_chips[static_cast<std::size_t>(c)];
  if (collective == "all-to-all" && bis > 0 &&
      static_cast<std::int64_t>(chips.size()) == net.n_chip && live == net.n_chip) {
    const double t = n * bytes / (4 * bis);
    if (t > b.time_s) b = {t, "bisection"};
  }
  return b;
}

} // namespace icnkit::coll
