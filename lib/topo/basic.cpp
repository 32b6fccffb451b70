#include "topo/basic.hpp"

#include "topo/boards.hpp"
#include "topo/grid.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"

namespace icnkit::topo {

namespace {

std::int64_t min_boards(BasicKind k) {
  return k == BasicKind::SingleSwitch ? 1 : 2;
}

std::int64_t family_diameter(BasicKind k, std::int64_t boards) {
  if (k == BasicKind::Ring) return boards / 2;
  return 1;
}

// The closed forms for E boards of C chips.
Estimate closed_form(BasicKind k, const Context& ctx, std::int64_t E) {
  const std::int64_t C = ctx.n_chip / E, R = ctx.chip_radix, L = lanes(C, R);
  const std::int64_t intra = E * intra_board_links(ctx.intra_board_topo, C);
  Estimate e;
  switch (k) {
  case BasicKind::Ring:
    e.diameter =
        family_diameter(k, E) + (C > 1 ? intra_board_diameter(ctx.intra_board_topo, C) : 0);
    e.link_count = E * L + intra;
    break;
  case BasicKind::FullMesh:
    e.diameter = 1 + (C > 1 ? intra_board_diameter(ctx.intra_board_topo, C) : 0);
    e.link_count = E * (E - 1) / 2 * L + intra;
    break;
  case BasicKind::SingleSwitch: {
    std::int64_t one =
        ctx.intra_board_topo == IntraBoardTopo::None || C == 1
            ? 2
            : std::min<std::int64_t>(2, intra_board_diameter(ctx.intra_board_topo, C));
    e.diameter = E >= 2 ? 2 : one;
    e.link_count = ctx.n_chip * R + intra;
    e.switch_count = 1;
    break;
  }
  }
  return e;
}

} // namespace

std::string BasicFamily::name() const {
  switch (kind_) {
  case BasicKind::Ring:
    return "ring";
  case BasicKind::FullMesh:
    return "full-mesh";
  case BasicKind::SingleSwitch:
    return "single-switch";
  }
  return "";
}

std::string BasicFamily::summary() const {
  switch (kind_) {
  case BasicKind::Ring:
    return "boards in a ring, chip i of each board linked to chip i of the next (one ring per "
           "rail); chips on a board meet through intra_board_topo";
  case BasicKind::FullMesh:
    return "every pair of boards linked directly, rail by rail; chips on a board meet through "
           "intra_board_topo";
  case BasicKind::SingleSwitch:
    return "every board on one switch";
  }
  return "";
}

std::string BasicFamily::reference() const {
  switch (kind_) {
  case BasicKind::Ring:
    return "topology-generation-spec v1.3.1 §Ring";
  case BasicKind::FullMesh:
    return "topology-generation-spec v1.3.1 §Full-Mesh";
  case BasicKind::SingleSwitch:
    return "topology-generation-spec v1.3.1 §Single-Switch";
  }
  return "";
}

std::string BasicFamily::parameters() const {
  if (kind_ == BasicKind::SingleSwitch) return "boards: every divisor of n_chip";
  return "boards: every divisor N >= 2 of n_chip (only N = n_chip with intra_board_topo none: "
         "the rails of several-chip boards never meet)";
}

const std::vector<std::string>& BasicFamily::warning_names() const {
  static const std::vector<std::string> ring = {"high-diameter"};
  static const std::vector<std::string> mesh = {"link-explosion"};
  static const std::vector<std::string> sw = {"radix-too-large"};
  return kind_ == BasicKind::Ring ? ring : kind_ == BasicKind::FullMesh ? mesh : sw;
}

void BasicFamily::enumerate(const Context& ctx, RunSink& out) const {
  auto ds = divisors(ctx.n_chip);
  // Most boards (fewest chips per board) first.
  for (auto it = ds.rbegin(); it != ds.rend(); ++it) {
    const std::int64_t E = *it;
    if (E < min_boards(kind_)) continue;
    if (kind_ != BasicKind::SingleSwitch && ctx.intra_board_topo == IntraBoardTopo::None &&
        E != ctx.n_chip)
      continue; // boards of several chips whose rails never meet: not connected
    CandidateRun r;
    r.p[0] = E;
    r.chips_per_board = ctx.n_chip / E;
    if (kind_ == BasicKind::Ring && E > 32) r.warnings |= 1;
    if (kind_ == BasicKind::FullMesh && E > 16) r.warnings |= 1;
    if (kind_ == BasicKind::SingleSwitch && E > kMaxSwitchRadix) r.warnings |= 1;
    out.push_back(r);
  }
}

Candidate BasicFamily::make(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Candidate c;
  c.family = name();
  c.n_endpoint = r.p[0];
  c.derived_chips_per_board = ctx.n_chip / r.p[0];
  c.id = name() + ":" + std::to_string(c.n_endpoint) + "/c" +
         std::to_string(c.derived_chips_per_board);
  c.family_attrs = json::object();
  return c;
}

Estimate BasicFamily::estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  return closed_form(kind_, ctx, r.p[0]);
}

Network BasicFamily::generate(const Context& ctx, const Candidate& c,
                              const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  attrs.done(); // no attributes of its own
  const std::int64_t E = check_board_candidate(c, ctx);
  if (E < min_boards(kind_))
    fail_input("candidate " + c.id + ":/n_endpoint",
               "a " + name() + " needs at least " + std::to_string(min_boards(kind_)) + " boards");
  const std::int64_t C = ctx.n_chip / E, R = ctx.chip_radix;
  if (kind_ != BasicKind::SingleSwitch && C > 1 && ctx.intra_board_topo == IntraBoardTopo::None)
    fail_infeasible("/context/intra_board_topo",
                    "a " + name() + " of boards with " + std::to_string(C) +
                        " chips is connected only through intra_board_topo (ring, full-mesh or "
                        "torus): its rails never meet");

  EndpointGraph g;
  g.n_endpoint = E;
  g.endpoint_rack.assign(static_cast<std::size_t>(E), 0);
  g.rack_pod = {0};
  switch (kind_) {
  case BasicKind::Ring:
    for (std::int64_t b = 0; b < E; ++b) g.link(b, (b + 1) % E, 0, +1);
    break;
  case BasicKind::FullMesh:
    for (std::int64_t a = 0; a < E; ++a)
      for (std::int64_t b = a + 1; b < E; ++b) g.link(a, b);
    break;
  case BasicKind::SingleSwitch:
    g.switches.push_back({8, 0, 0, "switch", E, {}});
    for (std::int64_t b = 0; b < E; ++b) g.link(b, g.switch_vertex(0));
    break;
  }
  Network n = expand_boards(ctx, o, name(), C, g);

  // Metrics: closed forms, checked against the built graph.
  const Estimate e = closed_form(kind_, ctx, E);
  Metrics& m = n.metrics;
  m.diameter = kind_ == BasicKind::SingleSwitch
                   ? switched_chip_diameter(n, e.diameter)
                   : eccentricity(n, 0); // rails x boards: vertex-transitive
  check_closed_forms(n, e, name(), m.diameter == e.diameter);
  const IntraBoardTopo t = ctx.intra_board_topo;
  const std::int64_t N = ctx.n_chip;
  switch (kind_) {
  case BasicKind::Ring:
    m.path_diversity = product_edge_connectivity(2 * R, 2 * R, E, t, C);
    break;
  case BasicKind::FullMesh:
    m.path_diversity = product_edge_connectivity((E - 1) * R, (E - 1) * R, E, t, C);
    break;
  case BasicKind::SingleSwitch:
    m.path_diversity = R + intra_board_degree(t, C);
    break;
  }
  // Bisection. One chip per board: the ring is cut twice per lane, the full mesh between
  // the halves, the switch from the smaller half; exact. A single switch whose halves can
  // keep boards whole is exact too (every chip away from the switch's side loses its R
  // links). Otherwise the best structural cut, an upper bound.
  std::int64_t exact = -1;
  if (C == 1 && kind_ == BasicKind::Ring) exact = 2 * R;
  if (C == 1 && kind_ == BasicKind::FullMesh) exact = (N / 2) * (N - N / 2) * R;
  if (kind_ == BasicKind::SingleSwitch && (C == 1 || E % 2 == 0 || t == IntraBoardTopo::None))
    exact = (N / 2) * R;
  if (exact >= 0)
    set_bisection(n, closed_form_cut(n, exact, chip_halves(n)), "closed-form");
  else
    set_bisection(n, heuristic_bisection(n), "heuristic");
  m.derived_chips_per_board = C;
  m.family_attrs = json::object();
  return n;
}

void BasicFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  attrs.done(); // no attributes of its own
  const auto E = static_cast<std::int64_t>(n.boards.size());
  if (E < min_boards(kind_))
    at.fail("/boards",
            "a " + name() + " needs at least " + std::to_string(min_boards(kind_)) + " boards");
  if (kind_ == BasicKind::SingleSwitch)
    check_switches(n, at, {"switch"}, {8});
  else
    check_no_switches(n, at);
  check_no_coordinates(n, at, 0, static_cast<std::int64_t>(n.nodes.size()));
  if (kind_ != BasicKind::Ring) return check_no_link_dimensions(n, at);
  // The ring's links between boards are its dimension 0: chip i of board b to chip i of board
  // b + 1 (mod E), + direction; the boards' own links have no dimension.
  const std::int64_t C = n.metrics.derived_chips_per_board;
  for (const Link& l : n.links) {
    const bool between = n.nodes[static_cast<std::size_t>(l.a)].board !=
                         n.nodes[static_cast<std::size_t>(l.b)].board;
    if (!between) {
      if (l.dim >= 0)
        at.fail(link_ptr(l.id) + "/dim", "a link inside a board of a ring has no dimension");
      continue;
    }
    const std::int64_t next = ((l.a / C + 1) % E) * C + l.a % C;
    const char* field = l.dim != 0 ? "dim" : l.dir != +1 ? "dir" : l.b != next ? "b" : nullptr;
    if (field)
      at.fail(link_ptr(l.id) + "/" + field,
              "a ring's link between boards joins chip " + std::to_string(l.a) + " to chip " +
                  std::to_string(next) + " of the next board in + direction of dimension 0");
  }
}

} // namespace icnkit::topo
