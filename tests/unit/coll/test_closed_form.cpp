// The torus all-to-all algorithms against their closed forms (coll/closed_form.hpp): single
// rings N = 2..16 simulated by the analytic engine equal the per-sub-stage closed forms; the
// Table 1 forms keep the paper's ratios; HalfRing + DimRotation on 4x4x4 reaches the bisection
// bound; multi-dimensional schedules (fault-free and MATE / MATEe with one fault) equal
// closed_form().
#include "coll/closed_form.hpp"
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/plan.hpp"
#include "sim/analytic.hpp"
#include "support.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace icnkit;
using coll::LatencyModel;

namespace {

constexpr double kB = 32e9, kAlpha = 100e-9;

topo::Network torus(std::vector<int> S, double bw = kB, double lat = kAlpha) {
  std::string shape;
  for (int v : S) {
    if (!shape.empty()) shape += 'x';
    shape += std::to_string(v);
  }
  return test::torus_of(shape, bw, lat);
}

struct Run {
  double time_s;
  std::optional<coll::ClosedForm> cf;
  std::vector<sim::PhaseResult> phases;
};

Run run(const topo::Network& net, const topo::Faults& f, const std::string& alg,
        const std::string& dims, std::int64_t bytes, int chunks = 0) {
  coll::Request req;
  req.algorithm = alg;
  req.dim_scheduling = dims;
  req.bytes_per_node = bytes;
  req.chunks = chunks;
  coll::Schedule s = coll::generate(req, net, f);
  coll::ScheduleProgram p(s, net);
  auto down = f.down_links(net);
  sim::AnalyticOptions o;
  o.down_links = &down;
  sim::AnalyticResult r = sim::simulate_analytic(p, net, o);
  return {r.time_s, coll::closed_form(s, net, f), r.phases};
}

topo::Faults fail(const topo::Network& net, std::vector<std::string> links) {
  topo::FaultRequest r;
  r.links = std::move(links);
  return topo::make_faults(net, r);
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

// The rings of dimension 0 of an N x 2 torus, all in parallel: the sequential schedule's first
// phase ("dim0") is the single-ring algorithm on every one of them, each node holding S.
double ring_phase(const Run& r) {
  for (auto& p : r.phases)
    if (p.name == "dim0") return p.end_s - p.start_s;
  FAIL("no phase dim0");
  return 0;
}

TEST_CASE("single rings N = 2..16: simulated time = per-sub-stage closed form", "[closed-form]") {
  const std::int64_t S = 3 << 20; // 3 MiB: pieces are fractional bytes for most N
  for (int n = 2; n <= 16; ++n) {
    INFO("N = " << n);
    topo::Network net = torus({n, 2});
    topo::Faults none;
    CHECK(close(ring_phase(run(net, none, "ring", "sequential", S)),
                coll::ring_time(n, S, kB, kAlpha, LatencyModel::PerSubStage)));
    CHECK(close(ring_phase(run(net, none, "halfring", "sequential", S)),
                coll::halfring_time(n, S, kB, kAlpha, LatencyModel::PerSubStage)));
    // The folded ring around a failed link, wherever it is (chip ids of row y = 1: n + x).
    for (int at : {0, n / 2, n - 1}) {
      topo::Faults f = fail(net, {std::to_string(n + at) + "-" + std::to_string(n + (at + 1) % n)});
      CHECK(close(ring_phase(run(net, f, "foldedring", "sequential", S)),
                  coll::folded_time(n, S, kB, kAlpha, LatencyModel::PerSubStage)));
    }
  }
}

TEST_CASE("per-sub-stage forms written out by hand", "[closed-form]") {
  // N = 4, S = 4 MiB: block 1 MiB.
  const double S = 4 << 20, blk = 1 << 20;
  // Ring: 6 steps of alpha + half a block.
  CHECK(close(coll::ring_time(4, S, kB, kAlpha, LatencyModel::PerSubStage),
              6 * (kAlpha + blk / 2 / kB)));
  // HalfRing: stage 1 one step of a block, stage 2 two steps of half a block.
  CHECK(close(coll::halfring_time(4, S, kB, kAlpha, LatencyModel::PerSubStage),
              (kAlpha + blk / kB) + 2 * (kAlpha + blk / 2 / kB)));
  // On a MATE plane every logical hop is 3 physical ones.
  CHECK(close(coll::halfring_time(4, S, kB, kAlpha, LatencyModel::PerSubStage, 3),
              (3 * kAlpha + blk / kB) + 2 * (3 * kAlpha + blk / 2 / kB)));
  // FoldedRing: 6 steps of a block, the folded hop 3 links long.
  CHECK(close(coll::folded_time(4, S, kB, kAlpha, LatencyModel::PerSubStage),
              6 * (3 * kAlpha + blk / kB)));
  // N = 5: HalfRing 3 steps of a whole block (S/5).
  CHECK(close(coll::halfring_time(5, 5e6, kB, kAlpha, LatencyModel::PerSubStage),
              3 * (kAlpha + 1e6 / kB)));
}

TEST_CASE("Table 1: transfer terms and the paper's ratios", "[closed-form]") {
  const double S = 1 << 30;
  for (int n = 2; n <= 16; ++n) {
    INFO("N = " << n);
    // Without latency both models are the same transfer term.
    CHECK(close(coll::ring_time(n, S, kB, 0, LatencyModel::Table1),
                coll::ring_time(n, S, kB, 0, LatencyModel::PerSubStage)));
    CHECK(close(coll::halfring_time(n, S, kB, 0, LatencyModel::Table1),
                coll::halfring_time(n, S, kB, 0, LatencyModel::PerSubStage)));
    CHECK(close(coll::folded_time(n, S, kB, 0, LatencyModel::Table1),
                coll::folded_time(n, S, kB, 0, LatencyModel::PerSubStage)));
    // Table 1's columns: Ring (N-1)/2 S/(2B), FoldedRing (N-1)/2 S/B: ratio 0.5.
    CHECK(close(coll::ring_time(n, S, kB, 0, LatencyModel::Table1), (n - 1) / 2.0 * S / (2 * kB)));
    CHECK(close(coll::folded_time(n, S, kB, 0, LatencyModel::Table1), (n - 1) / 2.0 * S / kB));
    // Ring / HalfRing = 2(N-1)/N (even), 2N/(N+1) (odd): within Table 1's 1-2 / 1.5-2.
    double ratio = coll::ring_time(n, S, kB, 0, LatencyModel::Table1) /
                   coll::halfring_time(n, S, kB, 0, LatencyModel::Table1);
    CHECK(close(ratio, n % 2 == 0 ? 2.0 * (n - 1) / n : 2.0 * n / (n + 1)));
    // r = T_HalfRing / T_FoldedRing, MATEe's static fraction: N/(4(N-1)) even, (N+1)/(4N) odd.
    const double r = n % 2 == 0 ? n / (4.0 * (n - 1)) : (n + 1) / (4.0 * n);
    CHECK(close(coll::halfring_time(n, S, kB, 0, LatencyModel::Table1) /
                    coll::folded_time(n, S, kB, 0, LatencyModel::Table1),
                r));
    CHECK(close(coll::halfring_folded_ratio(n).value(), r));
  }
  CHECK(coll::halfring_folded_ratio(4) == coll::Fraction{1, 3});
  CHECK(coll::halfring_folded_ratio(5) == coll::Fraction{3, 10});
  // Startup: one alpha, (N-1) alpha for the folded ring.
  CHECK(close(coll::ring_time(8, 0, kB, kAlpha, LatencyModel::Table1), kAlpha));
  CHECK(close(coll::folded_time(8, 0, kB, kAlpha, LatencyModel::Table1), 7 * kAlpha));
}

TEST_CASE("HalfRing + DimRotation on 4x4x4 reaches the bisection bound", "[closed-form]") {
  // Bisection bound: cut the 4x4x4 torus into two 2x4x4 halves across dimension 0. Each half
  // has 32 chips, each sending S/64 to each of the other half's 32: 16 S cross the cut each way.
  // 32 links cross it (16 rows, each ring of 4 is cut twice), so 32 channels per direction:
  // T >= 16 S / (32 B) = S / (2 B), i.e. at most 2B of all-to-all bandwidth. HalfRing +
  // DimRotation: 3 chunks of S/3 run concurrently in 3 different dimensions, each chunk 3
  // phases of 3 steps (k(k+1)/2 for k = 2): its bandwidth term is exactly S/(2B), its latency
  // 9 alpha.
  const double B = 56e9;
  topo::Network net = torus({4, 4, 4}, B, kAlpha);
  topo::Faults none;
  for (std::int64_t S : {std::int64_t{64} << 10, std::int64_t{16} << 20, std::int64_t{3} << 28}) {
    INFO("S = " << S);
    double t = run(net, none, "halfring", "dimrotation", S).time_s;
    CHECK(close(t - 9 * kAlpha, static_cast<double>(S) / (2 * B)));
  }
}

TEST_CASE("multi-dimensional schedules equal closed_form()", "[closed-form]") {
  const std::int64_t S = 8 << 20;
  for (std::vector<int> shape :
       {std::vector<int>{5, 5}, {4, 4, 4}, {5, 5, 5}, {3, 3, 3, 3}, {5, 5, 5, 5}}) {
    topo::Network net = torus(shape);
    topo::Faults none;
    for (const char* alg : {"ring", "halfring"})
      for (const char* dims : {"sequential", "pipeline", "dimrotation"}) {
        INFO(alg << " " << dims << " on " << shape.size() << "D");
        Run r = run(net, none, alg, dims, S);
        REQUIRE(r.cf);
        CHECK(close(r.time_s, r.cf->time_s));
      }
    Run p4 = run(net, none, "ring", "pipeline", S, 4);
    REQUIRE(p4.cf);
    CHECK(close(p4.time_s, p4.cf->time_s));
    // One failed link in each dimension in turn: MATE and MATEe equal their slot formula.
    for (std::size_t f = 0; f < shape.size(); ++f) {
      std::vector<int> a(shape.size(), 1), b = a;
      b[f] = 2;
      auto coords = [](const std::vector<int>& c) {
        std::string s = "(";
        for (std::size_t i = 0; i < c.size(); ++i) {
          if (i > 0) s += ',';
          s += std::to_string(c[i]);
        }
        s += ')';
        return s;
      };
      topo::Faults fl = fail(net, {coords(a) + "-" + coords(b)});
      for (const char* alg : {"mate", "matee"})
        for (const char* dims : {"sequential", "dimrotation"}) {
          INFO(alg << " " << dims << " fault in dimension " << f << " of " << shape.size() << "D");
          Run r = run(net, fl, alg, dims, S);
          REQUIRE(r.cf);
          CHECK(close(r.time_s, r.cf->time_s));
        }
    }
  }
  // Several faults have no closed form.
  topo::Network t = torus({4, 4, 4});
  CHECK_FALSE(run(t, fail(t, {"(1,1,1)-(2,1,1)", "(1,1,1)-(1,2,1)"}), "mate", "dimrotation", S).cf);
}

TEST_CASE("mixed radix: one chunk per dimension at a time, and closed_form() follows",
          "[closed-form]") {
  // The MICRO'25 artifact's 8x4x4 HalfRing + DimRotation at 2 GiB, 56 GiB/s, 100 ns: the three
  // chunks take dimension 0 (the 8-rings) one after the other, each in 10 steps of HalfRing on
  // S/3: 3 (10 alpha + S / (3 B)) = 30 alpha + S / B = 35.717 ms (chunks sharing dimension 0's
  // links took 38.69 ms).
  const double B = 56.0 * (1 << 30), a = 100e-9, S = 2.0 * (1 << 30);
  Run art = run(torus({8, 4, 4}, B, a), {}, "halfring", "dimrotation", 2LL << 30);
  CHECK(close(art.time_s, 30 * a + S / B));
  // Every scheduler and ring algorithm on mixed shapes equals the slot recursion.
  for (std::vector<int> shape :
       {std::vector<int>{8, 4, 4}, {4, 8, 4}, {5, 4, 3}, {3, 6}, {8, 8, 2}}) {
    topo::Network net = torus(shape);
    for (const char* alg : {"ring", "halfring", "foldedring"})
      for (const char* dims : {"sequential", "pipeline", "dimrotation"}) {
        INFO(alg << " " << dims << " on " << shape[0] << "x" << shape[1] << "...");
        Run r = run(net, {}, alg, dims, 4 << 20);
        REQUIRE(r.cf);
        CHECK(close(r.time_s, r.cf->time_s));
      }
  }
}

TEST_CASE("MATE and MATEe beat the folded ring, MATEe at large sizes", "[closed-form]") {
  topo::Network net = torus({5, 5, 5});
  topo::Faults f = fail(net, {"(1,1,1)-(2,1,1)"});
  const std::int64_t big = std::int64_t{512} << 20;
  double fr = run(net, f, "foldedring", "dimrotation", big).time_s;
  double mate = run(net, f, "mate", "dimrotation", big).time_s;
  double matee = run(net, f, "matee", "dimrotation", big).time_s;
  CHECK(matee < mate);
  CHECK(mate < fr);
  // Bandwidth terms (docs/algorithms.md §MATE and MATEe): T_MATE = T_HR (1 + 1/(P + r)), T_MATEe =
  // T_HR (1 + (1 - r)/(P + r)), P = 2 planes, r = 0.3; at 512 MiB latency is below 0.1%.
  double hr = run(net, {}, "halfring", "dimrotation", big).time_s;
  CHECK(mate / hr == Approx(1 + 1 / 2.3).epsilon(2e-3));
  CHECK(matee / hr == Approx(1 + 0.7 / 2.3).epsilon(2e-3));
}

TEST_CASE("MATE and MATEe with one fault: times worked out by hand", "[closed-form]") {
  // Per-sub-stage forms (alpha per hop, B per direction, S per node), P = 2 planes:
  // 4x4x4: T_HR(xS) = 3a + xS/(2B), on a plane 9a + xS/(2B); T_FR(xS) = 18a + 3xS/(2B); r = 1/3.
  // 5x5x5: T_HR(xS) = 3a + 3xS/(5B), on a plane 9a + 3xS/(5B); T_FR(xS) = 40a + 2xS/B;
  //        r = 3/10.
  // Sequential: 2 T_HR(S) + T_normal,f + T_accel. MATE: T_normal,f = T_HR(S), the acceleration
  // moves the whole ring's data, 1/(2+r) per plane and r/(2+r) on the folded ring. MATEe:
  // T_normal,f = max(T_HR(S), T_FR(rS)), the acceleration moves 1 - r of it.
  // DimRotation: 3 slots of S/3, each T_normal,f(S/3) + T_accel(S/3).
  //   4x4x4 MATE:  3 T_HR(S) + max(9a + 3S/(14B), 18a + 3S/(14B))        = 27a + 12S/(7B)
  //         MATEe: 2 T_HR(S) + (18a + S/(2B)) + max(9a + S/(7B), 18a + S/(7B)) = 42a + 23S/(14B)
  //         MATE dimrotation:  3 (3a + S/(6B) + 18a + S/(14B))           = 63a + 5S/(7B)
  //         MATEe dimrotation: 3 (18a + S/(6B) + 18a + S/(21B))          = 108a + 9S/(14B)
  //   5x5x5 MATE:  3 T_HR(S) + (40a + 6S/(23B))                          = 49a + 237S/(115B)
  //         MATEe: 2 T_HR(S) + (40a + 3S/(5B)) + (40a + 21S/(115B))      = 86a + 228S/(115B)
  //         MATE dimrotation:  3 (3a + S/(5B) + 40a + 2S/(23B))          = 129a + 99S/(115B)
  //         MATEe dimrotation: 3 (40a + S/(5B) + 40a + 7S/(115B))        = 240a + 18S/(23B)
  const double a = kAlpha, B = kB, S = 6 << 20;
  struct Case {
    int n;
    const char* alg;
    const char* dims;
    double want;
  };
  for (const Case& c : {Case{4, "mate", "sequential", 27 * a + 12 * S / (7 * B)},
                        Case{4, "matee", "sequential", 42 * a + 23 * S / (14 * B)},
                        Case{4, "mate", "dimrotation", 63 * a + 5 * S / (7 * B)},
                        Case{4, "matee", "dimrotation", 108 * a + 9 * S / (14 * B)},
                        Case{5, "mate", "sequential", 49 * a + 237 * S / (115 * B)},
                        Case{5, "matee", "sequential", 86 * a + 228 * S / (115 * B)},
                        Case{5, "mate", "dimrotation", 129 * a + 99 * S / (115 * B)},
                        Case{5, "matee", "dimrotation", 240 * a + 18 * S / (23 * B)}}) {
    INFO(c.n << "x" << c.n << "x" << c.n << " " << c.alg << " + " << c.dims);
    topo::Network net = torus({c.n, c.n, c.n});
    topo::Faults f = fail(net, {"(1,1,1)-(1,2,1)"});
    Run r = run(net, f, c.alg, c.dims, static_cast<std::int64_t>(S));
    CHECK(close(r.time_s, c.want));
    REQUIRE(r.cf);
    CHECK(close(r.cf->time_s, c.want));
  }
}

TEST_CASE("MATEe fills the slot the largest ring sets (mixed radix)", "[closed-form]") {
  // 8x4x4, one failed link in dimension 1 (a 4-ring), DimRotation, zero latency. Every slot's
  // normal phase lasts a HalfRing on the 8-rings, S/(3B) for a chunk of S/3: the faulty 4-ring's
  // folded ring moves N_max/(4(N_f - 1)) = 2/3 of its chunk in that time (its own r would be
  // 1/3), and the acceleration phase the remaining 1/3 over P = 2 planes and the fold, each
  // S/(42B). MATE sends it all there: S/(14B). Three slots: MATEe 15/14 S/B, MATE 17/14 S/B.
  const double B = 56.0 * (1 << 30), S = 2.0 * (1 << 30);
  topo::Network net = torus({8, 4, 4}, B, 0);
  topo::Faults f = fail(net, {"(0,0,0)-(0,1,0)"});
  CHECK(coll::slot_folded_ratio(8, 4) == coll::Fraction{2, 3});
  CHECK(coll::slot_folded_ratio(4, 4) == coll::halfring_folded_ratio(4));
  CHECK(close(run(net, f, "matee", "dimrotation", 2LL << 30).time_s, 15.0 / 14 * S / B));
  CHECK(close(run(net, f, "mate", "dimrotation", 2LL << 30).time_s, 17.0 / 14 * S / B));
  // One dimension at a time (sequential), no larger ring runs beside the 4-ring: r = 1/3.
  Run seq = run(net, f, "matee", "sequential", 2LL << 30);
  // 8-ring HalfRing S/B, then the 4-rings: HalfRing S/(2B) beside the fold's r (3 S/(2B)) =
  // S/(2B), then the acceleration (1 - r) S / (2 (P + r) B) ... = 2/7 S/(2B), then the other
  // 4-ring dimension S/(2B).
  CHECK(close(seq.time_s, S / B + S / (2 * B) + (2.0 / 7) * S / (2 * B) + S / (2 * B)));
}
