// --algorithm auto: the fastest applicable algorithm at the requested size under the analytic
// model (NCCL's tuner picks by a cost model the same way), the choice and every candidate's time
// recorded in the schedule (Schedule::selection).
#pragma once
#include "coll/generate.hpp"

namespace icnkit::coll {

// Generates every algorithm that serves req.collective on `net` (between ranks; on a torus also
// the torus algorithms, with req.dim_scheduling), simulates each (analytic, per-step latency,
// ECMP split), and returns the fastest (the first in registry order on a tie) with its
// selection. Error(Infeasible) when none applies.
Schedule generate_auto(const Request& req, const topo::Network& net, const topo::Faults& faults,
                       const route::RoutingFunction* fn);

// The entry point of coll-sched: generate_auto() for --algorithm auto, generate() (generate.hpp)
// for a named algorithm. An unknown collective is Error(Usage) naming "--collective" either way.
Schedule generate_or_auto(const Request& req, const topo::Network& net, const topo::Faults& faults,
                          const route::RoutingFunction* fn = nullptr);

} // namespace icnkit::coll
