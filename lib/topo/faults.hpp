// Faults requested on the command line -> the faults section. Deterministic for a seed.
#pragma once
#include "core/random.hpp" // SplitMix64: the random faults' generator
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::topo {

struct FaultRequest {
  std::vector<std::string> links; // "A-B" (chip ids), "(x,y,z)-(x,y,z)", "#ID" (link id)
  std::vector<std::string> chips; // "5" or "(x,y,z)"
  std::int64_t random_links = 0;  // K links drawn uniformly among those not yet failed
  std::uint64_t seed = 1;
  std::vector<std::int64_t> ocs;     // optical circuit switches to fail (0 .. kOcsCount-1)
  std::vector<std::string> switches; // switch node ids: every link of each fails
  std::vector<std::string> nics;     // "CHIP" (every NIC of the chip) or "CHIP:I" (NIC I)
};

// The TPU v4 OCS wiring (docs/algorithms.md §OCS fault model): a torus whose three dimensions are
// all multiples of 4 is built of 4x4x4 cubes; each cube's 96 outward links (16 per face) go to 48
// OCSes, opposite faces sharing OCSes, 2 links per cube per OCS. OCS i serves dimension d = i / 16
// at face position p = i % 16 = a + 4 b, where a and b are the chip's coordinates inside its cube
// (mod 4) in the two other dimensions, the lower dimension first.
inline constexpr int kOcsCount = 48;
// The links OCS `ocs` carries, sorted by id: every link of dimension d leaving a chip at
// x_d = 3 (mod 4) in + direction (into the next cube, wrap-around links included, twisted or
// not) whose chip sits at face position p. 4x4x4: 1 link; 8x4x4, d = 0: 2; 8x8x8: 8. A network
// that is no such torus (another family, 2-D, a dimension not a multiple of 4) or an OCS out of
// range is Error(Usage) naming --fail-ocs.
std::vector<std::int64_t> ocs_links(const Network& n, int ocs);

// Resolves the request against the network. Unknown chips or links are Error(Usage) naming the
// option. "A-B" names the link joining A and B; where two do (a ring of size 2), the one
// leaving A in + direction. A failed switch takes every link it has down (cause "switch").
// A failed NIC takes its links down (cause "nic"): a chip's NIC ports are its links to switches
// other than scale-up links (kind c2c), in link order; in a composed network NIC I is one port
// on each plane, elsewhere link I of that order. A link failed for several reasons keeps the
// first cause of explicit, ocs, switch, nic, random (random links are drawn among those not
// failed otherwise).
//
// With `existing` (the network's faults so far), the request adds to them: links and chips
// already failed keep their cause, the failed OCSes are merged, and random links are drawn
// among the links not failed yet. A network holds one random draw: asking for random links
// when `existing` already has some is Error(Usage) at --fail-random-links.
Faults make_faults(const Network& n, const FaultRequest& req, const Faults* existing = nullptr);

} // namespace icnkit::topo
