// What the analytic engine simulates: steps of flows with dependencies between steps.
// Flows are produced step by step on demand, so a 4096-chip schedule never needs all of its
// millions of transfers in memory at once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::sim {

// One flow: `bytes` from src to dst over the directed channels [first, first + count) of the
// step's channel pool. Its latency is the sum of its links' latencies. A flow split over several
// paths (ECMP as a fluid, route/spread.hpp) names each channel once with its share, the
// fraction of the flow crossing it (StepFlows::shares): at rate r it takes r x share of each
// channel's bandwidth, and its latency is the sum of share x link latency (the mean over its
// paths).
struct Flow {
  std::int64_t src = 0, dst = 0;
  double bytes = 0;
  std::uint32_t first = 0, count = 0;
};

struct StepFlows {
  std::vector<Flow> flows;
  std::vector<std::int64_t> channels;
  // Empty while every flow has share 1 on each of its channels; otherwise one per channel.
  std::vector<double> shares;
  void clear() {
    flows.clear();
    channels.clear();
    shares.clear();
  }
  double share(std::size_t k) const { return shares.empty() ? 1.0 : shares[k]; }
  void add(std::int64_t src, std::int64_t dst, double bytes,
           const std::vector<std::int64_t>& path) {
    flows.push_back({src, dst, bytes, static_cast<std::uint32_t>(channels.size()),
                     static_cast<std::uint32_t>(path.size())});
    channels.insert(channels.end(), path.begin(), path.end());
    if (!shares.empty()) shares.resize(channels.size(), 1.0);
  }
  void add1(std::int64_t src, std::int64_t dst, double bytes, std::int64_t channel) {
    flows.push_back({src, dst, bytes, static_cast<std::uint32_t>(channels.size()), 1});
    channels.push_back(channel);
    if (!shares.empty()) shares.push_back(1.0);
  }
  // A flow over channels with their shares (each in (0, 1]).
  void add_split(std::int64_t src, std::int64_t dst, double bytes,
                 const std::vector<std::int64_t>& chans, const std::vector<double>& share) {
    bool ones = true;
    for (double x : share) ones = ones && x == 1.0;
    const bool keep = !ones || !shares.empty();
    if (keep) shares.resize(channels.size(), 1.0); // the earlier flows' ones
    flows.push_back({src, dst, bytes, static_cast<std::uint32_t>(channels.size()),
                     static_cast<std::uint32_t>(chans.size())});
    channels.insert(channels.end(), chans.begin(), chans.end());
    if (keep) shares.insert(shares.end(), share.begin(), share.end());
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
//
// Where G fixes some channels (a channel c whose stabilizer H has |H| > 1: its orbit has
// |G| / |H| channels), the |G| images of a flow cross c |H| times as often as the representative
// crosses c's orbit, so c carries |H| times the representative's bytes on c's orbit: the
// engine gives the representative bw / |H| and copies |H| times its bytes to each channel of
// the orbit. `stabilizer` is per directed channel; empty: every one 1.
struct FlowOrbits {
  std::vector<std::uint32_t> channel_rep; // per directed channel of the network
  std::int64_t multiplicity = 1;
  std::vector<std::uint32_t> stabilizer;
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
  // The id of an earlier step whose flows are exactly this step's (the same sources,
  // destinations, bytes, channels and shares), or -1. The analytic engine then need not
  // simulate a step that starts alone on an idle network when that earlier step did too: it
  // takes the same time and moves the same bytes (a ring's 2(n-1) identical steps).
  virtual std::int64_t repeats(std::size_t /*step*/) const { return -1; }
};

} // namespace icnkit::sim
