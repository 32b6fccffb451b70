// A small, fully specified random generator (SplitMix64, Steele et al. 2014), so that a seed
// means the same on every platform and library version (std::uniform_*_distribution does not).
#pragma once
#include <cstdint>

namespace icnkit {

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
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
  std::uint64_t s_;
};

} // namespace icnkit
