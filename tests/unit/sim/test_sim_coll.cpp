// lib/sim on real schedules: coll's Ring all-to-all, expanded by coll::ScheduleProgram, against
// its closed form on tori built by topo::generate.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "sim/analytic.hpp"
#include "topo/enumerate.hpp"
#include "topo/torus.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace icnkit;

namespace {

topo::Network torus(std::vector<int> S, double bw, double lat) {
  topo::Candidate c;
  c.family = "torus";
  std::vector<int> B(S.size(), 1);
  c.id = topo::torus_candidate_id({S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  std::int64_t n = 1;
  for (int s : S) n *= s;
  c.n_endpoint = n;
  c.derived_chips_per_board = 1;
  topo::Context ctx;
  ctx.n_chip = n;
  topo::GenerateOptions o;
  o.link_bandwidth.every = bw;
  o.link_latency.every = lat;
  return topo::generate(ctx, c, o);
}

sim::AnalyticResult run_ring(const topo::Network& net, std::int64_t bytes) {
  coll::Request req;
  req.bytes_per_node = bytes;
  topo::Faults none;
  coll::Schedule s = coll::generate(req, net, none);
  coll::ScheduleProgram p(s, net);
  return sim::simulate_analytic(p, net);
}

const sim::PhaseResult& phase(const sim::AnalyticResult& r, const std::string& name) {
  for (auto& p : r.phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return r.phases.front();
}

// Closed form of the Ring all-to-all on one bidirectional ring of N nodes under the per-step
// latency model (docs/algorithms.md §Torus cost model; one alpha per sub-stage): stage
// h = 1..N-1 has h sub-stages, N(N-1)/2 in all; in every sub-stage each node forwards one
// half-block of S/(2N) bytes one hop each way, one flow per directed link, so a sub-stage costs
// alpha + S/(2N B); they run back to back (store-and-forward):
// T = N(N-1)/2 * (alpha + S / (2 N B)).
// On a D-dimensional torus with every node holding S at the start of each phase, each phase
// along a dimension of size N costs exactly that, and the phases run one after another.
double ring_closed_form(int n, double S, double B, double alpha) {
  double N = n;
  return N * (N - 1) / 2 * (alpha + S / (2 * N * B));
}

bool close(double got, double want, double rel = 1e-9) {
  return std::abs(got - want) <= rel * std::abs(want);
}

} // namespace

TEST_CASE("analytic Ring all-to-all on one ring equals the closed form", "[sim]") {
  const double B = 5e10, alpha = 1e-6;
  const std::int64_t S = 64ll * 1024 * 1024;
  for (int n : {4, 5, 8})
    for (int other : {2, 3}) {
      // The ring of N is the dim-0 phase of an N x 2 or N x 3 torus (all its rings in parallel
      // on disjoint links, so each behaves as a lone ring).
      auto net = torus({n, other}, B, alpha);
      auto r = run_ring(net, S);
      INFO("N = " << n << " x " << other);
      const auto& p0 = phase(r, "dim0");
      CHECK(close(p0.end_s - p0.start_s, ring_closed_form(n, double(S), B, alpha)));
      const auto& p1 = phase(r, "dim1");
      CHECK(close(p1.end_s - p1.start_s, ring_closed_form(other, double(S), B, alpha)));
      CHECK(close(r.time_s, ring_closed_form(n, double(S), B, alpha) +
                                ring_closed_form(other, double(S), B, alpha)));
    }
}

TEST_CASE("analytic Ring all-to-all on 4x4x4: the three phases add up to the total", "[sim]") {
  const double B = 5e10, alpha = 1e-6;
  const std::int64_t S = 64ll * 1024 * 1024;
  auto net = torus({4, 4, 4}, B, alpha);
  auto r = run_ring(net, S);
  REQUIRE(r.phases.size() == 3);
  double sum = 0;
  for (auto& p : r.phases) {
    INFO(p.name);
    CHECK(close(p.end_s - p.start_s, ring_closed_form(4, double(S), B, alpha)));
    sum += p.end_s - p.start_s;
  }
  CHECK(r.phases[0].start_s == 0);
  CHECK(r.phases[1].start_s == r.phases[0].end_s);
  CHECK(r.phases[2].start_s == r.phases[1].end_s);
  CHECK(close(sum, r.time_s, 1e-12));
  CHECK(close(r.time_s, 3 * ring_closed_form(4, double(S), B, alpha)));
  CHECK(r.steps == 18);
  // Every directed link carries one S/(2N) piece per sub-stage of its own dimension's phase.
  CHECK(r.busy_channels == r.live_channels);
  CHECK(close(r.max_utilisation, 6 * (double(S) / 8) / (B * r.time_s)));
}
