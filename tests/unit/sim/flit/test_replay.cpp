// lib/sim/flit replay: a Program (collective schedules, all-to-all baselines) packet by packet.
// Every byte of every flow arrives, over exactly the channels the program lists; a lone stream
// runs at one flit per cycle after the model's zero-load latency; dependencies hold; the memory
// bound is enforced; the result does not depend on threads.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/hops.hpp"
#include "route/registry.hpp"
#include "sim/analytic.hpp"
#include "sim/flit/replay.hpp"
#include "sim/traffic.hpp"
#include "support.hpp"
#include "topo/faults.hpp"

#include <cmath>
#include <map>

using namespace icnkit;
using namespace icnkit::sim::flit;

namespace {

// A program of one step holding the given flows.
class OneStep final : public sim::Program {
public:
  explicit OneStep(sim::StepFlows f) : f_(std::move(f)) {}
  const std::vector<std::string>& phases() const override { return phases_; }
  const std::vector<sim::StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t, sim::StepFlows& out) const override { out = f_; }

private:
  sim::StepFlows f_;
  std::vector<std::string> phases_{"p"};
  std::vector<sim::StepInfo> steps_{sim::StepInfo{}};
};

std::int64_t channel(const topo::Network& n, std::int64_t a, std::int64_t b) {
  for (std::int64_t c = 0; c < n.channel_count(); ++c)
    if (n.channel_src(c) == a && n.channel_dst(c) == b) return c;
  FAIL("no channel " << a << " -> " << b);
  return -1;
}

RouterParams replay_router(int link_latency, int vcs = 2) {
  RouterParams p = booksim_preset();
  p.endpoint_ports = 0;
  p.vcs = vcs;
  p.buffer_flits = 2 * link_latency + 8;
  return p;
}

topo::Faults link_faults(const topo::Network& net, const std::vector<std::string>& links) {
  topo::FaultRequest fr;
  fr.links = links;
  return topo::make_faults(net, fr);
}

// What the program promises: bytes per (source, destination) of its flows, flits per channel
// (each flow's packets over each of its channels) and flit-hops, from its flows alone.
struct Promise {
  std::map<std::pair<std::int64_t, std::int64_t>, double> bytes;
  std::map<std::int64_t, std::int64_t> channel_flits;
  std::int64_t flit_hops = 0, packets = 0;
};
Promise promise(const sim::Program& p, const ReplayParams& P) {
  Promise r;
  sim::StepFlows sf;
  for (std::size_t s = 0; s < p.steps().size(); ++s) {
    p.flows(s, sf);
    for (const sim::Flow& f : sf.flows) {
      if (!(f.bytes > 0)) continue;
      r.bytes[{f.src, f.dst}] += f.bytes;
      // Packets of packet_bytes, the last with the rest; flits rounded up per packet.
      double left = f.bytes;
      std::int64_t flits = 0;
      while (left > 1e-9) {
        const double b = std::min(left, static_cast<double>(P.packet_bytes));
        flits += static_cast<std::int64_t>(std::ceil(b / static_cast<double>(P.flit_bytes)));
        left -= b;
        ++r.packets;
      }
      for (std::uint32_t k = 0; k < f.count; ++k)
        r.channel_flits[sf.channels[f.first + k]] += flits;
      r.flit_hops += flits * f.count;
    }
  }
  return r;
}

void check_replay(const topo::Network& net, const topo::Faults& f, const coll::Schedule& s,
                  const ReplayParams& P) {
  coll::ScheduleProgram prog(s, net);
  SourceRoutes routes(net, 1 + coll::max_turns(s));
  Fabric fab(net, f, routes, replay_router(3, std::max(2, routes.vc_count())),
             std::vector<int>(net.links.size(), 3));
  ReplayParams Q = P;
  Q.pair_bytes = true;
  const ReplayResult r = replay(fab, prog, &routes, Q);
  REQUIRE(r.status == "ok");
  const Promise want = promise(prog, P);
  // Every (source, destination) receives exactly its bytes.
  REQUIRE(r.pair_bytes.size() == want.bytes.size());
  for (auto& [pair, b] : want.bytes) {
    INFO(pair.first << " -> " << pair.second);
    CHECK(std::abs(r.pair_bytes.at(pair) - b) <= 1e-6 * b);
  }
  // Over exactly the listed channels: flits per channel, and no flit anywhere else.
  for (std::size_t c = 0; c < r.channel_flits.size(); ++c) {
    auto it = want.channel_flits.find(static_cast<std::int64_t>(c));
    INFO("channel " << c);
    CHECK(r.channel_flits[c] == (it == want.channel_flits.end() ? 0 : it->second));
  }
  CHECK(r.flit_hops == want.flit_hops);
  CHECK(r.packets == want.packets);
  CHECK(routes.held() == 0);
  // A step starts only when every step it depends on has delivered everything.
  for (std::size_t k = 0; k < prog.steps().size(); ++k) {
    CHECK(r.step_end[k] >= r.step_start[k]);
    for (std::int64_t a : prog.steps()[k].after)
      CHECK(r.step_start[k] >= r.step_end[static_cast<std::size_t>(a)]);
  }
  CHECK(r.cycles == *std::max_element(r.step_end.begin(), r.step_end.end()));
}

// HalfRing + DimRotation all-to-all of 1 MiB per chip on `net` (its fastest links at `bw`, every
// link 100 ns): its analytic time and its flit replay's, one cycle a 32-byte flit on the fastest
// link (0.532 ns at 56 GiB/s; a 100 ns link is 188 cycles). `period`: the fabric's slowest link's
// cycles per flit.
struct FlitVsAnalytic {
  double analytic = 0, flit = 0, period = 0;
};
coll::Schedule halfring_dimrotation(const topo::Network& net, std::int64_t bytes) {
  coll::Request req;
  req.algorithm = "halfring";
  req.dim_scheduling = "dimrotation";
  req.bytes_per_node = bytes;
  return coll::generate(req, net, {});
}
FlitVsAnalytic halfring_flit_vs_analytic(const topo::Network& net, double bw) {
  const coll::Schedule s = halfring_dimrotation(net, 1 << 20);
  coll::ScheduleProgram prog(s, net);
  FlitVsAnalytic out;
  out.analytic = sim::simulate_analytic(prog, net).time_s;
  SourceRoutes routes(net, 1);
  const double cycle_s = 32 / bw;
  const int L = static_cast<int>(std::lround(1e-7 / cycle_s));
  Fabric fab(net, {}, routes, replay_router(L), std::vector<int>(net.links.size(), L));
  out.period = fab.max_link_period();
  const ReplayResult r = replay(fab, prog, &routes, ReplayParams{});
  out.flit = static_cast<double>(r.cycles) * cycle_s;
  return out;
}

} // namespace

TEST_CASE("replay: a lone stream runs at one flit per cycle after the zero-load latency",
          "[replay]") {
  const topo::Network net = test::grid_network("torus", {4, 4}, {1, 1});
  SourceRoutes routes(net, 1);
  for (int L : {1, 3, 20})
    for (int K : {1, 2, 10}) {
      const RouterParams rp = replay_router(L);
      Fabric fab(net, {}, routes, rp, std::vector<int>(net.links.size(), L));
      sim::StepFlows sf;
      ReplayParams P; // 512-byte packets of 32-byte flits: 16 flits
      sf.add1(0, 1, 512.0 * K, channel(net, 0, 1));
      OneStep prog(sf);
      const ReplayResult r = replay(fab, prog, &routes, P);
      INFO("link latency " << L << ", " << K << " packets");
      REQUIRE(r.status == "ok");
      // The first tail after the model's zero-load latency, the rest one flit per cycle behind.
      CHECK(r.cycles ==
            static_cast<std::int64_t>(zero_load_cycles(rp, true, 1, L, 16)) + (K - 1) * 16);
      CHECK(r.packets == K);
      CHECK(r.flits == 16 * K);
      CHECK(r.bytes == 512.0 * K);
    }
}

TEST_CASE("replay: the last packet carries the rest, its flits rounded up", "[replay]") {
  const topo::Network net = test::grid_network("torus", {4, 4}, {1, 1});
  SourceRoutes routes(net, 2); // the two-hop flow turns once
  Fabric fab(net, {}, routes, replay_router(2), std::vector<int>(net.links.size(), 2));
  sim::StepFlows sf;
  sf.add1(0, 1, 1000.5, channel(net, 0, 1));                   // 512 + 488.5: 16 + 16 flits
  sf.add(0, 5, 100, {channel(net, 0, 1), channel(net, 1, 5)}); // 4 flits, two hops
  OneStep prog(sf);
  ReplayParams P;
  P.pair_bytes = true;
  const ReplayResult r = replay(fab, prog, &routes, P);
  CHECK(r.packets == 3);
  CHECK(r.flits == 16 + 16 + 4);
  CHECK(r.flit_hops == 16 + 16 + 4 * 2);
  CHECK(r.pair_bytes.at({0, 1}) == 1000.5);
  CHECK(r.pair_bytes.at({0, 5}) == 100);
  CHECK(r.channel_flits[static_cast<std::size_t>(channel(net, 0, 1))] == 36);
  CHECK(r.channel_flits[static_cast<std::size_t>(channel(net, 1, 5))] == 4);
}

TEST_CASE("replay: every algorithm x scheduler delivers every byte over its own hops (4x4x4, "
          "8x4, with and without a fault)",
          "[replay]") {
  ReplayParams P;
  P.packet_bytes = 256;
  for (const std::vector<int>& S : std::vector<std::vector<int>>{{4, 4, 4}, {8, 4}}) {
    const topo::Network net = test::torus_of(S.size() == 3 ? "4x4x4" : "8x4", 50e9, 1e-7);
    const topo::Faults none;
    const topo::Faults one = link_faults(net, {S.size() == 3 ? "(1,1,1)-(2,1,1)" : "(1,1)-(2,1)"});
    REQUIRE(one.links.size() == 1);
    for (const std::string dims : {"sequential", "pipeline", "dimrotation"}) {
      for (const std::string alg : {"ring", "halfring"}) {
        INFO(net.family << " " << alg << " + " << dims);
        coll::Request req;
        req.algorithm = alg;
        req.dim_scheduling = dims;
        req.bytes_per_node = 40000; // pieces of fractional bytes
        check_replay(net, none, coll::generate(req, net, none), P);
      }
      for (const std::string alg : {"foldedring", "foldedring-ring", "mate", "matee"}) {
        INFO(S.size() << "-D " << alg << " + " << dims << ", one failed link");
        coll::Request req;
        req.algorithm = alg;
        req.dim_scheduling = dims;
        req.bytes_per_node = 40000;
        check_replay(net, one, coll::generate(req, net, one), P);
      }
    }
  }
}

TEST_CASE("replay: all-to-all over DOR and WFR delivers bytes / n to every ordered pair",
          "[replay]") {
  const topo::Network net = test::torus_of("4x4x4", 50e9, 1e-7);
  const topo::Faults one = link_faults(net, {"(1,1,1)-(2,1,1)"});
  for (const std::string alg : {"dor", "wfr"}) {
    const topo::Faults& f = alg == std::string("dor") ? topo::Faults{} : one;
    route::ParamErrors errors{ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }};
    auto fn = route::build_routing(*route::find_algorithm(alg), json::object(), net, f, errors).fn;
    for (auto pattern : {sim::AllToAllPattern::Simultaneous, sim::AllToAllPattern::Pairwise}) {
      const double bytes = 64 * 1000.0;
      sim::AllToAllTraffic prog(net, f, *fn, bytes, {pattern});
      Fabric fab(net, f, *fn, replay_router(3, std::max(2, fn->vc_count())),
                 std::vector<int>(net.links.size(), 3));
      ReplayParams P;
      P.pair_bytes = true;
      const ReplayResult r = replay(fab, prog, nullptr, P);
      INFO(alg);
      REQUIRE(r.status == "ok");
      CHECK(r.pair_bytes.size() == 64 * 63);
      for (auto& [pair, b] : r.pair_bytes) {
        CHECK(pair.first != pair.second);
        CHECK(std::abs(b - bytes / 64) < 1e-9);
      }
      // WFR: no flit on the failed link.
      if (alg == std::string("wfr")) {
        const std::vector<char> down = one.down_links(net);
        for (std::size_t c = 0; c < r.channel_flits.size(); ++c)
          if (down[static_cast<std::size_t>(topo::link_of_channel(static_cast<std::int64_t>(c)))])
            CHECK(r.channel_flits[c] == 0);
      }
    }
  }
}

TEST_CASE("replay: threads and repeated runs give the same cycles", "[replay]") {
  const topo::Network net = test::torus_of("4x4x4", 50e9, 1e-7);
  const coll::Schedule s = halfring_dimrotation(net, 1 << 16);
  coll::ScheduleProgram prog(s, net);
  std::vector<std::int64_t> cycles;
  for (int threads : {1, 1, 2}) {
    SourceRoutes routes(net, 1);
    Fabric fab(net, {}, routes, replay_router(4), std::vector<int>(net.links.size(), 4));
    const ReplayResult r = replay(fab, prog, &routes, ReplayParams{}, threads);
    cycles.push_back(r.cycles);
    CHECK(r.step_end == replay(fab, prog, &routes, ReplayParams{}, 1).step_end);
  }
  CHECK(cycles[0] == cycles[1]);
  CHECK(cycles[0] == cycles[2]);
}

TEST_CASE("replay: the flit time approaches the analytic time as transfers grow (4x4x4)",
          "[replay]") {
  // Large transfers are bandwidth-bound in both models.
  const double bw = 56.0 * (1 << 30);
  const FlitVsAnalytic t = halfring_flit_vs_analytic(test::torus_of("4x4x4", bw, 1e-7), bw);
  INFO("analytic " << t.analytic * 1e6 << " us, flit " << t.flit * 1e6 << " us");
  CHECK(t.period == 1);
  CHECK(std::abs(t.flit / t.analytic - 1) < 0.05);
}

TEST_CASE("replay: the memory bound refuses, naming the figure", "[replay]") {
  const topo::Network net = test::torus_of("4x4x4", 50e9, 1e-7);
  coll::Request req;
  req.bytes_per_node = 1 << 16;
  const coll::Schedule s = coll::generate(req, net, {});
  coll::ScheduleProgram prog(s, net);
  SourceRoutes routes(net, 1);
  Fabric fab(net, {}, routes, replay_router(3), std::vector<int>(net.links.size(), 3));
  ReplayParams P;
  P.max_bytes = fab.engine_bytes() / 2;
  try {
    replay(fab, prog, &routes, P);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Infeasible);
    CHECK(std::string(e.what()).find("MiB") != std::string::npos);
  }
  P.max_bytes = fab.engine_bytes() + 10 * kReplayBytesPerFlow; // buffers fit, flows do not
  CHECK(test::kind_of([&] { replay(fab, prog, &routes, P); }) == ErrorKind::Infeasible);
  P.packet_bytes = 100; // not a multiple of 32-byte flits
  CHECK(test::kind_of([&] { replay(fab, prog, &routes, P); }) == ErrorKind::Usage);
}

TEST_CASE("replay: a link k times slower than the fastest carries a flit every k cycles",
          "[replay]") {
  // A lone stream of F flits over one link whose bandwidth is 1/k of the others': while the
  // link is busy its flits leave at the cycles that reach k, 2k, 3k ... after the head (ceil(j k)
  // for flit j), so F = 48 flits end ceil(47 k) - ceil(15 k) cycles after F = 16 do (the head's
  // way there is the same), where one-speed links take 32.
  for (double k : {1.0, 2.0, 2.5, 18.0})
    for (int L : {1, 3}) {
      std::int64_t cycles[2] = {0, 0}, one_speed[2] = {0, 0};
      for (int K : {1, 3})
        for (const bool paced : {false, true}) {
          const double kk = paced ? k : 1.0;
          topo::Network net = test::grid_network("torus", {4, 4}, {1, 1});
          const std::int64_t ch = channel(net, 0, 1);
          const double fast = net.links.front().bandwidth_bytes_per_s;
          net.links[static_cast<std::size_t>(topo::link_of_channel(ch))].bandwidth_bytes_per_s =
              fast / kk;
          SourceRoutes routes(net, 1);
          Fabric fab(net, {}, routes, replay_router(L), std::vector<int>(net.links.size(), L));
          CHECK(fab.max_link_period() == kk);
          sim::StepFlows sf;
          sf.add1(0, 1, 512.0 * K, ch); // K packets of 16 flits
          OneStep prog(sf);
          const ReplayResult r = replay(fab, prog, &routes, ReplayParams{});
          INFO("k " << kk << ", link latency " << L << ", " << K << " packets");
          REQUIRE(r.status == "ok");
          CHECK(r.flits == 16 * K);
          (paced ? cycles : one_speed)[K == 3] = r.cycles;
        }
      INFO("k " << k << ", link latency " << L);
      CHECK(cycles[1] - cycles[0] ==
            static_cast<std::int64_t>(std::ceil(47 * k) - std::ceil(15 * k)));
      // Against the one-speed stream: the tail leaves (F - 1)(k - 1) cycles later, rounded up,
      // less at most the one cycle a fast link's stream loses behind its head.
      for (int K : {0, 1}) {
        const double F = K ? 48 : 16;
        const auto extra = static_cast<std::int64_t>(std::ceil((F - 1) * k) - (F - 1));
        CHECK(cycles[K] - one_speed[K] <= extra);
        CHECK(cycles[K] - one_speed[K] >= extra - 1);
      }
    }
}

TEST_CASE("replay: on links of two speeds the flit time approaches the analytic time", "[replay]") {
  // The 4x4x4 torus in boards of 2x2x2 with the links inside a board twice as fast as those
  // between boards: HalfRing + DimRotation, 1 MiB, as the one-speed test above.
  const double bw = 56.0 * (1 << 30);
  topo::Network net = test::torus_of("4x4x4/b2x2x2", bw, 1e-7);
  int slow = 0;
  for (topo::Link& l : net.links)
    if (net.nodes[static_cast<std::size_t>(l.a)].board !=
        net.nodes[static_cast<std::size_t>(l.b)].board) {
      l.bandwidth_bytes_per_s = bw / 2;
      ++slow;
    }
  REQUIRE(slow > 0);
  REQUIRE(slow < static_cast<int>(net.links.size()));
  const FlitVsAnalytic t = halfring_flit_vs_analytic(net, bw);
  INFO("analytic " << t.analytic * 1e6 << " us, flit " << t.flit * 1e6 << " us");
  CHECK(t.period == 2);
  CHECK(std::abs(t.flit / t.analytic - 1) < 0.05);
  // And the slow links matter: the same network at one speed is faster in both models.
  const FlitVsAnalytic one =
      halfring_flit_vs_analytic(test::torus_of("4x4x4/b2x2x2", bw, 1e-7), bw);
  CHECK(one.analytic < 0.9 * t.analytic);
  CHECK(one.flit < 0.9 * t.flit);
}
