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
  // "" when the algorithm serves n ranks, else why not (e.g. "needs a power of two").
  std::string (*refuses)(std::int64_t n) = nullptr;
  // Steps and phases of `collective` on n ranks (root for broadcast / reduce); chips are left
  // for the caller. Precondition: implements(collective) and refuses(n) is "".
  RankSchedule (*generate)(const std::string& collective, std::int64_t n,
                           std::int64_t root) = nullptr;
  bool implements(const std::string& collective) const;
};

const std::vector<RankAlgorithmInfo>& rank_algorithms();
const RankAlgorithmInfo* find_rank_algorithm(const std::string& name);
std::string rank_algorithm_names(); // "ring, direct, ..."

// The live chips in packaging order: by pod, rack, board, then chip id, so that consecutive
// ranks share a board, then a rack, then a pod where the packaging allows.
std::vector<std::int64_t> rank_order(const topo::Network& net, const topo::Faults& faults);

} // namespace icnkit::coll
