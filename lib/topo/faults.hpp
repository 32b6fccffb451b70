// Faults requested on the command line -> the faults section. Deterministic for a seed.
#pragma once
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
};

// Resolves the request against the network. Unknown chips or links are Error(Usage) naming the
// option. "A-B" names the link joining A and B; where two do (a ring of size 2), the one
// leaving A in + direction.
Faults make_faults(const Network& n, const FaultRequest& req);

// A small, fully specified generator (SplitMix64), so seeds mean the same on every platform.
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0, without modulo bias.
  std::uint64_t below(std::uint64_t bound) {
    std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    for (;;) {
      std::uint64_t x = next();
      if (x < limit) return x % bound;
    }
  }

private:
  std::uint64_t s_;
};

} // namespace icnkit::topo
