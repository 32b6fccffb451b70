#include "topo/hypercube.hpp"

#include "topo/metrics.hpp"
#include "topo/structure.hpp"
#include "topo/torus_geometry.hpp"

namespace icnkit::topo {

namespace {
constexpr int kMaxDimensions = 10;

// n with 2^n = chips, or -1.
int dimensions_of(std::int64_t chips) {
  for (int n = 1; n <= kMaxDimensions; ++n)
    if ((std::int64_t{1} << n) == chips) return n;
  return -1;
}
// Reads family_attrs' n (the caller calls done()) and checks 2^n = n_chip.
int read_dimensions(ObjReader& attrs, std::int64_t n_chip) {
  const auto dims = static_cast<int>(attrs.integer("n", 1, kMaxDimensions));
  if ((std::int64_t{1} << dims) != n_chip)
    attrs.fail("n", "2^" + std::to_string(dims) + " differs from n_chip " + std::to_string(n_chip));
  return dims;
}

// Link ids in generation order: chip by chip, dimension by dimension, from the chip whose bit d
// is 0 to the one whose bit d is 1.
std::vector<Link> hypercube_links(std::int64_t chips, int dims) {
  std::vector<Link> out;
  for (std::int64_t i = 0; i < chips; ++i)
    for (int d = 0; d < dims; ++d)
      if (!((i >> d) & 1)) {
        Link l;
        l.a = i;
        l.b = i | (std::int64_t{1} << d);
        l.dim = d;
        l.dir = +1;
        out.push_back(l);
      }
  return out;
}

} // namespace

std::string HypercubeFamily::parameters() const {
  return "n in [1, " + std::to_string(kMaxDimensions) + "] with n_chip = 2^n; one chip per board";
}

const std::vector<std::string>& HypercubeFamily::warning_names() const {
  static const std::vector<std::string> names = {"research-only", "high-dimension"};
  return names;
}

void HypercubeFamily::enumerate(const Context& ctx, RunSink& out) const {
  int n = dimensions_of(ctx.n_chip);
  if (n < 0) return;
  CandidateRun r;
  r.p[0] = n;
  r.chips_per_board = 1;
  r.warnings = 1u | (n >= 8 ? 2u : 0u);
  out.push_back(r);
}

Candidate HypercubeFamily::make(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Candidate c;
  c.id = "hypercube:n" + std::to_string(r.p[0]);
  c.family = name();
  c.family_attrs = {{"n", r.p[0]}};
  c.n_endpoint = ctx.n_chip;
  c.derived_chips_per_board = 1;
  return c;
}

Estimate HypercubeFamily::estimate(const Context& ctx, const CandidateRun& r, std::int64_t) const {
  Estimate e;
  e.diameter = r.p[0];
  e.link_count = r.p[0] * ctx.n_chip / 2;
  return e;
}

Network HypercubeFamily::generate(const Context& ctx, const Candidate& c,
                                  const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  const int dims = read_dimensions(attrs, ctx.n_chip);
  attrs.done();
  if (c.n_endpoint != ctx.n_chip || c.derived_chips_per_board != 1)
    fail_input("candidate " + c.id + ":/derived_chips_per_board",
               "a hypercube has one chip per endpoint and per board");
  Network n;
  n.family = name();
  n.n_chip = ctx.n_chip;
  n.chip_radix = ctx.chip_radix;
  Rack rack{0, 0, {}};
  for (std::int64_t i = 0; i < n.n_chip; ++i) {
    Node v;
    v.id = i;
    v.board = i;
    v.rack = 0;
    v.pod = 0;
    for (int d = 0; d < dims; ++d) v.coord.push_back(static_cast<int>((i >> d) & 1));
    n.nodes.push_back(std::move(v));
    n.boards.push_back({i, 0, {i}});
    rack.boards.push_back(i);
  }
  n.racks.push_back(std::move(rack));
  n.pods.push_back({0, {0}});
  for (const Link& l : hypercube_links(n.n_chip, dims)) add_link(n, ctx, o, l.a, l.b, l.dim, l.dir);

  Metrics& m = n.metrics;
  m.diameter = eccentricity(n, 0); // vertex-transitive
  if (m.diameter != dims)
    fail_runtime("hypercube metrics", "BFS diameter " + std::to_string(m.diameter) + " != n");
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = 0;
  m.path_diversity = dims; // the n-cube is n-edge-connected
  // Cutting one dimension splits the cube into two (n-1)-cubes: 2^(n-1) links, the known
  // minimum bisection of the hypercube.
  std::vector<char> half(static_cast<std::size_t>(n.n_chip));
  for (std::int64_t i = 0; i < n.n_chip; ++i)
    half[static_cast<std::size_t>(i)] = (i >> (dims - 1)) & 1;
  set_bisection(n, closed_form_cut(n, n.n_chip / 2, half), "closed-form");
  m.derived_chips_per_board = 1;
  m.family_attrs = {{"n", dims}};
  return n;
}

void HypercubeFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const int dims = read_dimensions(attrs, n.n_chip);
  attrs.done();
  if (n.metrics.derived_chips_per_board != 1)
    at.fail("/metrics/derived_chips_per_board", "a hypercube has one chip per board");
  check_no_switches(n, at);
  // A chip's coordinates are the bits of its id: the 2x2x...x2 grid's row-major order.
  check_grid_coordinates(n, at, TorusGeometry(std::vector<int>(static_cast<std::size_t>(dims), 2)),
                         0, "hypercube");
  const std::vector<Link> want = hypercube_links(n.n_chip, dims);
  check_links_are(
      n, at, static_cast<std::int64_t>(want.size()),
      [&](std::int64_t id) { return want[static_cast<std::size_t>(id)]; },
      std::to_string(dims) + "-dimensional hypercube");
}

} // namespace icnkit::topo
