// Whether the stages of a schedule between ranks (Schedule::stages) compose to its collective,
// proven by following every chip's data exactly: which part of the buffer it holds (an interval
// of exact fractions) and whose contributions its copy sums (a bitset over the chips).
//  - One stage of share 1 running the schedule's collective: every group does the collective
//    (coll-sched --group); what each group ends with is rank_verify.hpp's proof.
//  - Several stages (hierarchical): every chip takes part in every stage, in one group; the
//    members of a group hold the same interval of the stage's share (reduce-scatter,
//    all-reduce) with disjoint contributions, or the consecutive equal parts of one (all-gather)
//    with the same contributions; reduce-scatter leaves the member of position p the p-th part
//    summed over the group, all-reduce the whole, all-gather the parent interval. An all-reduce
//    composes all three and ends with every chip holding the whole buffer summed over every
//    chip, each once; a reduce-scatter composes reduce-scatters and ends with the k-th chip of
//    the last stage's ranks (parts, groups, members in order) holding the k-th of P blocks so
//    summed; an all-gather composes all-gathers from the k-th chip of the first stage's ranks
//    holding the k-th block, and ends with every chip holding the whole buffer.
#pragma once
#include "coll/schedule.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <string>

namespace icnkit::coll {

// Throws Error(on_failure, where + "/stages/<k>", what) at the first stage that does not compose.
// Returns the (chip, stage) states checked.
std::int64_t check_stages(const Schedule& s, ErrorKind on_failure, const std::string& where);

} // namespace icnkit::coll
