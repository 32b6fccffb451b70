// The mesh family: the torus's shapes without wrap-around links. The spec rejects partial tori
// and makes the mesh its own family; it takes the torus's rules (§Torus, @tbl-spec-topo-16):
// D = 2 or 3 dimensions, every ordered factorisation S of n_chip with S_d >= 2, every
// board_shape B with B_d | S_d and max(B)/min(B) <= 2 when prod(B) > 1, the same warnings
// (asymmetric, degenerate-dimension) and order. Chips connect directly to their coordinate
// neighbours; boards by cube packing of B; one rack, one pod.
#pragma once
#include "topo/family.hpp"
#include "topo/grid.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::topo {

// Coordinates, neighbours and links of a generated mesh. Chip ids as the document format fixes
// them: id = x0 + S0*(x1 + S1*x2). Chip c has a link in + direction of dimension d iff x_d(c) < S_d
// - 1 (no wrap-around, so a size-2 dimension has a single link per pair). Link ids are dense in
// (chip, dimension) order, skipping the missing links:
//   link(c, d, +1) = sum over d' of |{c' < c : x_d'(c') < S_d' - 1}|
//                    + |{d' < d : x_d'(c) < S_d' - 1}|
// computed in O(D) (the first sum counts, per dimension, the chips below c that are not on
// the last layer: t = stride(d'), s = S_d', p = t*s: c - (c/p)*t - max(0, c%p - (s-1)*t)).
class MeshGeometry {
public:
  explicit MeshGeometry(std::vector<int> sizes) : grid_(std::move(sizes)) {}
  // The geometry of a generated mesh network; throws Error(Infeasible) for other families.
  static MeshGeometry of(const Network& n, const std::string& who);

  int dims() const { return grid_.dims(); }
  int size(int d) const { return grid_.size(d); }
  const std::vector<int>& sizes() const { return grid_.sizes(); }
  std::int64_t count() const { return grid_.count(); }
  std::int64_t stride(int d) const { return grid_.stride(d); }
  int coord(std::int64_t id, int d) const { return grid_.coord(id, d); }
  std::vector<int> coords(std::int64_t id) const { return grid_.coords(id); }
  std::int64_t id(const std::vector<int>& c) const { return grid_.id(c); }

  // Whether chip `id` has a neighbour one step in dimension d, direction dir (+1 / -1).
  bool has_neighbour(std::int64_t id, int d, int dir) const {
    int x = coord(id, d) + dir;
    return x >= 0 && x < size(d);
  }
  // That neighbour, or -1 at the boundary.
  std::int64_t neighbour(std::int64_t id, int d, int dir) const {
    return has_neighbour(id, d, dir) ? id + dir * stride(d) : -1;
  }
  // The link and the directed channel a chip uses to leave in (d, dir), or -1 at the boundary.
  std::int64_t link(std::int64_t id, int d, int dir) const;
  std::int64_t channel(std::int64_t id, int d, int dir) const {
    std::int64_t l = link(id, d, dir);
    return l < 0 ? -1 : channel_of(l, dir > 0);
  }
  // Number of links: sum over d of (S_d - 1) * N / S_d.
  std::int64_t link_count() const;

private:
  TorusGeometry grid_; // the coordinate arithmetic (its wrap-around neighbours are not used)
};

std::string mesh_candidate_id(const GridParams& p);
// Links crossing a minimum balanced cut of a mesh of shape S, and whether that is exact
// (the longest dimension is even: N / k_max) or an upper bound from a staircase cut.
std::pair<std::int64_t, bool> mesh_bisection_links(const std::vector<int>& S);
// Reads and checks a candidate's family_attrs against n_chip.
GridParams parse_mesh_attrs(const Candidate& c, std::int64_t n_chip);
// Every link of a mesh network is the one MeshGeometry::link names (a, b, dim, dir +1);
// Error(Input) at the first field that differs.
void check_mesh_links(const Network& n, const NetworkSite& at, const MeshGeometry& g);

class MeshFamily : public GridFamily {
public:
  std::string name() const override { return "mesh"; }
  std::string summary() const override {
    return "D-dimensional mesh (D = 2, 3) of chips: a torus without wrap-around links; boards "
           "are cubes of the coordinate space";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §Torus (a partial torus is a mesh, its own family)";
  }
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
