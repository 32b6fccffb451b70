// A schedule between ranks (rank_schedule.hpp, Schedule::stages) as a simulation program: every
// transfer of a step is one flow per (sender, peer) pair of every group of the part, carrying its
// blocks' bytes, spread over the routing's paths (route/spread.hpp) for the analytic engine, or
// handed to the routing packet by packet by the flit replay (which reads only the flow's first
// channel, for its injection port). Stages run one after another: a stage's first steps wait for
// the last step of every part of the stage before. An all-to-all-v (skew.hpp) moves each item's
// own bytes.
#pragma once
#include "coll/schedule.hpp"
#include "route/routing.hpp"
#include "route/spread.hpp"
#include "sim/chip_group.hpp"
#include "sim/program.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace icnkit::coll {

class RankProgram final : public sim::Program {
public:
  // `s.stages` must be set and verified; `fn` and `net` must outlive the program.
  // `symmetry`: where the network has a group of symmetries the routing respects
  // (sim/chip_group.hpp) and every step maps onto itself under it, the program is its quotient:
  // one flow per orbit (the analytic engine only; the flit replay needs every flow).
  RankProgram(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
              const route::RoutingFunction& fn, route::Ecmp ecmp = route::Ecmp::Split,
              std::uint64_t seed = 0, bool symmetry = false);

  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<sim::StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t step, sim::StepFlows& out) const override;
  // Steps whose transfers make the same flows (same part, peers, senders and block counts; which
  // blocks does not matter to the network): a ring's steps all repeat its first.
  std::int64_t repeats(std::size_t step) const override { return repeats_[step]; }
  const sim::FlowOrbits* orbits() const override { return orbits_ ? &*orbits_ : nullptr; }

  // Blocks one transfer moves from sender i (the flow carries that many blocks' bytes).
  static std::int64_t block_count(const RankSchedule& r, const RankTransfer& t, std::int64_t i);

private:
  struct Where {
    std::size_t stage, part, step;
  };
  // The spreads of every (group, sender) of a peer rule in a part, computed once: a ring's
  // 2(n-1) steps all use shift 1.
  const std::vector<route::Spread>& spreads(std::size_t stage, std::size_t part,
                                            const RankTransfer& t) const;
  // One pair's spread; Error(Input) when the routing cannot deliver it.
  void spread(std::int64_t from, std::int64_t to, route::Spread& sp) const;

  void item_bytes();
  // Whether every step's flows (chips and block counts) map onto themselves under `g`'s
  // generators; false too when a step names a pair twice or the check would be too long.
  bool invariant(const sim::ChipGroup& g, std::int64_t chips) const;
  // A transfer through the group's switch (in-network reduction): every sender's blocks up its
  // links to the switch, and down to the owners (reduce) or to every rank (copy).
  void switch_flows(const Where& w, const RankTransfer& t, double block_bytes,
                    sim::StepFlows& out) const;

  // Per (stage, part) through a switch: per group and rank, its channels up to the switch and
  // down from it (parallel links share the flow evenly).
  struct SwitchPort {
    std::vector<std::int64_t> up, down;
    std::vector<double> shares;
  };
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::vector<SwitchPort>>> ports_;
  mutable std::vector<double> owner_bytes_;
  mutable std::vector<char> block_seen_;
  mutable std::vector<std::int64_t> blocks_;

  Schedule sched_;
  // All-to-all-v (Schedule::skew): per step, the bytes of transfer k from sender i at
  // [k * n + i] (the steps of the one stage, part after part).
  std::vector<std::vector<double>> item_bytes_;
  mutable route::Spreader spreader_;
  std::vector<std::string> phases_;
  std::vector<sim::StepInfo> steps_;
  std::vector<Where> where_;
  std::vector<std::int64_t> repeats_;
  std::vector<double> block_bytes_; // per stage
  mutable std::map<std::tuple<std::size_t, std::size_t, int, std::int64_t>,
                   std::vector<route::Spread>>
      cache_;
  mutable std::int64_t cached_channels_ = 0;
  // Transfers per peer rule (stage, part, peer, k): a rule used once is not cached.
  std::map<std::tuple<std::size_t, std::size_t, int, std::int64_t>, std::int64_t> uses_;
  mutable route::Spread scratch_;
  // The quotient by symmetry: the chips whose flows stand for their orbits.
  std::optional<sim::FlowOrbits> orbits_;
  std::vector<char> in_domain_;
  mutable std::vector<std::int64_t> rep_channels_;
};

// The chips taking part in the schedule (every stage has the same), ascending.
std::vector<std::int64_t> participants(const Schedule& s);
// The ranks of a group, as nccl-tests' n: the largest group of a one-stage schedule, every chip
// of a hierarchical one.
std::int64_t group_size(const Schedule& s);

// Every chip of every group exists and is live, and the routing delivers every (sender, peer)
// pair of every group around the faults: Error(Input) / Error(Infeasible) naming the first that
// is not (a group split by faults names its stage, part and group). Returns the pairs checked;
// `by_symmetry` is set to those decided without a trace of their own: a route is traced once per
// orbit of pairs under the symmetries of a fault-free network that its routing respects
// (sim/chip_group.hpp).
std::int64_t check_rank_paths(const Schedule& s, const topo::Network& net,
                              const topo::Faults& faults, const route::RoutingFunction& fn,
                              const std::string& where, std::int64_t& by_symmetry);

} // namespace icnkit::coll
