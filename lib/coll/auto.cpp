#include "coll/auto.hpp"

#include "coll/digest.hpp"
#include "coll/expand.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_program.hpp"
#include "coll/registry.hpp"
#include "sim/analytic.hpp"

#include <algorithm>

namespace icnkit::coll {

Schedule generate_auto(const Request& req, const topo::Network& net, const topo::Faults& faults,
                       const route::RoutingFunction* fn) {
  std::vector<std::string> names;
  if (net.family == "torus" && !req.skew) // the torus algorithms move equal items
    for (const AlgorithmInfo& a : algorithms())
      if (a.torus && a.torus->implements(req.collective)) names.push_back(a.name);
  const bool grouped = req.group != "all" || !req.group_lists.empty();
  for (const AlgorithmInfo& a : algorithms())
    // An algorithm that assumes more of the hardware (in-network reduction) is the user's
    // choice, not auto's.
    if (a.ranks && a.ranks->implements(req.collective) && !(grouped && !a.ranks->generate) &&
        a.ranks->assumes.empty() && std::find(names.begin(), names.end(), a.name) == names.end())
      names.push_back(a.name);
  const std::vector<char> down = faults.down_links(net);
  sim::AnalyticOptions opt;
  opt.down_links = &down;
  std::optional<Schedule> best;
  double best_t = 0;
  Selection sel;
  std::string why; // the last refusal, for the error when nothing applies
  // A pipelined algorithm's best chunk count depends on the size (more chunks fill the pipeline
  // sooner but pay more steps' latency): unless the user fixed --chunks, it is tried at its
  // default and at 1, 4, 16, 64 and 256 chunks, each a candidate of its own.
  constexpr std::int64_t kAsGiven = -1;
  auto counts = [&](const std::string& name) -> std::vector<std::int64_t> {
    const AlgorithmInfo* a = find_rank_algorithm(name);
    if (!a) return {kAsGiven}; // a torus algorithm: the torus pipeline takes --chunks
    if (!a->ranks->pipelined) return {0};
    if (req.chunks != 0) return {kAsGiven};
    return {0, 1, 4, 16, 64, 256};
  };
  for (const std::string& name : names)
    for (const std::int64_t chunks : counts(name)) {
      Request r = req;
      r.algorithm = name;
      r.chunks = chunks == kAsGiven ? req.chunks : static_cast<int>(chunks);
      Schedule s;
      try {
        s = generate(r, net, faults, fn);
      } catch (const Error& e) {
        // An algorithm that does not apply here (a power of two, a fault it cannot avoid) is no
        // candidate, nor is a chunk count beyond the limits at this size; anything else is a
        // real error.
        if (e.kind() == ErrorKind::Usage && chunks > 0) continue;
        if (e.kind() != ErrorKind::Infeasible) throw;
        why = e.what();
        break;
      }
      double t = 0;
      if (s.stages) {
        RankProgram p(s, net, faults, *fn, route::Ecmp::Split, 0, true);
        t = sim::simulate_analytic(p, net, opt).time_s;
      } else {
        ScheduleProgram p(s, net, StepLatency::PerHop, &faults);
        t = sim::simulate_analytic(p, net, opt).time_s;
      }
      const AlgorithmInfo* a = find_rank_algorithm(name);
      sel.candidates.push_back({name, a && a->ranks->pipelined ? r.chunks : 0, t});
      if (!best || t < best_t) {
        best = std::move(s);
        best_t = t;
      }
    }
  if (!best)
    fail_infeasible("{algorithm}", "auto: no algorithm schedules " + req.collective + " here" +
                                       (why.empty() ? "" : " (last: " + why + ")"));
  best->selection = std::move(sel);
  // The selection is part of the content the digest covers.
  seal(*best);
  return *best;
}

Schedule generate_or_auto(const Request& req, const topo::Network& net, const topo::Faults& faults,
                          const route::RoutingFunction* fn) {
  require_collective(req.collective, "{collective}");
  if (req.algorithm == "auto") return generate_auto(req, net, faults, fn);
  return generate(req, net, faults, fn);
}

} // namespace icnkit::coll
