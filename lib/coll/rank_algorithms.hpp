// The collective algorithms of any network (rank_schedule.hpp): each a generator of rule
// transfers between ranks, with the collectives it serves and where it applies. The torus ring
// algorithms (registry.hpp) stay the torus's own; on other networks these serve.
#pragma once
#include "coll/rank_schedule.hpp"
#include "topo/faults.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::coll {

struct RankAlgorithmInfo {
  std::string name;
  std::string summary;
  std::string reference;
  std::vector<std::string> collectives;
  std::string applies; // in words, e.g. "any number of ranks"
  // "" when the algorithm serves `collective` on n ranks, else why not (e.g. "needs a power of
  // two").
  std::string (*refuses)(const std::string& collective, std::int64_t n) = nullptr;
  // Whether it pipelines the buffer in chunks (--chunks: how many; 0 = its default).
  bool pipelined = false;
  // Steps and phases of `collective` on n ranks (root for broadcast / reduce; chunks for a
  // pipelined algorithm, 0 = its default); chips are left for the caller. Precondition:
  // implements(collective) and refuses(collective, n) is "".
  // Null for a composed algorithm (hierarchical: stages of the others, generate.cpp).
  RankSchedule (*generate)(const std::string& collective, std::int64_t n, std::int64_t root,
                           std::int64_t chunks) = nullptr;
  // What it assumes of the hardware beyond links and the routing ("" = nothing): in-network
  // reduction needs switches that add and multicast. --algorithm auto leaves such algorithms
  // out; a schedule using one states the assumption.
  std::string assumes;
  bool implements(const std::string& collective) const;
};

const std::vector<RankAlgorithmInfo>& rank_algorithms();

// hierarchical's all-to-all (one stage; its ranks in levels of b consecutive ranks, n and b
// powers of two): b-1 exchanges inside each level, then n/b-1 across (rank_algorithms.cpp).
RankSchedule hierarchical_all_to_all(std::int64_t n, std::int64_t b);
const RankAlgorithmInfo* find_rank_algorithm(const std::string& name);
std::string rank_algorithm_names(); // "ring, direct, ..."

// The live chips in packaging order: by pod, rack, board, then chip id, so that consecutive
// ranks share a board, then a rack, then a pod where the packaging allows.
std::vector<std::int64_t> rank_order(const topo::Network& net, const topo::Faults& faults);

// The groups a collective runs in, by `spec`: "all" (one group), "board", "rack", "pod" (one per
// board, rack, pod), "stride:K" (K groups: the chips whose position in packaging order is j mod K:
// the data-parallel peers of tensor groups of K). Positions count every chip, so a failure moves
// no other chip to another group; failed chips then leave their group (`left`, ascending), and a
// group left empty is dropped. Each group's chips in packaging order; groups by their first
// chip's position. Error(Usage) naming `where` for a bad spec.
std::vector<std::vector<std::int64_t>>
rank_groups(const topo::Network& net, const topo::Faults& faults, const std::string& spec,
            const std::string& where, std::vector<std::int64_t>& left);
// The same for explicit lists (list:FILE): every chip must exist and be in one list at most
// (Error(Input) naming `where`).
std::vector<std::vector<std::int64_t>>
rank_groups(const topo::Network& net, const topo::Faults& faults,
            const std::vector<std::vector<std::int64_t>>& lists, const std::string& where,
            std::vector<std::int64_t>& left);

} // namespace icnkit::coll
