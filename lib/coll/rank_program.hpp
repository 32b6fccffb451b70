// A schedule between ranks (rank_schedule.hpp) as a simulation program: every transfer of a step
// is one flow per (sender, peer) pair carrying its blocks' bytes, spread over the routing's
// paths (route/spread.hpp) for the analytic engine, or handed to the routing packet by packet
// by the flit replay (which reads only the flow's first channel, for its injection port).
#pragma once
#include "coll/schedule.hpp"
#include "route/routing.hpp"
#include "route/spread.hpp"
#include "sim/program.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::coll {

class RankProgram final : public sim::Program {
public:
  // `s.ranks` must be set and verified; `fn` and `net` must outlive the program.
  RankProgram(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
              const route::RoutingFunction& fn, route::Ecmp ecmp = route::Ecmp::Split,
              std::uint64_t seed = 0);

  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<sim::StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t step, sim::StepFlows& out) const override;
  // Steps whose transfers make the same flows (same peers, senders and block counts; which
  // blocks does not matter to the network): a ring's steps all repeat its first.
  std::int64_t repeats(std::size_t step) const override { return repeats_[step]; }

  // Blocks one transfer moves from sender i (the flow carries that many blocks' bytes).
  static std::int64_t block_count(const RankSchedule& r, const RankTransfer& t, std::int64_t i);

private:
  // The spreads of every sender of a peer rule (kind, k), computed once: a ring's 2(n-1) steps
  // all use shift 1.
  const std::vector<route::Spread>& spreads(const RankTransfer& t) const;

  Schedule sched_;
  const topo::Network& net_;
  mutable route::Spreader spreader_;
  std::vector<std::string> phases_;
  std::vector<sim::StepInfo> steps_;
  std::vector<std::int64_t> repeats_;
  double block_bytes_ = 0;
  mutable std::map<std::pair<int, std::int64_t>, std::vector<route::Spread>> cache_;
  mutable std::int64_t cached_channels_ = 0;
};

// Every (sender, peer) pair of the schedule can be delivered by the routing around the faults:
// Error(Infeasible) naming the first pair that cannot (and why) otherwise. Returns the number of
// distinct pairs checked.
std::int64_t check_rank_paths(const RankSchedule& r, const topo::Network& net,
                              const topo::Faults& faults, const route::RoutingFunction& fn,
                              const std::string& where);

} // namespace icnkit::coll
