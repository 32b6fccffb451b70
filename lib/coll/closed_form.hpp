// Closed forms of whole torus schedules (MICRO'25 Table 1), composed from one ring's time
// (ring_time.hpp) by the algorithm's and the scheduling's registry entries, so a user sees the
// analytic expectation next to the simulated time and tests can hold the simulator to it.
#pragma once
#include "coll/ring_time.hpp"
#include "coll/schedule.hpp"
#include "topo/faults.hpp"
#include "topo/network.hpp"

#include <optional>
#include <string>

namespace icnkit::coll {

struct ClosedForm {
  double time_s = 0;
  std::string formula; // how it was composed, for the report
};

// The closed form of a generated schedule on its network, under the per-sub-stage model, where
// one exists: every link of the same bandwidth and latency, and either no fault (ring /
// halfring / foldedring with any scheduler; the reductions on equal dimensions; all-to-all on
// mixed radix too, where one chunk per dimension at a time makes the slowest dimension the
// bottleneck) or exactly one failed link on equal dimensions (all-to-all mate / matee,
// sequential or dimrotation). nullopt otherwise (several faults have no closed form here).
// Under Table1 (the astra accounting: alpha once per phase) only the fault-free all-to-all
// forms exist.
std::optional<ClosedForm> closed_form(const Schedule& s, const topo::Network& net,
                                      const topo::Faults& faults,
                                      LatencyModel m = LatencyModel::PerSubStage);

} // namespace icnkit::coll
