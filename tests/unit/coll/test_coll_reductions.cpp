// Ring and FoldedRing reduce-scatter, all-gather and all-reduce on tori
// (docs/algorithms.md §Torus reductions on the ring and the folded ring: the folded ring
// generalises to them): verified delivery of every reduced block, the bugs the verifier must catch,
// and simulated times against their closed forms.
#include "coll/closed_form.hpp"
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/schedule.hpp"
#include "coll/verify.hpp"
#include "doc/coll_json.hpp"
#include "sim/analytic.hpp"
#include "support.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace icnkit;
using namespace icnkit::coll;

namespace {

constexpr double kB = 50e9, kAlpha = 1e-6;

topo::Network torus(const std::string& shape) {
  return test::torus_of(shape, kB, kAlpha);
}

topo::Faults fail(const topo::Network& net, std::vector<std::string> links) {
  topo::FaultRequest r;
  r.links = std::move(links);
  return topo::make_faults(net, r);
}

Schedule make(const topo::Network& net, const topo::Faults& f, const std::string& col,
              const std::string& alg, const std::string& dims, std::int64_t bytes = 6 << 20) {
  Request req;
  req.collective = col;
  req.algorithm = alg;
  req.dim_scheduling = dims;
  req.bytes_per_node = bytes;
  return generate(req, net, f);
}

std::string input_error(const Schedule& s, const topo::Network& net, const topo::Faults& f) {
  try {
    verify(s, net, f, ErrorKind::Input);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Input);
    return e.what();
  }
  FAIL("no error");
  return "";
}

double phase_time(const Schedule& s, const topo::Network& net, const topo::Faults& f,
                  const std::string& name) {
  ScheduleProgram p(s, net);
  auto down = f.down_links(net);
  sim::AnalyticOptions o;
  o.down_links = &down;
  sim::AnalyticResult r = sim::simulate_analytic(p, net, o);
  for (auto& ph : r.phases)
    if (ph.name == name) return ph.end_s - ph.start_s;
  FAIL("no phase " << name);
  return 0;
}

bool close(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

TEST_CASE("reductions: every algorithm x scheduler x fault verifies", "[coll-red]") {
  for (const char* shape : {"4x4x4", "5x5x5", "8x4x4", "3x3x3x3"}) {
    topo::Network net = torus(shape);
    std::vector<topo::Faults> faults = {topo::Faults{}};
    const int D = std::string(shape).size() > 5 ? 4 : 3;
    for (int d = 0; d < D; ++d) {
      std::vector<int> a(static_cast<std::size_t>(D), 0), b = a;
      b[static_cast<std::size_t>(d)] = 1;
      auto txt = [](const std::vector<int>& c) {
        std::string t = "(";
        for (std::size_t i = 0; i < c.size(); ++i) {
          if (i > 0) t += ',';
          t += std::to_string(c[i]);
        }
        t += ')';
        return t;
      };
      faults.push_back(fail(net, {txt(a) + "-" + txt(b)}));
    }
    for (const char* col : {"reduce-scatter", "all-gather", "all-reduce"})
      for (const char* dims : {"sequential", "pipeline", "dimrotation"}) {
        for (std::size_t k = 0; k < faults.size(); ++k) {
          INFO(shape << " " << col << " " << dims << " fault case " << k);
          for (const char* alg : {"ring", "foldedring"}) {
            if (k > 0 && std::string(alg) == "ring") continue;
            Schedule s = make(net, faults[k], col, alg, dims);
            REQUIRE(s.verification);
            CHECK(s.verification->delivered);
            // Through JSON and back, checked as input.
            const json j = to_json(s);
            ObjReader r(j, "test", "/schedule");
            Schedule back = parse_schedule(r);
            CHECK(back == s);
            CHECK_NOTHROW(verify(back, net, faults[k], ErrorKind::Input));
          }
        }
      }
  }
}

TEST_CASE("reductions: shapes of the plans", "[coll-red]") {
  topo::Network net = torus("4x4x4");
  Schedule ar = make(net, {}, "all-reduce", "ring", "sequential");
  // Reduce-scatter along 0, 1, 2, then all-gather along 2, 1, 0; N-1 = 3 steps each.
  std::vector<std::string> names;
  for (auto& p : ar.phases) names.push_back(p.name);
  CHECK(names ==
        std::vector<std::string>{"dim0/rs", "dim1/rs", "dim2/rs", "dim2/ag", "dim1/ag", "dim0/ag"});
  for (auto& p : ar.phases) CHECK(p.steps.size() == 3);
  // Blocks: the share shrinks by 4 per reduce-scatter and grows back.
  const double S = 6 << 20;
  CHECK(ar.phases[0].block_bytes == S / 4);
  CHECK(ar.phases[1].block_bytes == S / 16);
  CHECK(ar.phases[2].block_bytes == S / 64);
  CHECK(ar.phases[3].block_bytes == S / 64);
  CHECK(ar.phases[5].block_bytes == S / 4);
  Schedule ag = make(net, {}, "all-gather", "ring", "dimrotation");
  CHECK(ag.chunks == 3);
  CHECK(ag.phases[0].name == "chunk0/dim2/ag"); // chunk 0's order 0, 1, 2, gathered in reverse
}

TEST_CASE("reductions: the verifier catches injected bugs", "[coll-red]") {
  topo::Network net = torus("4x4x4");
  topo::Faults none;
  const Schedule good = make(net, none, "all-reduce", "ring", "sequential");
  SECTION("a dropped reduce-scatter transfer") {
    Schedule s = good;
    s.phases[1].steps[2].transfers.pop_back();
    CHECK(input_error(s, net, none).find("lacks contributions") != std::string::npos);
  }
  SECTION("a partial sent twice (counted twice)") {
    Schedule s = good;
    s.phases[0].steps[1].transfers[0].origin_offset =
        s.phases[0].steps[0].transfers[0].origin_offset;
    std::string msg = input_error(s, net, none);
    CHECK((msg.find("already sent") != std::string::npos ||
           msg.find("counted twice") != std::string::npos));
  }
  SECTION("an all-gather slice the sender does not hold") {
    Schedule s = good;
    s.phases[4].steps[0].transfers[0].origin_offset = 2;
    CHECK(input_error(s, net, none).find("does not hold") != std::string::npos);
  }
  SECTION("all-gather in the wrong order") {
    Schedule s = good;
    std::swap(s.phases[3].dimension, s.phases[4].dimension);
    CHECK(input_error(s, net, none).find("reverse order") != std::string::npos);
  }
  SECTION("a block size from another phase") {
    Schedule s = good;
    s.phases[1].block_bytes = s.phases[0].block_bytes;
    CHECK(input_error(s, net, none).find("share at this phase") != std::string::npos);
  }
  SECTION("the folded hop moved onto the failed link") {
    topo::Faults f = fail(net, {"0-1"});
    Schedule s = make(net, f, "reduce-scatter", "foldedring", "sequential");
    for (auto& ph : s.phases)
      for (auto& st : ph.steps)
        for (auto& t : st.transfers)
          if (t.fold_at >= 0) t.fold_at = (t.fold_at + 1) % 4;
    CHECK(input_error(s, net, f).find("failed link") != std::string::npos);
  }
}

TEST_CASE("reductions: simulated single-ring times = closed forms", "[coll-red]") {
  // Bidirectional Ring reduce-scatter / all-gather on one ring of N: N-1 steps, each moving half
  // a block (S/(2N)) one hop each way: (N-1) (alpha + S/(2 N B)). The folded ring: N-1 steps of
  // a whole block, the folded hop N-1 links long: (N-1) ((N-1) alpha + S/(N B)).
  const std::int64_t S = 3 << 20;
  for (int n = 2; n <= 12; ++n) {
    INFO("N = " << n);
    topo::Network net = torus(std::to_string(n) + "x2");
    topo::Faults none;
    const double ring = (n - 1) * (kAlpha + S / (2.0 * n * kB));
    CHECK(close(phase_time(make(net, none, "reduce-scatter", "ring", "sequential", S), net, none,
                           "dim0/rs"),
                ring));
    // The all-gather runs dimension 1 first; its dim0 phase (the last) then has blocks of S/N,
    // like the reduce-scatter's first.
    CHECK(close(
        phase_time(make(net, none, "all-gather", "ring", "sequential", S), net, none, "dim0/ag"),
        ring));
    topo::Faults f = fail(net, {std::to_string(n) + "-" + std::to_string(n + 1)});
    const double folded = (n - 1) * ((n - 1) * kAlpha + S / (1.0 * n * kB));
    CHECK(close(phase_time(make(net, f, "reduce-scatter", "foldedring", "sequential", S), net, f,
                           "dim0/rs"),
                folded));
  }
}

TEST_CASE("reductions: simulated = closed_form() on equal-radix tori", "[coll-red]") {
  for (const char* shape : {"4x4x4", "5x5", "3x3x3x3"}) {
    topo::Network net = torus(shape);
    topo::Faults none;
    for (const char* col : {"reduce-scatter", "all-gather", "all-reduce"})
      for (const char* dims : {"sequential", "pipeline", "dimrotation"}) {
        INFO(shape << " " << col << " " << dims);
        Schedule s = make(net, none, col, "ring", dims, 12 << 20);
        auto cf = closed_form(s, net, none);
        if (std::string(col) == "all-reduce" && std::string(dims) == "pipeline") {
          CHECK_FALSE(cf); // gathers and reductions of neighbouring chunks share a dimension
          continue;
        }
        REQUIRE(cf);
        ScheduleProgram p(s, net);
        CHECK(close(sim::simulate_analytic(p, net).time_s, cf->time_s));
      }
  }
  // With a failed link there is no closed form for the reductions.
  topo::Network net = torus("4x4x4");
  topo::Faults f = fail(net, {"0-1"});
  CHECK_FALSE(closed_form(make(net, f, "all-reduce", "foldedring", "sequential"), net, f));
}
