// Synthetic traffic patterns: which chip a packet from chip s is sent to. The classic set of
// interconnect studies (Dally & Towles, ch. 3; BookSim's traffic.cpp names), defined on chip ids
// so that results compare with BookSim's node numbering (on a mesh or torus, chip id
// x0 + S0 * (x1 + S1 * ...) is BookSim's node id).
//
// - uniform: every chip with equal probability, the source itself included (BookSim's).
// - transpose, bit-complement, bit-reverse, shuffle: permutations of the b = log2(N) id bits
//   (N a power of two; transpose needs b even): swap the upper and lower b/2 bits; complement
//   every bit; reverse the bit order; rotate left by one bit.
// - tornado: in every dimension of size k, x -> (x + ceil(k/2) - 1) mod k; neighbour: x -> x + 1
//   mod k. Dimensions are the chips' coordinates where the network has them (torus, mesh) and
//   one ring of N chips otherwise.
// - hotspot NODES:FRACTION: with probability FRACTION one of NODES (equally likely), else uniform.
// - random-permutation: a fixed random permutation of the chips drawn from the seed.
//
// Chips that are down take no part: they send nothing, and a packet drawn for a down chip (a
// permutation's image) is not generated; the simulator counts it.
#pragma once
#include "core/random.hpp"
#include "topo/network.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::sim {

enum class PatternKind {
  Uniform,
  Transpose,
  BitComplement,
  BitReverse,
  Shuffle,
  Tornado,
  Neighbour,
  Hotspot,
  RandomPermutation
};

// The registry of patterns: one entry each, from which --help, validation and --describe derive.
struct PatternInfo {
  PatternKind kind;
  const char* name;
  const char* summary;
};
const std::vector<PatternInfo>& patterns();
// Comma-separated names, for help texts.
std::string pattern_names();
// The pattern called `name`, or Error(Usage) at `where` listing the names.
PatternKind pattern_by_name(const std::string& name, const std::string& where);
const char* pattern_name(PatternKind k);

struct PatternSpec {
  PatternKind kind = PatternKind::Uniform;
  std::vector<std::int64_t> hotspots; // hotspot: the hot chips
  double hotspot_fraction = 0;        // hotspot: the share of packets sent to them
  std::uint64_t seed = 0;             // random-permutation: the permutation's seed
};

// Parses NODES:FRACTION (e.g. "0,63:0.2") for --hotspot; Error(Usage) at `where`.
void parse_hotspot(const std::string& text, PatternSpec& spec, const std::string& where);

class Pattern {
public:
  // Error(Infeasible) when the pattern is not defined on this network (a bit permutation on a
  // chip count that is not a power of two), Error(Usage) for hot chips out of range.
  Pattern(const PatternSpec& spec, const topo::Network& n);

  PatternKind kind() const { return spec_.kind; }
  // True when every source has one fixed destination (a permutation).
  bool deterministic() const { return !perm_.empty(); }
  // The destination of a packet from `src` (a chip id); uses `rng` only for random patterns.
  std::int64_t dest(std::int64_t src, SplitMix64& rng) const {
    if (!perm_.empty()) return perm_[static_cast<std::size_t>(src)];
    if (spec_.kind == PatternKind::Hotspot && rng.uniform() < spec_.hotspot_fraction)
      return spec_.hotspots[rng.below(spec_.hotspots.size())];
    return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(n_)));
  }
  // The probability that a packet from src goes to dst.
  double weight(std::int64_t src, std::int64_t dst) const {
    if (!perm_.empty()) return perm_[static_cast<std::size_t>(src)] == dst ? 1.0 : 0.0;
    double w = (spec_.kind == PatternKind::Hotspot ? 1.0 - spec_.hotspot_fraction : 1.0) /
               static_cast<double>(n_);
    if (spec_.kind == PatternKind::Hotspot &&
        std::binary_search(spec_.hotspots.begin(), spec_.hotspots.end(), dst))
      w += spec_.hotspot_fraction / static_cast<double>(spec_.hotspots.size());
    return w;
  }
  // Where src's packets go, as (destination, probability) pairs summing to 1 (for link load).
  void distribution(std::int64_t src, std::vector<std::pair<std::int64_t, double>>& out) const;

private:
  PatternSpec spec_;
  std::int64_t n_ = 0;
  std::vector<std::int64_t> perm_; // deterministic patterns: dest per source
};

} // namespace icnkit::sim
