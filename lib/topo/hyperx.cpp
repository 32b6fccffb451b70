#include "topo/hyperx.hpp"

#include "topo/boards.hpp"
#include "topo/grid.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <functional>

namespace icnkit::topo {

namespace {

constexpr int kMaxL = 4, kMaxT = 8;

struct Params {
  int T = 1;
  std::vector<int> S;
};

// Run layout: p[0] = N_endpoint, p[1] = T, p[2] = L, p[3..6] = S.
Params params_of(const CandidateRun& r) {
  Params p;
  p.T = static_cast<int>(r.p[1]);
  for (std::int64_t i = 0; i < r.p[2]; ++i)
    p.S.push_back(static_cast<int>(r.p[3 + static_cast<std::size_t>(i)]));
  return p;
}

std::int64_t radix_of(const Params& p) {
  std::int64_t r = p.T;
  for (int s : p.S) r += s - 1;
  return r;
}

std::uint32_t warnings_of_params(const Params& p) {
  std::uint32_t w = 0;
  auto [mn, mx] = std::minmax_element(p.S.begin(), p.S.end());
  if (p.S.size() == 4) w |= 1u << 0;
  if (*mx > 2 * *mn) w |= 1u << 1;
  if (p.S.size() == 1) w |= 1u << 2;
  if (radix_of(p) > kMaxSwitchRadix) w |= 1u << 3;
  return w;
}

// Non-decreasing tuples of `dims` factors >= 2 with product n.
void sorted_factorisations(std::int64_t n, int dims, int min_factor, std::vector<int>& cur,
                           std::vector<std::vector<int>>& out) {
  if (dims == 1) {
    if (n >= min_factor) {
      cur.push_back(static_cast<int>(n));
      out.push_back(cur);
      cur.pop_back();
    }
    return;
  }
  for (std::int64_t f = min_factor; f * f <= n; ++f) {
    if (n % f) continue;
    cur.push_back(static_cast<int>(f));
    sorted_factorisations(n / f, dims - 1, static_cast<int>(f), cur, out);
    cur.pop_back();
  }
}

std::string id_of(const Params& p, std::int64_t chips_per_board) {
  return "hyperx:" + join_sizes(p.S) + "-t" + std::to_string(p.T) + "/c" +
         std::to_string(chips_per_board);
}

// Reads family_attrs L, T, S (the caller calls done()) and checks them against E boards.
Params read_params(ObjReader& attrs, std::int64_t E) {
  Params p;
  const auto L = attrs.integer("L", 1, kMaxL);
  p.T = static_cast<int>(attrs.integer("T", 1, kMaxT));
  for (auto s : attrs.int_list("S", 2, kMaxChips)) p.S.push_back(static_cast<int>(s));
  if (static_cast<std::int64_t>(p.S.size()) != L) attrs.fail("S", "needs L entries");
  if (!std::is_sorted(p.S.begin(), p.S.end()))
    attrs.fail("S", "must be in the canonical non-decreasing order");
  // Sizes are at most kMaxChips: stop multiplying once past E (no overflow).
  std::int64_t boards = p.T;
  for (int s : p.S)
    if (boards <= E) boards *= s;
  if (boards != E)
    attrs.fail("S", "T * prod(S) = " +
                        (boards > E ? "more than " + std::to_string(E) : std::to_string(boards)) +
                        " differs from n_endpoint " + std::to_string(E));
  return p;
}

Estimate closed_form(const Context& ctx, const Params& p, std::int64_t E) {
  const std::int64_t C = ctx.n_chip / E, L = lanes(C, ctx.chip_radix);
  const std::int64_t sw = product(p.S);
  Estimate e;
  e.diameter = static_cast<std::int64_t>(p.S.size()) + 2;
  std::int64_t sw_links = 0;
  for (int s : p.S) sw_links += sw / s * s * (s - 1) / 2;
  e.link_count =
      ctx.n_chip * ctx.chip_radix + sw_links * L + E * intra_board_links(ctx.intra_board_topo, C);
  e.switch_count = sw;
  return e;
}

} // namespace

std::string HyperXFamily::parameters() const {
  return "L in [1, " + std::to_string(kMaxL) + "]; T in [1, " + std::to_string(kMaxT) +
         "]; S non-decreasing, S_i >= 2; boards: N = T prod(S), every such N dividing n_chip";
}

const std::vector<std::string>& HyperXFamily::warning_names() const {
  static const std::vector<std::string> names = {"high-dimension", "asymmetric",
                                                 "degenerate-to-single-switch", "radix-too-large"};
  return names;
}

void HyperXFamily::enumerate(const Context& ctx, RunSink& out) const {
  auto ds = divisors(ctx.n_chip);
  for (auto it = ds.rbegin(); it != ds.rend(); ++it) { // most boards first
    const std::int64_t E = *it;
    for (int L = 1; L <= kMaxL; ++L)
      for (int T = 1; T <= kMaxT; ++T) {
        if (E % T) continue;
        std::vector<std::vector<int>> shapes;
        std::vector<int> cur;
        sorted_factorisations(E / T, L, 2, cur, shapes);
        for (auto& S : shapes) {
          CandidateRun r;
          r.p[0] = E;
          r.p[1] = T;
          r.p[2] = L;
          for (int i = 0; i < L; ++i)
            r.p[3 + static_cast<std::size_t>(i)] = S[static_cast<std::size_t>(i)];
          r.chips_per_board = ctx.n_chip / E;
          r.warnings = warnings_of_params({T, S});
          out.push_back(r);
        }
      }
  }
}

Candidate HyperXFamily::make(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Params p = params_of(r);
  Candidate c;
  c.family = name();
  c.n_endpoint = r.p[0];
  c.derived_chips_per_board = ctx.n_chip / r.p[0];
  c.id = id_of(p, c.derived_chips_per_board);
  c.family_attrs = {{"L", p.S.size()}, {"T", p.T}, {"S", p.S}};
  return c;
}

Estimate HyperXFamily::estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  return closed_form(ctx, params_of(r), r.p[0]);
}

Network HyperXFamily::generate(const Context& ctx, const Candidate& c,
                               const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  const std::int64_t E = check_board_candidate(c, ctx);
  const Params p = read_params(attrs, E);
  attrs.done();
  const std::int64_t C = ctx.n_chip / E;
  const std::int64_t sw = product(p.S);
  std::vector<std::int64_t> stride(p.S.size());
  for (std::size_t d = 0, s = 1; d < p.S.size(); s *= static_cast<std::size_t>(p.S[d]), ++d)
    stride[d] = static_cast<std::int64_t>(s);

  EndpointGraph g;
  g.n_endpoint = E;
  g.endpoint_rack.assign(static_cast<std::size_t>(E), 0);
  g.rack_pod = {0};
  for (std::int64_t s = 0; s < sw; ++s) {
    EndpointSwitch x{8, 0, 0, "switch", radix_of(p), {}};
    for (std::size_t d = 0; d < p.S.size(); ++d)
      x.coord.push_back(static_cast<int>((s / stride[d]) % p.S[d]));
    g.switches.push_back(std::move(x));
  }
  for (std::int64_t b = 0; b < E; ++b)
    g.link(b, g.switch_vertex(static_cast<std::size_t>(b / p.T)));
  for (std::int64_t s = 0; s < sw; ++s)
    for (std::size_t d = 0; d < p.S.size(); ++d) {
      const int x = static_cast<int>((s / stride[d]) % p.S[d]);
      for (int y = x + 1; y < p.S[d]; ++y)
        g.link(g.switch_vertex(static_cast<std::size_t>(s)),
               g.switch_vertex(static_cast<std::size_t>(s + (y - x) * stride[d])),
               static_cast<int>(d), +1);
    }
  Network n = expand_boards(ctx, o, name(), C, g);

  set_switched_metrics(n, ctx, C, closed_form(ctx, p, E), name());
  Metrics& m = n.metrics;
  // Bisection: the best of the structural cuts, with a halving of every even dimension.
  std::vector<std::vector<char>> extra;
  const auto N = static_cast<std::size_t>(ctx.n_chip);
  for (std::size_t d = 0; d < p.S.size(); ++d) {
    if (p.S[d] % 2) continue;
    std::vector<char> side(N);
    for (std::size_t chip = 0; chip < N; ++chip) {
      std::int64_t s = static_cast<std::int64_t>(chip) / C / p.T;
      side[chip] = ((s / stride[d]) % p.S[d]) < p.S[d] / 2 ? 0 : 1;
    }
    extra.push_back(std::move(side));
  }
  set_bisection(n, heuristic_bisection(n, extra), "heuristic");
  m.derived_chips_per_board = C;
  m.family_attrs = {{"L", p.S.size()}, {"T", p.T}, {"S", p.S}};
  return n;
}

void HyperXFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const Params p = read_params(attrs, static_cast<std::int64_t>(n.boards.size()));
  attrs.done();
  // The switches follow the chips, row-major over S, each at its coordinates; chips have none.
  const auto sw = static_cast<std::size_t>(product(p.S));
  check_switches(n, at, std::vector<std::string>(sw, "switch"), std::vector<int>(sw, 8));
  check_no_coordinates(n, at, 0, n.n_chip);
  check_grid_coordinates(n, at, TorusGeometry(p.S), n.n_chip, join_sizes(p.S) + " HyperX");
  check_no_link_dimensions(n, at);
}

} // namespace icnkit::topo
