#include "topo/dragonfly.hpp"

#include "topo/boards.hpp"
#include "topo/grid.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"

#include <algorithm>

namespace icnkit::topo {

std::vector<GlobalLink> arrange_global_links(std::int64_t g, std::int64_t P) {
  std::vector<GlobalLink> out;
  if (g < 2) return out;
  const std::int64_t rounds = P / (g - 1);
  // Full rounds: link l between groups i < j uses port l(g-1) + rho on each side, where rho is
  // the other group's position after the group itself: (j - i - 1) mod g.
  for (std::int64_t l = 0; l < rounds; ++l)
    for (std::int64_t i = 0; i < g; ++i)
      for (std::int64_t j = i + 1; j < g; ++j)
        out.push_back({i, l * (g - 1) + (j - i - 1), j, l * (g - 1) + (i - j - 1 + g)});
  // The remaining ports: a circulant, then the antipode.
  const std::int64_t base = rounds * (g - 1), rest = P - base;
  for (std::int64_t t = 1; t <= rest / 2; ++t)
    for (std::int64_t i = 0; i < g; ++i)
      out.push_back({i, base + 2 * (t - 1), (i + t) % g, base + 2 * (t - 1) + 1});
  if (rest % 2 == 1 && g % 2 == 0)
    for (std::int64_t i = 0; i < g / 2; ++i)
      out.push_back({i, base + rest - 1, i + g / 2, base + rest - 1});
  return out;
}

std::int64_t global_link_count(std::int64_t g, std::int64_t P) {
  if (g < 2) return 0;
  const std::int64_t rounds = P / (g - 1), rest = P - rounds * (g - 1);
  return rounds * g * (g - 1) / 2 + (rest / 2) * g + (rest % 2 == 1 && g % 2 == 0 ? g / 2 : 0);
}

namespace {

constexpr std::int64_t kPMin = 2, kPMax = 8, kAMin = 4, kAMax = 32, kSMin = 2, kSMax = 8;

struct Params {
  std::int64_t E = 0, a = 0, p = 0, x = 0, g = 0; // x: h (dragonfly) or s (dragonfly+)
};

std::int64_t ports_per_group(bool plus, const Params& q) {
  return plus ? q.x * (q.x - 1) : q.a * q.x;
}

std::int64_t max_radix(bool plus, const Params& q) {
  return plus ? std::max(q.p + q.x, q.a + q.x - 1) : q.p + q.a - 1 + q.x;
}

std::uint32_t warnings_for(bool plus, const Params& q) {
  const bool balanced = q.g == ports_per_group(plus, q) + 1;
  const bool low = 2 * q.g * q.a * q.p > 3 * q.E;
  const bool radix = max_radix(plus, q) > kMaxSwitchRadix;
  if (!plus)
    return (q.E < 64 ? 1u : 0u) | (!balanced ? 2u : 0u) | (low ? 4u : 0u) | (radix ? 8u : 0u);
  return (q.E < 128 ? 1u : 0u) | (q.x == 2 ? 2u : 0u) | (!balanced ? 4u : 0u) | (low ? 8u : 0u) |
         (radix ? 16u : 0u);
}

// Reads family_attrs a, p, h (s), g (the caller calls done()) and checks them against E boards;
// an error about E names e_where.
Params read_params(ObjReader& attrs, bool plus, std::int64_t E, const std::string& e_where) {
  Params q;
  q.a = attrs.integer("a", kAMin, kAMax);
  q.p = attrs.integer("p", kPMin, kPMax);
  q.x = plus ? attrs.integer("s", kSMin, kSMax) : attrs.integer("h", 1, q.a);
  q.g = attrs.integer("g", 2, kMaxChips);
  if (plus && q.a % q.x) attrs.fail("s", "s must divide a");
  const std::int64_t P = ports_per_group(plus, q);
  if (q.g > P + 1)
    attrs.fail("g", "at most " + std::to_string(P + 1) + " groups (" +
                        (plus ? std::string("s(s-1) + 1") : std::string("a*h + 1")) + ")");
  q.E = E;
  if (q.E < q.g || q.E > q.g * q.a * q.p)
    fail_input(e_where, "needs g <= n_endpoint <= g*a*p (every group holds a board, capacity " +
                            std::to_string(q.g * q.a * q.p) + ")");
  return q;
}

Params params_of(const CandidateRun& r, std::int64_t i) {
  return {r.p[0], r.p[1], r.p[2], r.p[3], r.p[4] + i};
}

Estimate closed_form(bool plus, const Context& ctx, const Params& q) {
  const std::int64_t C = ctx.n_chip / q.E, L = lanes(C, ctx.chip_radix);
  const std::int64_t global = global_link_count(q.g, ports_per_group(plus, q));
  const std::int64_t local = plus ? q.g * q.a * q.x : q.g * q.a * (q.a - 1) / 2;
  Estimate e;
  e.link_count = ctx.n_chip * ctx.chip_radix + (local + global) * L +
                 q.E * intra_board_links(ctx.intra_board_topo, C);
  e.switch_count = q.g * (plus ? q.a + q.x : q.a);
  // dragonfly+: leaf - spine - global - spine - leaf between groups, exactly. dragonfly: the
  // design bound local - global - local (two groups: each router reaches the other group
  // directly, so one hop less); the built network can beat the bound.
  e.diameter = plus ? 5 : (q.g == 2 ? 4 : 5);
  return e;
}

std::string id_of(bool plus, const Params& q, std::int64_t C) {
  return std::string(plus ? "dragonfly+" : "dragonfly") + ":p" + std::to_string(q.p) + "-a" +
         std::to_string(q.a) + (plus ? "-s" : "-h") + std::to_string(q.x) + "-g" +
         std::to_string(q.g) + "/c" + std::to_string(C);
}

} // namespace

std::string DragonflyFamily::summary() const {
  return plus_ ? "dragonfly+: groups of leaf-spine switches (every leaf on every spine), spines "
                 "joined across groups by global links"
               : "dragonfly: groups of fully connected routers joined by global links";
}

std::string DragonflyFamily::reference() const {
  return plus_ ? "topology-generation-spec v1.3.1 §Dragonfly+; Shpiner et al. 2017"
               : "topology-generation-spec v1.3.1 §Dragonfly; Kim et al., ISCA 2008";
}

std::string DragonflyFamily::parameters() const {
  // Built piece by piece: GCC 12 warns (-Wrestrict) on long chains of string concatenation.
  std::string s = "p in [";
  s += std::to_string(kPMin);
  s += ", ";
  s += std::to_string(kPMax);
  s += "]; a in [";
  s += std::to_string(kAMin);
  s += ", ";
  s += std::to_string(kAMax);
  s += "]; ";
  if (plus_) {
    s += "s in [";
    s += std::to_string(kSMin);
    s += ", ";
    s += std::to_string(kSMax);
    s += "], s | a; g in [2, s(s-1) + 1]";
  } else {
    s += "h in [1, a]; g in [2, a h + 1]";
  }
  s += "; boards: every divisor N of n_chip with g <= N <= g a p, spread evenly over the groups";
  return s;
}

const std::vector<std::string>& DragonflyFamily::warning_names() const {
  static const std::vector<std::string> df = {"degenerate", "non-balanced-global-link",
                                              "low-utilization", "radix-too-large"};
  static const std::vector<std::string> dfp = {"over-engineered", "minimal-subgroups",
                                               "non-balanced-global-link", "low-utilization",
                                               "radix-too-large"};
  return plus_ ? dfp : df;
}

void DragonflyFamily::enumerate(const Context& ctx, RunSink& out) const {
  auto ds = divisors(ctx.n_chip);
  for (auto it = ds.rbegin(); it != ds.rend(); ++it) { // most boards first
    const std::int64_t E = *it;
    if (E < 2) continue;
    for (std::int64_t a = kAMin; a <= kAMax; ++a)
      for (std::int64_t p = kPMin; p <= kPMax; ++p) {
        const std::int64_t glo = std::max<std::int64_t>(2, (E + a * p - 1) / (a * p));
        const std::int64_t xlo = plus_ ? kSMin : 1, xhi = plus_ ? std::min(kSMax, a) : a;
        for (std::int64_t x = xlo; x <= xhi; ++x) {
          if (plus_ && a % x) continue;
          Params q{E, a, p, x, 0};
          const std::int64_t gmax = ports_per_group(plus_, q) + 1;
          const std::int64_t ghi = std::min(gmax, E);
          // Runs of g over which the warnings stay the same: they change where low-utilization
          // starts (2 g a p > 3 E) and at the balanced g.
          const std::int64_t low_from = 3 * E / (2 * a * p) + 1;
          for (std::int64_t g = glo; g <= ghi;) {
            std::int64_t end = ghi;
            if (g < low_from) end = std::min(end, low_from - 1);
            if (g < gmax) end = std::min(end, gmax - 1);
            q.g = g;
            CandidateRun r;
            r.count = end - g + 1;
            r.chips_per_board = ctx.n_chip / E;
            r.warnings = warnings_for(plus_, q);
            r.p[0] = E;
            r.p[1] = a;
            r.p[2] = p;
            r.p[3] = x;
            r.p[4] = g;
            out.push_back(r);
            g = end + 1;
          }
        }
      }
  }
}

Candidate DragonflyFamily::make(const Context& ctx, const CandidateRun& r, std::int64_t i) const {
  Params q = params_of(r, i);
  Candidate c;
  c.family = name();
  c.n_endpoint = q.E;
  c.derived_chips_per_board = ctx.n_chip / q.E;
  c.id = id_of(plus_, q, c.derived_chips_per_board);
  c.family_attrs = {{"a", q.a}, {"p", q.p}, {plus_ ? "s" : "h", q.x}, {"g", q.g}};
  return c;
}

std::optional<std::int64_t> DragonflyFamily::attr(const CandidateRun& r, std::int64_t i,
                                                  const std::string& key) const {
  Params q = params_of(r, i);
  if (key == "a") return q.a;
  if (key == "p") return q.p;
  if (key == (plus_ ? "s" : "h")) return q.x;
  if (key == "g") return q.g;
  return std::nullopt;
}

Estimate DragonflyFamily::estimate(const Context& ctx, const CandidateRun& r,
                                   std::int64_t i) const {
  return closed_form(plus_, ctx, params_of(r, i));
}

Network DragonflyFamily::generate(const Context& ctx, const Candidate& c,
                                  const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  const Params q = read_params(attrs, plus_, check_board_candidate(c, ctx),
                               "candidate " + c.id + ":/n_endpoint");
  attrs.done();
  const std::int64_t P = ports_per_group(plus_, q);
  const std::int64_t C = ctx.n_chip / q.E;

  // Switches group by group: dragonfly a routers; dragonfly+ a leaves then s spines.
  const std::int64_t per_group = plus_ ? q.a + q.x : q.a;
  EndpointGraph g;
  g.n_endpoint = q.E;
  for (std::int64_t grp = 0; grp < q.g; ++grp) {
    g.rack_pod.push_back(0);
    for (std::int64_t j = 0; j < q.a; ++j)
      g.switches.push_back(
          {8, grp, 0, plus_ ? "leaf" : "router", plus_ ? q.p + q.x : q.p + q.a - 1 + q.x, {}});
    if (plus_)
      for (std::int64_t j = 0; j < q.x; ++j)
        g.switches.push_back({8, grp, 0, "spine", q.a + q.x - 1, {}});
  }
  auto sw = [&](std::int64_t grp, std::int64_t j) {
    return g.switch_vertex(static_cast<std::size_t>(grp * per_group + j));
  };
  // Boards: evenly over groups, then over the group's routers (leaves), in order.
  std::int64_t board = 0;
  for (std::int64_t grp = 0; grp < q.g; ++grp) {
    const std::int64_t in_group = even_share(q.E, q.g, grp);
    for (std::int64_t j = 0; j < q.a; ++j)
      for (std::int64_t k = even_share(in_group, q.a, j); k > 0; --k) {
        g.endpoint_rack.push_back(grp);
        g.link(board++, sw(grp, j));
      }
  }
  // Local links.
  for (std::int64_t grp = 0; grp < q.g; ++grp) {
    if (plus_) {
      for (std::int64_t j = 0; j < q.a; ++j)
        for (std::int64_t s = 0; s < q.x; ++s) g.link(sw(grp, j), sw(grp, q.a + s));
    } else {
      for (std::int64_t j = 0; j < q.a; ++j)
        for (std::int64_t k = j + 1; k < q.a; ++k) g.link(sw(grp, j), sw(grp, k));
    }
  }
  // Global links: port q on router q / h, or on spine q / (s - 1).
  const std::int64_t per_switch = plus_ ? q.x - 1 : q.x;
  const std::int64_t first = plus_ ? q.a : 0;
  for (const GlobalLink& l : arrange_global_links(q.g, P))
    g.link(sw(l.group_a, first + l.port_a / per_switch),
           sw(l.group_b, first + l.port_b / per_switch));
  Network n = expand_boards(ctx, o, name(), C, g);

  // Dragonfly+'s closed-form diameter is exact; the plain dragonfly's a design bound the built
  // network can beat (closed_form).
  set_switched_metrics(n, ctx, C, closed_form(plus_, ctx, q), name(), plus_);
  Metrics& m = n.metrics;
  set_bisection(n, heuristic_bisection(n), "heuristic");
  m.derived_chips_per_board = C;
  m.family_attrs = c.family_attrs;
  return n;
}

void DragonflyFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const Params q =
      read_params(attrs, plus_, static_cast<std::int64_t>(n.boards.size()), at.where("/boards"));
  attrs.done();
  // The switches group by group: a routers; dragonfly+: a leaves, then s spines. All tier 8.
  std::vector<std::string> roles;
  for (std::int64_t grp = 0; grp < q.g; ++grp) {
    roles.insert(roles.end(), static_cast<std::size_t>(q.a), plus_ ? "leaf" : "router");
    if (plus_) roles.insert(roles.end(), static_cast<std::size_t>(q.x), "spine");
  }
  check_switches(n, at, roles, std::vector<int>(roles.size(), 8));
  check_no_coordinates(n, at, 0, static_cast<std::int64_t>(n.nodes.size()));
  check_no_link_dimensions(n, at);
}

} // namespace icnkit::topo
