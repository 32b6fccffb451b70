// Replaying a Program (a collective schedule's steps, or an all-to-all baseline) on the flit
// engine: every flow of a step becomes packets, offered when the steps it depends on have
// delivered all of theirs; completion time in cycles, per step and per phase.
//
// Packets: a flow of B bytes is ceil(B / packet_bytes) packets, the last one carrying the rest;
// a packet of b bytes is ceil(b / flit_bytes) flits (so bytes are never rounded, flits are). A
// flow leaves through the injection port paired with its first channel (the chips send on all
// their links at once, as a DMA engine per link would), and each port keeps at most `window`
// packets queued, taken round-robin from its flows, so memory follows the flows in flight, not
// the bytes. Routes: with a SourceRoutes table every flow follows exactly the channels the
// program lists (a schedule's store-and-forward hops between chips); without, the fabric's
// routing function carries it from its source to its destination (the hardware-routing
// baseline: DOR, WFR, ...).
#pragma once
#include "sim/flit/engine.hpp"
#include "sim/flit/run.hpp"
#include "sim/flit/source_routes.hpp"
#include "sim/program.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace icnkit {
class Progress;
}

namespace icnkit::sim::flit {

struct ReplayParams {
  std::int64_t packet_bytes = 512; // the MICRO'25 TPU v4 setting: 512-byte packets
  std::int64_t flit_bytes = 32;    // of 256-bit flits
  int window = 2;                  // packets queued per injection port at most
  std::int64_t watchdog = 0;       // cycles without progress before a deadlock (0: automatic)
  std::int64_t max_bytes = std::int64_t{4} << 30; // memory bound of the replay's state
  bool pair_bytes = false; // record the bytes delivered per (source, destination)
};

struct ReplayResult {
  std::int64_t cycles = 0;   // the cycle the last tail arrived (the first packets start at 0)
  std::string status = "ok"; // ok | deadlock
  std::string status_detail;
  std::vector<WaitHop> deadlock_cycle;
  std::vector<std::int64_t> step_start, step_end; // cycles, per step
  std::int64_t flows = 0, packets = 0, flits = 0, flit_hops = 0;
  double bytes = 0;                // delivered
  double latency_mean = 0;         // packets: creation -> tail arrival, cycles
  double network_latency_mean = 0; // head injection -> tail arrival
  std::int64_t latency_max = 0;
  std::int64_t peak_flows = 0;             // flows in flight at once, the most
  std::vector<std::int64_t> channel_flits; // per network channel
  std::map<std::pair<std::int64_t, std::int64_t>, double> pair_bytes; // when asked
};

// The memory the replay's state takes per flow in flight (its record and its path).
inline constexpr std::int64_t kReplayBytesPerFlow = 96;

// Runs the program to completion on the fabric. `routes`: the fabric's routing function when
// the flows follow their own channels (nullptr: the fabric's routing carries them). Error(Input)
// for a program whose dependencies are out of range or cyclic; Error(Infeasible) when its state
// would pass params.max_bytes (naming the figure).
ReplayResult replay(const Fabric& f, const Program& program, SourceRoutes* routes,
                    const ReplayParams& params, int threads = 1, Progress* progress = nullptr);

} // namespace icnkit::sim::flit
