// Link load of uniform all-to-all under a routing: every ordered pair of live chips sends one
// unit, split evenly over the live choices the routing permits at each hop (one for
// deterministic routings; ECMP spreads it), and the load of a directed channel is the units
// crossing it. The busiest channel bounds the all-to-all throughput: with per-chip injection r
// (bytes/s, spread evenly over the N-1 others) it carries r * max_load / (N-1), so
// r <= B (N-1) / max_load; `throughput_bound` is (N-1) / max_load, the injection per chip in
// units of one link's bandwidth (the analytic bound BookSim users compare saturation with).
//
// Per destination the routing's states (channel, VC) with no flags form a graph; the units
// flow through it in topological order. Where a routing carries flags, or its states loop,
// the pair's units follow the path trace() takes instead (all of them on the first choice),
// and `split_exact` says so.
#pragma once
#include "route/routing.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace icnkit::route {

struct LoadReport {
  std::vector<double> channel_load; // per directed channel, units
  double max_load = 0;
  double mean_load = 0;          // over channels that carry something
  std::int64_t max_channel = -1; // the busiest one
  double throughput_bound = 0;   // (N-1) / max_load
  bool split_exact = true;       // every pair's units were split over the permitted choices
};

// Fills max_load, max_channel (the first of the busiest) and mean_load from channel_load; the
// caller sets throughput_bound, which depends on the traffic.
void summarise(LoadReport& r);

// Where the routing function offers an analysis by symmetry that applies (symmetric.hpp): from
// per-dimension leg counts (DOR on a torus, dor_symmetry.hpp) or per attachment (minimal routing
// with power-of-two splits on a network with switches, minimal_symmetry.hpp) instead of every
// pair; the same report as uniform_load_all_pairs().
LoadReport uniform_load(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                        std::int64_t hop_limit);
// The straightforward flow of every pair's unit: the reference the symmetric path is tested
// against.
LoadReport uniform_load_all_pairs(const RoutingFunction& fn, const topo::Network& n,
                                  const topo::Faults& f, std::int64_t hop_limit);

// The same for any traffic matrix: `demand(src, dst)` is the share of src's injection sent to dst
// (the shares of a source sum to 1; a chip's share to itself crosses no channel). The load of a
// channel is then in units of one chip's injection rate, and `throughput_bound` = 1 / max_load is
// the injection per chip, in link bandwidths (flits per node per cycle at one flit per cycle per
// link), at which the busiest channel is full: the capacity bound of the pattern.
using Demand = std::function<double(std::int64_t src, std::int64_t dst)>;
LoadReport demand_load(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                       std::int64_t hop_limit, const Demand& demand);

} // namespace icnkit::route
