// The torus family (spec §Torus, @tbl-spec-topo-16): D = 2 or 3 dimensions, every ordered
// factorisation S of n_chip with S_d >= 2, every board_shape B with B_d | S_d and
// max(B)/min(B) <= 2 when prod(B) > 1. Chips connect directly; boards by cube packing of B.
#pragma once
#include "topo/family.hpp"
#include "topo/grid.hpp"

namespace icnkit::topo {

using TorusParams = GridParams;

std::string torus_candidate_id(const TorusParams& p);
// Links crossing a minimum balanced cut of a torus of shape S, and whether that is exact
// (the longest dimension is even) or an upper bound from a staircase cut (all longest odd).
std::pair<std::int64_t, bool> torus_bisection_links(const std::vector<int>& S);
// Reads and checks a candidate's family_attrs against n_chip.
TorusParams parse_torus_attrs(const Candidate& c, std::int64_t n_chip);

class TorusFamily : public Family {
public:
  std::string name() const override { return "torus"; }
  std::string summary() const override {
    return "D-dimensional torus (D = 2, 3) of chips with wrap-around links; boards are cubes "
           "of the coordinate space";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §Torus; Google TPU v3/v4";
  }
  std::vector<Scope> scopes() const override { return {Scope::IntraRack, Scope::InterRack}; }
  std::vector<Candidate> enumerate(const Context& ctx) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
};

} // namespace icnkit::topo
