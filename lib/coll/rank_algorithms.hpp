// The collective algorithms between ranks on any network (rank_schedule.hpp): generators of
// rule transfers between ranks (their registry entries: registry.hpp, RankForm), and the ranks
// and groups a collective runs on.
#pragma once
#include "coll/rank_schedule.hpp"
#include "topo/faults.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::coll {

// The generators of the algorithms between ranks (registry.hpp: RankForm::generate) and their
// applicability (RankForm::refuses). Each returns the steps and phases of `collective` on n
// ranks; root for broadcast / reduce, chunks for the pipelined ones (0 = the default).
namespace ranks {
using Refusal = std::string(const std::string& collective, std::int64_t n);
using Generator = RankSchedule(const std::string& collective, std::int64_t n, std::int64_t root,
                               std::int64_t chunks);
Refusal any_n, pow2_unless_all_reduce;
Generator ring, bidirectional_ring, direct, halving_doubling, bruck, pairwise, binomial,
    double_binary_tree, chain, in_network;
} // namespace ranks

// hierarchical's all-to-all (one stage; its ranks in levels of b consecutive ranks, n and b
// powers of two): b-1 exchanges inside each level, then n/b-1 across (rank_algorithms.cpp).
RankSchedule hierarchical_all_to_all(std::int64_t n, std::int64_t b);

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
