// The analytic flow-level engine: an event simulation of a Program (steps of flows with
// dependencies) on a Network.
//
// Model (the latency model the report names):
// - A step starts when every step in its `after` list has finished; steps without dependencies
//   start at t = 0. All of a step's flows start when the step starts.
// - A flow sends `bytes` over its directed channels. Flows that share a directed channel share
//   its bandwidth max-min fairly (progressive filling). Rates are recomputed whenever a flow's
//   data drains or new flows start, and only then: between events every rate is constant.
// - A flow's data has drained when all its bytes have been sent at those rates; the flow
//   completes `latency` later, where latency is the sum of its links' latency_s. So a lone flow
//   takes  sum(per-hop latency) + bytes / bottleneck bandwidth: the latency is paid once per
//   flow and the data is pipelined over the hops (cut-through, not store-and-forward inside a
//   flow). Store-and-forward between steps is the schedule's business: every step of a
//   hop-by-hop schedule pays its own latency, i.e. one alpha per sub-stage.
// - A step finishes when its last flow completes.
// - A flow split over several paths (ECMP as a fluid, program.hpp) takes share x rate of each
//   channel it names, and its latency is the share-weighted sum of its channels' latencies.
//
// Exactness: tests compare with closed forms to 1e-9 relative, so a flow's drain time is always
// computed as (time of its last rate change) + remaining / rate, a rate that comes out equal in
// a recomputation leaves the flow untouched, flows frozen at one fair-share level get the very
// same double, and a flow with less than 1e-9 of its bytes left at an event counts as drained.
#pragma once
#include "sim/program.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit {
class Progress;
}

namespace icnkit::sim {

struct AnalyticOptions {
  // Per-link "down" flags (topo::Faults::down_links). A flow over a down link is an error,
  // and down links' channels are left out of the utilisation mean. May be null.
  const std::vector<char>* down_links = nullptr;
  Progress* progress = nullptr; // updated with the number of finished steps; may be null
  // After flows drain (and none start), re-rate only the flows whose rate can change (those at
  // or above the lowest rate among the drained ones; analytic.cpp says why that is exact). False:
  // every computation from scratch, the reference the tests compare with.
  bool incremental = true;
};

struct PhaseResult {
  std::string name;
  std::int64_t steps = 0;
  double start_s = 0; // earliest start of its steps (0 when it has none)
  double end_s = 0;   // latest end of its steps
};

struct AnalyticResult {
  double time_s = 0; // completion time: the latest end of any step
  std::vector<double> step_start_s, step_end_s;
  std::vector<PhaseResult> phases;
  std::vector<double> channel_bytes;       // bytes carried per directed channel
  std::vector<double> channel_utilisation; // channel_bytes / (bandwidth * time_s); 0 if down
  // bytes / (bandwidth * time_s) per directed channel. The mean is over every channel of a live
  // link, idle ones included; mean_busy only over the channels that carried bytes.
  double max_utilisation = 0, mean_utilisation = 0, mean_busy_utilisation = 0;
  std::int64_t live_channels = 0, busy_channels = 0;
  std::int64_t steps = 0, flows = 0;
  std::int64_t events = 0;                   // distinct event instants processed
  std::int64_t rate_computations = 0;        // max-min fair share computations
  std::int64_t incremental_computations = 0; // of which over the re-rated flows only
};

// Runs the program to completion. Errors: Error(Input) for a schedule whose dependencies are out
// of range or cyclic, whose phase index is out of range, or whose flow names a nonexistent
// channel, a down link or negative bytes.
AnalyticResult simulate_analytic(const Program& program, const topo::Network& network,
                                 const AnalyticOptions& options = {});

// One line naming the model, for the report's latency_model.
inline constexpr const char* kAnalyticLatencyModel =
    "flow: sum of per-hop link latencies once per flow + bytes at the max-min fair rate "
    "(pipelined over hops); each step pays it again (store-and-forward between steps)";

// The alternative for schedules (net-sim --latency-model astra; coll::StepLatency::Astra).
inline constexpr const char* kAstraLatencyModel =
    "astra: the MICRO'25 artifact's accounting (ASTRA-sim analytical backend): alpha once per "
    "Ring or HalfRing phase, (N-1) alpha per folded ring, 3 alpha per acceleration phase, "
    "bytes at the max-min fair rate";

} // namespace icnkit::sim
