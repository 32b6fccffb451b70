// The flit engine's clock: one flit per cycle on the network's fastest link. The study, the
// replay, the engine's pacing of slower links and the replay report's utilisation all read the
// fastest bandwidth here, so they agree on what a cycle is.
#pragma once
#include "topo/network.hpp"

#include <algorithm>

namespace icnkit::sim::flit {

// The highest bandwidth of any link (bytes/s), 0 when none has any. Every link counts, down ones
// included, and bandwidths compare exactly (no tolerance): a failed link does not move the clock,
// so a faulted network is timed in the healthy one's cycles, and a link only slightly slower than
// the fastest is paced as slower (engine.hpp).
inline double fastest_link_bandwidth(const topo::Network& n) {
  double bw = 0;
  for (const topo::Link& l : n.links) bw = std::max(bw, l.bandwidth_bytes_per_s);
  return bw;
}

} // namespace icnkit::sim::flit
