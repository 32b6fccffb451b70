// What the analytic engine simulates: steps of flows with dependencies between steps.
// Flows are produced step by step on demand, so a 4096-chip schedule never needs all of its
// millions of transfers in memory at once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::sim {

// One flow: `bytes` from src to dst over the directed channels [first, first + count) of the
// step's channel pool. Its latency is the sum of its links' latencies.
struct Flow {
  std::int64_t src = 0, dst = 0;
  double bytes = 0;
  std::uint32_t first = 0, count = 0;
};

struct StepFlows {
  std::vector<Flow> flows;
  std::vector<std::int64_t> channels;
  void clear() {
    flows.clear();
    channels.clear();
  }
  void add(std::int64_t src, std::int64_t dst, double bytes,
           const std::vector<std::int64_t>& path) {
    flows.push_back({src, dst, bytes, static_cast<std::uint32_t>(channels.size()),
                     static_cast<std::uint32_t>(path.size())});
    channels.insert(channels.end(), path.begin(), path.end());
  }
  void add1(std::int64_t src, std::int64_t dst, double bytes, std::int64_t channel) {
    flows.push_back({src, dst, bytes, static_cast<std::uint32_t>(channels.size()), 1});
    channels.push_back(channel);
  }
};

struct StepInfo {
  std::vector<std::int64_t> after; // indices of the steps that must finish first
  int phase = 0;                   // index into Program::phases()
  // >= 0: every flow of the step takes this latency instead of the sum of its links' (a latency
  // model that charges per phase rather than per hop, e.g. coll::StepLatency::Astra).
  double latency_s = -1;
};

// A program that stands for a larger one by symmetry (sim/symmetry.hpp): each of its flows is one
// of `multiplicity` equivalent flows, and every channel it names is the representative of an
// orbit of channels that carry the same bytes. The engine copies the representatives' figures to
// their orbits and counts flows times the multiplicity.
struct FlowOrbits {
  std::vector<std::uint32_t> channel_rep; // per directed channel of the network
  std::int64_t multiplicity = 1;
};

class Program {
public:
  virtual ~Program() = default;
  virtual const std::vector<std::string>& phases() const = 0;
  virtual const std::vector<StepInfo>& steps() const = 0; // a step's index is its id
  // Fills `out` (cleared first) with the flows of one step.
  virtual void flows(std::size_t step, StepFlows& out) const = 0;
  // Null unless the program is a quotient by symmetry (above).
  virtual const FlowOrbits* orbits() const { return nullptr; }
};

} // namespace icnkit::sim
