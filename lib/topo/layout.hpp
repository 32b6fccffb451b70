// Where a picture of a network puts its nodes (topo-gen --format dot pins them there, so
// Graphviz draws the network as it is built rather than as a force layout untangles it).
//
// - Families with coordinates (torus, mesh, hypercube chips, HyperX switches): a grid.
//   Dimension 0 runs right, 1 down, 2 in depth (each plane drawn a little up and to the right
//   of the one before, as a cube in perspective); dimensions 3, 5, ... repeat the picture to
//   the right and 4, 6, ... downwards, a gap between the copies. Nodes without coordinates
//   (HyperX's chips) sit on a small circle around their first neighbour that has them.
// - Switched families without coordinates (fat-tree, dragonfly, single switch): levels by tier,
//   chips at the bottom and the highest tier (spines, cores) on top, each level spread evenly
//   across the widest, in id order (ids follow pods, racks and boards).
// - Neither (ring, full mesh): a circle in id order.
// Units are inches (Graphviz's `pos`), y upwards.
#pragma once
#include "topo/network.hpp"

#include <vector>

namespace icnkit::topo {

struct Point {
  double x = 0, y = 0;
};

// One point per node, in node-id order. Deterministic; distinct nodes get distinct points.
std::vector<Point> layout(const Network& n);

// True when link l joins two coordinate nodes more than one step apart in its dimension: a
// torus's wrap-around link (drawn lighter, as it crosses the picture).
bool wraps(const Network& n, const Link& l);

} // namespace icnkit::topo
