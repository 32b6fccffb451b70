// The analytic simulation of a document as one call: the program for its collective schedule or
// for an all-to-all baseline over its routing (sim/sized_program.hpp), run by the analytic engine
// (sim/analytic.hpp) at one or more sizes, each recorded as a Report with the collective's lower
// bound and, for a schedule of hops, its closed form.
#pragma once
#include "coll/schedule.hpp"
#include "route/routing_section.hpp"
#include "route/spread.hpp"
#include "sim/report.hpp"
#include "sim/traffic.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim {

struct AnalyticRunOptions {
  // The all-to-all baseline to simulate (its name in `traffic`, which the reports record), or
  // nothing: the schedule.
  std::optional<AllToAllPattern> baseline;
  std::string traffic;
  std::vector<std::uint64_t> sizes{0}; // bytes per node, a report each; 0: the schedule's own
  bool astra = false; // a schedule's steps timed as ASTRA-sim does (kAstraLatencyModel)
  route::Ecmp ecmp = route::Ecmp::Split;
  std::uint64_t seed = 0;                           // of Ecmp::Hash
  std::int64_t max_bytes = kDefaultTrafficMaxBytes; // the baselines' memory bound
  bool step_times = false;                          // every step's start and end in the report
  bool link_stats = false;                          // every live channel's utilisation
  std::string source = "<stdin>";                   // the document, as errors name it
  std::string progress_label = "analytic";
};

// Simulates the document's network `n` (with faults `f`): the baseline over `routing`, or
// `schedule` (checked by coll::verify / verify_ranks unless sealed, and carried by `routing` when
// it is between ranks). Error(Input) at SOURCE:/routing or SOURCE:/schedule when the section it
// needs is missing or the schedule does not verify; the engine's and the baselines' errors
// (Error(Infeasible) past max_bytes, or for pairs the routing cannot deliver).
std::vector<Report> run_analytic(const topo::Network& n, const topo::Faults& f,
                                 const route::RoutingSection* routing,
                                 const coll::Schedule* schedule, const AnalyticRunOptions& o);

} // namespace icnkit::sim
