#include "topo/candidate.hpp"

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

json to_json(const Candidate& c) {
  json j = {{"id", c.id},
            {"family", c.family},
            {"family_attrs", c.family_attrs},
            {"n_endpoint", c.n_endpoint},
            {"derived_chips_per_board", c.derived_chips_per_board},
            {"status", c.status()},
            {"warnings", c.warnings}};
  if (!c.sorted_by.empty()) j["sorted_by"] = {{"metric", c.sorted_by}, {"value", c.sort_value}};
  return j;
}

Candidate parse_candidate(ObjReader& r) {
  Candidate c;
  c.id = r.string("id");
  c.family = r.string("family");
  c.family_attrs = r.raw("family_attrs");
  if (!c.family_attrs.is_object()) r.fail("family_attrs", "expected an object");
  c.n_endpoint = r.integer("n_endpoint", 1);
  c.derived_chips_per_board = r.integer("derived_chips_per_board", 1);
  c.warnings = r.string_list("warnings");
  if (auto s = r.object_opt("sorted_by")) {
    c.sorted_by = s->string("metric");
    if (c.sorted_by.empty()) s->fail("metric", "must not be empty");
    c.sort_value = s->number("value");
    s->done();
  }
  auto status = r.string("status");
  if (status != c.status())
    r.fail("status", "status \"" + status + "\" disagrees with warnings (expected \"" + c.status() +
                         "\": edge-case iff there are warnings)");
  r.done();
  return c;
}

json to_json(const CandidateList& l) {
  json items = json::array();
  for (auto& c : l.items) items.push_back(to_json(c));
  return {{"items", items},
          {"total", l.total},
          {"returned", l.items.size()},
          {"truncated", l.truncated()}};
}

CandidateList parse_candidates(ObjReader& r) {
  CandidateList l;
  for (auto& item : r.objects("items")) l.items.push_back(parse_candidate(item));
  l.total = r.integer("total", 0);
  auto returned = r.integer("returned", 0);
  bool truncated = r.boolean("truncated");
  if (returned != static_cast<std::int64_t>(l.items.size()))
    r.fail("returned", "says " + std::to_string(returned) + " but items holds " +
                           std::to_string(l.items.size()));
  if (l.total < returned) r.fail("total", "total is smaller than the number returned");
  if (truncated != l.truncated()) r.fail("truncated", "disagrees with total and returned");
  r.done();
  return l;
}

} // namespace icnkit::topo
