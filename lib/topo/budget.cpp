#include "topo/budget.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace icnkit::topo {

namespace {

std::vector<double> injections(const Network& n) {
  std::vector<double> inj(static_cast<std::size_t>(n.n_chip), 0.0);
  for (const Link& l : n.links) {
    if (l.a < n.n_chip) inj[static_cast<std::size_t>(l.a)] += l.bandwidth_bytes_per_s;
    if (l.b < n.n_chip) inj[static_cast<std::size_t>(l.b)] += l.bandwidth_bytes_per_s;
  }
  return inj;
}

} // namespace

double chip_injection(const Network& n, std::int64_t c) {
  double s = 0;
  for (const Link& l : n.links)
    if (l.a == c || l.b == c) s += l.bandwidth_bytes_per_s;
  return s;
}

double max_chip_injection(const Network& n) {
  const auto inj = injections(n);
  return inj.empty() ? 0.0 : *std::max_element(inj.begin(), inj.end());
}

double scale_to_injection(Network& n, double bytes_per_s, const std::string& where) {
  if (!(bytes_per_s > 0) || !std::isfinite(bytes_per_s))
    fail_usage(where, "the injection budget must be a positive bandwidth");
  const double now = max_chip_injection(n);
  if (!(now > 0)) fail_infeasible(where, "the network's chips have no links to scale");
  const double f = bytes_per_s / now;
  for (Link& l : n.links) l.bandwidth_bytes_per_s *= f;
  n.metrics.bisection_bandwidth_bytes_per_s *= f;
  if (n.metrics.degraded) n.metrics.degraded->bisection_bandwidth_bytes_per_s *= f;
  return f;
}

} // namespace icnkit::topo
