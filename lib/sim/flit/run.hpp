// Measuring the flit engine under synthetic traffic, as the field does: Bernoulli injection at
// a rate in flits per node per cycle, a warm-up, a measurement window, and a drain of the packets
// created in the window (injection goes on meanwhile, so they see the same load); one run per
// rate, a sweep of rates, or a search for the saturation rate.
#pragma once
#include "sim/flit/engine.hpp"
#include "sim/pattern.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit {
class Progress;
}

namespace icnkit::sim::flit {

struct TrafficParams {
  double rate = 0.1;    // offered load, flits per node per cycle (packets: rate / packet_flits)
  int packet_flits = 1; // packet size
};

struct MeasureParams {
  std::int64_t warmup = 3000;   // cycles before the window
  std::int64_t measure = 10000; // the window
  // The drain may take this many cycles after the window (0: warm-up + window, at least the
  // latency limit); past it, the run stops as saturated.
  std::int64_t drain_limit = 0;
  // A run whose mean packet latency passes this is saturated (and stops early); 0: automatic,
  // max(500, 4 x the zero-load latency of the longest path).
  double latency_limit = 0;
  // Cycles without any flit moving, while flits wait, before the run stops as deadlocked;
  // 0: automatic (1000 + 4 x the longest link latency).
  std::int64_t watchdog = 0;
  std::uint64_t seed = 0;
  bool link_stats = false;
};

struct LatencyStats {
  double mean = 0;
  std::int64_t p50 = 0, p99 = 0, max = 0;
};

// A run is saturated when some source queue grows by more than this many flits over the
// measurement window: a stable queue comes back (on the 8x8 mesh under uniform traffic at 96% of
// saturation the largest growth is 8 flits, P = 4), one whose flows the network cannot carry grows
// without bound (a permutation saturates the few flows through its busiest channel first, long
// before the mean latency shows it).
inline constexpr std::int64_t kBacklogGrowthFlits = 64;

struct RunResult {
  double rate = 0;      // asked for
  double offered = 0;   // flits created per live chip per cycle in the window (to reachable chips)
  double accepted = 0;  // flits delivered per live chip per cycle in the window
  LatencyStats latency; // creation -> tail arrival, measured packets
  double network_latency = 0; // injection of the head -> tail arrival, mean
  double hops_mean = 0;       // network channels crossed, mean
  std::int64_t cycles = 0;    // simulated in all
  std::string status = "ok";  // ok | saturated | deadlock
  std::string status_detail;  // why, in words
  std::vector<WaitHop> deadlock_cycle;
  // The most any source's queue grew over the window, in packets: a flow the network cannot
  // carry grows its source queue without bound (a permutation saturates a few flows first).
  std::int64_t backlog_growth = 0;
  std::int64_t packets_measured = 0;
  std::int64_t packets_suppressed = 0;     // not generated: a failed end, or a pair not routed
  std::int64_t packets_to_failed = 0;      // of those, addressed to a failed chip
  std::vector<double> channel_utilisation; // flits per cycle per channel in the window
};

// One run at traffic.rate.
// threads: how many the engine may use (engine_parts()); the result does not depend on it.
RunResult run_once(const Fabric& f, const Pattern& pattern, const TrafficParams& traffic,
                   const MeasureParams& m, Progress* progress = nullptr, int threads = 1);

// One run per rate, `threads` at a time; results in the order of `rates`.
std::vector<RunResult> run_sweep(const Fabric& f, const Pattern& pattern,
                                 const TrafficParams& traffic, const MeasureParams& m,
                                 const std::vector<double>& rates, int threads,
                                 Progress* progress = nullptr);

// The saturation rate: the lowest offered load at which the mean latency reaches
// `latency_factor` times the zero-load latency (measured at `zero_load_rate`) or the run is not
// ok (a run is saturated, among other reasons, when a source queue grows by more than
// kBacklogGrowthFlits over the window: the network does not carry that source's flows); found
// by interval search on [0, 1] to `resolution`, kSaturationProbes rates evenly inside the
// bracket per round (in parallel on up to that many `threads`, the rest inside each run): the
// same runs whatever the thread count. Every run made is returned in `runs` (sorted by rate),
// the zero-load run first.
inline constexpr int kSaturationProbes = 2;
struct SaturationSearch {
  double saturation_rate = 0;  // the middle of the final bracket: within resolution / 2
  double highest_stable = 0;   // the bracket: the highest rate measured not saturated
  double lowest_saturated = 0; // and the lowest measured saturated
  double zero_load_latency = 0;
  std::vector<RunResult> runs;
};
SaturationSearch find_saturation(const Fabric& f, const Pattern& pattern,
                                 const TrafficParams& traffic, const MeasureParams& m,
                                 double resolution, double latency_factor, double zero_load_rate,
                                 int threads, Progress* progress = nullptr);

// Cycles an unloaded packet takes from creation to its tail's arrival over a path of `hops`
// network channels with the given total link latency (cycles), in this engine's timing model.
double zero_load_cycles(const RouterParams& p, bool chips_route, int hops,
                        std::int64_t link_latency_sum, int packet_flits);

} // namespace icnkit::sim::flit
