// Budgets that make designs comparable: every link of a network scaled by one factor so that
// its chips inject a given bandwidth (the fair comparison of designs at equal injection per
// chip, which `scripts/explore --budget injection=...` asks for).
#pragma once
#include "topo/network.hpp"

namespace icnkit::topo {

// The bandwidth chip `c` can inject: the sum of its links' bandwidth (bytes/s per direction).
double chip_injection(const Network& n, std::int64_t c);
// The largest chip_injection of any chip (a torus chip's 2D links, a fat-tree chip's one link,
// a composed chip's scale-up links and NICs).
double max_chip_injection(const Network& n);

// Scales every link's bandwidth (and the bisection bandwidths of the metrics, which are sums
// of link bandwidths) by one factor so that max_chip_injection(n) becomes `bytes_per_s`;
// ratios between links stay (a composed network's scale-up stays 9x its NICs). Chips with
// fewer links (a mesh's edges) inject proportionally less: their unused ports are part of the
// design. Returns the factor; Error(Usage) at `where` unless bytes_per_s > 0, Error(Infeasible)
// when the network's chips have no links.
double scale_to_injection(Network& n, double bytes_per_s, const std::string& where);

} // namespace icnkit::topo
