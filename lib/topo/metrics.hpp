// Graph metrics of a generated network (@tbl-spec-topo-20b), computed with Boost.Graph; the
// families add their closed forms on top and check them against these.
//
// Definitions used throughout:
// - diameter: the largest hop distance between two chips (switches are transit, not ends);
// - path diversity: the smallest number of link-disjoint paths between two chips (the spec's
//   "independent paths, parallel links counted by multiplicity": local edge connectivity);
// - bisection: the fewest links crossing a partition of the nodes that splits the chips into
//   floor(N/2) and ceil(N/2) (switches on either side), and the bandwidth of those links.
#pragma once
#include "topo/network.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::topo {

// Largest hop distance from `src` to any node (BFS over the undirected multigraph).
std::int64_t eccentricity(const Network& n, std::int64_t src);
// Exact diameter over all node pairs: BFS from every node. O(V * E): small networks and tests.
std::int64_t exact_diameter(const Network& n);
// Exact chip-to-chip diameter: BFS from every chip. O(N * E): small networks and tests.
std::int64_t exact_chip_diameter(const Network& n);
// Chip-to-chip diameter of a switched network whose chips link only to switches and to chips
// of their own board, all chips of a board to the same switches: 2 + the largest distance in
// the switch graph between switches that chips hang from, or 2 when they all hang from one
// (or `one_board_diameter` when there is a single board, capped at 2). Exact, and cheap: BFS
// from every chip-bearing switch over the switches only.
std::int64_t switched_chip_diameter(const Network& n, std::int64_t one_board_diameter);

// The smallest chip degree (counting parallel links).
std::int64_t min_chip_degree(const Network& n);
// Link-disjoint paths between two nodes (max-flow with one unit per link).
std::int64_t edge_disjoint_paths(const Network& n, std::int64_t a, std::int64_t b);
// Exact path diversity: min over chips c != 0 of edge_disjoint_paths(0, c) (a minimum cut
// separating two chips separates chip 0 from one of them). N-1 max-flows: tests.
std::int64_t exact_path_diversity(const Network& n);

struct Cut {
  std::int64_t links = 0;
  double bandwidth_bytes_per_s = 0; // per direction: the sum over the cut links
};
// The links crossing a partition of the nodes (side[v] = 0 or 1).
Cut cut_of(const Network& n, const std::vector<char>& side);
// The cheapest partition that puts every chip on the side `chip_side` gives it (switches on
// whichever side is cheaper): a minimum s-t cut, Boost's push-relabel max-flow.
Cut cut_with_switches(const Network& n, const std::vector<char>& chip_side);
// An upper bound on the bisection: the best of several structural chip partitions (chips by
// id, board-major, so half the boards, racks, groups; every board split in half; alternate
// boards; plus `extra` partitions of the family's own), each with its switches placed
// optimally (max-flow).
Cut heuristic_bisection(const Network& n, const std::vector<std::vector<char>>& extra = {});
// The chip partitions heuristic_bisection tries (`extra` first), sorted, without duplicates.
std::vector<std::vector<char>>
structural_partitions(const Network& n, const std::vector<std::vector<char>>& extra = {});

// Chips 0 .. floor(N/2)-1 on side 0, the rest on side 1 (board-major ids: half the boards).
std::vector<char> chip_halves(const Network& n);
// Every chip on the side `chip_side` gives it, every switch on the side of most of its chip
// links (ties, and switches without chips, on side 1).
std::vector<char> place_switches_by_majority(const Network& n, const std::vector<char>& chip_side);
// The cut a family's closed form names: `partition` (chips) with switches placed optimally,
// which must cross exactly `links` links (Error(Runtime) otherwise); its bandwidth is summed
// from the links themselves.
Cut closed_form_cut(const Network& n, std::int64_t links, const std::vector<char>& partition);

// Fills the bisection figures of n.metrics from a cut and a method label.
void set_bisection(Network& n, const Cut& c, const char* method);

// The metrics of the network that survives the faults `f` (DegradedMetrics): failed links,
// failed chips and every link of a failed chip removed; only surviving chips are ends, and
// the bisection splits the surviving chips into floor(M/2) and ceil(M/2).
// - connected, surviving chips and links: exact, always;
// - diameter: exact (a BFS from every surviving chip, 64 at a time) while that stays under a
//   fixed amount of work (under a second), else a lower bound: the largest eccentricity found
//   by a few BFS sweeps (method "lower-bound");
// - path diversity: exact (a max-flow from one surviving chip to each other one) up to a fixed
//   size, else the smallest surviving chip degree, an upper bound (method "upper-bound");
// - bisection: the best of the partitions heuristic_bisection tries plus, on coordinate
//   families, every cut across each dimension at each offset (the offsets next to a fault
//   only, on dimensions above 16), each balanced over the surviving chips by greedy moves and
//   its switches placed optimally. It is "exact" when it meets the lower bound
//   nominal bisection - links down (a nominal closed form or exact figure only), or is 0;
//   otherwise "heuristic", an upper bound.
// `limits` bounds the work of the exact diameter (node visits plus adjacency entries of the
// BFS) and the size of the exact path diversity (surviving chips x (nodes + links)).
struct DegradedLimits {
  std::int64_t diameter_work = 100'000'000;
  std::int64_t path_diversity_size = 2'000'000;
};
DegradedMetrics degraded_metrics(const Network& n, const Faults& f,
                                 const DegradedLimits& limits = {});

} // namespace icnkit::topo
