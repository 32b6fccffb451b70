#include "topo/torus.hpp"

#include "core/error.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>

namespace icnkit::topo {

std::pair<std::int64_t, bool> torus_bisection_links(const std::vector<int>& S) {
  return grid_bisection_links(S, 2); // a torus's line is a ring: two cuts
}

std::string torus_candidate_id(const TorusParams& p) {
  return grid_candidate_id("torus", p);
}

Estimate TorusFamily::estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Estimate e;
  for (int s : grid_params_of(r).dimension_sizes) e.diameter += s / 2;
  e.link_count = ctx.n_chip * r.p[0];
  return e;
}

std::pair<Context, Candidate> torus_from_shape(const std::string& shape, const std::string& where) {
  auto sizes = [&](const std::string& t) {
    std::vector<int> out;
    std::size_t i = 0;
    while (i <= t.size()) {
      std::size_t x = t.find('x', i);
      if (x == std::string::npos) x = t.size();
      std::string part = t.substr(i, x - i);
      if (part.empty() || part.size() > 7 ||
          part.find_first_not_of("0123456789") != std::string::npos)
        fail_usage(where, "expected a shape like 5x5x5x5 or 4x4x4/b2x2x2, got '" + shape + "'");
      out.push_back(std::stoi(part));
      i = x + 1;
    }
    return out;
  };
  auto slash = shape.find('/');
  TorusParams p;
  p.dimension_sizes = sizes(shape.substr(0, slash));
  if (slash == std::string::npos) {
    p.board_shape.assign(p.dimension_sizes.size(), 1);
  } else {
    if (shape.compare(slash, 2, "/b") != 0)
      fail_usage(where, "expected a board shape after '/b', got '" + shape + "'");
    p.board_shape = sizes(shape.substr(slash + 2));
  }
  std::int64_t n = 1, cpb = 1;
  for (int v : p.dimension_sizes) {
    if (v < 2) fail_usage(where, "every dimension needs at least 2 chips: '" + shape + "'");
    n *= v;
    if (n > (std::int64_t{1} << 20)) fail_usage(where, "at most 2^20 chips: '" + shape + "'");
  }
  for (int v : p.board_shape) {
    if (v < 1) fail_usage(where, "board sizes must be positive: '" + shape + "'");
    cpb *= v; // at most 2^20 x 10^7 here: no overflow before the check
    if (cpb > n) fail_usage(where, "the board has more chips than the torus: '" + shape + "'");
  }
  Context ctx;
  ctx.n_chip = n;
  ctx.chips_per_board_max = std::max<std::int64_t>(ctx.chips_per_board_max, cpb);
  Candidate c;
  c.family = "torus";
  c.id = torus_candidate_id(p);
  c.family_attrs = {{"dimension_sizes", p.dimension_sizes}, {"board_shape", p.board_shape}};
  c.n_endpoint = n;
  c.derived_chips_per_board = cpb;
  try {
    parse_torus_attrs(c, n);
  } catch (const Error& e) {
    fail_usage(where, std::string(e.what()) + " ('" + shape + "')");
  }
  return {ctx, c};
}

TorusParams parse_torus_attrs(const Candidate& c, std::int64_t n_chip) {
  return parse_grid_attrs(c, n_chip, "torus");
}

std::string twist_problem(const std::vector<int>& S) {
  const std::string shape = join_sizes(S);
  if (S.size() != 3)
    return "a twisted torus has 3 dimensions (k x k x 2k or k x 2k x 2k), not " + shape;
  const int k = *std::min_element(S.begin(), S.end());
  const auto longs = std::count(S.begin(), S.end(), 2 * k);
  const auto shorts = std::count(S.begin(), S.end(), k);
  if (k < 2 || shorts + longs != 3 || longs == 0)
    return "only k x k x 2k and k x 2k x 2k shapes (k >= 2, any order) can be twisted, not " +
           shape;
  return "";
}

std::int64_t twisted_plus_neighbour(const TorusGeometry& g, std::int64_t id, int d) {
  const int k = *std::min_element(g.sizes().begin(), g.sizes().end());
  std::int64_t b = g.neighbour(id, d, +1);
  if (g.size(d) != k || g.coord(id, d) != k - 1) return b; // not a short dimension's wrap link
  for (int e = 0; e < g.dims(); ++e)
    if (g.size(e) == 2 * k) {
      const int x = g.coord(b, e);
      b += static_cast<std::int64_t>((x + k) % (2 * k) - x) * g.stride(e);
    }
  return b;
}

namespace {

// The chip partitions a twisted torus's bisection bound tries besides the framework's own:
// the half of every dimension (x_d < S_d / 2 when S_d is even; on the twisted 4x4x8 the short
// halves cut 64 links, the long half 96 because every short wrap crosses it), and for every long
// dimension e the half that follows the twist, phi = x_e - sum of the short coordinates
// (mod 2k) < k: every link changes phi by +-1, so phi is well defined across the twisted wraps.
std::vector<std::vector<char>> twisted_partitions(const TorusGeometry& g) {
  const int k = *std::min_element(g.sizes().begin(), g.sizes().end());
  const auto N = static_cast<std::size_t>(g.count());
  std::vector<std::vector<char>> parts;
  for (int d = 0; d < g.dims(); ++d) {
    // Chips by (x_d, id), the first floor(N/2) on side 0: a staircase when S_d is odd.
    std::vector<char> p(N, 1);
    std::size_t zero = 0;
    for (int x = 0; x < g.size(d) && zero < N / 2; ++x)
      for (std::size_t c = 0; c < N && zero < N / 2; ++c)
        if (g.coord(static_cast<std::int64_t>(c), d) == x) p[c] = 0, ++zero;
    parts.push_back(std::move(p));
  }
  for (int e = 0; e < g.dims(); ++e) {
    if (g.size(e) != 2 * k) continue;
    std::vector<char> p(N);
    for (std::size_t c = 0; c < N; ++c) {
      int phi = g.coord(static_cast<std::int64_t>(c), e);
      for (int d = 0; d < g.dims(); ++d)
        if (g.size(d) == k) phi -= g.coord(static_cast<std::int64_t>(c), d);
      p[c] = ((phi % (2 * k)) + 2 * k) % (2 * k) < k ? 0 : 1;
    }
    parts.push_back(std::move(p));
  }
  return parts;
}

} // namespace

Network TorusFamily::generate(const Context& ctx, const Candidate& c,
                              const GenerateOptions& o) const {
  TorusParams p = parse_torus_attrs(c, ctx.n_chip);
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  if (o.twist)
    if (auto why = twist_problem(S); !why.empty()) fail_infeasible("{twist}", why);
  TorusGeometry g(S);
  const int D = g.dims();
  Network n = grid_network("torus", ctx, p); // chips, boards by cube packing, one rack, one pod

  // One link per chip per dimension, in + direction; a size-2 ring keeps both (a multigraph).
  // Twisted, only the far end of the short dimensions' wrap links moves (ids and dim/dir stay).
  // Link id * D + d, appended in that order.
  n.links.reserve(static_cast<std::size_t>(n.n_chip * D));
  for (std::int64_t id = 0; id < n.n_chip; ++id)
    for (int d = 0; d < D; ++d)
      add_link(n, ctx, o, id, o.twist ? twisted_plus_neighbour(g, id, d) : g.neighbour(id, d, +1),
               d, +1);

  // Metrics. The torus, regular or twisted, is vertex-transitive (the Cayley graph of Z^3
  // modulo the lattice its wrap links span), so BFS from chip 0 gives the exact diameter.
  Metrics& m = n.metrics;
  m.diameter = eccentricity(n, 0);
  if (o.twist) {
    // No closed form: the regular one (2N / S_max) no longer holds, so an upper bound.
    set_bisection(n, heuristic_bisection(n, twisted_partitions(g)), "heuristic");
  } else {
    std::int64_t closed = 0;
    for (int s : S) closed += s / 2;
    set_grid_closed_forms(n, closed, torus_bisection_links(S));
  }
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = 0;
  // Every chip has 2D link ends and the graph is 2D-edge-connected: a connected
  // vertex-transitive graph's edge connectivity equals its degree (Mader), twisted or not.
  m.path_diversity = 2 * D;
  m.derived_chips_per_board = product(B);
  m.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  if (o.twist) m.family_attrs["twisted"] = true; // absent on a regular torus
  return n;
}

void TorusFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader r = at.attrs(n);
  const GridParams p = read_grid_attrs(r, "torus");
  const bool twisted = r.boolean_opt("twisted").value_or(false);
  r.done();
  check_grid_attrs(r, p, n.n_chip, n.metrics.derived_chips_per_board,
                   at.where("/metrics/derived_chips_per_board"));
  const auto& S = p.dimension_sizes;
  if (twisted)
    if (auto why = twist_problem(S); !why.empty()) r.fail("twisted", why);
  check_grid_chips(n, at, p);
  // Link c*D + d leaves chip c in + direction of dimension d; twisted, the short dimensions'
  // wrap links end where twisted_plus_neighbour says.
  const TorusGeometry g(S);
  const int D = g.dims();
  check_links_are(
      n, at, n.n_chip * D,
      [&](std::int64_t id) {
        Link l;
        l.a = id / D;
        l.dim = static_cast<int>(id % D);
        l.dir = +1;
        l.b = twisted ? twisted_plus_neighbour(g, l.a, l.dim) : g.neighbour(l.a, l.dim, +1);
        return l;
      },
      std::string(twisted ? "twisted " : "regular ") + join_sizes(S) + " torus");
}

} // namespace icnkit::topo
