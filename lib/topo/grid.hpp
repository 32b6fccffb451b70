// Helpers shared by the coordinate families (torus, mesh): ordered factorisations of n_chip
// into 2 or 3 dimension sizes, the spec's board shapes (@tbl-spec-topo-16), their enumeration
// order and warnings, candidate attributes, and the cube packing of chips into boards.
#pragma once
#include "core/json_reader.hpp"
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/family.hpp"
#include "topo/network.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::topo {

// A coordinate family's parameters: dimension sizes S and board shape B.
struct GridParams {
  std::vector<int> dimension_sizes;
  std::vector<int> board_shape;
};

// Divisors of n in increasing order.
std::vector<int> divisors(std::int64_t n);
// Every ordered tuple of `dims` factors >= 2 whose product is n, lexicographic.
std::vector<std::vector<int>> ordered_factorisations(std::int64_t n, int dims);
// Every board shape B with B_d | S_d and, when prod(B) > 1, max(B) <= 2 min(B).
std::vector<std::vector<int>> board_shapes(const std::vector<int>& S);

// "FAMILY:4x4x4/b2x2x2".
std::string grid_candidate_id(const std::string& family, const GridParams& p);

// The parameter space of the coordinate families, for --describe.
std::string grid_parameters();

// Links crossing a minimum balanced cut of a grid of shape S whose lines (rings of a torus,
// paths of a mesh) are cut `cuts_per_line` times each (2 on a torus, 1 on a mesh), and whether
// that is exact: cutting every line of dimension d in its middle halves the grid when S_d is
// even (N/S_d lines); when S_d is odd the middle layer is split too (a "staircase" cut), adding
// the bisection of that (D-1)-dimensional layer. The minimum over d is exact when the longest
// dimension is even; otherwise it is an upper bound.
std::pair<std::int64_t, bool> grid_bisection_links(const std::vector<int>& S, int cuts_per_line);

// The warnings of the coordinate families, in order: asymmetric (max S / min S > 4),
// degenerate-dimension (min S = 2).
const std::vector<std::string>& grid_warning_names();

// Every (S, B) with D = 3 or 2, S_d >= 2, prod S = n_chip and B a board shape of S, one run
// each (p[0] = D, p[1..3] = S, p[4..6] = B). Order: balanced shapes first, 3D before 2D, then
// S and B lexicographic.
void grid_runs(const Context& ctx, RunSink& out);
// The shape and board shape of a grid run.
GridParams grid_params_of(const CandidateRun& r);
// The candidate of a grid run of `family`.
Candidate grid_make(const std::string& family, const Context& ctx, const CandidateRun& r);

// Reads and checks a candidate's family_attrs (dimension_sizes, board_shape) against n_chip;
// Error(Input) naming the attribute otherwise.
GridParams parse_grid_attrs(const Candidate& c, std::int64_t n_chip, const std::string& family);
// The same from any family_attrs reader (a candidate's, or a network's metrics): reads
// dimension_sizes and board_shape (the caller reads its own keys and calls done()), then checks
// them against n_chip and the chips per board (an error there names cpb_where).
GridParams read_grid_attrs(ObjReader& r, const std::string& family);
void check_grid_attrs(const ObjReader& r, const GridParams& p, std::int64_t n_chip,
                      std::int64_t chips_per_board, const std::string& cpb_where);
// The structure of a torus or mesh network read from a document (their check_network): no
// switches, every chip at its row-major coordinates on the board the cube packing of
// board_shape gives it. The links are the family's to check.
void check_grid_chips(const Network& n, const NetworkSite& at, const GridParams& p);

// A torus's or mesh's network of `family` before its links: n_chip (which must be prod(S)) and
// chip_radix from the context, n.nodes (chips 0..N-1 with coordinates, id = x0 + S0*(x1 +
// S1*x2)), n.boards (cube packing: board coordinate x_d / B_d, numbered row-major with
// dimension 0 fastest), one rack and one pod.
Network grid_network(const std::string& family, const Context& ctx, const GridParams& p);

// The smallest link bandwidth of the network (0 without links).
double min_link_bandwidth(const Network& n);
// A regular torus's or mesh's closed forms: Error(Runtime) naming "<n.family> metrics" unless
// the measured n.metrics.diameter is `diameter`; then the bisection of n.metrics from `cut`
// (grid_bisection_links: the links crossing it and whether that is exact), each link of the
// smallest bandwidth, "closed-form" when exact, else "heuristic".
void set_grid_closed_forms(Network& n, std::int64_t diameter, std::pair<std::int64_t, bool> cut);

// What the coordinate families (torus, mesh) share: their scopes, chips as leaves, the
// parameter space, attributes and warnings, the enumeration and the candidates. A family adds
// its name and texts, its estimate, generation and check.
class GridFamily : public Family {
public:
  std::vector<Scope> scopes() const override { return {Scope::IntraRack, Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Chip; }
  std::string parameters() const override { return grid_parameters(); }
  std::vector<std::string> attr_keys() const override { return {"dimension_sizes", "board_shape"}; }
  const std::vector<std::string>& warning_names() const override { return grid_warning_names(); }
  void enumerate(const Context& ctx, RunSink& out) const override { grid_runs(ctx, out); }
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t) const override {
    return grid_make(name(), ctx, r);
  }
};

} // namespace icnkit::topo
