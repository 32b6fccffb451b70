#include "coll/generate.hpp"

#include "coll/auto.hpp"
#include "coll/digest.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_program.hpp"
#include "coll/rank_verify.hpp"
#include "coll/registry.hpp"
#include "coll/rings.hpp"
#include "coll/verify.hpp"

#include "topo/torus_geometry.hpp"
#include <algorithm>

namespace icnkit::coll {

namespace {

// Algorithms without fault handling need every link of every ring of every dimension they
// schedule, i.e. (on a torus, where every link belongs to a ring) every link and every chip.
void require_fault_free(const AlgorithmInfo& alg, const topo::Network& net,
                        const topo::Faults& faults, const topo::TorusGeometry& g) {
  const std::string later = " (foldedring, mate and matee route around failed links)";
  if (!faults.chips.empty()) {
    std::int64_t c = faults.chips.front().chip;
    fail_infeasible("/faults/chips", chip_text(g, c) + " has failed: " + alg.name +
                                         " all-to-all needs every chip and every ring link" +
                                         later);
  }
  auto down = faults.down_links(net);
  for (std::size_t l = 0; l < down.size(); ++l)
    if (down[l]) {
      const topo::Link& k = net.links[l];
      // Only ring links of dimensions of size > 1 are used; a torus has no other links, but a
      // size-1 dimension would make a self-loop that no ring step uses.
      if (k.dim >= 0 && k.dim < g.dims() && g.size(k.dim) == 1) continue;
      fail_infeasible("/faults/links", "link " + std::to_string(l) + " between " +
                                           chip_text(g, k.a) + " and " + chip_text(g, k.b) +
                                           " (dimension " + std::to_string(k.dim) +
                                           ") has failed, and " + alg.name +
                                           " all-to-all uses every link of every ring" + later);
    }
}

} // namespace

bool torus_form(const Request& req, const topo::Network& net) {
  const AlgorithmInfo* a = find_algorithm(req.algorithm);
  return net.family == "torus" && a && a->implements(req.collective);
}

Verification verify_ranks(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                          const route::RoutingFunction& fn, ErrorKind on_failure,
                          const std::string& where) {
  const RankSchedule& r = *s.ranks;
  RankCheck c = verify_rank_semantics(r, s.collective, on_failure, where + "/ranks");
  Verification v;
  v.delivered = true;
  v.method = c.method;
  v.phases_checked = static_cast<std::int64_t>(r.phases.size());
  v.steps_checked = c.steps_checked;
  v.pieces_checked = c.pieces_checked;
  v.hop_transfers_checked = check_rank_paths(r, net, faults, fn, where);
  const std::vector<char> down = faults.down_links(net);
  v.failed_links_avoided = std::count(down.begin(), down.end(), char{1});
  return v;
}

namespace {

Schedule generate_ranks(const Request& req, const CollectiveInfo& col, const topo::Network& net,
                        const topo::Faults& faults, const route::RoutingFunction* fn) {
  const RankAlgorithmInfo* alg = find_rank_algorithm(req.algorithm);
  if (!alg)
    fail_usage("--algorithm", "'" + req.algorithm + "' is not an algorithm of the " + net.family +
                                  " (between ranks: " + rank_algorithm_names() +
                                  (net.family == "torus" ? "; on a torus also " + algorithm_names()
                                                         : std::string()) +
                                  ")");
  if (!alg->implements(col.name)) {
    std::string serve;
    for (const auto& a : rank_algorithms())
      if (a.implements(col.name)) serve += (serve.empty() ? "" : ", ") + a.name;
    fail_infeasible("--collective", alg->name + " does not schedule " + col.name + " (" + col.name +
                                        ": " + serve + ")");
  }
  if (!fn)
    fail_input("/routing", "a schedule between ranks follows the routing: run topo-route first");
  std::vector<std::int64_t> chips = rank_order(net, faults);
  const auto n = static_cast<std::int64_t>(chips.size());
  if (n < 1) fail_infeasible("/faults", "no live chip");
  if (std::string why = alg->refuses(n); !why.empty())
    fail_infeasible("--algorithm",
                    alg->name + " " + why + "; the group has " + std::to_string(n) + " live chips");
  if (req.root < 0 || req.root >= n)
    fail_usage("--root", "must be a rank of the group, 0.." + std::to_string(n - 1));
  Schedule s;
  s.collective = col.name;
  s.algorithm = alg->name;
  s.dim_scheduling = "none";
  s.fault_handling = "routing";
  s.bytes_per_node = req.bytes_per_node;
  s.chunks = 1;
  s.ranks = alg->generate(col.name, n, req.root);
  s.ranks->chips = std::move(chips);
  s.network_fingerprint = net.fingerprint;
  s.verification =
      verify_ranks(s, net, faults, *fn, ErrorKind::Runtime, "coll-sched internal error: /schedule");
  seal(s);
  return s;
}

} // namespace

Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults,
                  const route::RoutingFunction* fn) {
  const CollectiveInfo& col = require_collective(req.collective, "--collective");
  if (req.algorithm == "auto") return generate_auto(req, net, faults, fn);
  if (req.bytes_per_node <= 0) fail_usage("--bytes", "must be a positive number of bytes");
  // Between ranks unless it is a torus algorithm's request (whose own checks then say why a
  // network or collective does not suit it).
  if (!torus_form(req, net) &&
      (find_rank_algorithm(req.algorithm) || !find_algorithm(req.algorithm))) {
    if (req.chunks != 0)
      fail_usage("--chunks", "belongs to the torus ring algorithms; " + req.algorithm + " on the " +
                                 net.family + " runs between ranks");
    return generate_ranks(req, col, net, faults, fn);
  }
  const AlgorithmInfo& alg = require_algorithm(req.algorithm, "--algorithm");
  const DimSchedulingInfo& dims = require_dim_scheduling(req.dim_scheduling, "--dims");
  require_implements(alg, col.name, "--collective");
  if (req.bytes_per_node <= 0) fail_usage("--bytes", "must be a positive number of bytes");
  const int chunks = resolve_chunks(dims, req.chunks);
  topo::TorusGeometry g = topo::TorusGeometry::of(net, "coll-sched " + alg.name);
  if (alg.fault_handling == "none") require_fault_free(alg, net, faults, g);
  std::vector<DimFaults> df = dim_faults(g, net, faults, alg.name);
  if (alg.needs_fault &&
      std::all_of(df.begin(), df.end(), [](const DimFaults& f) { return f.faulty.empty(); }))
    fail_infeasible("/faults", alg.name +
                                   " accelerates a torus with a failed link, and this one has "
                                   "none (use halfring on a fault-free torus)");
  const std::vector<char> down = faults.down_links(net);

  // Bytes: S is a whole number, but S / (chunks * N * 2) need not be (64MiB on a ring of 5).
  // Requiring divisibility would reject the paper's own configurations (5x5x5 with 8 KB), so
  // pieces are real numbers of bytes: the analytic model (fluid flows, max-min sharing) is exact
  // for them, and verification works on exact fractions of a block, never on bytes. A
  // packet/flit-level engine rounds each piece up to whole flits.
  ComposeInput in{&alg, &g, col.name, req.bytes_per_node, {}, chunks, false};
  // On a faulty torus the dimensions' plans differ in length; slots in lockstep keep chunks
  // from meeting in the slow dimension (and MATE's borrowed links from other traffic).
  in.lockstep =
      std::any_of(df.begin(), df.end(), [](const DimFaults& f) { return !f.faulty.empty(); });
  if (col.name != "all-to-all")
    for (int d = 0; d < g.dims(); ++d)
      if (g.size(d) > 64)
        fail_infeasible("--collective", col.name +
                                            " schedules are verified on rings of up to 64 "
                                            "chips; dimension " +
                                            std::to_string(d) + " has " +
                                            std::to_string(g.size(d)));
  std::vector<PhaseOp> ops;
  if (col.name == "all-to-all") ops = {PhaseOp::AllToAll};
  if (col.name == "reduce-scatter" || col.name == "all-reduce")
    ops.push_back(PhaseOp::ReduceScatter);
  if (col.name == "all-gather" || col.name == "all-reduce") ops.push_back(PhaseOp::AllGather);
  // The ring that sets a slot's length: the largest, unless dimensions run one at a time.
  int largest = 1;
  for (int d = 0; d < g.dims(); ++d) largest = std::max(largest, g.size(d));
  for (PhaseOp op : ops) {
    auto& plans = in.plans[static_cast<std::size_t>(op)];
    plans.resize(static_cast<std::size_t>(g.dims()));
    for (int d = 0; d < g.dims(); ++d)
      if (g.size(d) > 1)
        plans[static_cast<std::size_t>(d)] =
            alg.plan(DimContext{&g, d, &df[static_cast<std::size_t>(d)], &down, alg.name, op,
                                dims.name == "sequential" ? g.size(d) : largest});
  }
  Schedule s = dims.compose(in);
  s.network_fingerprint = net.fingerprint;
  s.verification =
      verify(s, net, faults, ErrorKind::Runtime, "coll-sched internal error: /schedule");
  seal(s);
  return s;
}

} // namespace icnkit::coll
