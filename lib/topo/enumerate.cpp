#include "topo/enumerate.hpp"

#include "topo/invariants.hpp"

#include <algorithm>

namespace icnkit::topo {

const Family& require_family(const std::string& name, const std::string& where) {
  if (const Family* f = find_family(name)) return *f;
  auto& spec = spec_family_names();
  std::string implemented;
  for (auto* f : families()) implemented += (implemented.empty() ? "" : ", ") + f->name();
  if (std::find(spec.begin(), spec.end(), name) != spec.end())
    fail_infeasible(where, "family '" + name +
                               "' is not implemented yet (implemented: " + implemented + ")");
  std::string all;
  for (auto& s : spec) all += (all.empty() ? "" : ", ") + s;
  fail_usage(where, "unknown family '" + name + "' (the spec's families: " + all + ")");
}

CandidateList enumerate(const Context& ctx, const std::vector<const Family*>& fams,
                        std::size_t cap) {
  std::vector<Candidate> all;
  for (const Family* f : fams) {
    auto items = f->enumerate(ctx);
    auto scopes = f->scopes();
    bool standard = std::find(scopes.begin(), scopes.end(), ctx.scope) != scopes.end();
    for (auto& c : items) {
      // Warnings that apply to every family (@tbl-spec-topo-20, dense-pcb rule).
      if (!standard) c.warnings.push_back("non-standard-scope");
      if (c.derived_chips_per_board > ctx.chips_per_board_max)
        c.warnings.push_back("dense-pcb-impractical");
      all.push_back(std::move(c));
    }
  }
  // Recommended first, then fewer warnings; inside that, each family's own order.
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    if (a.warnings.empty() != b.warnings.empty()) return a.warnings.empty();
    return a.warnings.size() < b.warnings.size();
  });
  CandidateList out;
  out.total = static_cast<std::int64_t>(all.size());
  if (cap > 0 && all.size() > cap) all.resize(cap);
  out.items = std::move(all);
  return out;
}

Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) {
  const Family& f = require_family(c.family, "/candidate/family");
  Network n = f.generate(ctx, c, o);
  check_invariants(n, ErrorKind::Runtime, "generate " + c.id);
  return n;
}

} // namespace icnkit::topo
