#include "topo/candidate.hpp"

#include "core/error.hpp"

namespace icnkit::topo {

const Candidate& pick_candidate(const CandidateList& l, const std::string& pick,
                                const std::string& where) {
  const auto& items = l.items;
  if (items.empty()) fail_infeasible(where, "the candidates list is empty: nothing to generate");
  const std::string listed = std::to_string(items.size());
  const std::string truncated =
      l.truncated() ? " (the list holds the first " + listed + " of " + std::to_string(l.total) +
                          " candidates: rerun topo-enum with {all}, or narrow it with {where})"
                    : "";
  if (pick.empty()) {
    if (items.size() != 1)
      fail_usage(where, "the list has " + listed + " candidates; pick one by id or index");
    return items[0];
  }
  for (auto& it : items)
    if (it.id == pick) return it;
  if (pick.find_first_not_of("0123456789") == std::string::npos) {
    if (pick.size() > 9 || std::stoul(pick) >= items.size())
      fail_usage(where,
                 "index " + pick + " is out of range (the list has " + listed + ")" + truncated);
    return items[std::stoul(pick)];
  }
  fail_usage(where, "no candidate with id '" + pick + "'" + truncated);
}

} // namespace icnkit::topo
