// Exact figures that mutation testing found unpinned: the credit loop of one link (a credit
// returned a cycle late changed no other test's result), coll::with_bytes on schedules of many
// phases (a phase left at the old size was noticed only by a CLI script), and replay steps that
// wait for several earlier steps (a step started by the first of them went unnoticed). Every
// expected value is worked out from the model's documented delays (sim/flit/params.hpp) or from
// a schedule generated directly, never copied from a run.
#include "coll/generate.hpp"
#include "coll/verify.hpp"
#include "sim/flit/engine.hpp"
#include "sim/flit/replay.hpp"
#include "support.hpp"
#include "topo/faults.hpp"

#include <algorithm>
#include <sstream>

using namespace icnkit;
using namespace icnkit::sim::flit;

namespace {

std::int64_t channel(const topo::Network& n, std::int64_t a, std::int64_t b) {
  for (std::int64_t c = 0; c < n.channel_count(); ++c)
    if (n.channel_src(c) == a && n.channel_dst(c) == b) return c;
  FAIL("no channel " << a << " -> " << b);
  return -1;
}

// Cycles the model charges one router for a head flit: routing, VC allocation, switch allocation
// and traversal (params.hpp: an unloaded hop costs these plus the link's latency).
int per_router(const RouterParams& p) {
  return p.routing_delay + p.va_delay + p.sa_delay + p.st_delay;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The credit loop of one link.
//
// One packet of N flits from chip 0 to chip 1 of a 2x2 mesh (DOR: the one link 0 -> 1; both
// chips route, so the stream crosses source -> router 0 -> link -> router 1 -> sink), one VC of
// B flits per port. Times from params.hpp, with L the link's latency and I the injection
// latency:
//   - router 0 switches a flit in cycle s, spending a credit of the link's VC; the flit reaches
//     router 1's buffer in s + sa + st + L;
//   - router 1 switches it the same cycle (a body flit of a packet that holds its output VC, and
//     the ejection port to the sink takes no credits), and its slot is free again upstream, i.e.
//     the credit usable by router 0's switch allocation, in (s + sa + st + L) + st + L + cd - 1.
//   So a credit is back RTT = sa + 2 st + 2 L + cd - 1 cycles after it was spent (BookSim preset:
//   2 L + 4). The source's loop (1 + I there, st + I + cd - 1 back: 2 I + st + cd, 5 cycles in
//   the preset) is no longer, so router 0 never lacks a flit when a credit comes back: the
//   link's loop binds.
//
// Head latency H = (1 + I) + (per_router + L) + (per_router + I), the first B flits one per cycle
// behind it (B credits). Let r_k be the cycle router 1 switches flit k (it reaches the sink
// sa + st + I later). Flit k + B leaves router 0 when flit k's credit is back or one cycle after
// flit k + B - 1 left, whichever is later, and router 1 forwards it on arrival or one cycle after
// flit k + B - 1; so r_{k+B} = max(r_k + RTT, r_{k+B-1} + 1), with r_k = r_0 + k for k < B,
// whose solution is r_k = r_0 + floor(k / B) M + k mod B with M = max(B, RTT): bursts of B flits
// every M cycles, min(1, B / RTT) flits per cycle, and flit k reaches the sink in cycle
//   H + floor(k / B) M + (k mod B).
// (The head's routing and VC allocation at router 1 put router 1 one cycle behind router 0 during
// the first burst; that cycle is absorbed by the first gap, or kept throughout when B > RTT, so
// from flit B on router 0's departures have the same shape: any M consecutive cycles carry
// exactly B flits over the link.)
TEST_CASE("flit pinned: one stream over one link runs at min(1, B / RTT) flits per cycle, the "
          "last flit on the cycle of the closed form",
          "[flit][flit-pinned][credit-loop]") {
  const topo::Network net = test::routing::mesh({2, 2});
  auto fn = test::routing::build("dor", net);
  REQUIRE(fn->vc_count() == 1);
  const std::int64_t link = channel(net, 0, 1);
  const int N = 613; // flits of the one packet: N - 1 leaves a remainder for most B
  for (int L : {1, 3, 8}) {
    RouterParams p = booksim_preset();
    p.vcs = 1;
    const int rtt = p.sa_delay + 2 * p.st_delay + 2 * L + p.credit_delay - 1;
    REQUIRE(rtt == 2 * L + 4); // the preset's figure, as the comment above says
    REQUIRE(2 * p.injection_latency + p.st_delay + p.credit_delay <= rtt); // the link binds
    const int H =
        (1 + p.injection_latency) + (per_router(p) + L) + (per_router(p) + p.injection_latency);
    for (int B : {2, rtt - 1, rtt, rtt + 1}) {
      INFO("link latency " << L << ", RTT " << rtt << ", buffer " << B);
      p.buffer_flits = B;
      Fabric f(net, {}, *fn, p, std::vector<int>(net.links.size(), L));
      Engine e(f);
      REQUIRE(e.offer(0, 1, N, 7));
      // sent[t]: flits that left router 0 over the link in cycles before t.
      std::vector<std::int64_t> sent{0};
      while (e.delivered().empty() && e.now() < 100000) {
        e.step();
        sent.push_back(e.channel_flits()[static_cast<std::size_t>(link)]);
      }
      REQUIRE(e.delivered().size() == 1);
      const Delivered& d = e.delivered().front();
      CHECK(d.created == 0);
      CHECK(d.flits == N);
      CHECK(d.hops == 1);
      const int M = std::max(B, rtt);
      // The last flit (the tail) on its exact cycle.
      CHECK(d.arrived == H + static_cast<std::int64_t>((N - 1) / B) * M + (N - 1) % B);
      // Steady state: every window of M cycles carries exactly B flits over the link.
      const std::int64_t t0 = H + M, t1 = t0 + 10 * M;
      REQUIRE(static_cast<std::int64_t>(sent.size()) > t1 + M);
      REQUIRE(sent[static_cast<std::size_t>(t1 + M)] < N); // the stream still runs
      for (std::int64_t t = t0; t <= t1; ++t) {
        INFO("window [" << t << ", " << t + M << ")");
        CHECK(sent[static_cast<std::size_t>(t + M)] - sent[static_cast<std::size_t>(t)] == B);
      }
      CHECK(sent.back() == N);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// coll::with_bytes on schedules of several phases: the schedule generated at one size and scaled
// to another must be the schedule generated at that size, field by field (blocks to the
// verifier's relative 1e-12, every other field exactly), phase by phase, step by step and
// transfer by transfer, and it must pass verify() at its new size.

namespace {

topo::Faults link_faults(const topo::Network& net, const std::vector<std::string>& links) {
  topo::FaultRequest fr;
  fr.links = links;
  return topo::make_faults(net, fr);
}

void same_schedule(const coll::Schedule& scaled, const coll::Schedule& direct) {
  CHECK(scaled.collective == direct.collective);
  CHECK(scaled.algorithm == direct.algorithm);
  CHECK(scaled.dim_scheduling == direct.dim_scheduling);
  CHECK(scaled.fault_handling == direct.fault_handling);
  CHECK(scaled.bytes_per_node == direct.bytes_per_node);
  CHECK(scaled.chunks == direct.chunks);
  CHECK(scaled.lanes == direct.lanes);
  CHECK(scaled.verification == direct.verification);
  CHECK(scaled.network_fingerprint == direct.network_fingerprint);
  CHECK(scaled.verified_digest.empty()); // other content than what was digested
  CHECK_FALSE(direct.verified_digest.empty());
  REQUIRE(scaled.phases.size() == direct.phases.size());
  for (std::size_t k = 0; k < direct.phases.size(); ++k) {
    const coll::Phase &a = scaled.phases[k], &b = direct.phases[k];
    INFO("phase " << k << " " << b.name);
    CHECK(a.name == b.name);
    CHECK(a.op == b.op);
    CHECK(a.chunk == b.chunk);
    CHECK(a.dimension == b.dimension);
    CHECK(a.ring_size == b.ring_size);
    CHECK(a.block_bytes == Approx(b.block_bytes).epsilon(1e-12));
    REQUIRE(a.steps.size() == b.steps.size());
    for (std::size_t j = 0; j < b.steps.size(); ++j) {
      const coll::Step &sa = a.steps[j], &sb = b.steps[j];
      INFO("step " << sb.id);
      CHECK(sa.id == sb.id);
      CHECK(sa.after == sb.after);
      CHECK(sa.shared_links == sb.shared_links);
      CHECK(sa.lane == sb.lane);
      REQUIRE(sa.transfers.size() == sb.transfers.size());
      for (std::size_t t = 0; t < sb.transfers.size(); ++t) {
        INFO("transfer " << t);
        CHECK(sa.transfers[t] == sb.transfers[t]);
        CHECK(coll::transfer_bytes(a, sa.transfers[t]) ==
              Approx(coll::transfer_bytes(b, sb.transfers[t])).epsilon(1e-12));
      }
    }
  }
}

} // namespace

TEST_CASE("flit pinned: with_bytes scales every phase, step and transfer of multi-phase "
          "schedules to the schedule generated at the new size",
          "[coll][flit-pinned][with-bytes]") {
  const topo::Network net = test::torus_of("4x4x4");
  const topo::Faults none;
  const topo::Faults one = link_faults(net, {"(1,1,1)-(1,2,1)"});
  struct Case {
    std::string collective, algorithm, dims;
    bool faulty;
  };
  for (const Case& c : {Case{"all-to-all", "mate", "dimrotation", true},
                        Case{"all-to-all", "matee", "pipeline", true},
                        Case{"all-to-all", "mate", "sequential", true},
                        Case{"all-to-all", "halfring", "pipeline", false},
                        Case{"all-reduce", "ring", "dimrotation", false}}) {
    const topo::Faults& f = c.faulty ? one : none;
    auto make = [&](std::int64_t bytes) {
      coll::Request req;
      req.collective = c.collective;
      req.algorithm = c.algorithm;
      req.dim_scheduling = c.dims;
      req.bytes_per_node = bytes;
      return coll::generate(req, net, f);
    };
    // From a power of two and from a prime, to sizes that divide by nothing (primes, one byte),
    // to one that divides by every chunk and ring, and to larger and smaller ones.
    for (const std::int64_t from : {std::int64_t{1} << 20, std::int64_t{999983}}) {
      const coll::Schedule s = make(from);
      REQUIRE(s.phases.size() >= 3);
      for (const std::int64_t to :
           {std::int64_t{1}, std::int64_t{7}, std::int64_t{1000}, std::int64_t{65521},
            std::int64_t{3} << 22, std::int64_t{12345678901}, from}) {
        INFO(c.collective << " " << c.algorithm << " + " << c.dims << ": " << from << " -> " << to
                          << " bytes");
        const coll::Schedule scaled = coll::with_bytes(s, to);
        same_schedule(scaled, make(to));
        CHECK(coll::verify(scaled, net, f, ErrorKind::Input) == *s.verification);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Replay steps that wait for several earlier steps.
//
// Flows of one hop on disjoint links and chips of a 4x8 torus (one per row y: chip 4 y -> 4 y + 1),
// each alone in the network. A flow of F flits started in cycle t (its packets created
// then) delivers its last flit in cycle t + T(F), T(F) = (1 + 2 I) + 2 per_router + L + (F - 1):
// the zero-load latency of its head over one link between two routing chips, then one flit per
// cycle (the buffers, 2 L + 8 flits, exceed the credit round trip 2 L + 4 of the test above, and
// consecutive packets take the other VC). A step ends when its last tail arrives, in cycle e; the
// replay sees it once that cycle is simulated, so a step waiting for it starts (creates its
// packets) in cycle e + 1. A step that waits for several starts at max of their ends + 1, not
// after the first of them, nor after the first listed.

namespace {

// Independent steps of the given flits, then one step of `last_flits` after the listed ones.
class AfterSeveral final : public sim::Program {
public:
  AfterSeveral(const topo::Network& net, std::vector<int> flits, std::vector<std::int64_t> after,
               int last_flits)
      : flits_(std::move(flits)) {
    flits_.push_back(last_flits);
    steps_.resize(flits_.size());
    steps_.back().after = std::move(after);
    for (std::size_t k = 0; k < flits_.size(); ++k)
      ch_.push_back(
          channel(net, 4 * static_cast<std::int64_t>(k), 4 * static_cast<std::int64_t>(k) + 1));
  }
  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<sim::StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t s, sim::StepFlows& out) const override {
    out.clear();
    const auto k = static_cast<std::int64_t>(s);
    out.add1(4 * k, 4 * k + 1, 32.0 * flits_[s], ch_[s]); // 32-byte flits
  }

private:
  std::vector<int> flits_;
  std::vector<std::int64_t> ch_;
  std::vector<std::string> phases_{"p"};
  std::vector<sim::StepInfo> steps_;
};

} // namespace

TEST_CASE("flit pinned: a replay step after several steps starts when the last of them ends",
          "[replay][flit-pinned][after]") {
  const topo::Network net = test::routing::torus({4, 8});
  struct Case {
    std::vector<int> flits;          // of the independent steps 0 ..
    std::vector<std::int64_t> after; // of the last step, in this order
  };
  // The longest listed last, first, in the middle; three of four steps, the longest not among
  // them; flows of one packet and of several (16 flits each).
  const std::vector<Case> cases = {
      {{4, 40}, {0, 1}},        {{40, 4}, {0, 1}},        {{4, 40}, {1, 0}},
      {{9, 50, 20}, {0, 1, 2}}, {{50, 9, 20}, {2, 1, 0}}, {{12, 3, 33, 70}, {2, 0, 1}},
  };
  for (int L : {1, 5}) {
    RouterParams rp = booksim_preset();
    rp.endpoint_ports = 0;
    rp.vcs = 2;
    rp.buffer_flits = 2 * L + 8;
    const auto T = [&](int F) {
      return static_cast<std::int64_t>((1 + 2 * rp.injection_latency) + 2 * per_router(rp) + L +
                                       (F - 1));
    };
    SourceRoutes routes(net, 1);
    Fabric fab(net, {}, routes, rp, std::vector<int>(net.links.size(), L));
    for (const Case& c : cases) {
      const int last_flits = 10;
      AfterSeveral prog(net, c.flits, c.after, last_flits);
      const ReplayResult r = replay(fab, prog, &routes, ReplayParams{});
      std::ostringstream what;
      for (std::int64_t a : c.after) what << ' ' << a;
      INFO("link latency " << L << ", last step after" << what.str());
      REQUIRE(r.status == "ok");
      const std::size_t last = c.flits.size();
      std::int64_t ready = 0; // the last end among the listed steps
      for (std::size_t k = 0; k < last; ++k) {
        CHECK(r.step_start[k] == 0);
        CHECK(r.step_end[k] == T(c.flits[k]));
      }
      for (std::int64_t a : c.after)
        ready = std::max(ready, T(c.flits[static_cast<std::size_t>(a)]));
      CHECK(r.step_start[last] == ready + 1);
      CHECK(r.step_end[last] == ready + 1 + T(last_flits));
      std::int64_t cycles = ready + 1 + T(last_flits);
      for (int F : c.flits) cycles = std::max(cycles, T(F));
      CHECK(r.cycles == cycles);
    }
  }
}
