// Lower bounds on a collective's time, for every report to measure a schedule against:
//  - injection: a rank cannot send or receive faster than the sum of its live links'
//    bandwidths B (per direction). All-reduce moves at least 2(n-1)/n S through some rank's
//    links (Patarasuk and Yuan), reduce-scatter, all-gather and all-to-all (n-1)/n S, broadcast
//    and reduce S (every non-root receives S; the root of a reduce receives S in total): time >=
//    factor x S / B, B the smallest among the ranks;
//  - bisection (all-to-all of every chip): n^2/4 items of S/n cross the network's bisection one
//    way, time >= n S / (4 B_bis), B_bis the nominal bisection bandwidth (an upper bound on the
//    degraded one, so the bound holds under faults too).
// The larger applies. Latency terms are left out: a bound on the bandwidth term only.
#pragma once
#include "topo/faults.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::coll {

struct Bound {
  double time_s = 0;
  std::string kind; // "injection" | "bisection"
};

// `chips`: every chip taking part (live); `group`: the ranks of one group (n in the factors;
// 0: all of `chips`). nullopt for groups of fewer than two ranks or a rank without a live link.
std::optional<Bound> collective_bound(const std::string& collective,
                                      const std::vector<std::int64_t>& chips, double bytes,
                                      const topo::Network& net, const topo::Faults& faults,
                                      std::int64_t group = 0);

} // namespace icnkit::coll
