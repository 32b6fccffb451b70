// lib/coll: the MICRO'25 torus all-to-all algorithms (HalfRing, FoldedRing, MATE, MATEe) and
// dimension schedulers (sequential, Pipeline, DimRotation; docs/algorithms.md §Torus all-to-all):
// delivery on every algorithm x scheduler x torus x fault type, the plans' structural facts,
// injected bugs caught by verify(), refusals, and simulated-time sanity.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/hops.hpp"
#include "coll/plan.hpp"
#include "coll/ring.hpp"
#include "coll/rings.hpp"
#include "coll/schedule.hpp"
#include "coll/verify.hpp"
#include "doc/coll_json.hpp"
#include "sim/analytic.hpp"
#include "support.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace icnkit;
using namespace icnkit::coll;

namespace {

topo::Network make_torus(const std::vector<int>& S, std::optional<double> latency_s = {}) {
  std::int64_t n = 1;
  for (int s : S) n *= s;
  const std::vector<int> B(S.size(), 1);
  topo::Candidate c;
  c.family = "torus";
  c.id = topo::torus_candidate_id({S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  c.n_endpoint = n;
  c.derived_chips_per_board = 1;
  topo::Context ctx;
  ctx.n_chip = n;
  ctx.chips_per_board_max = 16;
  topo::GenerateOptions o;
  o.link_latency.every = latency_s;
  topo::Network net = topo::generate(ctx, c, o);
  net.fingerprint = topo::fingerprint(net, nullptr);
  return net;
}

std::string shape_text(const std::vector<int>& S) {
  std::string s;
  for (int v : S) {
    if (!s.empty()) s += 'x';
    s += std::to_string(v);
  }
  return s;
}

std::string coord_text(const std::vector<int>& c) {
  std::string s = "(";
  for (std::size_t d = 0; d < c.size(); ++d) {
    if (d) s += ',';
    s += std::to_string(c[d]);
  }
  s += ')';
  return s;
}

// "(c)-(c + e_d)": the link leaving the chip at c in + direction of dimension d.
std::string link_text(const std::vector<int>& S, std::vector<int> c, int d) {
  std::string a = coord_text(c);
  auto ud = static_cast<std::size_t>(d);
  c[ud] = (c[ud] + 1) % S[ud];
  a += '-';
  a += coord_text(c);
  return a;
}

topo::Faults link_faults(const topo::Network& net, const std::vector<std::string>& links) {
  topo::FaultRequest fr;
  fr.links = links;
  return topo::make_faults(net, fr);
}

Schedule gen(const topo::Network& net, const topo::Faults& f, const std::string& alg,
             const std::string& dims, std::int64_t bytes = 1 << 20, int chunks = 0) {
  Request req;
  req.algorithm = alg;
  req.dim_scheduling = dims;
  req.bytes_per_node = bytes;
  req.chunks = chunks;
  return generate(req, net, f);
}

// The error a callable throws (kind and "where: what"), or fails the test.
std::pair<ErrorKind, std::string> error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.kind(), std::string(e.where()) + ": " + e.what()};
  }
  FAIL("no error thrown");
  return {ErrorKind::Runtime, ""};
}

Schedule reparse(const json& j) {
  ObjReader r(j, "test", "/schedule");
  return parse_schedule(r);
}

const Phase& phase_named(const Schedule& s, const std::string& name) {
  for (auto& p : s.phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return s.phases.front();
}
Phase& phase_named(Schedule& s, const std::string& name) {
  return const_cast<Phase&>(phase_named(static_cast<const Schedule&>(s), name));
}

bool is_accel(const Phase& p) {
  return p.name.find("/accel") != std::string::npos;
}

// ancestors[id][a]: step a must finish before step id starts (transitively through `after`).
std::vector<std::vector<char>> ancestors(const Schedule& s) {
  const auto n = static_cast<std::size_t>(s.step_count());
  std::vector<const Step*> by_id(n, nullptr);
  for (auto& p : s.phases)
    for (auto& st : p.steps) by_id[static_cast<std::size_t>(st.id)] = &st;
  std::vector<std::vector<char>> anc(n, std::vector<char>(n, 0));
  for (std::size_t id = 0; id < n; ++id)
    for (std::int64_t a : by_id[id]->after) {
      auto ua = static_cast<std::size_t>(a);
      anc[id][ua] = 1;
      for (std::size_t b = 0; b < n; ++b) anc[id][b] |= anc[ua][b];
    }
  return anc;
}

// The ids of the steps of chunk c's phases along dimension d.
std::vector<std::int64_t> group_steps(const Schedule& s, int c, int d) {
  std::vector<std::int64_t> out;
  for (auto& p : s.phases)
    if (p.chunk == c && p.dimension == d)
      for (auto& st : p.steps) out.push_back(st.id);
  return out;
}

// The dimensions chunk c visits, in the order of its first steps.
std::vector<int> chunk_order(const Schedule& s, int c) {
  std::vector<std::pair<std::int64_t, int>> first;
  for (auto& p : s.phases)
    if (p.chunk == c && !p.steps.empty()) first.push_back({p.steps.front().id, p.dimension});
  std::sort(first.begin(), first.end());
  std::vector<int> out;
  for (auto& [id, d] : first)
    if (out.empty() || out.back() != d) out.push_back(d);
  return out;
}

sim::AnalyticResult simulate(const Schedule& s, const topo::Network& net, const topo::Faults& f) {
  ScheduleProgram prog(s, net);
  auto down = f.down_links(net);
  sim::AnalyticOptions o;
  o.down_links = &down;
  return sim::simulate_analytic(prog, net, o);
}

// Fault scenarios on a torus of shape S (Y = dimension 1; docs/algorithms.md §FoldedRing,
// §MATE and MATEe).
struct Scenario {
  std::string name;
  std::vector<std::string> links;
  std::vector<std::string> algorithms; // those that must succeed
};

std::vector<Scenario> scenarios(const std::vector<int>& S) {
  const auto D = S.size();
  auto at = [&](std::vector<int> c) {
    c.resize(D, 0);
    return c;
  };
  std::vector<Scenario> out;
  out.push_back({"fault-free", {}, {"ring", "halfring", "foldedring"}});
  const std::vector<std::string> ft = {"foldedring", "mate", "matee"};
  for (int d = 0; d < static_cast<int>(D); ++d)
    out.push_back(
        {"one fault in dimension " + std::to_string(d), {link_text(S, at({1, 1, 1}), d)}, ft});
  // Type 1: two faults on one Y ring (foldedring refuses it, see below).
  out.push_back({"type 1",
                 {link_text(S, at({0, 0, 0}), 1), link_text(S, at({0, 2, 0}), 1)},
                 {"mate", "matee"}});
  // Type 2: two faults on different Y rings.
  out.push_back({"type 2", {link_text(S, at({0, 0, 0}), 1), link_text(S, at({2, 1, 0}), 1)}, ft});
  // Type 3: one fault in Y, one in Z (2-D: one in X, one in Y).
  if (D >= 3)
    out.push_back({"type 3", {link_text(S, at({0, 1, 0}), 1), link_text(S, at({0, 0, 1}), 2)}, ft});
  else
    out.push_back({"type 3", {link_text(S, at({0, 1, 0}), 1), link_text(S, at({1, 0, 0}), 0)}, ft});
  return out;
}

const std::vector<std::string> kSchedulers = {"sequential", "pipeline", "dimrotation"};

} // namespace

// ---------------------------------------------------------------------------------------------
// 1. Delivery on every algorithm x scheduler x torus x fault type, and after a JSON round trip.

TEST_CASE("every algorithm x scheduler delivers on 4x4x4, 5x5x5, 8x4x4, 5x5x5x5 and 5x5 with "
          "each fault type",
          "[coll-alg]") {
  for (const std::vector<int>& S :
       std::vector<std::vector<int>>{{4, 4, 4}, {5, 5, 5}, {8, 4, 4}, {5, 5, 5, 5}, {5, 5}}) {
    const topo::Network net = make_torus(S);
    std::vector<Scenario> list = scenarios(S);
    if (S == std::vector<int>{8, 4, 4}) // OCS failure: two aligned Y links 4 hops apart in X
      list.push_back({"OCS", {"0-8", "4-12"}, {"foldedring", "mate", "matee"}});
    for (const Scenario& sc : list) {
      const topo::Faults f = link_faults(net, sc.links);
      REQUIRE(f.links.size() == sc.links.size());
      for (const std::string& alg : sc.algorithms)
        for (const std::string& dims : kSchedulers) {
          INFO(shape_text(S) << " " << sc.name << " " << alg << " + " << dims);
          Schedule s = gen(net, f, alg, dims, 3 << 20);
          REQUIRE(s.verification);
          CHECK(s.verification->delivered);
          CHECK(s.algorithm == alg);
          CHECK(s.dim_scheduling == dims);
          CHECK(s.verification->failed_links_avoided == static_cast<std::int64_t>(f.links.size()));
          CHECK(s.chunks == (dims == "pipeline"      ? 6
                             : dims == "dimrotation" ? static_cast<int>(S.size())
                                                     : 1));
          // Through JSON text and back: equal, and verified again as input.
          Schedule back = reparse(json::parse(to_json(s).dump()));
          CHECK(back == s);
          Verification v = verify(back, net, f, ErrorKind::Input);
          CHECK(v.delivered);
          CHECK(v == *s.verification);
        }
    }
  }
}

TEST_CASE("foldedring refuses two faults on one ring, naming the ring", "[coll-alg]") {
  for (const std::vector<int>& S : std::vector<std::vector<int>>{{4, 4, 4}, {5, 5, 5}, {8, 4, 4}}) {
    const topo::Network net = make_torus(S);
    const topo::Faults f =
        link_faults(net, {link_text(S, {0, 0, 0}, 1), link_text(S, {0, 2, 0}, 1)});
    for (const std::string& dims : kSchedulers) {
      auto [kind, msg] = error_of([&] { gen(net, f, "foldedring", dims); });
      CHECK(kind == ErrorKind::Infeasible);
      CHECK(msg.find("ring 0 of dimension 1") != std::string::npos);
      CHECK(msg.find("2 failed links") != std::string::npos);
    }
  }
}

TEST_CASE("the paper's 4x4x4 fault types (ids z*16+y*4+x) and the 8x4x4 OCS case (z*32+y*8+x)",
          "[coll-alg]") {
  const topo::Network net = make_torus({4, 4, 4});
  const topo::Faults type1 = link_faults(net, {"0-4", "8-12"});
  const topo::Faults type2 = link_faults(net, {"0-4", "6-10"});
  const topo::Faults type3 = link_faults(net, {"4-8", "16-32"});
  for (auto* f : {&type1, &type2, &type3}) {
    REQUIRE(f->links.size() == 2);
    for (auto& l : f->links) CHECK(net.links[static_cast<std::size_t>(l.link)].dim >= 1);
  }
  // Type 1: both on the Y ring x = 0, z = 0 (ring 0 of dimension 1).
  CHECK(net.links[static_cast<std::size_t>(type1.links[0].link)].dim == 1);
  CHECK(net.links[static_cast<std::size_t>(type1.links[1].link)].dim == 1);
  // Type 3: one Y, one Z.
  CHECK(net.links[static_cast<std::size_t>(type3.links[0].link)].dim == 1);
  CHECK(net.links[static_cast<std::size_t>(type3.links[1].link)].dim == 2);
  for (const std::string& dims : kSchedulers) {
    INFO(dims);
    for (const char* alg : {"mate", "matee"}) {
      for (auto* f : {&type1, &type2, &type3})
        CHECK(gen(net, *f, alg, dims).verification->delivered);
    }
    CHECK(error_of([&] { gen(net, type1, "foldedring", dims); }).first == ErrorKind::Infeasible);
    CHECK(gen(net, type2, "foldedring", dims).verification->delivered);
    CHECK(gen(net, type3, "foldedring", dims).verification->delivered);
  }
  // Type 3 accelerates both faulty dimensions, each in its own acceleration phase.
  Schedule t3 = gen(net, type3, "matee", "sequential");
  std::set<int> accel_dims;
  for (auto& p : t3.phases)
    if (is_accel(p)) accel_dims.insert(p.dimension);
  CHECK(accel_dims == std::set<int>{1, 2});

  const topo::Network net8 = make_torus({8, 4, 4});
  const topo::Faults ocs = link_faults(net8, {"0-8", "4-12"});
  REQUIRE(ocs.links.size() == 2);
  for (auto& l : ocs.links) CHECK(net8.links[static_cast<std::size_t>(l.link)].dim == 1);
  for (const std::string& dims : kSchedulers)
    for (const char* alg : {"foldedring", "mate", "matee"})
      CHECK(gen(net8, ocs, alg, dims).verification->delivered);
}

// ---------------------------------------------------------------------------------------------
// 2. Structural facts of the plans and the schedulers.

TEST_CASE("halfring plan: k(k+1)/2 steps, per-direction link load N S/8 or (N^2-1) S/(8N)",
          "[coll-alg]") {
  for (int n = 2; n <= 16; ++n) {
    INFO("N = " << n);
    const int k = n / 2;
    RingPlan plan = halfring_all_to_all_plan(n);
    REQUIRE(plan.size() == static_cast<std::size_t>(k * (k + 1) / 2));
    // Per directed link, in blocks of S/N: every transfer moves its piece one hop from every
    // position, so a link of direction dir carries the sum of dir's fractions.
    std::map<int, double> blocks;
    for (auto& step : plan) {
      REQUIRE(step.size() == 2);
      CHECK(step[0].direction == 1);
      CHECK(step[1].direction == -1);
      for (auto& t : step) {
        blocks[t.direction] += t.fraction.value();
        CHECK(t.fold_at == -1);
        CHECK(t.via_dim == -1);
      }
    }
    // N S/8 = (N^2/8) S/N; (N^2-1) S/(8N) = ((N^2-1)/8) S/N.
    const double want = n % 2 == 0 ? n * n / 8.0 : (n * n - 1) / 8.0;
    CHECK(blocks[1] == want);
    CHECK(blocks[-1] == want);
    // Against Ring's (N-1)/4 S per direction: the exact ratios (docs/algorithms.md §HalfRing).
    const double ring = (n - 1) * n / 4.0;
    CHECK(ring / want == Approx(n % 2 == 0 ? 2.0 * (n - 1) / n : 2.0 * n / (n + 1)));
  }
  CHECK(halfring_all_to_all_plan(4).size() == 3); // 4 sub-stages of S/(2N) in 3 steps
  CHECK(halfring_all_to_all_plan(4)[2][0].fraction == Fraction{1, 2}); // the unpaired stage
  CHECK(halfring_all_to_all_plan(5)[2][0].fraction == Fraction{1, 1});
}

TEST_CASE("halfring on 4x4x4 and 5x5x5: the simulator's flows load each directed link as the "
          "bisection bound, one piece per link per step",
          "[coll-alg]") {
  const std::int64_t S = 1 << 20;
  for (int n : {4, 5}) {
    INFO("N = " << n);
    const topo::Network net = make_torus({n, n, n});
    Schedule s = gen(net, {}, "halfring", "sequential", S);
    ScheduleProgram prog(s, net);
    sim::StepFlows f;
    std::map<int, std::map<std::int64_t, double>> per_phase; // phase -> channel -> bytes
    double summed = 0;                                       // the same from transfer_bytes
    for (auto& t : s.phases[0].steps)
      for (auto& tr : t.transfers)
        if (tr.direction == 1) summed += transfer_bytes(s.phases[0], tr);
    for (std::size_t k = 0; k < prog.steps().size(); ++k) {
      prog.flows(k, f);
      REQUIRE(f.flows.size() == static_cast<std::size_t>(2 * net.n_chip));
      std::set<std::int64_t> used;
      for (auto& fl : f.flows) {
        REQUIRE(fl.count == 1);
        const std::int64_t ch = f.channels[fl.first];
        CHECK(used.insert(ch).second); // no contention inside a step
        per_phase[prog.steps()[k].phase][ch] += fl.bytes;
      }
    }
    const double want = n % 2 == 0 ? n * static_cast<double>(S) / 8
                                   : (n * n - 1) * static_cast<double>(S) / (8.0 * n);
    CHECK(summed == Approx(want).epsilon(1e-12));
    REQUIRE(per_phase.size() == 3);
    for (auto& [p, channels] : per_phase) {
      CHECK(channels.size() == static_cast<std::size_t>(2 * net.n_chip)); // every link, both ways
      for (auto& [ch, b] : channels) {
        CHECK(b == Approx(want).epsilon(1e-12));
        CHECK(net.links[static_cast<std::size_t>(topo::link_of_channel(ch))].dim == p);
      }
    }
  }
}

TEST_CASE("folded plan: N(N-1)/2 steps; the folded hop takes the N-1 other links, never the "
          "failed one",
          "[coll-alg]") {
  for (int n = 2; n <= 16; ++n)
    for (int p : {0, n / 2, n - 1}) {
      RingPlan plan = folded_all_to_all_plan(n, p);
      REQUIRE(plan.size() == static_cast<std::size_t>(n * (n - 1) / 2));
      for (auto& step : plan) {
        REQUIRE(step.size() == 1);
        CHECK(step[0].direction == 1);
        CHECK(step[0].fold_at == p);
        CHECK(step[0].fraction == Fraction{1, 1});
      }
    }
  // On a torus: one failed Y link (1,1,1)-(1,2,1) of 5x5x5, the folded ring at position 1.
  const std::vector<int> S = {5, 5, 5};
  const topo::Network net = make_torus(S);
  const topo::Faults f = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
  const std::int64_t failed = f.links.front().link;
  const topo::TorusGeometry g = topo::TorusGeometry::of(net, "test");
  const DimRings rings(g, 1);
  const std::int64_t chip = g.id({1, 1, 1});
  const std::int64_t ring = rings.ring_of(chip);
  // The healthy rings of the faulty dimension run HalfRing (foldedring: on a ring of 5, 3 steps
  // of two whole blocks, one each way) or the bidirectional Ring (foldedring-ring: 10 steps of
  // two half blocks).
  struct Healthy {
    const char* alg;
    int steps;
    Fraction fraction;
  };
  for (const Healthy& h :
       {Healthy{"foldedring", 3, {1, 1}}, Healthy{"foldedring-ring", 10, {1, 2}}})
    for (const std::string& dims : kSchedulers) {
      INFO(h.alg << " " << dims);
      Schedule s = gen(net, f, h.alg, dims);
      std::int64_t folded = 0, healthy = 0;
      for (auto& ph : s.phases)
        for (auto& st : ph.steps)
          for (auto& tr : st.transfers) {
            if (ph.dimension != 1) {
              CHECK(tr.fold_at == -1);
              CHECK(!tr.rings);
              continue;
            }
            if (tr.fold_at < 0) { // the healthy rings, in lane 0
              ++healthy;
              CHECK(st.lane == 0);
              CHECK(tr.fraction == h.fraction);
              REQUIRE(tr.rings);
              CHECK(tr.rings->size() == 24);
              CHECK(!std::binary_search(tr.rings->begin(), tr.rings->end(), ring));
              continue;
            }
            ++folded;
            CHECK(st.lane == 1);
            CHECK(tr.fold_at == 1);
            CHECK(tr.rings == std::vector<std::int64_t>{ring});
            for (int i = 0; i < 5; ++i) {
              std::vector<std::int64_t> links;
              std::int64_t last = -1;
              for_each_hop(g, 1, 5, rings.chip(ring, i), i, tr,
                           [&](std::int64_t, std::int64_t dst, std::int64_t ch) {
                             links.push_back(topo::link_of_channel(ch));
                             last = dst;
                           });
              CHECK(last == rings.chip(ring, (i + 1) % 5)); // the logical hop i -> i+1
              CHECK(std::find(links.begin(), links.end(), failed) == links.end());
              CHECK(static_cast<int>(links.size()) == hop_count(tr, i, 5));
              CHECK(links.size() == (i == 1 ? 4u : 1u));
              if (i == 1) CHECK(std::set<std::int64_t>(links.begin(), links.end()).size() == 4);
            }
          }
      CHECK(folded == s.chunks * 10);           // N(N-1)/2 steps of one transfer per chunk
      CHECK(healthy == s.chunks * h.steps * 2); // two transfers per step
      // The simulator sees the same paths: one 4-link flow per folded step.
      ScheduleProgram prog(s, net);
      sim::StepFlows fl;
      const Phase& p1 = phase_named(s, s.chunks > 1 ? "chunk0/dim1" : "dim1");
      for (auto& st : p1.steps) {
        if (st.lane != 1) continue;
        prog.flows(static_cast<std::size_t>(st.id), fl);
        REQUIRE(fl.flows.size() == 5);
        CHECK(fl.flows[1].count == 4);
        for (std::uint32_t c = 0; c < fl.flows[1].count; ++c)
          CHECK(topo::link_of_channel(fl.channels[fl.flows[1].first + c]) != failed);
      }
    }
}

TEST_CASE("dimrotation: D chunks, chunk i takes the dimensions i, i+1, ... (mod D)", "[coll-alg]") {
  for (const std::vector<int>& S :
       std::vector<std::vector<int>>{{4, 4, 4}, {8, 4, 4}, {5, 5}, {5, 5, 5, 5}}) {
    const topo::Network net = make_torus(S);
    const int D = static_cast<int>(S.size());
    const topo::Faults y = link_faults(net, {link_text(S, std::vector<int>(S.size(), 1), 1)});
    for (auto [alg, f] : std::vector<std::pair<std::string, topo::Faults>>{
             {"ring", {}}, {"halfring", {}}, {"foldedring", y}, {"mate", y}, {"matee", y}}) {
      INFO(shape_text(S) << " " << alg);
      Schedule s = gen(net, f, alg, "dimrotation");
      REQUIRE(s.chunks == D);
      for (int c = 0; c < D; ++c) {
        std::vector<int> want;
        for (int k = 0; k < D; ++k) want.push_back((c + k) % D);
        CHECK(chunk_order(s, c) == want);
        // Chunk i's block is S / D / N.
        for (auto& p : s.phases)
          if (p.chunk == c)
            CHECK(p.block_bytes == Approx(static_cast<double>(s.bytes_per_node) / D / p.ring_size));
      }
    }
  }
}

TEST_CASE("pipeline: chunk c's dimension k waits for chunk c-1's dimension k", "[coll-alg]") {
  const std::vector<int> S = {4, 4, 4};
  const topo::Network net = make_torus(S);
  const topo::Faults y = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
  for (auto [alg, f] : std::vector<std::pair<std::string, topo::Faults>>{
           {"ring", {}}, {"halfring", {}}, {"foldedring", y}, {"matee", y}}) {
    for (int chunks : {0, 3}) {
      INFO(alg << " chunks " << chunks);
      Schedule s = gen(net, f, alg, "pipeline", 6 << 20, chunks);
      const int C = chunks == 0 ? 6 : chunks;
      REQUIRE(s.chunks == C);
      auto anc = ancestors(s);
      auto r = simulate(s, net, f);
      for (int c = 0; c < C; ++c) {
        CHECK(chunk_order(s, c) == std::vector<int>{0, 1, 2});
        if (c == 0) continue;
        for (int k = 0; k < 3; ++k) {
          auto mine = group_steps(s, c, k), before = group_steps(s, c - 1, k);
          REQUIRE(!mine.empty());
          REQUIRE(!before.empty());
          double start = 1e300, end = 0;
          for (auto id : mine) {
            for (auto b : before)
              CHECK(anc[static_cast<std::size_t>(id)][static_cast<std::size_t>(b)]);
            start = std::min(start, r.step_start_s[static_cast<std::size_t>(id)]);
          }
          for (auto b : before) end = std::max(end, r.step_end_s[static_cast<std::size_t>(b)]);
          CHECK(start >= end);
        }
      }
      // ... and the chunks overlap: chunk 1's dimension 0 runs beside chunk 0's dimension 1.
      auto c1d0 = group_steps(s, 1, 0), c0d1 = group_steps(s, 0, 1);
      CHECK_FALSE(
          anc[static_cast<std::size_t>(c1d0.front())][static_cast<std::size_t>(c0d1.back())]);
    }
  }
}

TEST_CASE("MATE / MATEe: acceleration phases only in the faulty dimension; MATEe's folded "
          "fraction r",
          "[coll-alg]") {
  // r = T_HalfRing / T_FoldedRing (Table 1 transfer terms): N S/(8B) / ((N-1) S/(2B)) =
  // N / (4(N-1)) for even N; (N^2-1) S/(8NB) / ((N-1) S/(2B)) = (N+1) / (4N) for odd N.
  const std::map<int, Fraction> r_of = {{3, {1, 3}},  {4, {1, 3}},   {5, {3, 10}},
                                        {6, {3, 10}}, {7, {2, 7}},   {8, {2, 7}},
                                        {9, {5, 18}}, {11, {3, 11}}, {16, {4, 15}}};
  for (auto& [n, r] : r_of) {
    INFO("N = " << n);
    CHECK(halfring_folded_ratio(n) == r);
  }
  for (const std::vector<int>& S :
       std::vector<std::vector<int>>{{4, 4, 4}, {5, 5, 5}, {5, 5, 5, 5}}) {
    const topo::Network net = make_torus(S);
    const int n = S[0], D = static_cast<int>(S.size());
    const Fraction r = r_of.at(n);
    const std::vector<int> at(S.size(), 1);
    for (int d = 0; d < D; ++d) {
      const topo::Faults f = link_faults(net, {link_text(S, at, d)});
      const topo::TorusGeometry g = topo::TorusGeometry::of(net, "test");
      const std::int64_t ring = DimRings(g, d).ring_of(g.id(at));
      for (const std::string& alg : std::vector<std::string>{"mate", "matee"})
        for (const std::string& dims : kSchedulers) {
          INFO(shape_text(S) << " fault in " << d << " " << alg << " + " << dims);
          Schedule s = gen(net, f, alg, dims);
          std::map<int, int> accel_per_chunk;
          for (auto& p : s.phases) {
            if (is_accel(p)) {
              CHECK(p.dimension == d);
              ++accel_per_chunk[p.chunk];
              std::set<int> planes; // one per other dimension: D - 1
              for (auto& st : p.steps)
                for (auto& tr : st.transfers) { // only the faulty ring's data
                  CHECK(tr.rings == std::vector<std::int64_t>{ring});
                  if (tr.via_dim >= 0) planes.insert(tr.via_dim);
                }
              CHECK(planes.size() == static_cast<std::size_t>(D - 1));
              CHECK(planes.count(d) == 0);
              continue;
            }
            if (p.dimension != d) {
              for (auto& st : p.steps) CHECK(st.lane == 0);
              continue;
            }
            // The normal phase of the faulty dimension: HalfRing on the healthy rings (lane 0);
            // MATEe also folds the fraction r of the faulty ring in lane 1, MATE sends nothing
            // of it.
            int folded = 0;
            for (auto& st : p.steps)
              for (auto& tr : st.transfers) {
                REQUIRE(tr.rings);
                if (st.lane == 0) {
                  CHECK(tr.fold_at == -1);
                  CHECK(!std::binary_search(tr.rings->begin(), tr.rings->end(), ring));
                } else {
                  ++folded;
                  CHECK(st.lane == 1);
                  CHECK(tr.fold_at == 1);
                  CHECK(tr.fraction == r);
                  CHECK(tr.rings == std::vector<std::int64_t>{ring});
                }
              }
            CHECK(folded == (alg == "matee" ? n * (n - 1) / 2 : 0));
          }
          CHECK(accel_per_chunk.size() == static_cast<std::size_t>(s.chunks));
          for (auto& [c, k] : accel_per_chunk) CHECK(k == 1);
        }
    }
  }
}

TEST_CASE("MATE / MATEe acceleration split: planes and folded ring finish together", "[coll-alg]") {
  // A Y fault: two planes (X and Z) and the folded ring. Phase M moves what the normal phase
  // left, w = 1 (MATE) or 1 - r (MATEe); each plane carries w / (2 + r) of it and the folded
  // ring w r / (2 + r) (it is 1/r times slower, so all finish together).
  // 4x4x4, r = 1/3: MATE 3/7 and 1/7; MATEe w = 2/3: 2/7 and 2/21.
  // 5x5x5, r = 3/10: MATE 10/23 and 3/23; MATEe w = 7/10: 7/23 and 21/230.
  struct Case {
    std::vector<int> S;
    std::string alg;
    Fraction plane, fold;
  };
  for (const Case& c :
       {Case{{4, 4, 4}, "mate", {3, 7}, {1, 7}}, Case{{4, 4, 4}, "matee", {2, 7}, {2, 21}},
        Case{{5, 5, 5}, "mate", {10, 23}, {3, 23}}, Case{{5, 5, 5}, "matee", {7, 23}, {21, 230}}}) {
    INFO(shape_text(c.S) << " " << c.alg);
    const topo::Network net = make_torus(c.S);
    const topo::Faults f = link_faults(net, {link_text(c.S, {1, 1, 1}, 1)});
    Schedule s = gen(net, f, c.alg, "sequential");
    const Phase& m = phase_named(s, "dim1/accel0");
    // Per way of carrying (-1: the folded ring, else the plane's via dimension): the fraction
    // of its first transfer, its lanes, the via sides.
    std::map<int, Fraction> first;
    std::map<int, std::set<int>> lanes, sides;
    for (auto& st : m.steps)
      for (auto& tr : st.transfers) {
        const int way = tr.via_dim;
        if (way < 0) {
          CHECK(tr.fold_at == 1);
        } else {
          CHECK(tr.fold_at == -1);
          CHECK(tr.via_side == tr.direction); // cw through side +1, acw through side -1
          sides[way].insert(tr.via_side);
        }
        if (!first.count(way)) first[way] = tr.fraction;
        lanes[way].insert(st.lane);
      }
    REQUIRE(first.size() == 3);
    CHECK(first[-1] == c.fold);
    CHECK(first[0] == c.plane); // plane through X
    CHECK(first[2] == c.plane); // plane through Z
    CHECK(lanes[-1] == std::set<int>{1});
    // Each plane is a lane of its own, neither 0 (the healthy rings) nor 1 (the fold).
    REQUIRE(lanes[0].size() == 1);
    REQUIRE(lanes[2].size() == 1);
    CHECK(*lanes[0].begin() != *lanes[2].begin());
    for (int w : {0, 2}) {
      CHECK(*lanes[w].begin() > 1);
      CHECK(*lanes[w].begin() < s.lanes);
      CHECK(sides[w] == std::set<int>{-1, 1});
    }
  }
}

namespace {

// Pairs (acceleration step, step that may run at the same time: neither is an ancestor of the
// other) and how many of them share a directed link.
struct Overlap {
  std::int64_t pairs = 0, sharing = 0;
};
Overlap accel_overlap(const Schedule& s, const topo::TorusGeometry& g) {
  const auto n = static_cast<std::size_t>(s.step_count());
  std::vector<std::vector<std::int64_t>> channels(n);
  std::vector<char> accel(n, 0);
  for (auto& p : s.phases) {
    const DimRings rings(g, p.dimension);
    for (auto& st : p.steps) {
      auto& ch = channels[static_cast<std::size_t>(st.id)];
      accel[static_cast<std::size_t>(st.id)] = is_accel(p);
      for (auto& tr : st.transfers) {
        auto one = [&](std::int64_t r) {
          for (int i = 0; i < p.ring_size; ++i)
            for_each_hop(g, p.dimension, p.ring_size, rings.chip(r, i), i, tr,
                         [&](std::int64_t, std::int64_t, std::int64_t c) { ch.push_back(c); });
        };
        if (tr.rings)
          for (auto r : *tr.rings) one(r);
        else
          for (std::int64_t r = 0; r < rings.count(); ++r) one(r);
      }
      std::sort(ch.begin(), ch.end());
    }
  }
  auto anc = ancestors(s);
  Overlap o;
  for (std::size_t a = 0; a < n; ++a) {
    if (!accel[a]) continue;
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b || anc[a][b] || anc[b][a]) continue;
      std::vector<std::int64_t> common;
      std::set_intersection(channels[a].begin(), channels[a].end(), channels[b].begin(),
                            channels[b].end(), std::back_inserter(common));
      ++o.pairs;
      o.sharing += !common.empty();
    }
  }
  return o;
}

} // namespace

TEST_CASE("MATE / MATEe: acceleration traffic never runs beside traffic it shares a link with",
          "[coll-alg]") {
  // An acceleration step borrows links of healthy rings and of other dimensions, so every step
  // sharing one of its directed links must be ordered with it. verify() proves it for the lanes
  // of a chunk's dimension group (check 4); this test checks every pair of steps, also across
  // chunks (the schedulers' slot barriers).
  const std::vector<int> S = {4, 4, 4};
  const topo::Network net = make_torus(S);
  const topo::TorusGeometry g = topo::TorusGeometry::of(net, "test");
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"Y", {link_text(S, {1, 1, 1}, 1)}},
      {"Z", {link_text(S, {1, 1, 1}, 2)}},
      {"type 2", {"0-4", "6-10"}},
      {"type 3", {"4-8", "16-32"}}};
  for (auto& [name, links] : cases) {
    const topo::Faults f = link_faults(net, links);
    for (const std::string& alg : std::vector<std::string>{"mate", "matee"})
      for (const std::string& dims : kSchedulers) {
        INFO(name << " " << alg << " + " << dims);
        Overlap o = accel_overlap(gen(net, f, alg, dims), g);
        CHECK(o.sharing == 0);
        CHECK(o.pairs > 0); // concurrent lanes exist, and they are disjoint
      }
  }
  // The check can fail: MATE's acceleration phase started with the normal phase (it waits only
  // for the previous dimension) puts plane traffic beside the healthy rings' HalfRing.
  const topo::Faults z = link_faults(net, {link_text(S, {1, 1, 1}, 2)});
  Schedule s = gen(net, z, "mate", "sequential");
  const auto wait = phase_named(s, "dim2").steps.front().after;
  Phase& m = phase_named(s, "dim2/accel0");
  const std::int64_t first = m.steps.front().id;
  for (auto& st : m.steps)
    if (st.after.front() < first) st.after = wait;
  CHECK(accel_overlap(s, g).sharing > 0);
  // ... and verify() refuses it: the plane lanes and the healthy rings' lane share links but
  // neither waits for the other.
  try {
    verify(s, net, z, ErrorKind::Input);
    FAIL("verify accepted concurrent lanes that share a link");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("can run at the same time") != std::string::npos);
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Injected bugs in MATE / FoldedRing / lane schedules are caught by verify().

TEST_CASE("verification catches injected bugs in the fault-tolerant schedules", "[coll-alg]") {
  const std::vector<int> S = {4, 4, 4};
  const topo::Network net = make_torus(S);
  const topo::Faults f = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
  const Schedule mate = gen(net, f, "mate", "sequential");
  const Schedule matee = gen(net, f, "matee", "sequential");
  const Schedule folded = gen(net, f, "foldedring", "sequential");
  const Schedule folded_dr = gen(net, f, "foldedring", "dimrotation");
  auto input_error = [&](const Schedule& s) {
    auto [kind, msg] = error_of([&] { verify(s, net, f, ErrorKind::Input); });
    CHECK(kind == ErrorKind::Input);
    return msg;
  };
  auto lanes_of = [](const Phase& p) {
    std::set<int> out;
    for (auto& st : p.steps) out.insert(st.lane);
    return out;
  };
  auto first_of_lane = [](Phase& p, int lane) -> Step& {
    for (auto& st : p.steps)
      if (st.lane == lane) return st;
    FAIL("no step of lane " << lane);
    return p.steps.front();
  };
  SECTION("a dropped transfer in a MATE acceleration phase") {
    const std::set<int> lanes = lanes_of(phase_named(mate, "dim1/accel0"));
    REQUIRE(lanes.size() == 3); // the folded ring and two planes
    for (int lane : lanes) {
      INFO("lane " << lane);
      Schedule s = mate;
      auto& tr = first_of_lane(phase_named(s, "dim1/accel0"), lane).transfers;
      tr.erase(tr.begin());
      CHECK(input_error(s).find("/schedule/phases/") != std::string::npos);
    }
  }
  SECTION("a dropped transfer in a FoldedRing lane") {
    for (const Schedule* base : {&folded, &folded_dr}) {
      Schedule s = *base;
      Phase& ph = phase_named(s, s.chunks > 1 ? "chunk1/dim1" : "dim1");
      std::vector<std::size_t> lane1;
      for (std::size_t k = 0; k < ph.steps.size(); ++k)
        if (ph.steps[k].lane == 1) lane1.push_back(k);
      REQUIRE(lane1.size() == 6);
      for (std::size_t k : {lane1.front(), lane1[3], lane1.back()}) {
        Schedule t = s;
        auto& tr = phase_named(t, ph.name).steps[k].transfers;
        REQUIRE(tr.size() == 1);
        tr.clear();
        input_error(t);
      }
    }
  }
  SECTION("a folded transfer whose fold is moved to a healthy position") {
    for (int to : {0, 2, 3}) {
      Schedule s = folded;
      for (auto& st : phase_named(s, "dim1").steps)
        for (auto& tr : st.transfers)
          if (tr.fold_at >= 0) tr.fold_at = to;
      std::string msg = input_error(s);
      CHECK(msg.find("failed link") != std::string::npos);
    }
    Schedule s = matee; // MATEe's early fold, one step only
    first_of_lane(phase_named(s, "dim1"), 1).transfers.front().fold_at = 3;
    input_error(s);
  }
  SECTION("an acceleration phase that does not wait for the normal phase") {
    // Its lanes' first steps wait only for what the normal phase waited for (the end of the
    // previous dimension), so they would run beside it: either a lane no longer follows its own
    // earlier steps ("does not wait"), or the plane lanes run beside the healthy rings' lane on
    // shared links ("can run at the same time", verify.hpp check 4).
    for (const Schedule* base : {&mate, &matee}) {
      INFO(base->algorithm);
      Schedule s = *base;
      const auto wait = phase_named(s, "dim1").steps.front().after;
      Phase& m = phase_named(s, "dim1/accel0");
      const std::int64_t first = m.steps.front().id;
      for (auto& st : m.steps)
        if (st.after.front() < first) st.after = wait;
      const std::string msg = input_error(s);
      CHECK((msg.find("does not wait") != std::string::npos ||
             msg.find("can run at the same time") != std::string::npos));
    }
  }
  SECTION("a lane that starts before the previous dimension of its chunk ended") {
    Schedule s = matee;
    first_of_lane(phase_named(s, "dim1"), 1).after.clear();
    CHECK(input_error(s).find("does not wait") != std::string::npos);
    Schedule t = folded_dr; // chunk 0's second dimension is 1: its folded lane
    Step& st = first_of_lane(phase_named(t, "chunk0/dim1"), 1);
    REQUIRE(!st.after.empty());
    st.after.clear();
    CHECK(input_error(t).find("does not wait") != std::string::npos);
  }
  SECTION("a via transfer on the wrong side") {
    for (int lane : lanes_of(phase_named(mate, "dim1/accel0"))) {
      if (lane == 1) continue; // the folded ring
      Schedule s = mate;
      auto& tr = first_of_lane(phase_named(s, "dim1/accel0"), lane).transfers.front();
      tr.via_side = -tr.via_side; // now it shares its first link with the acw transfer
      CHECK(input_error(s).find("two transfers on the directed link") != std::string::npos);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Requests that cannot be met: Error(Infeasible).

TEST_CASE("infeasible requests", "[coll-alg]") {
  const std::vector<int> S = {4, 4, 4};
  const topo::Network net = make_torus(S);
  const topo::Faults none;
  const topo::Faults one = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
  const topo::Faults two = link_faults(net, {"0-4", "8-12"});
  auto infeasible = [&](const topo::Network& n, const topo::Faults& f, const std::string& alg,
                        const std::string& dims, const std::string& collective = "all-to-all") {
    INFO(alg << " + " << dims << " " << collective);
    auto [kind, msg] = error_of([&] {
      Request req;
      req.collective = collective;
      req.algorithm = alg;
      req.dim_scheduling = dims;
      req.bytes_per_node = 1 << 20;
      generate(req, n, f);
    });
    CHECK(kind == ErrorKind::Infeasible);
    return msg;
  };
  for (const std::string& dims : kSchedulers) {
    for (const char* alg : {"mate", "matee"}) {
      std::string msg = infeasible(net, none, alg, dims);
      CHECK(msg.find("/faults") != std::string::npos);
      CHECK(msg.find("none") != std::string::npos);
    }
    CHECK(infeasible(net, two, "foldedring", dims).find("ring 0 of dimension 1") !=
          std::string::npos);
    for (const char* alg : {"ring", "halfring"}) {
      std::string msg = infeasible(net, one, alg, dims);
      CHECK(msg.find("/faults/links") != std::string::npos);
      CHECK(msg.find("has failed") != std::string::npos);
      infeasible(net, two, alg, dims);
    }
    // A failed chip: every algorithm.
    topo::FaultRequest fr;
    fr.chips = {"(1,2,3)"};
    const topo::Faults chip = topo::make_faults(net, fr);
    for (const char* alg : {"ring", "halfring", "foldedring", "mate", "matee"}) {
      std::string msg = infeasible(net, chip, alg, dims);
      CHECK(msg.find("/faults/chips") != std::string::npos);
      CHECK(msg.find("(1,2,3)") != std::string::npos);
    }
    // HalfRing implements all-to-all only (docs/algorithms.md §HalfRing).
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"})
      CHECK(infeasible(net, none, "halfring", dims, c).find("{collective}") != std::string::npos);
  }
  // Networks that are no regular torus: a mesh, a twisted torus.
  const topo::Network mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  for (const char* alg : {"halfring", "foldedring", "mate", "matee"})
    CHECK(infeasible(mesh, none, alg, "dimrotation").find("needs a torus") != std::string::npos);
  // ring on a mesh is the ring between ranks (rank_algorithms.hpp), which has no all-to-all:
  // the message names the algorithms that have.
  CHECK(infeasible(mesh, none, "ring", "sequential").find("all-to-all: direct") !=
        std::string::npos);
  topo::Candidate c = test::grid_candidate("torus", {4, 4, 8}, {1, 1, 1});
  topo::Context ctx;
  ctx.n_chip = c.n_endpoint;
  topo::GenerateOptions o;
  o.twist = true;
  const topo::Network twisted = topo::generate(ctx, c, o);
  for (const char* alg : {"ring", "halfring"})
    CHECK(infeasible(twisted, none, alg, "dimrotation").find("twisted") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// 5. Simulated times (analytic engine) and determinism.

TEST_CASE("simulated times keep the paper's order; generation is deterministic", "[coll-alg]") {
  const std::vector<int> S = {4, 4, 4};
  const std::int64_t bytes = 64 << 20;
  const topo::Faults none;
  for (const bool zero_latency : {false, true}) {
    INFO((zero_latency ? "zero latency" : "default latency"));
    const topo::Network net =
        make_torus(S, zero_latency ? std::optional<double>(0.0) : std::nullopt);
    auto t = [&](const topo::Faults& f, const std::string& alg, const std::string& dims) {
      return simulate(gen(net, f, alg, dims, bytes), net, f).time_s;
    };
    const double hr_dr = t(none, "halfring", "dimrotation");
    const double ring_dr = t(none, "ring", "dimrotation");
    const double ring_pl = t(none, "ring", "pipeline"), ring_seq = t(none, "ring", "sequential");
    CHECK(hr_dr > 0);
    CHECK(hr_dr < ring_dr);
    CHECK(ring_dr < ring_pl);
    CHECK(ring_pl < ring_seq);
    const topo::Faults y = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
    const double matee_dr = t(y, "matee", "dimrotation"), mate_dr = t(y, "mate", "dimrotation");
    const double fr_dr = t(y, "foldedring", "dimrotation");
    const double fr_seq = t(y, "foldedring", "sequential");
    CHECK(matee_dr < fr_dr);
    CHECK(mate_dr < fr_dr);
    CHECK(fr_dr < fr_seq);
    CHECK(hr_dr < mate_dr); // a fault never helps
    CHECK(hr_dr < matee_dr);
    if (!zero_latency) continue;
    // Bandwidth terms only (docs/algorithms.md §Torus cost model; N = 4, D = 3, C = 6, r = 1/3):
    // Ring / HalfRing 1.5; Pipeline / DimRotation (C + D - 1) / C; sequential / DimRotation D;
    // MATE 1 + 1/(2 + r), MATEe 1 + (1 - r)/(2 + r) times HalfRing + DimRotation.
    CHECK(ring_dr / hr_dr == Approx(1.5).epsilon(1e-9));
    CHECK(ring_pl / ring_dr == Approx(8.0 / 6).epsilon(1e-9));
    CHECK(ring_seq / ring_dr == Approx(3.0).epsilon(1e-9));
    CHECK(mate_dr / hr_dr == Approx(10.0 / 7).epsilon(1e-9));
    CHECK(matee_dr / hr_dr == Approx(9.0 / 7).epsilon(1e-9));
    // HalfRing, the folded ring (1/r = 3 HalfRings; its healthy rings run HalfRing beside
    // it), HalfRing; with the Ring on the healthy rings 1.5 + 3 + 1.5.
    CHECK(fr_seq / hr_dr == Approx(5.0).epsilon(1e-9));
    CHECK(t(y, "foldedring-ring", "sequential") / hr_dr == Approx(6.0).epsilon(1e-9));
    // FoldedRing + DimRotation: slots in lockstep on a faulty torus, each as long as its folded
    // chunk, T_FR(S/3) = 2 T_Ring(S/3) = 3 T_HR(S/3): D slots, 3 T_HR(S) = T_HR / r (section 5).
    CHECK(fr_dr / hr_dr == Approx(3.0).epsilon(1e-9));
  }

  // Determinism: the same request twice gives the same schedule.
  const topo::Network net = make_torus(S);
  const topo::Faults y = link_faults(net, {link_text(S, {1, 1, 1}, 1)});
  for (auto [alg, f] : std::vector<std::pair<std::string, topo::Faults>>{
           {"halfring", none}, {"foldedring", y}, {"mate", y}, {"matee", y}})
    for (const std::string& dims : kSchedulers) {
      INFO(alg << " + " << dims);
      CHECK(gen(net, f, alg, dims, bytes) == gen(net, f, alg, dims, bytes));
      CHECK(to_json(gen(net, f, alg, dims, bytes)).dump() ==
            to_json(gen(net, f, alg, dims, bytes)).dump());
    }
}
