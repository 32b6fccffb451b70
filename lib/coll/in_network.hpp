// In-network reduction (rank_schedule.hpp, transfers via the switch): which switch a group of
// chips reduces in, and the links each chip reaches it by. A switch serves a group when every
// chip of the group has a live link to it: a single switch's chips, a fat-tree leaf's, an
// NVSwitch domain's. That the switch can add and multicast (NVLink SHARP, InfiniBand SHARP) is
// an assumption about the hardware, which the schedule states.
#pragma once
#include "topo/network.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::coll {

// Per group, the lowest-id switch that has a live link to every chip of the group, or -1 when
// none has.
std::vector<std::int64_t> group_switches(const topo::Network& net, const topo::Faults& faults,
                                         const std::vector<std::vector<std::int64_t>>& groups);

// Per group g and rank i (at [g][i]), the live links from its chip to switches[g] (ids
// ascending; empty when it has none). Chips are in one group at most.
std::vector<std::vector<std::vector<std::int64_t>>>
switch_links(const topo::Network& net, const std::vector<char>& down_links,
             const std::vector<std::vector<std::int64_t>>& groups,
             const std::vector<std::int64_t>& switches);

} // namespace icnkit::coll
