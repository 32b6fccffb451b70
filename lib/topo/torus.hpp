// The torus family (spec §Torus, @tbl-spec-topo-16): D = 2 or 3 dimensions, every ordered
// factorisation S of n_chip with S_d >= 2, every board_shape B with B_d | S_d and
// max(B)/min(B) <= 2 when prod(B) > 1. Chips connect directly; boards by cube packing of B.
#pragma once
#include "topo/family.hpp"
#include "topo/grid.hpp"
#include "topo/torus_geometry.hpp"

namespace icnkit::topo {

using TorusParams = GridParams;

std::string torus_candidate_id(const TorusParams& p);
// Links crossing a minimum balanced cut of a torus of shape S, and whether that is exact
// (the longest dimension is even) or an upper bound from a staircase cut (all longest odd).
std::pair<std::int64_t, bool> torus_bisection_links(const std::vector<int>& S);
// The candidate and context of a torus given by its shape, "5x5x5x5" or "4x4x4/b2x2x2" (board
// shape; default one chip per board), for topo-gen --torus: any 2 to kMaxTorusDims dimensions,
// n_chip = the product. Error(Usage) naming `where` for a malformed or infeasible shape.
std::pair<Context, Candidate> torus_from_shape(const std::string& shape, const std::string& where);
// Reads and checks a candidate's family_attrs against n_chip.
TorusParams parse_torus_attrs(const Candidate& c, std::int64_t n_chip);

// The TPU v4 twisted torus (docs/algorithms.md §Twisted torus). Why shape S cannot be twisted, or
// "" if it can: a twist needs 3 dimensions, each equal to the smallest one (k, "short") or twice it
// (2k, "long"), at least one of each, k >= 2 (k x k x 2k or k x 2k x 2k in any order).
std::string twist_problem(const std::vector<int>& S);
// The far end of the + link leaving chip `id` in dimension d of a twisted torus of shape S:
// the regular neighbour, except that the wrap-around link of a short dimension (k-1 -> 0) is
// also offset by +k (mod 2k) in every long dimension. S must be twistable.
std::int64_t twisted_plus_neighbour(const TorusGeometry& g, std::int64_t id, int d);

class TorusFamily : public GridFamily {
public:
  std::string name() const override { return "torus"; }
  std::string summary() const override {
    return "D-dimensional torus (D = 2, 3) of chips with wrap-around links; boards are cubes "
           "of the coordinate space";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §Torus; Google TPU v3/v4";
  }
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
