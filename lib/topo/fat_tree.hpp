// The fat-tree family as a PGFT (spec §Fat-Tree, @tbl-spec-topo-12/13; Petrini & Vanneschi
// 1997; Zahavi 2010): k-port switches (k even, 4..64), oversubscription osr in {1, 2, 3} with
// the integer port split d (osr + 1) = k osr, u = k - d (d ports down, u up).
//
// 2 layers  N_leaf = N_endpoint / d leaves (d | N_endpoint, 2 <= N_leaf <= k: a spine has one
//           port per leaf), u spines, every leaf linked to every spine. A leaf and its d boards
//           form a rack (Tier 8); spines are Tier 9 in the one pod.
// 3 layers  G = N_endpoint / d^2 groups (full ToRs and full groups, 2 <= G <= k: a core has
//           one port per group), each of d ToRs and u aggregation switches, ToR-aggregation
//           complete inside a group; u^2 core switches, aggregation switch j of every group
//           linked to cores j*u .. j*u + u - 1. A ToR and its boards form a rack (Tier 8), a
//           group is a pod (Tier 9: its aggregation switches), cores are Tier 9+.
//
// family_attrs: k, layers, osr, d, u, and the PGFT of the chip-level network in Zahavi's notation
// (docs/algorithms.md §PGFT notation): m_levels (children per switch level: d*C chips per leaf/ToR,
// then N_leaf, or d and G), w_levels (parents per node of the level below: [1, u] / [1, u, u]) and
// p_levels (parallel links to each parent: [chip_radix, C*chip_radix, ...], the lanes of
// topo/boards.hpp). Warnings: over-engineered (3 layers, N_endpoint < 256),
// aggressive-oversubscription (osr >= 2), low-utilization (capacity k*d or k*d^2 above 1.5
// N_endpoint), radix-too-large (k > 64: never within the range).
#pragma once
#include "topo/family.hpp"

namespace icnkit::topo {

class FatTreeFamily : public Family {
public:
  std::string name() const override { return "fat-tree"; }
  std::string summary() const override {
    return "PGFT fat-tree of k-port switches, 2 layers (leaf/spine) or 3 (ToR/aggregation/core), "
           "oversubscription osr";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §Fat-Tree (PGFT); Petrini & Vanneschi 1997; "
           "Zahavi 2010";
  }
  std::vector<Scope> scopes() const override { return {Scope::IntraRack, Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override {
    return {"k", "layers", "osr", "d", "u", "m_levels", "w_levels", "p_levels"};
  }
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context& ctx, RunSink& out) const override;
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
