// The flit replay of a document as one call: its collective schedule (every step's transfers as
// packets over the schedule's own hops, or over the routing for a schedule between ranks) or an
// all-to-all baseline over its routing, replayed on the flit engine (sim/flit/replay.hpp) at one
// or more sizes, each recorded as a Report with the analytic mode's fields in seconds.
//
// The fabric: the router given, its VCs (unless set) the routing's classes (at least 2) and its
// buffers (unless set) enough for one VC to keep its link busy, 2 x the longest link latency + 8
// flits (8..4096); one cycle is one flit on the fastest link (sim/flit/clock.hpp).
#pragma once
#include "coll/schedule.hpp"
#include "route/routing_section.hpp"
#include "sim/flit/replay.hpp"
#include "sim/flit/study.hpp"
#include "sim/report.hpp"
#include "sim/traffic.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim::flit {

struct ReplayRunOptions {
  // The all-to-all baseline to replay (its name in `traffic`, which the reports record), or
  // nothing: the schedule.
  std::optional<AllToAllPattern> baseline;
  std::string traffic;
  std::vector<std::uint64_t> sizes{0}; // bytes per node, a report each; 0: the schedule's own
  RouterParams router;                 // with endpoint ports per link by default (0)
  bool default_vcs = true;             // router.vcs: the routing's VC classes, at least 2
  bool default_buffers = true;         // router.buffer_flits: 2 x the longest link latency + 8
  std::string preset = "booksim";      // the router's name in the report
  LinkLatencySpec link_latency{LinkLatencyRule::Document, 1};
  ReplayParams params; // packets, flits, watchdog, memory bound
  int threads = 0;     // workers (0: default_threads(), core/threads.hpp)
  bool step_times = false, link_stats = false;
  std::string source = "<stdin>"; // the document, as errors name it
  // Where errors about the request itself are reported (a replay the network cannot take: an
  // in-network reduction, no link bandwidth to set the clock); the caller's name for the mode.
  std::string request = "flit";
  std::string progress_label = "flit replay";
};

// Replays on network `n` (with faults `f`) the baseline over `routing`, or `schedule` (checked
// unless sealed). `each` (if set) sees every size's report as soon as it is made, before the next
// size runs: a caller's verdict on its status may stop the run by throwing. Error(Input) at
// SOURCE:/routing or SOURCE:/schedule when the section it needs is missing or the schedule does
// not verify; Error(Infeasible) at `request` for an in-network reduction or a network without
// link bandwidth; the engine's and the replay's errors.
std::vector<Report> run_replay(const topo::Network& n, const topo::Faults& f,
                               const route::RoutingSection* routing, const coll::Schedule* schedule,
                               const ReplayRunOptions& o,
                               const std::function<void(const Report&)>& each = {});

} // namespace icnkit::sim::flit
