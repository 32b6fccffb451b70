#include "topo/fat_tree.hpp"

#include "topo/boards.hpp"
#include "topo/grid.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"

namespace icnkit::topo {

namespace {

constexpr std::int64_t kKMin = 4, kKMax = 64;

struct Params {
  std::int64_t layers = 2, k = 4, osr = 1, E = 0;
  std::int64_t d = 0, u = 0;
  std::int64_t groups = 0; // 2 layers: leaves; 3 layers: groups
};

// d, u of (k, osr), or false when the split is not integral.
bool split(std::int64_t k, std::int64_t osr, std::int64_t& d, std::int64_t& u) {
  if ((k * osr) % (osr + 1)) return false;
  d = k * osr / (osr + 1);
  u = k - d;
  return true;
}

// Run layout: p[0] = layers, p[1] = k, p[2] = osr, p[3] = N_endpoint.
Params params_of(const CandidateRun& r) {
  Params q;
  q.layers = r.p[0];
  q.k = r.p[1];
  q.osr = r.p[2];
  q.E = r.p[3];
  split(q.k, q.osr, q.d, q.u);
  q.groups = q.layers == 2 ? q.E / q.d : q.E / (q.d * q.d);
  return q;
}

std::int64_t capacity(const Params& q) {
  return q.layers == 2 ? q.k * q.d : q.k * q.d * q.d;
}

std::uint32_t warnings_for(const Params& q) {
  std::uint32_t w = 0;
  if (q.layers == 3 && q.E < 256) w |= 1u << 0;
  if (q.osr >= 2) w |= 1u << 1;
  if (2 * capacity(q) > 3 * q.E) w |= 1u << 2;
  if (q.k > kMaxSwitchRadix) w |= 1u << 3;
  return w;
}

Estimate closed_form(const Context& ctx, const Params& q) {
  const std::int64_t C = ctx.n_chip / q.E, L = lanes(C, ctx.chip_radix);
  Estimate e;
  std::int64_t fabric = 0;
  if (q.layers == 2) {
    e.diameter = 4;
    e.switch_count = q.groups + q.u;
    fabric = q.groups * q.u;
  } else {
    e.diameter = 6;
    e.switch_count = q.groups * (q.d + q.u) + q.u * q.u;
    fabric = q.groups * q.d * q.u + q.groups * q.u * q.u;
  }
  e.link_count =
      ctx.n_chip * ctx.chip_radix + fabric * L + q.E * intra_board_links(ctx.intra_board_topo, C);
  return e;
}

// family_attrs of E = q.E boards of C chips with chip_radix R.
json attrs_of(std::int64_t C, std::int64_t R, const Params& q) {
  json m = q.layers == 2 ? json::array({q.d * C, q.groups}) : json::array({q.d * C, q.d, q.groups});
  json w = q.layers == 2 ? json::array({1, q.u}) : json::array({1, q.u, q.u});
  json p = q.layers == 2 ? json::array({R, C * R}) : json::array({R, C * R, C * R});
  return {{"k", q.k}, {"layers", q.layers}, {"osr", q.osr},  {"d", q.d},
          {"u", q.u}, {"m_levels", m},      {"w_levels", w}, {"p_levels", p}};
}

json attrs_of(const Context& ctx, const Params& q) {
  return attrs_of(ctx.n_chip / q.E, ctx.chip_radix, q);
}

// Reads family_attrs (the caller calls done()) and checks them against E boards of C chips with
// chip_radix R: k, layers and osr give d, u and the PGFT levels, which must be those; an error
// about E names e_where.
Params read_params(ObjReader& attrs, std::int64_t E, std::int64_t C, std::int64_t R,
                   const std::string& e_where) {
  Params q;
  q.k = attrs.integer("k", kKMin, kKMax);
  q.layers = attrs.integer("layers", 2, 3);
  q.osr = attrs.integer("osr", 1, 3);
  if (q.k % 2) attrs.fail("k", "k must be even");
  if (!split(q.k, q.osr, q.d, q.u))
    attrs.fail("osr", "d (osr + 1) = k osr has no integer solution for k = " + std::to_string(q.k) +
                          ", osr = " + std::to_string(q.osr));
  q.E = E;
  const std::int64_t unit = q.layers == 2 ? q.d : q.d * q.d;
  if (q.E % unit || q.E / unit < 2 || q.E / unit > q.k)
    fail_input(e_where,
               q.layers == 2
                   ? "a 2-layer fat-tree needs d | n_endpoint and 2 <= n_endpoint/d <= k"
                   : "a 3-layer fat-tree needs d^2 | n_endpoint and 2 <= n_endpoint/d^2 <= k");
  q.groups = q.E / unit;
  // The PGFT description must be the one these parameters give.
  const json want = attrs_of(C, R, q);
  for (const char* key : {"d", "u", "m_levels", "w_levels", "p_levels"}) {
    if (want[key].is_array())
      attrs.int_list(key); // integers, or an error naming the entry
    else
      attrs.integer(key);
    if (attrs.raw(key) != want[key])
      attrs.fail(key, "disagrees with k, osr, layers and the board size (expected " +
                          want[key].dump() + ")");
  }
  return q;
}

} // namespace

std::string FatTreeFamily::parameters() const {
  return "layers in {2, 3}; k in [" + std::to_string(kKMin) + ", " + std::to_string(kKMax) +
         "] even; osr in {1, 2, 3} with d (osr + 1) = k osr integral, u = k - d; boards: every "
         "divisor N of n_chip with d | N and 2 <= N/d <= k (2 layers) or d^2 | N and "
         "2 <= N/d^2 <= k (3 layers)";
}

const std::vector<std::string>& FatTreeFamily::warning_names() const {
  static const std::vector<std::string> names = {"over-engineered", "aggressive-oversubscription",
                                                 "low-utilization", "radix-too-large"};
  return names;
}

void FatTreeFamily::enumerate(const Context& ctx, RunSink& out) const {
  auto ds = divisors(ctx.n_chip);
  for (std::int64_t layers : {2, 3})
    for (std::int64_t osr = 1; osr <= 3; ++osr)
      for (std::int64_t k = kKMin; k <= kKMax; k += 2) {
        std::int64_t d, u;
        if (!split(k, osr, d, u)) continue;                  // e.g. k = 4, osr = 2: d = 8/3
        for (auto it = ds.rbegin(); it != ds.rend(); ++it) { // most boards first
          const std::int64_t E = *it;
          const std::int64_t unit = layers == 2 ? d : d * d;
          if (E % unit) continue;
          const std::int64_t groups = E / unit;
          if (groups < 2 || groups > k) continue;
          CandidateRun r;
          r.p[0] = layers;
          r.p[1] = k;
          r.p[2] = osr;
          r.p[3] = E;
          r.chips_per_board = ctx.n_chip / E;
          r.warnings = warnings_for(params_of(r));
          out.push_back(r);
        }
      }
}

Candidate FatTreeFamily::make(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Params q = params_of(r);
  Candidate c;
  c.family = name();
  c.n_endpoint = q.E;
  c.derived_chips_per_board = ctx.n_chip / q.E;
  c.id = "fat-tree:" + std::to_string(q.layers) + "L-k" + std::to_string(q.k) + "-osr" +
         std::to_string(q.osr) + "/c" + std::to_string(c.derived_chips_per_board);
  c.family_attrs = attrs_of(ctx, q);
  return c;
}

Estimate FatTreeFamily::estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  return closed_form(ctx, params_of(r));
}

Network FatTreeFamily::generate(const Context& ctx, const Candidate& c,
                                const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  const std::int64_t E = check_board_candidate(c, ctx);
  const Params q =
      read_params(attrs, E, ctx.n_chip / E, ctx.chip_radix, "candidate " + c.id + ":/n_endpoint");
  const json want = attrs_of(ctx, q);
  attrs.done();
  const std::int64_t C = ctx.n_chip / q.E;

  EndpointGraph g;
  g.n_endpoint = q.E;
  if (q.layers == 2) {
    // Switches: leaves 0..N_leaf-1 (rack = leaf), then spines.
    for (std::int64_t l = 0; l < q.groups; ++l) {
      g.switches.push_back({8, l, 0, "leaf", q.k, {}});
      g.rack_pod.push_back(0);
    }
    for (std::int64_t s = 0; s < q.u; ++s) g.switches.push_back({9, -1, 0, "spine", q.k, {}});
    for (std::int64_t b = 0; b < q.E; ++b) {
      g.endpoint_rack.push_back(b / q.d);
      g.link(b, g.switch_vertex(static_cast<std::size_t>(b / q.d)));
    }
    for (std::int64_t l = 0; l < q.groups; ++l)
      for (std::int64_t s = 0; s < q.u; ++s)
        g.link(g.switch_vertex(static_cast<std::size_t>(l)),
               g.switch_vertex(static_cast<std::size_t>(q.groups + s)));
  } else {
    // Switches: ToRs (rack = ToR, pod = group), aggregation (pod = group), cores.
    const std::int64_t tors = q.groups * q.d, aggs = q.groups * q.u;
    g.pods = q.groups;
    for (std::int64_t t = 0; t < tors; ++t) {
      g.switches.push_back({8, t, t / q.d, "tor", q.k, {}});
      g.rack_pod.push_back(t / q.d);
    }
    for (std::int64_t a = 0; a < aggs; ++a)
      g.switches.push_back({9, -1, a / q.u, "aggregation", q.k, {}});
    for (std::int64_t x = 0; x < q.u * q.u; ++x)
      g.switches.push_back({10, -1, -1, "core", q.k, {}});
    for (std::int64_t b = 0; b < q.E; ++b) {
      g.endpoint_rack.push_back(b / q.d);
      g.link(b, g.switch_vertex(static_cast<std::size_t>(b / q.d)));
    }
    for (std::int64_t t = 0; t < tors; ++t)
      for (std::int64_t j = 0; j < q.u; ++j)
        g.link(g.switch_vertex(static_cast<std::size_t>(t)),
               g.switch_vertex(static_cast<std::size_t>(tors + (t / q.d) * q.u + j)));
    for (std::int64_t a = 0; a < aggs; ++a)
      for (std::int64_t j = 0; j < q.u; ++j)
        g.link(g.switch_vertex(static_cast<std::size_t>(tors + a)),
               g.switch_vertex(static_cast<std::size_t>(tors + aggs + (a % q.u) * q.u + j)));
  }
  Network n = expand_boards(ctx, o, name(), C, g);

  set_switched_metrics(n, ctx, C, closed_form(ctx, q), name());
  Metrics& m = n.metrics;
  // Bisection. osr = 1: a folded Clos with u = d is rearrangeably non-blocking, so every half
  // of the chips can send a permutation to the other half over disjoint links: N R / 2, met by
  // cutting the network between halves of the leaves / groups (even) or, with an odd count,
  // by also splitting one leaf's (group's) boards. 2 layers, osr > 1: any balanced cut with m
  // leaves on its smaller side costs at least C R (u m + d (N_leaf - 2m) / 2), least at the
  // largest m: C R (u floor(N_leaf/2) + d/2 (N_leaf odd)). Both exact when the cut keeps
  // boards whole (no intra-board links cut); otherwise, and for 3 layers with osr > 1, the
  // best structural cut, an upper bound.
  const std::int64_t N = ctx.n_chip, R = ctx.chip_radix;
  const bool odd = q.groups % 2 == 1;
  const bool boards_whole = ctx.intra_board_topo == IntraBoardTopo::None || C == 1 || !odd ||
                            (q.layers == 2 ? q.d % 2 == 0 : (q.d * q.d) % 2 == 0);
  std::int64_t exact = -1;
  if (N % 2 == 0 && boards_whole) {
    if (q.osr == 1)
      exact = N * R / 2;
    else if (q.layers == 2 && (!odd || (q.d * C) % 2 == 0))
      exact = C * R * (q.u * (q.groups / 2)) + (odd ? q.d * C * R / 2 : 0);
  }
  if (exact >= 0) {
    // Halves of the leaves (groups) by chip id; with an odd count the middle one is split,
    // board-aligned when boards_whole needs it (d even).
    std::vector<char> side = chip_halves(n);
    set_bisection(n, closed_form_cut(n, exact, side), "closed-form");
  } else {
    set_bisection(n, heuristic_bisection(n), "heuristic");
  }
  m.derived_chips_per_board = C;
  m.family_attrs = want;
  return n;
}

void FatTreeFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const Params q =
      read_params(attrs, static_cast<std::int64_t>(n.boards.size()),
                  n.metrics.derived_chips_per_board, n.chip_radix, at.where("/boards"));
  attrs.done();
  // The switches in generate's order: leaves then spines; or ToRs, aggregation, cores.
  std::vector<std::string> roles;
  std::vector<int> tiers;
  auto add = [&](std::int64_t count, const char* role, int tier) {
    roles.insert(roles.end(), static_cast<std::size_t>(count), role);
    tiers.insert(tiers.end(), static_cast<std::size_t>(count), tier);
  };
  if (q.layers == 2) {
    add(q.groups, "leaf", 8);
    add(q.u, "spine", 9);
  } else {
    add(q.groups * q.d, "tor", 8);
    add(q.groups * q.u, "aggregation", 9);
    add(q.u * q.u, "core", 10);
  }
  check_switches(n, at, roles, tiers);
  check_no_coordinates(n, at, 0, static_cast<std::int64_t>(n.nodes.size()));
  check_no_link_dimensions(n, at);
}

} // namespace icnkit::topo
