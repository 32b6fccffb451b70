// Helpers shared by the unit tests.
#pragma once
#include "core/error.hpp"
#include "doc/route_json.hpp"
#include "route/registry.hpp"
#include "route/routing_section.hpp"
#include "topo/enumerate.hpp"
#include "topo/grid.hpp"
#include "topo/torus.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <random>
#include <set>

namespace icnkit::test {

// The families topo-enum enumerates (every registered one but those built from the command
// line).
inline std::vector<const topo::Family*> enumerated_families() {
  std::vector<const topo::Family*> out;
  for (const topo::Family* f : topo::families())
    if (f->enumerated()) out.push_back(f);
  return out;
}

// The kind of icnkit::Error that `f` throws; fails the test when it throws none.
inline ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  FAIL("no error thrown");
  return ErrorKind::Runtime;
}

// A generated torus of shape "4x4x4" or "4x4x4/b2x2x2" (2 to 6 dimensions), fingerprinted.
inline topo::Network torus_of(const std::string& shape, double bw = 50e9, double lat = 1e-6) {
  auto [ctx, cand] = topo::torus_from_shape(shape, "test");
  topo::GenerateOptions o;
  o.link_bandwidth.every = bw;
  o.link_latency.every = lat;
  topo::Network net = topo::generate(ctx, cand, o);
  net.fingerprint = topo::fingerprint(net, nullptr);
  return net;
}

// A context for n chips (the other fields at their defaults).
inline topo::Context context_for(std::int64_t n, std::int64_t chips_per_board_max = 16) {
  topo::Context c;
  c.n_chip = n;
  c.chips_per_board_max = chips_per_board_max;
  return c;
}

// Every candidate of one family (cap 0 = all).
inline topo::CandidateList enum_family(const std::string& family, const topo::Context& c,
                                       std::size_t cap = 0) {
  return topo::enumerate(c, {&topo::require_family(family, "test")}, cap);
}

// Minimum number of links across any balanced bipartition (sizes floor(V/2) and ceil(V/2)),
// by brute force over the subsets holding chip 0 (small networks only: 2^V subsets).
inline std::int64_t brute_bisection_links(const topo::Network& n) {
  const int V = static_cast<int>(n.n_chip);
  std::int64_t best = INT64_MAX;
  for (std::uint32_t mask = 0; mask < (1u << V); ++mask) {
    if (__builtin_popcount(mask) != V / 2 || !(mask & 1u)) continue;
    std::int64_t cut = 0;
    for (auto& l : n.links) cut += ((mask >> l.a) & 1u) != ((mask >> l.b) & 1u);
    best = std::min(best, cut);
  }
  return best;
}

// The candidate a grid family (torus, mesh) would enumerate for shape S and board shape B.
inline topo::Candidate grid_candidate(const std::string& family, const std::vector<int>& S,
                                      const std::vector<int>& B) {
  topo::Candidate c;
  c.family = family;
  c.id = topo::grid_candidate_id(family, {S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  c.n_endpoint = topo::product(S);
  c.derived_chips_per_board = topo::product(B);
  return c;
}

// Its network, generated with a default context (the framework checks the invariants).
inline topo::Network grid_network(const std::string& family, const std::vector<int>& S,
                                  const std::vector<int>& B) {
  topo::Candidate c = grid_candidate(family, S, B);
  topo::Context ctx;
  ctx.n_chip = c.n_endpoint;
  return topo::generate(ctx, c, {});
}

// Routing tests' shorthands: a routing function built through the registry (its defaults,
// or `params`), and tori and meshes of one-chip boards.
namespace routing {
inline std::unique_ptr<route::RoutingFunction> build(const std::string& algorithm,
                                                     const topo::Network& n,
                                                     const topo::Faults& f = {},
                                                     const json& params = json::object()) {
  route::ParamErrors errors{ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }};
  const route::Algorithm* a = route::find_algorithm(algorithm);
  REQUIRE(a != nullptr);
  return route::build_routing(*a, params, n, f, errors).fn;
}
inline topo::Network torus(const std::vector<int>& S) {
  return grid_network("torus", S, std::vector<int>(S.size(), 1));
}
inline topo::Network mesh(const std::vector<int>& S) {
  return grid_network("mesh", S, std::vector<int>(S.size(), 1));
}
// `count` distinct failed links drawn with a fixed seed.
inline topo::Faults failed_links(const topo::Network& n, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::set<std::int64_t> ids;
  while (static_cast<int>(ids.size()) < count)
    ids.insert(std::uniform_int_distribution<std::int64_t>(
        0, static_cast<std::int64_t>(n.links.size()) - 1)(rng));
  topo::Faults f;
  for (auto id : ids) f.links.push_back({id, "explicit"});
  return f;
}
// A verification as the routing section's JSON text, for byte-for-byte comparisons.
inline std::string section_text(const route::Verification& v, const std::string& algorithm) {
  route::RoutingSection s;
  s.algorithm = algorithm;
  s.verification = v;
  return to_json(s).dump();
}
} // namespace routing

} // namespace icnkit::test
