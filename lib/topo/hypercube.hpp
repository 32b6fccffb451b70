// The hypercube family (spec §Hypercube, @tbl-spec-topo-17): n_chip = 2^n chips, n in
// [1, 10], chip i linked to chip i XOR 2^d for every dimension d (dim d, + from the chip whose
// bit d is 0). One chip per board, one rack, one pod. Warnings: research-only (always),
// high-dimension (n >= 8).
#pragma once
#include "topo/family.hpp"

namespace icnkit::topo {

class HypercubeFamily : public Family {
public:
  std::string name() const override { return "hypercube"; }
  std::string summary() const override {
    return "n-dimensional binary hypercube of 2^n chips, linked when their addresses differ "
           "in one bit";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §Hypercube; Caltech Cosmic Cube";
  }
  std::vector<Scope> scopes() const override { return {Scope::IntraRack}; }
  Leaf leaf() const override { return Leaf::Chip; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override { return {"n"}; }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context& ctx, RunSink& out) const override;
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
