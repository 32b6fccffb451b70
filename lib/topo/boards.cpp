#include "topo/boards.hpp"

#include "core/error.hpp"
#include "topo/enumerate.hpp"
#include "topo/metrics.hpp"

#include <algorithm>

namespace icnkit::topo {

namespace {

// The pairs (i, j) of chip indices on one board that IntraBoardTopo joins, in a fixed order.
std::vector<std::pair<std::int64_t, std::int64_t>> intra_pairs(IntraBoardTopo t,
                                                               std::int64_t chips) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  if (chips < 2) return out;
  switch (t) {
  case IntraBoardTopo::None:
    break;
  case IntraBoardTopo::Ring:
    if (chips == 2)
      out.push_back({0, 1});
    else
      for (std::int64_t i = 0; i < chips; ++i) out.push_back({i, (i + 1) % chips});
    break;
  case IntraBoardTopo::FullMesh:
    for (std::int64_t i = 0; i < chips; ++i)
      for (std::int64_t j = i + 1; j < chips; ++j) out.push_back({i, j});
    break;
  case IntraBoardTopo::Torus: {
    auto shape = board_torus_shape(chips);
    if (!shape) break;
    const auto m = static_cast<std::int64_t>((*shape)[0]);
    const auto dims = shape->size();
    for (std::int64_t i = 0; i < chips; ++i) {
      std::int64_t stride = 1;
      for (std::size_t d = 0; d < dims; ++d, stride *= m) {
        std::int64_t x = (i / stride) % m;
        if (m == 2 && x == 1) continue; // a ring of two is one link
        std::int64_t y = (x + 1) % m;
        out.push_back({i, i + (y - x) * stride});
      }
    }
    break;
  }
  }
  return out;
}

} // namespace

std::int64_t intra_board_links(IntraBoardTopo t, std::int64_t chips) {
  return static_cast<std::int64_t>(intra_pairs(t, chips).size());
}

std::int64_t intra_board_degree(IntraBoardTopo t, std::int64_t chips) {
  if (chips < 2) return 0;
  switch (t) {
  case IntraBoardTopo::None:
    return 0;
  case IntraBoardTopo::Ring:
    return chips == 2 ? 1 : 2;
  case IntraBoardTopo::FullMesh:
    return chips - 1;
  case IntraBoardTopo::Torus: {
    auto shape = board_torus_shape(chips);
    if (!shape) return 0;
    std::int64_t deg = 0;
    for (int s : *shape) deg += s == 2 ? 1 : 2;
    return deg;
  }
  }
  return 0;
}

std::int64_t intra_board_diameter(IntraBoardTopo t, std::int64_t chips) {
  if (chips < 2) return 0;
  switch (t) {
  case IntraBoardTopo::None:
    return -1;
  case IntraBoardTopo::Ring:
    return chips / 2;
  case IntraBoardTopo::FullMesh:
    return 1;
  case IntraBoardTopo::Torus: {
    auto shape = board_torus_shape(chips);
    if (!shape) return -1;
    std::int64_t d = 0;
    for (int s : *shape) d += s / 2;
    return d;
  }
  }
  return -1;
}

Network expand_boards(const Context& ctx, const GenerateOptions& o, const std::string& family,
                      std::int64_t chips_per_board, const EndpointGraph& g) {
  const std::int64_t C = chips_per_board;
  const std::int64_t E = g.n_endpoint;
  const std::int64_t R = ctx.chip_radix;
  if (C < 1 || E * C != ctx.n_chip)
    fail_runtime("expand " + family, std::to_string(E) + " boards of " + std::to_string(C) +
                                         " chips do not make n_chip " + std::to_string(ctx.n_chip));
  Network n;
  n.family = family;
  n.n_chip = ctx.n_chip;
  n.chip_radix = R;

  // Hierarchy: boards (one per endpoint), racks, pods.
  n.pods.resize(static_cast<std::size_t>(g.pods));
  for (std::int64_t p = 0; p < g.pods; ++p) n.pods[static_cast<std::size_t>(p)].id = p;
  n.racks.resize(g.rack_pod.size());
  for (std::size_t r = 0; r < g.rack_pod.size(); ++r) {
    n.racks[r].id = static_cast<std::int64_t>(r);
    n.racks[r].pod = g.rack_pod[r];
    n.pods[static_cast<std::size_t>(g.rack_pod[r])].racks.push_back(static_cast<std::int64_t>(r));
  }
  n.boards.resize(static_cast<std::size_t>(E));
  n.nodes.reserve(static_cast<std::size_t>(ctx.n_chip) + g.switches.size());
  for (std::int64_t b = 0; b < E; ++b) {
    Board& board = n.boards[static_cast<std::size_t>(b)];
    board.id = b;
    board.rack = g.endpoint_rack[static_cast<std::size_t>(b)];
    n.racks[static_cast<std::size_t>(board.rack)].boards.push_back(b);
    for (std::int64_t i = 0; i < C; ++i) {
      Node v;
      v.id = b * C + i;
      v.kind = NodeKind::Chip;
      v.tier = 6;
      v.board = b;
      v.rack = board.rack;
      v.pod = n.racks[static_cast<std::size_t>(board.rack)].pod;
      board.chips.push_back(v.id);
      n.nodes.push_back(std::move(v));
    }
  }
  const std::int64_t L = lanes(C, R);
  for (const EndpointSwitch& s : g.switches) {
    Node v;
    v.id = static_cast<std::int64_t>(n.nodes.size());
    v.kind = NodeKind::Switch;
    v.tier = s.tier;
    v.rack = s.tier == 8 ? s.rack : -1;
    v.pod = s.tier <= 9 ? s.pod : -1;
    v.role = s.role;
    v.ports = s.radix * L;
    v.coord = s.coord;
    n.nodes.push_back(std::move(v));
  }

  // Links: the family's edges expanded into lanes, then the boards' own links.
  std::int64_t intra_per_board = intra_board_links(ctx.intra_board_topo, C);
  n.links.reserve(g.edges.size() * static_cast<std::size_t>(L) +
                  static_cast<std::size_t>(E * intra_per_board));
  for (const auto& e : g.edges) {
    const bool ea = e.a < E, eb = e.b < E;
    if (ea && eb) {
      for (std::int64_t i = 0; i < C; ++i)
        for (std::int64_t r = 0; r < R; ++r)
          add_link(n, ctx, o, e.a * C + i, e.b * C + i, e.dim, e.dir);
    } else if (ea || eb) {
      std::int64_t board = ea ? e.a : e.b;
      std::int64_t sw = chip_node(g, C, ea ? e.b : e.a);
      for (std::int64_t i = 0; i < C; ++i)
        for (std::int64_t r = 0; r < R; ++r) add_link(n, ctx, o, board * C + i, sw);
    } else {
      std::int64_t a = chip_node(g, C, e.a), b = chip_node(g, C, e.b);
      for (std::int64_t l = 0; l < L; ++l) add_link(n, ctx, o, a, b);
    }
  }
  auto pairs = intra_pairs(ctx.intra_board_topo, C);
  for (std::int64_t b = 0; b < E; ++b)
    for (auto [i, j] : pairs) add_link(n, ctx, o, b * C + i, b * C + j);
  return n;
}

} // namespace icnkit::topo

namespace icnkit::topo {

std::int64_t check_board_candidate(const Candidate& c, const Context& ctx) {
  const std::string where = "candidate " + c.id + ":/";
  if (c.n_endpoint < 1 || c.n_endpoint > ctx.n_chip)
    fail_input(where + "n_endpoint", "must be in [1, n_chip]");
  if (c.derived_chips_per_board < 1 || c.n_endpoint * c.derived_chips_per_board != ctx.n_chip)
    fail_input(where + "derived_chips_per_board",
               "n_endpoint * derived_chips_per_board must equal n_chip " +
                   std::to_string(ctx.n_chip));
  return c.n_endpoint;
}

std::int64_t product_edge_connectivity(std::int64_t fam_lambda, std::int64_t fam_degree,
                                       std::int64_t boards, IntraBoardTopo t,
                                       std::int64_t chips_per_board) {
  if (chips_per_board == 1) return fam_lambda;
  const std::int64_t deg = intra_board_degree(t, chips_per_board);
  return std::min({fam_lambda * chips_per_board, deg * boards, fam_degree + deg});
}

void check_closed_forms(Network& n, const Estimate& e, const std::string& family,
                        bool diameter_ok) {
  Metrics& m = n.metrics;
  if (!diameter_ok || static_cast<std::int64_t>(n.links.size()) != e.link_count)
    fail_runtime(family + " metrics", "built diameter " + std::to_string(m.diameter) + " / " +
                                          std::to_string(n.links.size()) + " links, closed forms " +
                                          std::to_string(e.diameter) + " / " +
                                          std::to_string(e.link_count));
  m.link_count = e.link_count;
  m.switch_count = e.switch_count;
}

void set_switched_metrics(Network& n, const Context& ctx, std::int64_t chips_per_board,
                          const Estimate& e, const std::string& family, bool diameter_exact) {
  Metrics& m = n.metrics;
  m.diameter = switched_chip_diameter(n, 2);
  check_closed_forms(n, e, family,
                     diameter_exact ? m.diameter == e.diameter : m.diameter <= e.diameter);
  m.path_diversity = ctx.chip_radix + intra_board_degree(ctx.intra_board_topo, chips_per_board);
}

} // namespace icnkit::topo
