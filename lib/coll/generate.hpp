// Building a verified schedule: registry lookup, feasibility on the network and its faults,
// composition of the algorithm's ring plans by the dimension scheduler, verification.
#pragma once
#include "coll/schedule.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>

namespace icnkit::coll {

struct Request {
  std::string collective = "all-to-all";
  std::string algorithm = "ring";
  std::string dim_scheduling = "sequential";
  // Per node, S. Any positive whole number: pieces (S / chunks / N / 2 for Ring) may be
  // fractional bytes, which the analytic model handles exactly as real numbers (see
  // generate.cpp).
  std::int64_t bytes_per_node = 0;
  int chunks = 0; // pipeline's C; 0 = the scheduler's default (6); other schedulers refuse it
};

// Errors: unknown names Error(Usage) naming "--collective" / "--algorithm" / "--dims", --chunks
// out of range or for a scheduler without chunks Error(Usage); a collective the algorithm does
// not implement, a non-torus network, faults the algorithm cannot avoid (or, for MATE / MATEe,
// no fault at all) Error(Infeasible); a schedule that fails its own verification Error(Runtime).
// The result carries its verification and network_fingerprint = net.fingerprint.
Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults);

} // namespace icnkit::coll
