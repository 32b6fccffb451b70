// topo-gen on a document that already holds a network keeps that network as it is (its links'
// bandwidths and latencies, its faults, its fingerprint). The options that would build a network
// instead may be given only when they agree with the one there.
#pragma once
#include "topo/candidate.hpp"
#include "topo/network.hpp"

#include <optional>
#include <string>

namespace icnkit::topo {

// What a command line asks of the network it would build (absent: not asked).
struct BuildRequest {
  std::optional<std::string> pick; // --pick: a candidate id or index
  std::optional<Candidate> direct; // --torus, --scale-up/--scale-out, --preset: the candidate
  std::string direct_option;       // the option that named it
  PerKind link_bandwidth;          // --link-bw
  PerKind link_latency;            // --link-latency
  bool twist = false;              // --twist
};

// Error(Usage) naming the first option of `r` that disagrees with the network `n`, built from
// candidate `c` (null when the document has none) and listed in `list` (may be null):
// --pick must name c (by id, or by id or index in `list`), --torus / --scale-up / --preset must
// be c, --link-bw / --link-latency must be the bandwidth / latency of every link (of the kinds
// they name), --twist needs a twisted torus.
void check_build_agrees(const Network& n, const Candidate* c, const CandidateList* list,
                        const BuildRequest& r);

} // namespace icnkit::topo
