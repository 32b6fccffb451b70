// The family of networks brought from elsewhere (topo/import.hpp): any graph of chips and
// switches that meets the spec's invariants. No structure of its own, so no family routing:
// minimal routing (or any algorithm that needs none), every collective between ranks, both
// simulators. family_attrs: {"imported_from": networkx | graphml | edgelist,
// "path_diversity_method": exact (up to kCustomExactPathDiversity chips) | upper-bound (the
// smallest chip degree)}.
#pragma once
#include "topo/family.hpp"

#include <string>

namespace icnkit::topo {

inline constexpr std::int64_t kCustomExactPathDiversity = 2048;
// Imports whose exact diameter (a BFS from every chip) would take more steps are refused.
inline constexpr double kCustomMaxBfsWork = 4e9;

json custom_attrs(const std::string& format, bool exact_path_diversity);

class CustomFamily : public Family {
public:
  std::string name() const override { return "custom"; }
  std::string summary() const override {
    return "a network brought from elsewhere (topo-gen {import}: NetworkX node-link JSON, "
           "GraphML, an edge list), checked against the spec's invariants";
  }
  std::string reference() const override { return "topo-gen {import}"; }
  std::vector<Scope> scopes() const override { return {Scope::IntraRack, Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override { return "none: topo-gen {import} FILE reads the graph"; }
  std::vector<std::string> attr_keys() const override {
    return {"imported_from", "path_diversity_method"};
  }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context&, RunSink&) const override {}
  bool enumerated() const override { return false; }
  Candidate make(const Context&, const CandidateRun&, std::int64_t) const override;
  Estimate estimate(const Context&, const CandidateRun&, std::int64_t) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
