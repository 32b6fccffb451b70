// Lower bounds on a collective's time, for every report to measure a schedule against:
//  - injection: a rank cannot send or receive faster than the sum of its live links'
//    bandwidths B (per direction). All-reduce moves at least 2(n-1)/n S through some rank's
//    links (Patarasuk and Yuan), reduce-scatter, all-gather and all-to-all (n-1)/n S, broadcast
//    and reduce S (every non-root receives S; the root of a reduce receives S in total): time >=
//    factor x S / B, B the smallest among the ranks;
//  - bisection (all-to-all of every chip): n^2/4 items of S/n cross the network's bisection one
//    way, time >= n S / (4 B_bis), B_bis the nominal bisection bandwidth (an upper bound on the
//    degraded one, so the bound holds under faults too);
//  - cut (all-gather and reduce-scatter of a single group: `group` 0 or the number of `chips`;
//    ForestColl, Zhao et al. 2024): split the nodes V (chips and switches: every node may relay,
//    only the ranks C own data) into U and V-U with a rank on each side. In an all-gather every
//    rank's shard S/n reaches the ranks outside U, so the shards of the |C_U| ranks in U (C_U =
//    C intersected with U) all cross from U to V-U: time >= |C_U| (S/n) / B+(U), B+(U) the live
//    bandwidth from U to V-U (a full-duplex link carries its bandwidth each way). A
//    reduce-scatter is an all-gather run backwards (B- = B+ on full-duplex links). The bound is
//    the largest over the cuts, (S/n) / x*, x* = cut_rate() below, computed exactly by max-flow.
//    The cut U = V - {t} gives t's injection bound (n-1)/n S / B_t, so the cut bound is never
//    smaller. It is larger where a set of ranks has less bandwidth out per rank than a rank's
//    injection over n-1: a tapered network (a fat-tree whose switch-to-switch links are slower
//    than the chips'), or one that faults thinned. Computed on networks of a bounded size only
//    (kCutBoundMaxWork below; else the injection bound alone), and left out when the live
//    network separates two ranks (x* = 0: no schedule completes).
// An all-to-all-v (skew.hpp) has its own injection bound (all_to_all_v_bound below), and no
// bisection bound: its items need not cross the bisection evenly.
// The largest applies ("cut" only when above the injection bound by a relative 1e-9). Latency
// terms are left out: a bound on the bandwidth term only.
// With switches that reduce (`in_network`, rank_schedule.hpp's transfers via a switch) an
// all-reduce need only send each rank's S once and receive the sum once: time >= S / B
// ("injection (in-network)"); and a cut no longer bounds a reduce-scatter or all-gather, whose
// data the switch may reduce or replicate after the cut, so the cut bound is left out.
// Reduce-scatter and all-gather keep (n-1)/n S / B: a rank still sends (receives) the other
// ranks' shares of its data (of theirs).
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
  std::string kind; // one of sim::kBoundKinds (sim/report.hpp)
};

// `chips`: every chip taking part (live); `group`: the ranks of one group (n in the factors;
// 0: all of `chips`). nullopt for groups of fewer than two ranks or a rank without a live link.
std::optional<Bound> collective_bound(const std::string& collective,
                                      const std::vector<std::int64_t>& chips, double bytes,
                                      const topo::Network& net, const topo::Faults& faults,
                                      std::int64_t group = 0, bool in_network = false);

// Every chip's live injection bandwidth (per direction), indexed by chip id: the sum of its live
// links to live nodes.
std::vector<double> injection_bandwidths(const topo::Network& net, const topo::Faults& faults);

// All-to-all-v (skew.hpp): a rank sends and receives its own items' bytes through its own links,
// so time >= max over ranks of max(sent, received) / its injection (the diagonal stays).
// `item_bytes`: rank o's bytes for rank d at [o * n + d], n the size of every group (the groups run
// at once, each the same sizes). nullopt when no group has two ranks or a rank has no live link.
std::optional<Bound> all_to_all_v_bound(const std::vector<std::vector<std::int64_t>>& groups,
                                        const std::vector<double>& item_bytes,
                                        const topo::Network& net, const topo::Faults& faults);

// The cut bound's rate: x* = min, over the cuts (U, V-U) of the network's nodes with a chip of
// `chips` on each side, of B+(U) / |chips in U| (bytes/s), and a cut that attains it (`side`: 1
// for the nodes of U). The all-gather cut bound is (S/n) / x*. Live links only
// (topo::Faults::down_links: failed links and every link of a failed node). rate 0 when the
// live network separates two of `chips`. nullopt for fewer than two chips or when the work
// n (V + 2 L) exceeds kCutBoundMaxWork (n chips, V nodes, L live links, parallel ones merged).
//
// Cost: one max-flow (Dinic over double capacities, a 1e-12 relative tolerance) per chip, plus
// one per improvement of x (bound.cpp gives the construction and its proof), each O(V + 2L)
// per phase, few phases. Measured (one core, Release): 1,024-chip fat-trees 0.04-0.08 s, a
// 32x32 torus 0.07-0.11 s, 1,024-chip dragonflies 0.04-0.06 s, hyperx 16x32 (t2) 0.5 s (27.8M:
// left out), 2,048-chip fat-trees 0.1-0.17 s (21M: left out). At most ~20 ns per unit of work:
// the limit keeps it to about 0.3 s.
struct CutRate {
  double rate = 0;
  std::vector<char> side;
};
inline constexpr double kCutBoundMaxWork = 16e6;
std::optional<CutRate> cut_rate(const std::vector<std::int64_t>& chips, const topo::Network& net,
                                const topo::Faults& faults);

} // namespace icnkit::coll
