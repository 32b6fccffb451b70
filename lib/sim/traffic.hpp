// Synthetic traffic as a Program, for the hardware-routing baseline (net-sim --traffic): no
// schedule, every chip injects at once and the network's routing function carries each flow.
#pragma once
#include "route/routing.hpp"
#include "route/spread.hpp"
#include "sim/program.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim {

// What the baseline holds per flow in flight, to bound it by memory rather than by a flow count:
// the flow in the program's buffer and in the engine's arrays, and per hop its channel in the
// buffer (8 B), the engine's pool (4 B) and the engine's by-channel index (4 B). Hops are
// estimated as the network's diameter / 2 + 1, its mean path length on a torus.
inline constexpr std::int64_t kTrafficBytesPerFlow = 104;
inline constexpr std::int64_t kTrafficBytesPerHop = 16;
inline constexpr std::int64_t kDefaultTrafficMaxBytes = std::int64_t{4} << 30;

// --traffic all-to-all: one step in which every ordered pair (s, t), s != t, of live chips sends
// bytes_per_node / n bytes (n = live chips) as one flow, spread over the routing's permitted
// choices as route/spread.hpp says (ECMP split as a fluid, the load topo-route --load reports; or
// one hashed path per flow).
// --traffic all-to-all-pairwise: MPICH's pairwise-exchange MPI_Alltoall (the MICRO'25 DOR / WFR
// baseline): n-1 rounds, one after the other; in round k = 1..n-1 the chip of rank i (its index
// among the live chips) sends its bytes_per_node / n to rank i XOR k when n is a power of two,
// else to rank (i + k) mod n (MPICH's two variants).
// --traffic all-to-all-mpich: what MPICH's MPI_Alltoall picks by default for the per-pair size
// m = bytes_per_node / n: every pair at once (its "scattered" isend/irecv algorithm) for
// m <= 32 KiB (MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE), the pairwise exchange above.
// The pairwise exchange holds n flows at a time, so it streams any size.
// Construction refuses (Error(Infeasible)) a step whose flows would take more than max_bytes;
// flows() refuses a pair the routing cannot deliver (the baseline must be whole), naming how
// many and one example.
enum class AllToAllPattern { Simultaneous, Pairwise, Mpich };
inline constexpr double kMpichMediumMessage = 32768;

struct AllToAllOptions {
  AllToAllPattern pattern = AllToAllPattern::Simultaneous;
  std::int64_t max_bytes = kDefaultTrafficMaxBytes;
  // For the analytic engine only: where the routing is translation invariant (sim/symmetry.hpp),
  // one flow per orbit (orbits() says how to expand), the same report bit for bit.
  bool symmetry = false;
  route::Ecmp ecmp = route::Ecmp::Split;
  std::uint64_t seed = 0; // of Ecmp::Hash
};

class AllToAllTraffic final : public Program {
public:
  AllToAllTraffic(const topo::Network& n, const topo::Faults& f, const route::RoutingFunction& fn,
                  double bytes_per_node, const AllToAllOptions& options = {});

  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t step, StepFlows& out) const override;
  const FlowOrbits* orbits() const override { return orbits_ ? &*orbits_ : nullptr; }

  std::int64_t n_nodes() const { return static_cast<std::int64_t>(live_.size()); }
  AllToAllPattern pattern() const { return pattern_; } // Mpich resolved to what it runs

private:
  const topo::Network& net_;
  const route::RoutingFunction& fn_;
  std::vector<char> down_links_;
  route::Ecmp ecmp_;
  std::uint64_t seed_;
  topo::Faults faults_;
  std::vector<std::int64_t> live_;   // live chip ids, ascending
  std::vector<std::size_t> sources_; // indices into live_ of the chips that send (all, or one
                                     // per orbit under the symmetry)
  std::optional<FlowOrbits> orbits_;
  double bytes_per_flow_ = 0;
  AllToAllPattern pattern_;
  std::vector<std::string> phases_{"all-to-all"};
  std::vector<StepInfo> steps_{StepInfo{}};
};

} // namespace icnkit::sim
