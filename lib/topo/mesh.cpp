#include "topo/mesh.hpp"

#include "topo/metrics.hpp"
#include "topo/structure.hpp"

#include <algorithm>

namespace icnkit::topo {

MeshGeometry MeshGeometry::of(const Network& n, const std::string& who) {
  if (n.family != "mesh")
    fail_infeasible("/network/family", who + " needs a mesh, but the network is a " + n.family);
  const json& attrs = n.metrics.family_attrs;
  std::vector<int> sizes;
  if (attrs.contains("dimension_sizes") && attrs["dimension_sizes"].is_array())
    for (auto& v : attrs["dimension_sizes"])
      if (v.is_number_integer()) sizes.push_back(v.get<int>());
  // Every size in [1, n_chip] and the running product bounded by n_chip: no overflow.
  bool ok = !sizes.empty();
  std::int64_t count = 1;
  for (int s : sizes) {
    ok = ok && s >= 1 && s <= n.n_chip && count * s <= n.n_chip;
    if (ok) count *= s;
  }
  MeshGeometry g(ok ? sizes : std::vector<int>{});
  if (!ok || g.count() != n.n_chip || static_cast<std::int64_t>(n.links.size()) != g.link_count())
    fail_input("/network/metrics/family_attrs/dimension_sizes",
               "mesh shape disagrees with the network's chips and links");
  // The routing functions follow link(): every link must be the one it names (as on the torus).
  check_mesh_links(n, NetworkSite("", "/network"), g);
  return g;
}

void check_mesh_links(const Network& n, const NetworkSite& at, const MeshGeometry& g) {
  // Dense in (chip, dimension) order, skipping the last layer of each dimension.
  std::vector<Link> want;
  want.reserve(static_cast<std::size_t>(g.link_count()));
  for (std::int64_t c = 0; c < g.count(); ++c)
    for (int d = 0; d < g.dims(); ++d)
      if (g.has_neighbour(c, d, +1)) {
        Link l;
        l.a = c;
        l.b = g.neighbour(c, d, +1);
        l.dim = d;
        l.dir = +1;
        want.push_back(l);
      }
  check_links_are(
      n, at, static_cast<std::int64_t>(want.size()),
      [&](std::int64_t id) { return want[static_cast<std::size_t>(id)]; },
      join_sizes(g.sizes()) + " mesh");
}

std::int64_t MeshGeometry::link(std::int64_t id, int d, int dir) const {
  std::int64_t from = dir > 0 ? id : neighbour(id, d, -1);
  if (from < 0 || !has_neighbour(from, d, +1)) return -1;
  std::int64_t l = 0;
  for (int e = 0; e < dims(); ++e) {
    // Chips below `from` that are not on the last layer of dimension e.
    const std::int64_t t = stride(e), s = size(e), p = t * s;
    l += from - (from / p) * t - std::max<std::int64_t>(0, from % p - (s - 1) * t);
    if (e < d && coord(from, e) < size(e) - 1) ++l;
  }
  return l;
}

std::int64_t MeshGeometry::link_count() const {
  std::int64_t total = 0;
  for (int d = 0; d < dims(); ++d) total += (size(d) - 1) * (count() / size(d));
  return total;
}

std::string mesh_candidate_id(const GridParams& p) {
  return grid_candidate_id("mesh", p);
}

std::pair<std::int64_t, bool> mesh_bisection_links(const std::vector<int>& S) {
  return grid_bisection_links(S, 1); // a mesh's line is a path: one cut
}

GridParams parse_mesh_attrs(const Candidate& c, std::int64_t n_chip) {
  return parse_grid_attrs(c, n_chip, "mesh");
}

Estimate MeshFamily::estimate(const Context&, const CandidateRun& r, std::int64_t) const {
  Estimate e;
  GridParams g = grid_params_of(r);
  for (int s : g.dimension_sizes) e.diameter += s - 1;
  e.link_count = MeshGeometry(g.dimension_sizes).link_count();
  return e;
}

Network MeshFamily::generate(const Context& ctx, const Candidate& c,
                             const GenerateOptions& o) const {
  GridParams p = parse_mesh_attrs(c, ctx.n_chip);
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  MeshGeometry g(S);
  const int D = g.dims();
  Network n = grid_network("mesh", ctx, p); // chips, boards by cube packing, one rack, one pod

  // One link per chip per dimension in + direction, except from the last coordinate; ids dense
  // in (chip, dimension) order (MeshGeometry::link gives the same id from the coordinates).
  n.links.reserve(static_cast<std::size_t>(g.link_count()));
  for (std::int64_t id = 0; id < n.n_chip; ++id)
    for (int d = 0; d < D; ++d)
      if (g.has_neighbour(id, d, +1)) add_link(n, ctx, o, id, g.neighbour(id, d, +1), d, +1);

  // Metrics. Chip 0 is a corner, a diametral vertex of the mesh: BFS from it is exact.
  Metrics& m = n.metrics;
  std::int64_t closed = 0;
  for (int s : S) closed += s - 1;
  m.diameter = eccentricity(n, 0);
  set_grid_closed_forms(n, closed, mesh_bisection_links(S));
  if (static_cast<std::int64_t>(n.links.size()) != g.link_count())
    fail_runtime("mesh metrics", "built " + std::to_string(n.links.size()) +
                                     " links, closed form " + std::to_string(g.link_count()));
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = 0;
  m.path_diversity = D; // a corner has D neighbours, and the mesh is D-connected
  m.derived_chips_per_board = product(B);
  m.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  return n;
}

void MeshFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader r = at.attrs(n);
  const GridParams p = read_grid_attrs(r, "mesh");
  r.done();
  check_grid_attrs(r, p, n.n_chip, n.metrics.derived_chips_per_board,
                   at.where("/metrics/derived_chips_per_board"));
  check_grid_chips(n, at, p);
  check_mesh_links(n, at, MeshGeometry(p.dimension_sizes));
}

} // namespace icnkit::topo
