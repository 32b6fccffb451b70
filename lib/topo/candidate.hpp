// One enumeration result (a feasible parameter set of one family) and the candidates list.
#pragma once
#include "core/json.hpp" // Candidate::family_attrs is a JSON object

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::topo {

struct Candidate {
  std::string id;     // e.g. "torus:4x4x4/b2x2x2", unique within a list
  std::string family; // registry name
  json family_attrs;  // family-specific, validated by the family
  std::int64_t n_endpoint = 0;
  std::int64_t derived_chips_per_board = 0;
  std::vector<std::string> warnings; // status is derived: edge-case iff warnings non-empty
  // In a list sorted by a metric (topo-enum --sort-by): the metric's name and this candidate's
  // value of it, so the order can be read; empty otherwise.
  std::string sorted_by;
  double sort_value = 0;
  // The family's closed forms (hops between chips, links, switches) where topo-enum made the
  // candidate, for its table; -1 when unknown (a candidate read from a document). Not written.
  std::int64_t est_diameter = -1, est_link_count = -1, est_switch_count = -1;

  std::string status() const { return warnings.empty() ? "recommended" : "edge-case"; }
};

struct CandidateList {
  std::vector<Candidate> items; // the returned ones, recommended first
  std::int64_t total = 0;       // how many feasible results exist
  bool truncated() const { return static_cast<std::int64_t>(items.size()) < total; }
};

// The candidate `pick` names in the list: an id, else a 0-based index. Error(Usage) at `where`
// when it names none, saying so when the list was truncated (the candidate may be among those
// left out: rerun topo-enum with --all or --where); Error(Infeasible) when the list is empty.
const Candidate& pick_candidate(const CandidateList& l, const std::string& pick,
                                const std::string& where);

} // namespace icnkit::topo
