// The framework's stage three for board-leaf families (spec §生成管线): a family builds its
// network over endpoints (boards) and switches; expand_boards turns every endpoint into the
// derived_chips_per_board chips of its board and adds the IntraBoardTopo links.
//
// The expansion (decided here, see docs/models.md):
// - Board b holds chips b*C .. b*C+C-1 (C = chips per board); switches follow the chips, in
//   the family's order.
// - A board's port is a breakout of C*chip_radix lanes: every chip of the board has chip_radix
//   parallel links to each switch the family connects the board to, and every family link
//   between two switches becomes C*chip_radix parallel links. The spec's "multi-plane =
//   multi-edge" reading (§Alternatives: 多平面): the family's bandwidth ratios (a fat-tree's
//   oversubscription, a dragonfly's global-to-local balance) hold chip for chip. A switch's
//   `ports` is its family radix times C*chip_radix.
// - A family link between two boards (ring, full-mesh) joins chip i of one board to chip i of
//   the other (rail i), chip_radix times: C parallel rails. Without intra-board links the
//   rails do not meet, so these families are connected only with C = 1 or an intra_board_topo.
// - IntraBoardTopo (@tbl-spec-topo-19) adds c2c links among the chips of each board: ring
//   (a single link for 2 chips), full-mesh, or torus of shape board_torus_shape(C) (cube before
//   square; a size-2 dimension is one link, so each board's links form a simple graph).
#pragma once
#include "topo/family.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::topo {

struct EndpointSwitch {
  int tier = 8;           // 8 rack, 9 pod, 10 datacenter (9+)
  std::int64_t rack = -1; // tier 8: its rack
  std::int64_t pod = -1;  // tier 8 and 9: its pod
  std::string role;       // "leaf", "spine", "tor", ...
  std::int64_t radix = 0; // ports in the family's terms (one per board or per switch link)
  std::vector<int> coord; // optional (hyperx: the switch's coordinates)
};

// The family's graph: vertices 0..n_endpoint-1 are the endpoints (boards), n_endpoint + s is
// switch s. dim/dir mark links of a coordinate structure (a ring of boards: dim 0, + from a).
struct EndpointGraph {
  std::int64_t n_endpoint = 0;
  std::vector<EndpointSwitch> switches;
  struct Edge {
    std::int64_t a = 0, b = 0;
    int dim = -1, dir = 0;
  };
  std::vector<Edge> edges;
  std::vector<std::int64_t> endpoint_rack; // the rack of each board
  std::vector<std::int64_t> rack_pod;      // the pod of each rack
  std::int64_t pods = 1;

  std::int64_t switch_vertex(std::size_t s) const {
    return n_endpoint + static_cast<std::int64_t>(s);
  }
  void link(std::int64_t a, std::int64_t b, int dim = -1, int dir = 0) {
    edges.push_back({a, b, dim, dir});
  }
};

// The network: chips, switches (ports = radix * C * chip_radix), boards / racks / pods, the
// expanded links in the family's edge order (lanes innermost), then the IntraBoardTopo links
// board by board. Metrics are left for the family.
Network expand_boards(const Context& ctx, const GenerateOptions& o, const std::string& family,
                      std::int64_t chips_per_board, const EndpointGraph& g);

// The end of a family's metrics that its closed forms give: Error(Runtime) naming
// "`family` metrics" unless `diameter_ok` (the family's test of the built n.metrics.diameter
// against e.diameter) holds and the network has e.link_count links; then the link and switch
// counts of n.metrics from e.
void check_closed_forms(Network& n, const Estimate& e, const std::string& family, bool diameter_ok);
// The metrics of a switched board family's network (chips on switches and on their boards'
// IntraBoardTopo only): the chip diameter (switched_chip_diameter), which must equal the closed
// form e.diameter (`diameter_exact`) or not exceed it, checked with the counts as
// check_closed_forms does, and the path diversity: a chip's radix plus its intra-board degree.
void set_switched_metrics(Network& n, const Context& ctx, std::int64_t chips_per_board,
                          const Estimate& e, const std::string& family, bool diameter_exact = true);

// The chip-level node of endpoint-graph vertex v (its first chip for a board).
inline std::int64_t chip_node(const EndpointGraph& g, std::int64_t chips_per_board,
                              std::int64_t v) {
  return v < g.n_endpoint ? v * chips_per_board
                          : g.n_endpoint * chips_per_board + (v - g.n_endpoint);
}

// Links IntraBoardTopo adds to one board of `chips` chips (0 for none).
std::int64_t intra_board_links(IntraBoardTopo t, std::int64_t chips);
// Hop diameter of one board's IntraBoardTopo graph (0 for a single chip; -1 when the board's
// chips are not connected among themselves: none with more than one chip).
std::int64_t intra_board_diameter(IntraBoardTopo t, std::int64_t chips);
// Degree of a chip in its board's IntraBoardTopo graph.
std::int64_t intra_board_degree(IntraBoardTopo t, std::int64_t chips);

// Number of chip-level links of an endpoint graph edge: C*chip_radix for every kind of edge
// (an endpoint-switch edge: chip_radix per chip; switch-switch: C*chip_radix lanes; an
// endpoint-endpoint edge: chip_radix per rail).
inline std::int64_t lanes(std::int64_t chips_per_board, std::int64_t chip_radix) {
  return chips_per_board * chip_radix;
}

} // namespace icnkit::topo

namespace icnkit::topo {

// Checks a board-leaf candidate's n_endpoint and derived_chips_per_board against n_chip
// (n_endpoint * chips_per_board = n_chip); Error(Input) naming the field otherwise. Returns
// n_endpoint.
std::int64_t check_board_candidate(const Candidate& c, const Context& ctx);

// Edge connectivity of the Cartesian product of a family graph on the boards (one per rail,
// edge connectivity `fam_lambda`, minimum degree `fam_degree`) with every board's
// IntraBoardTopo graph (maximally edge-connected: its connectivity is its degree), Spacapan's
// formula min(lambda_F * C, lambda_B * E, delta_F + delta_B): the path diversity of a ring or
// full-mesh of boards.
std::int64_t product_edge_connectivity(std::int64_t fam_lambda, std::int64_t fam_degree,
                                       std::int64_t boards, IntraBoardTopo t,
                                       std::int64_t chips_per_board);

} // namespace icnkit::topo
