#include "topo/custom.hpp"

#include "topo/structure.hpp"

namespace icnkit::topo {

json custom_attrs(const std::string& format, bool exact_path_diversity) {
  return {{"imported_from", format},
          {"path_diversity_method", exact_path_diversity ? "exact" : "upper-bound"}};
}

const std::vector<std::string>& CustomFamily::warning_names() const {
  static const std::vector<std::string> none;
  return none;
}

Candidate CustomFamily::make(const Context&, const CandidateRun&, std::int64_t) const {
  fail_runtime("custom", "custom networks are imported, not enumerated");
}

Estimate CustomFamily::estimate(const Context&, const CandidateRun&, std::int64_t) const {
  fail_runtime("custom", "custom networks are imported, not enumerated");
}

Network CustomFamily::generate(const Context&, const Candidate& c, const GenerateOptions&) const {
  fail_infeasible("candidate " + c.id,
                  "a custom network is read from its file (topo-gen {import}), not generated "
                  "from a candidate");
}

void CustomFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const std::string from = attrs.string("imported_from");
  if (from != "networkx" && from != "graphml" && from != "edgelist")
    attrs.fail("imported_from", "must be networkx, graphml or edgelist");
  const std::string method = attrs.string("path_diversity_method");
  if (method != "exact" && method != "upper-bound")
    attrs.fail("path_diversity_method", "must be exact or upper-bound");
  attrs.done();
}

} // namespace icnkit::topo
