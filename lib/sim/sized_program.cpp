#include "sim/sized_program.hpp"

#include "coll/rank_program.hpp"
#include "core/error.hpp"

namespace icnkit::sim {

std::int64_t live_chip_count(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down = f.down_chips(n);
  std::int64_t k = 0;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!(static_cast<std::size_t>(c) < down.size() && down[static_cast<std::size_t>(c)])) ++k;
  return k;
}

SizedProgram sized_program(std::uint64_t size, std::optional<AllToAllPattern> baseline,
                           const topo::Network& n, const topo::Faults& f,
                           const route::RoutingFunction* fn, const std::string& routing_algorithm,
                           const coll::Schedule* schedule, coll::StepLatency latency,
                           AllToAllOptions all) {
  SizedProgram r;
  r.n_nodes = live_chip_count(n, f);
  if (baseline) {
    if (!fn) fail_runtime("sim", "an all-to-all baseline needs the routing");
    all.pattern = *baseline;
    auto t = std::make_unique<AllToAllTraffic>(n, f, *fn, static_cast<double>(size), all);
    const bool pairwise = t->pattern() == AllToAllPattern::Pairwise;
    r.n_nodes = t->n_nodes();
    r.program = std::move(t);
    r.source = "traffic";
    r.collective = "all-to-all";
    r.algorithm = "hardware-routing:" + routing_algorithm + (pairwise ? "/pairwise" : "");
    r.bytes_per_node = static_cast<std::int64_t>(size);
    return r;
  }
  if (!schedule) fail_runtime("sim", "no schedule to simulate");
  r.sized = size == 0 ? *schedule : coll::with_bytes(*schedule, static_cast<std::int64_t>(size));
  if (r.sized->stages) {
    if (!fn) fail_runtime("sim", "a schedule between ranks needs the routing");
    r.n_nodes = coll::group_size(*r.sized);
    r.program =
        std::make_unique<coll::RankProgram>(*r.sized, n, f, *fn, all.ecmp, all.seed, all.symmetry);
  } else {
    r.program =
        std::make_unique<coll::ScheduleProgram>(*r.sized, n, latency, all.symmetry ? &f : nullptr);
  }
  r.source = "schedule";
  r.collective = r.sized->collective;
  r.algorithm = r.sized->algorithm;
  r.bytes_per_node = r.sized->bytes_per_node;
  return r;
}

} // namespace icnkit::sim
