// The HyperX family (spec §HyperX, @tbl-spec-topo-18; Ahn et al., SC 2009): L dimensions of
// S_1 <= ... <= S_L switches (the canonical sorted form), the switches of every line of a
// dimension fully connected, T boards on each switch; N_endpoint = T * prod S divides n_chip.
// L in [1, 4], T in [1, 8], S_i >= 2. Switch coordinates are row-major with dimension 0
// fastest; switch-switch links carry their dimension. All switches in one rack (Tier 8).
// Warnings: high-dimension (L = 4), asymmetric (max S / min S > 2), degenerate-to-single-switch
// (L = 1), radix-too-large (a switch's T + sum(S_i - 1) ports > 64).
#pragma once
#include "topo/family.hpp"

namespace icnkit::topo {

class HyperXFamily : public Family {
public:
  std::string name() const override { return "hyperx"; }
  std::string summary() const override {
    return "L-dimensional HyperX: switches in a grid, each line of a dimension fully "
           "connected, T boards per switch";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §HyperX; Ahn et al., SC 2009";
  }
  std::vector<Scope> scopes() const override { return {Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override { return {"L", "T", "S"}; }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context& ctx, RunSink& out) const override;
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
