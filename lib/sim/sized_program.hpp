// What one size of a simulation runs: the Program for a document's collective schedule (at a
// size, or its own) or for an all-to-all baseline over its routing, and how a report names it.
// The analytic run (sim/run_analytic.hpp) and the flit replay (sim/flit/replay_run.hpp) both
// build their programs here.
#pragma once
#include "coll/expand.hpp"
#include "coll/schedule.hpp"
#include "route/routing.hpp"
#include "sim/program.hpp"
#include "sim/traffic.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace icnkit::sim {

struct SizedProgram {
  std::unique_ptr<Program> program;
  std::string source;     // "schedule" | "traffic"
  std::string collective; // the schedule's, or "all-to-all"
  std::string algorithm;  // the schedule's, or "hardware-routing:<routing>[/pairwise]"
  std::int64_t n_nodes = 0, bytes_per_node = 0;
  std::optional<coll::Schedule> sized; // the schedule at this size (a schedule only)
};

// With `baseline`: that all-to-all of `size` bytes per node carried by `fn` (`routing_algorithm`
// names it in the report; `all` gives its memory bound, ECMP and symmetry, its pattern is
// replaced). Without: `schedule` at `size` bytes per node (0: its own size), a schedule between
// ranks carried by `fn` (required), a schedule of hops by its own channels with `latency` per
// step. The schedule must have passed its verification; `fn`, `n`, `f` and `schedule` must
// outlive the program.
SizedProgram sized_program(std::uint64_t size, std::optional<AllToAllPattern> baseline,
                           const topo::Network& n, const topo::Faults& f,
                           const route::RoutingFunction* fn, const std::string& routing_algorithm,
                           const coll::Schedule* schedule, coll::StepLatency latency,
                           AllToAllOptions all);

// Chips not down.
std::int64_t live_chip_count(const topo::Network& n, const topo::Faults& f);

} // namespace icnkit::sim
