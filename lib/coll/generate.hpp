// Building a verified schedule: registry lookup, feasibility on the network and its faults,
// composition of the algorithm's ring plans by the dimension scheduler, verification.
#pragma once
#include "coll/schedule.hpp"
#include "route/routing.hpp"
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
  std::int64_t root = 0; // broadcast / reduce: the root's rank (in every group)
  // Between ranks: the groups (rank_groups(): all, board, rack, pod, stride:K), or explicit lists
  // when group_lists is not empty (list:FILE, read by the tool).
  std::string group = "all";
  std::vector<std::vector<std::int64_t>> group_lists;
  // hierarchical: its levels, innermost first, the last level (across them all) implicit:
  // "board", "board,rack", "rack,pod" ... (each inside the next), or "dims" (a torus's or a
  // mesh's dimensions: the rings of dimension 0, then of 1 ...). And the algorithms of the
  // levels, one each (innermost first, the last across), or two: the first for every inner
  // level, the second across.
  std::string hierarchy = "board";
  std::vector<std::string> level_algorithms = {"ring", "ring"};
  // All-to-all-v between ranks (skew.hpp); the torus algorithms refuse it.
  std::optional<Skew> skew;
};

// Whether `req` is served by an algorithm's torus form (registry.hpp) on `net`: a torus, an
// algorithm whose torus form implements the collective, and no groups. Otherwise its form
// between ranks (rank_algorithms.hpp) serves it, over the routing.
bool torus_form(const Request& req, const topo::Network& net);

// Errors: unknown names Error(Usage) naming "--collective" / "--algorithm" / "--dims", --chunks
// out of range or for a scheduler without chunks Error(Usage); a collective the algorithm does
// not implement, a non-torus network, faults the algorithm cannot avoid (or, for MATE / MATEe,
// no fault at all) Error(Infeasible); a schedule that fails its own verification Error(Runtime).
// The result carries its verification and network_fingerprint = net.fingerprint.
// `fn`: the network's routing, which schedules between ranks need (Error(Input) without it).
// --algorithm auto is generate_or_auto()'s (auto.hpp), which chooses by calling this one.
Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults,
                  const route::RoutingFunction* fn = nullptr);

// Verifies a schedule between ranks: what every rank ends with (rank_verify.hpp) and that the
// routing delivers every (sender, peer) pair around the faults (rank_program.hpp).
Verification verify_ranks(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                          const route::RoutingFunction& fn, ErrorKind on_failure,
                          const std::string& where);

} // namespace icnkit::coll
