// Synthetic traffic as a Program, for the hardware-routing baseline (net-sim --traffic): no
// schedule, every chip injects at once and the network's routing function carries each flow.
#pragma once
#include "route/routing.hpp"
#include "sim/program.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::sim {

// Practical limit of the all-to-all baseline: one flow per ordered pair, n(n-1) flows held at
// once with their paths (about 150 bytes per flow in the program and the engine together), so
// 2^21 flows (up to 1448 chips) stay within a few hundred MB. 4096 chips would be 16.7M flows.
inline constexpr std::int64_t kMaxTrafficFlows = std::int64_t{1} << 21;

// --traffic all-to-all: one step in which every ordered pair (s, t), s != t, of live chips sends
// bytes_per_node / n bytes (n = live chips) as one flow over its path from route::trace.
// --traffic all-to-all-pairwise: MPICH's pairwise-exchange MPI_Alltoall (the MICRO'25 DOR / WFR
// baseline): n-1 rounds, one after the other; in round k = 1..n-1 the chip of rank i (its index
// among the live chips) sends its bytes_per_node / n to rank i XOR k when n is a power of two,
// else to rank (i + k) mod n (MPICH's two variants).
// --traffic all-to-all-mpich: what MPICH's MPI_Alltoall picks by default for the per-pair size
// m = bytes_per_node / n: every pair at once (its "scattered" isend/irecv algorithm) for
// m <= 32 KiB (MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE), the pairwise exchange above.
// Construction refuses (Error(Infeasible)) more than max_flows flows; flows() refuses a pair the
// routing cannot deliver (the baseline must be whole), naming how many and one example.
enum class AllToAllPattern { Simultaneous, Pairwise, Mpich };
inline constexpr double kMpichMediumMessage = 32768;

class AllToAllTraffic final : public Program {
public:
  AllToAllTraffic(const topo::Network& n, const topo::Faults& f, const route::RoutingFunction& fn,
                  double bytes_per_node, std::int64_t max_flows = kMaxTrafficFlows,
                  AllToAllPattern pattern = AllToAllPattern::Simultaneous);

  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t step, StepFlows& out) const override;

  std::int64_t n_nodes() const { return static_cast<std::int64_t>(live_.size()); }
  AllToAllPattern pattern() const { return pattern_; } // Mpich resolved to what it runs

private:
  const topo::Network& net_;
  const route::RoutingFunction& fn_;
  std::vector<char> down_links_;
  std::vector<std::int64_t> live_; // live chip ids, ascending
  double bytes_per_flow_ = 0;
  AllToAllPattern pattern_;
  std::vector<std::string> phases_{"all-to-all"};
  std::vector<StepInfo> steps_{StepInfo{}};
};

} // namespace icnkit::sim
