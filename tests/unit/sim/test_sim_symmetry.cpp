// The all-to-all baseline simulated one flow per orbit of the torus's translations
// (sim/symmetry.hpp) against every pair simulated: the analytic result must be the same bit for
// bit (times, rates' consequences, every channel's bytes and utilisation, counts), on tori of 2
// and 3 dimensions, odd, even and size-2 rings, both tie rules and several dimension orders. Where
// the symmetry does not apply (faults, another routing) it must not be used. Also: the periods
// against a direct check of which translations map routes onto routes, and the memory bound.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "sim/analytic.hpp"
#include "sim/symmetry.hpp"
#include "sim/traffic.hpp"
#include "topo/torus_geometry.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>

using namespace icnkit;
using namespace icnkit::test::routing;

namespace {

void same_results(const sim::AnalyticResult& a, const sim::AnalyticResult& b) {
  CHECK(a.time_s == b.time_s);
  CHECK(a.step_start_s == b.step_start_s);
  CHECK(a.step_end_s == b.step_end_s);
  CHECK(a.channel_bytes == b.channel_bytes);
  CHECK(a.channel_utilisation == b.channel_utilisation);
  CHECK(a.max_utilisation == b.max_utilisation);
  CHECK(a.mean_utilisation == b.mean_utilisation);
  CHECK(a.mean_busy_utilisation == b.mean_busy_utilisation);
  CHECK(a.live_channels == b.live_channels);
  CHECK(a.busy_channels == b.busy_channels);
  CHECK(a.steps == b.steps);
  CHECK(a.flows == b.flows);
  CHECK(a.events == b.events);
  CHECK(a.rate_computations == b.rate_computations);
}

// Whether translating by g maps every route onto a route, walked pair by pair.
bool routes_invariant(const route::RoutingFunction& fn, const topo::Network& n,
                      const topo::TorusGeometry& geo, const std::vector<int>& g) {
  const std::vector<char> none(n.links.size(), 0);
  auto shift = [&](std::int64_t u) {
    std::vector<int> c = geo.coords(u);
    for (int a = 0; a < geo.dims(); ++a)
      c[static_cast<std::size_t>(a)] =
          (c[static_cast<std::size_t>(a)] + g[static_cast<std::size_t>(a)]) % geo.size(a);
    return geo.id(c);
  };
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t t = 0; t < n.n_chip; ++t) {
      if (s == t) continue;
      const route::Path p = route::trace(fn, n, none, s, t, 64);
      const route::Path q = route::trace(fn, n, none, shift(s), shift(t), 64);
      if (p.hops.size() != q.hops.size()) return false;
      // Hop by hop, the translated route must leave the translated chip on the same dimension
      // and direction (a size-2 ring has two links between its chips: the channel counts).
      for (std::size_t h = 0; h < p.hops.size(); ++h) {
        const std::int64_t from = n.channel_src(p.hops[h].channel);
        bool same = false;
        for (int a = 0; a < geo.dims(); ++a)
          for (int dir : {-1, +1})
            if (geo.channel(from, a, dir) == p.hops[h].channel)
              same = q.hops[h].channel == geo.channel(shift(from), a, dir);
        if (!same) return false;
      }
    }
  return true;
}

} // namespace

TEST_CASE("all-to-all by orbits: the same analytic result as every pair", "[sim][symmetry]") {
  const std::vector<std::vector<int>> shapes = {{6, 3},    {5, 2},    {4, 4},    {3, 5},
                                                {6, 4},    {2, 4},    {4, 4, 4}, {2, 3, 4},
                                                {3, 3, 3}, {4, 2, 6}, {5, 4}};
  for (const auto& S : shapes) {
    const topo::Network n = torus(S);
    std::vector<int> reversed;
    for (int d = static_cast<int>(S.size()) - 1; d >= 0; --d) reversed.push_back(d);
    for (const json& params :
         {json::object(), json{{"tie", "plus"}}, json{{"dimension_order", reversed}},
          json{{"tie", "plus"}, {"dateline", false}}}) {
      INFO(n.nodes.size() << " chips, " << S.size() << " dims, " << params.dump());
      auto fn = build("dor", n, {}, params);
      const auto tr = sim::dor_translations(*fn, n, {});
      REQUIRE(tr.has_value());
      // The group's order is the chips over the fundamental domain's, and each period is the
      // smallest translation that maps routes onto routes.
      CHECK(tr->order * static_cast<std::int64_t>(tr->sources.size()) == n.n_chip);
      const topo::TorusGeometry geo(S);
      for (int a = 0; a < geo.dims(); ++a) {
        const int p = tr->period[static_cast<std::size_t>(a)];
        std::vector<int> g(S.size(), 0);
        g[static_cast<std::size_t>(a)] = p;
        CHECK(routes_invariant(*fn, n, geo, g));
        if (p > 1) {
          g[static_cast<std::size_t>(a)] = 1;
          CHECK_FALSE(routes_invariant(*fn, n, geo, g));
        }
        // Parity ties on an even ring are the one case with period 2.
        const bool parity = !params.contains("tie");
        CHECK(p == (parity && S[static_cast<std::size_t>(a)] % 2 == 0 ? 2 : 1));
      }
      for (double bytes : {1e6, 3.0e5}) {
        sim::AllToAllOptions whole, orbits;
        orbits.symmetry = true;
        const sim::AllToAllTraffic all(n, {}, *fn, bytes, whole);
        const sim::AllToAllTraffic quo(n, {}, *fn, bytes, orbits);
        CHECK(all.orbits() == nullptr);
        REQUIRE(quo.orbits() != nullptr);
        sim::StepFlows fa, fq;
        all.flows(0, fa);
        quo.flows(0, fq);
        CHECK(fq.flows.size() * static_cast<std::size_t>(tr->order) == fa.flows.size());
        same_results(sim::simulate_analytic(quo, n), sim::simulate_analytic(all, n));
      }
    }
  }
}

TEST_CASE("all-to-all by orbits: not used where the symmetry does not hold", "[sim][symmetry]") {
  const topo::Network n = torus({4, 4});
  topo::Faults one;
  one.links.push_back({3, "explicit"});
  auto dor = build("dor", n, one);
  CHECK_FALSE(sim::dor_translations(*dor, n, one).has_value());
  sim::AllToAllOptions o;
  o.symmetry = true;
  CHECK(sim::AllToAllTraffic(n, one, *dor, 1e6, o).orbits() == nullptr);
  auto wfr = build("wfr", n, {});
  CHECK_FALSE(sim::dor_translations(*wfr, n, {}).has_value());
  // The pairwise exchange is not translation invariant (rank XOR round): every flow simulated.
  auto fn = build("dor", n, {});
  o.pattern = sim::AllToAllPattern::Pairwise;
  CHECK(sim::AllToAllTraffic(n, {}, *fn, 1e6, o).orbits() == nullptr);
  const topo::Network mesh4 = mesh({4, 4});
  auto mdor = build("dor", mesh4, {});
  CHECK_FALSE(sim::dor_translations(*mdor, mesh4, {}).has_value());
}

TEST_CASE("all-to-all: bounded by memory, pairwise holds n flows", "[sim][symmetry]") {
  const topo::Network n = torus({4, 4, 4}); // 4032 pairs, diameter 6: 4 hops estimated
  auto fn = build("dor", n, {});
  sim::AllToAllOptions o;
  const std::int64_t per_flow = sim::kTrafficBytesPerFlow + 4 * sim::kTrafficBytesPerHop;
  o.max_bytes = 4032 * per_flow;
  CHECK_NOTHROW(sim::AllToAllTraffic(n, {}, *fn, 1e6, o));
  o.max_bytes -= 1;
  try {
    sim::AllToAllTraffic t(n, {}, *fn, 1e6, o);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Infeasible);
    CHECK(std::string(e.what()).find("4032 flows at once") != std::string::npos);
  }
  // One flow per orbit: 64 / 8 = 8 sources (parity ties, period 2 in each dimension).
  o.symmetry = true;
  o.max_bytes = 8 * 63 * per_flow;
  CHECK_NOTHROW(sim::AllToAllTraffic(n, {}, *fn, 1e6, o));
  o.symmetry = false;
  o.pattern = sim::AllToAllPattern::Pairwise;
  o.max_bytes = 64 * per_flow;
  sim::AllToAllTraffic pw(n, {}, *fn, 1e6, o);
  // Round r pairs rank i with i XOR r (64 is a power of two), one flow per chip.
  sim::StepFlows f;
  for (std::size_t step : {std::size_t{0}, std::size_t{20}, std::size_t{62}}) {
    pw.flows(step, f);
    REQUIRE(f.flows.size() == 64);
    for (std::size_t i = 0; i < 64; ++i) {
      CHECK(f.flows[i].src == static_cast<std::int64_t>(i));
      CHECK(f.flows[i].dst == static_cast<std::int64_t>(i ^ (step + 1)));
    }
  }
}

namespace {

// Every generated schedule on a torus without faults, simulated by orbits and whole.
void schedules_same(const topo::Network& net, bool expect_orbits, std::int64_t expect_order) {
  for (const std::string collective : {"all-to-all", "all-reduce", "all-gather"})
    for (const std::string alg : {"ring", "halfring", "mate", "matee"})
      for (const std::string dims : {"sequential", "pipeline", "dimrotation"}) {
        coll::Request req;
        req.collective = collective;
        req.algorithm = alg;
        req.dim_scheduling = dims;
        req.bytes_per_node = 3 << 20;
        coll::Schedule s;
        try {
          s = coll::generate(req, net, {});
        } catch (const Error& e) {
          REQUIRE(e.kind() != ErrorKind::Runtime); // infeasible or not implemented here
          continue;
        }
        INFO(collective << " " << alg << " + " << dims);
        const topo::Faults none;
        for (auto latency : {coll::StepLatency::PerHop, coll::StepLatency::Astra}) {
          const coll::ScheduleProgram whole(s, net, latency);
          const coll::ScheduleProgram quo(s, net, latency, &none);
          CHECK(whole.orbits() == nullptr);
          CHECK((quo.orbits() != nullptr) == expect_orbits);
          if (quo.orbits()) CHECK(quo.orbits()->multiplicity == expect_order);
          same_results(sim::simulate_analytic(quo, net), sim::simulate_analytic(whole, net));
        }
      }
}

} // namespace

TEST_CASE("ring schedules by orbits: the same analytic result as every flow", "[sim][symmetry]") {
  SECTION("uniform links: one chip stands for all") {
    for (const auto& S : std::vector<std::vector<int>>{{4, 4}, {3, 4, 2}, {4, 4, 4}}) {
      const topo::Network net = torus(S);
      schedules_same(net, true, net.n_chip);
    }
  }
  SECTION("links that differ: the period of the link pattern") {
    // Every other chip in dimension 0 has twice the bandwidth on its + link in dimension 1, and
    // chips with x1 = 0 a longer latency on theirs in dimension 0: periods 2 and 4.
    topo::Network net = torus({4, 4});
    const topo::TorusGeometry geo({4, 4});
    for (std::int64_t c = 0; c < 16; ++c) {
      if (geo.coord(c, 0) % 2 == 0)
        net.links[static_cast<std::size_t>(c * 2 + 1)].bandwidth_bytes_per_s *= 2;
      if (geo.coord(c, 1) == 0) net.links[static_cast<std::size_t>(c * 2)].latency_s *= 3;
    }
    CHECK(sim::link_periods(geo, net) == std::vector<int>{2, 4});
    schedules_same(net, true, 2);
  }
  SECTION("a fault, or transfers on some rings only: every flow") {
    const topo::Network net = torus({4, 4, 4});
    topo::Faults one;
    one.links.push_back({5, "explicit"});
    coll::Request req;
    req.collective = "all-reduce";
    req.algorithm = "foldedring";
    req.dim_scheduling = "sequential";
    req.bytes_per_node = 1 << 20;
    const coll::Schedule s = coll::generate(req, net, one);
    CHECK(coll::ScheduleProgram(s, net, coll::StepLatency::PerHop, &one).orbits() == nullptr);
    const topo::Faults none;
    // The same folded schedule on the healthy torus: its folds are not the same on every ring.
    CHECK(coll::ScheduleProgram(s, net, coll::StepLatency::PerHop, &none).orbits() == nullptr);
  }
}
