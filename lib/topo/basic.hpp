// The families without parameters of their own (spec §Ring, §Full-Mesh, §Single-Switch):
// the number of boards N_endpoint runs over the divisors of n_chip.
//
// ring          boards in a cycle; rail i joins chip i of each board to chip i of the next
//               (a 1-D torus per rail: dim 0, + from board b to b+1; two boards keep both
//               links). N_endpoint >= 2. Warning: high-diameter (N_endpoint > 32).
// full-mesh     every pair of boards joined, rail by rail. N_endpoint >= 2.
//               Warning: link-explosion (N_endpoint > 16).
// single-switch every board on one switch (Tier 8). N_endpoint >= 1.
//               Warning: radix-too-large (N_endpoint > 64).
//
// Ring and full-mesh link boards, not chips: with intra_board_topo none their rails never
// meet, so only N_endpoint = n_chip (one chip per board) is connected, and only that is
// enumerated (the spec's connectivity constraint). Each board is its own endpoint; one rack,
// one pod.
#pragma once
#include "topo/family.hpp"

namespace icnkit::topo {

enum class BasicKind { Ring, FullMesh, SingleSwitch };

class BasicFamily : public Family {
public:
  explicit BasicFamily(BasicKind k) : kind_(k) {}
  std::string name() const override;
  std::string summary() const override;
  std::string reference() const override;
  std::vector<Scope> scopes() const override { return {Scope::IntraRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override { return {}; }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context& ctx, RunSink& out) const override;
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;

private:
  BasicKind kind_;
};

} // namespace icnkit::topo
