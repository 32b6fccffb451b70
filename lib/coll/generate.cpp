#include "coll/generate.hpp"

#include "coll/registry.hpp"
#include "coll/rings.hpp"
#include "coll/verify.hpp"
#include "topo/torus_geometry.hpp"

namespace icnkit::coll {

namespace {

// Algorithms without fault handling need every link of every ring of every dimension they
// schedule, i.e. (on a torus, where every link belongs to a ring) every link and every chip.
void require_fault_free(const AlgorithmInfo& alg, const topo::Network& net,
                        const topo::Faults& faults, const topo::TorusGeometry& g) {
  const std::string later = "; fault-tolerant schedules (FoldedRing, MATE) come with a later issue";
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

Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults) {
  const CollectiveInfo& col = require_collective(req.collective, "--collective");
  const AlgorithmInfo& alg = require_algorithm(req.algorithm, "--algorithm");
  const DimSchedulingInfo& dims = require_dim_scheduling(req.dim_scheduling, "--dims");
  require_implements(alg, col.name, "--collective");
  if (req.bytes_per_node <= 0) fail_usage("--bytes", "must be a positive number of bytes");
  topo::TorusGeometry g = topo::TorusGeometry::of(net, "coll-sched " + alg.name);
  if (alg.fault_handling == "none") require_fault_free(alg, net, faults, g);

  // Bytes: S is a whole number, but S / (chunks * N * 2) need not be (64MiB on a ring of 5).
  // Requiring divisibility would reject the paper's own configurations (5x5x5 with 8 KB), so
  // pieces are real numbers of bytes: the analytic model (fluid flows, max-min sharing) is exact
  // for them, and verification works on exact fractions of a block, never on bytes. A
  // packet/flit-level engine rounds each piece up to whole flits.
  ComposeInput in{&alg, &g, col.name, req.bytes_per_node};
  Schedule s = dims.compose(in);
  s.network_fingerprint = net.fingerprint;
  s.verification =
      verify(s, net, faults, ErrorKind::Runtime, "coll-sched internal error: /schedule");
  return s;
}

} // namespace icnkit::coll
