#include "topo/torus.hpp"

#include "topo/metrics.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>

namespace icnkit::topo {

std::pair<std::int64_t, bool> torus_bisection_links(const std::vector<int>& S) {
  // Cutting every ring of dimension d twice splits the torus into halves when S_d is even:
  // 2N/S_d links. When S_d is odd the middle layer is split too (a "staircase" cut), adding
  // the bisection of that (D-1)-dimensional layer. The minimum over d is exact (the known
  // 2N/k_max) when the longest dimension is even; otherwise it is an upper bound.
  std::int64_t n = product(S);
  if (n <= 1) return {0, true};
  std::int64_t best = INT64_MAX;
  for (std::size_t d = 0; d < S.size(); ++d) {
    std::int64_t m = n / S[d];
    std::int64_t cut = 2 * m;
    if (S[d] % 2 != 0) {
      std::vector<int> rest = S;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(d));
      cut += torus_bisection_links(rest).first;
    }
    best = std::min(best, cut);
  }
  return {best, *std::max_element(S.begin(), S.end()) % 2 == 0};
}

std::string torus_candidate_id(const TorusParams& p) {
  return grid_candidate_id("torus", p);
}

std::vector<Candidate> TorusFamily::enumerate(const Context& ctx) const {
  if (ctx.intra_board_topo != IntraBoardTopo::None)
    fail_infeasible("intra_board_topo", "torus links already connect the chips of a board: "
                                        "intra_board_topo must be none for the torus family");
  return grid_candidates(ctx, "torus");
}

TorusParams parse_torus_attrs(const Candidate& c, std::int64_t n_chip) {
  return parse_grid_attrs(c, n_chip, "torus");
}

Network TorusFamily::generate(const Context& ctx, const Candidate& c,
                              const GenerateOptions& o) const {
  if (ctx.intra_board_topo != IntraBoardTopo::None)
    fail_infeasible("intra_board_topo", "intra_board_topo must be none for the torus family");
  TorusParams p = parse_torus_attrs(c, ctx.n_chip);
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  TorusGeometry g(S);
  const int D = g.dims();
  Network n;
  n.family = "torus";
  n.n_chip = ctx.n_chip;
  n.chip_radix = ctx.chip_radix;
  place_grid_chips(n, p); // chips, boards by cube packing, one rack, one pod

  // One link per chip per dimension, in + direction; a size-2 ring keeps both (a multigraph).
  n.links.reserve(static_cast<std::size_t>(n.n_chip * D));
  for (std::int64_t id = 0; id < n.n_chip; ++id)
    for (int d = 0; d < D; ++d) {
      Link l;
      l.id = id * D + d;
      l.a = id;
      l.b = g.neighbour(id, d, +1);
      l.kind = link_kind_between(n, l.a, l.b);
      LinkParams lp = link_params(ctx, o, l.kind);
      l.bandwidth_bytes_per_s = lp.bandwidth_bytes_per_s;
      l.latency_s = lp.latency_s;
      l.dim = d;
      l.dir = +1;
      n.links.push_back(l);
    }

  // Metrics. The torus is vertex-transitive, so BFS from chip 0 gives the exact diameter.
  Metrics& m = n.metrics;
  std::int64_t closed = 0;
  for (int s : S) closed += s / 2;
  m.diameter = eccentricity(n, 0);
  if (m.diameter != closed)
    fail_runtime("torus metrics", "BFS diameter " + std::to_string(m.diameter) +
                                      " != closed form " + std::to_string(closed));
  auto [links_cut, exact] = torus_bisection_links(S);
  m.bisection_links = links_cut;
  m.bisection_bandwidth_bytes_per_s = static_cast<double>(links_cut) * min_link_bandwidth(n);
  m.bisection_bandwidth_method = exact ? "closed-form" : "heuristic";
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = 0;
  m.path_diversity = 2 * D; // every chip has 2D link ends and the torus is 2D-connected
  m.derived_chips_per_board = product(B);
  m.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  return n;
}

} // namespace icnkit::topo
