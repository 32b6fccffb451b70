#include "topo/grid.hpp"

#include "core/error.hpp"
#include "topo/structure.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>

namespace icnkit::topo {

namespace {

void factorisations(std::int64_t n, int dims, std::vector<int>& cur,
                    std::vector<std::vector<int>>& out) {
  if (dims == 1) {
    if (n >= 2) {
      cur.push_back(static_cast<int>(n));
      out.push_back(cur);
      cur.pop_back();
    }
    return;
  }
  for (int d : divisors(n)) {
    if (d < 2 || n / d < 2) continue;
    cur.push_back(d);
    factorisations(n / d, dims - 1, cur, out);
    cur.pop_back();
  }
}

} // namespace

std::vector<int> divisors(std::int64_t n) {
  std::vector<int> lo, hi;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      lo.push_back(static_cast<int>(d));
      if (d * d != n) hi.push_back(static_cast<int>(n / d));
    }
  lo.insert(lo.end(), hi.rbegin(), hi.rend());
  return lo;
}

std::vector<std::vector<int>> ordered_factorisations(std::int64_t n, int dims) {
  std::vector<std::vector<int>> out;
  std::vector<int> cur;
  factorisations(n, dims, cur, out);
  return out;
}

std::vector<std::vector<int>> board_shapes(const std::vector<int>& S) {
  std::vector<std::vector<int>> out;
  std::vector<int> cur;
  std::function<void(std::size_t)> rec = [&](std::size_t d) {
    if (d == S.size()) {
      auto [mn, mx] = std::minmax_element(cur.begin(), cur.end());
      bool unit = std::all_of(cur.begin(), cur.end(), [](int b) { return b == 1; });
      if (unit || *mx <= 2 * *mn) out.push_back(cur);
      return;
    }
    for (int b : divisors(S[d])) {
      cur.push_back(b);
      rec(d + 1);
      cur.pop_back();
    }
  };
  rec(0);
  return out;
}

std::pair<std::int64_t, bool> grid_bisection_links(const std::vector<int>& S, int cuts_per_line) {
  const std::int64_t n = product(S);
  if (n <= 1) return {0, true};
  std::int64_t best = INT64_MAX;
  for (std::size_t d = 0; d < S.size(); ++d) {
    std::int64_t cut = cuts_per_line * (n / S[d]);
    if (S[d] % 2 != 0) {
      std::vector<int> rest = S;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(d));
      cut += grid_bisection_links(rest, cuts_per_line).first;
    }
    best = std::min(best, cut);
  }
  return {best, *std::max_element(S.begin(), S.end()) % 2 == 0};
}

std::string grid_candidate_id(const std::string& family, const GridParams& p) {
  return family + ":" + join_sizes(p.dimension_sizes) + "/b" + join_sizes(p.board_shape);
}

std::string grid_parameters() {
  return "D in {2, 3}; S: every ordered factorisation of n_chip into D sizes >= 2; board_shape: "
         "every B with B_d | S_d and max(B) <= 2 min(B) unless all ones";
}

const std::vector<std::string>& grid_warning_names() {
  static const std::vector<std::string> names = {"asymmetric", "degenerate-dimension"};
  return names;
}

GridParams grid_params_of(const CandidateRun& r) {
  GridParams g;
  const auto D = static_cast<std::size_t>(r.p[0]);
  for (std::size_t d = 0; d < D; ++d) {
    g.dimension_sizes.push_back(static_cast<int>(r.p[1 + d]));
    g.board_shape.push_back(static_cast<int>(r.p[4 + d]));
  }
  return g;
}

void grid_runs(const Context& ctx, RunSink& out) {
  struct Item {
    GridParams p;
    double balance; // max(S)/min(S)
  };
  std::vector<Item> items;
  for (int dims : {3, 2})
    for (auto& S : ordered_factorisations(ctx.n_chip, dims)) {
      auto [mn, mx] = std::minmax_element(S.begin(), S.end());
      for (auto& B : board_shapes(S)) items.push_back({{S, B}, double(*mx) / double(*mn)});
    }
  // The family's order: balanced shapes first, 3D before 2D, then shape and board lexicographic.
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tuple(a.balance, -static_cast<int>(a.p.dimension_sizes.size()), a.p.dimension_sizes,
                      a.p.board_shape) < std::tuple(b.balance,
                                                    -static_cast<int>(b.p.dimension_sizes.size()),
                                                    b.p.dimension_sizes, b.p.board_shape);
  });
  for (auto& it : items) {
    const auto& S = it.p.dimension_sizes;
    CandidateRun r;
    r.p[0] = static_cast<std::int64_t>(S.size());
    for (std::size_t d = 0; d < S.size(); ++d) {
      r.p[1 + d] = S[d];
      r.p[4 + d] = it.p.board_shape[d];
    }
    r.chips_per_board = product(it.p.board_shape);
    if (it.balance > 4) r.warnings |= 1u << 0;
    if (*std::min_element(S.begin(), S.end()) == 2) r.warnings |= 1u << 1;
    out.push_back(r);
  }
}

Candidate grid_make(const std::string& family, const Context& ctx, const CandidateRun& r) {
  GridParams g = grid_params_of(r);
  Candidate c;
  c.id = grid_candidate_id(family, g);
  c.family = family;
  c.family_attrs = {{"dimension_sizes", g.dimension_sizes}, {"board_shape", g.board_shape}};
  c.n_endpoint = ctx.n_chip;
  c.derived_chips_per_board = product(g.board_shape);
  return c;
}

GridParams parse_grid_attrs(const Candidate& c, std::int64_t n_chip, const std::string& family) {
  ObjReader r(c.family_attrs, "candidate " + c.id, "/family_attrs");
  GridParams p = read_grid_attrs(r, family);
  r.done();
  check_grid_attrs(r, p, n_chip, c.derived_chips_per_board,
                   "candidate " + c.id + ":/derived_chips_per_board");
  return p;
}

GridParams read_grid_attrs(ObjReader& r, const std::string& family) {
  GridParams p;
  for (auto v : r.int_list("dimension_sizes", 2, kMaxChips))
    p.dimension_sizes.push_back(static_cast<int>(v));
  for (auto v : r.int_list("board_shape", 1, kMaxChips))
    p.board_shape.push_back(static_cast<int>(v));
  // The spec enumerates 2 and 3 dimensions; a hand-written torus candidate may have up to
  // kMaxTorusDims (the MICRO'25 study's 4D tori, the 2D-6D scalability sweep).
  const std::size_t max_dims = family == "torus" ? kMaxTorusDims : 3;
  if (p.dimension_sizes.size() < 2 || p.dimension_sizes.size() > max_dims)
    r.fail("dimension_sizes", "a " + family + " has 2 to " + std::to_string(max_dims) +
                                  " dimensions (topo-enum lists 2 and 3)");
  return p;
}

void check_grid_attrs(const ObjReader& r, const GridParams& p, std::int64_t n_chip,
                      std::int64_t chips_per_board, const std::string& cpb_where) {
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  if (B.size() != S.size()) r.fail("board_shape", "needs one entry per dimension");
  // Sizes are at most kMaxChips each: stop multiplying once past n_chip (no overflow).
  std::int64_t prod = 1;
  for (int s : S)
    if (prod <= n_chip) prod *= s;
  if (prod != n_chip)
    r.fail("dimension_sizes", std::string("product ") + (prod > n_chip ? "above " : "") +
                                  std::to_string(prod > n_chip ? n_chip : prod) +
                                  " differs from n_chip " + std::to_string(n_chip));
  for (std::size_t d = 0; d < S.size(); ++d)
    if (S[d] % B[d] != 0)
      r.fail("board_shape", "board_shape must divide dimension_sizes in every dimension");
  auto [mn, mx] = std::minmax_element(B.begin(), B.end());
  if (product(B) > 1 && *mx > 2 * *mn) r.fail("board_shape", "max(B)/min(B) must be at most 2");
  if (chips_per_board != product(B)) fail_input(cpb_where, "must equal the product of board_shape");
}

Network grid_network(const std::string& family, const Context& ctx, const GridParams& p) {
  Network n;
  n.family = family;
  n.n_chip = ctx.n_chip;
  n.chip_radix = ctx.chip_radix;
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  TorusGeometry g(S);
  std::vector<int> grid(S.size());
  for (std::size_t d = 0; d < S.size(); ++d) grid[d] = S[d] / B[d];
  TorusGeometry board_grid(grid);
  n.boards.resize(static_cast<std::size_t>(board_grid.count()));
  for (std::size_t b = 0; b < n.boards.size(); ++b)
    n.boards[b] = {static_cast<std::int64_t>(b), 0, {}};
  n.nodes.resize(static_cast<std::size_t>(n.n_chip));
  std::vector<int> bc(S.size());
  for (std::int64_t id = 0; id < n.n_chip; ++id) {
    Node& v = n.nodes[static_cast<std::size_t>(id)];
    v.id = id;
    v.coord = g.coords(id);
    for (std::size_t d = 0; d < S.size(); ++d) bc[d] = v.coord[d] / B[d];
    v.board = board_grid.id(bc);
    v.rack = 0; // the spec's default for the torus (and the mesh): one rack, one pod
    v.pod = 0;
    n.boards[static_cast<std::size_t>(v.board)].chips.push_back(id);
  }
  Rack rack{0, 0, {}};
  for (auto& b : n.boards) rack.boards.push_back(b.id);
  n.racks.push_back(std::move(rack));
  n.pods.push_back({0, {0}});
  return n;
}

void check_grid_chips(const Network& n, const NetworkSite& at, const GridParams& p) {
  const auto& S = p.dimension_sizes;
  const auto& B = p.board_shape;
  check_no_switches(n, at);
  const TorusGeometry g(S);
  check_grid_coordinates(n, at, g, 0, join_sizes(S) + " " + n.family);
  std::vector<int> grid(S.size()), bc(S.size());
  for (std::size_t d = 0; d < S.size(); ++d) grid[d] = S[d] / B[d];
  const TorusGeometry boards(grid);
  for (const Node& v : n.nodes) {
    for (std::size_t d = 0; d < S.size(); ++d) bc[d] = v.coord[d] / B[d];
    if (v.board != boards.id(bc))
      at.fail(node_ptr(v.id) + "/board",
              "board_shape " + join_sizes(B) + " puts chip " + std::to_string(v.id) + " on board " +
                  std::to_string(boards.id(bc)) + ", not " + std::to_string(v.board));
  }
}

double min_link_bandwidth(const Network& n) {
  double min_bw = n.links.empty() ? 0.0 : n.links[0].bandwidth_bytes_per_s;
  for (auto& l : n.links) min_bw = std::min(min_bw, l.bandwidth_bytes_per_s);
  return min_bw;
}

void set_grid_closed_forms(Network& n, std::int64_t diameter, std::pair<std::int64_t, bool> cut) {
  Metrics& m = n.metrics;
  if (m.diameter != diameter)
    fail_runtime(n.family + " metrics", "BFS diameter " + std::to_string(m.diameter) +
                                            " != closed form " + std::to_string(diameter));
  const auto [links_cut, exact] = cut;
  m.bisection_links = links_cut;
  m.bisection_bandwidth_bytes_per_s = static_cast<double>(links_cut) * min_link_bandwidth(n);
  m.bisection_bandwidth_method = exact ? "closed-form" : "heuristic";
}

} // namespace icnkit::topo
