// lib/sim: the analytic flow-level engine on hand-built programs and networks (closed forms to
// 1e-9 relative), and the report section.
#include "core/error.hpp"
#include "sim/analytic.hpp"
#include "sim/report.hpp"

#include "doc/sim_json.hpp"
#include "support.hpp"
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

using namespace icnkit;
using icnkit::test::kind_of;
using namespace icnkit::sim;

namespace {

bool close(double got, double want, double rel = 1e-9) {
  return std::abs(got - want) <= rel * std::abs(want);
}

// A network of `nodes` nodes and the given links (a, b, bandwidth, latency).
struct L {
  std::int64_t a, b;
  double bw, lat;
};
topo::Network make_net(std::int64_t nodes, const std::vector<L>& links) {
  topo::Network n;
  n.family = "test";
  n.n_chip = nodes;
  for (std::int64_t i = 0; i < nodes; ++i) {
    topo::Node v;
    v.id = i;
    n.nodes.push_back(v);
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(i);
    l.a = links[i].a;
    l.b = links[i].b;
    l.bandwidth_bytes_per_s = links[i].bw;
    l.latency_s = links[i].lat;
    n.links.push_back(l);
  }
  return n;
}

// A ring of n nodes: link i joins i and i+1 (mod n), so channel 2i is clockwise (i -> i+1) and
// channel 2i+1 anticlockwise (i+1 -> i).
topo::Network make_ring(std::int64_t n, double bw, double lat) {
  std::vector<L> links;
  for (std::int64_t i = 0; i < n; ++i) links.push_back({i, (i + 1) % n, bw, lat});
  return make_net(n, links);
}

struct F {
  std::int64_t src, dst;
  double bytes;
  std::vector<std::int64_t> channels;
  std::vector<double> shares = {}; // empty: 1 on every channel
};

// A Program from explicit lists.
class VecProgram : public Program {
public:
  std::vector<std::string> names{"p0"};
  std::vector<StepInfo> infos;
  std::vector<std::vector<F>> step_flows;

  std::size_t add_step(std::vector<F> fl, std::vector<std::int64_t> after = {}, int phase = 0) {
    infos.push_back({std::move(after), phase});
    step_flows.push_back(std::move(fl));
    return infos.size() - 1;
  }
  const std::vector<std::string>& phases() const override { return names; }
  const std::vector<StepInfo>& steps() const override { return infos; }
  void flows(std::size_t step, StepFlows& out) const override {
    out.clear();
    for (const F& f : step_flows[step])
      if (f.shares.empty())
        out.add(f.src, f.dst, f.bytes, f.channels);
      else
        out.add_split(f.src, f.dst, f.bytes, f.channels, f.shares);
  }
};

// The classic Ring all-to-all on one bidirectional ring of n nodes
// (docs/algorithms.md §Ring all-to-all): stage h (1..n-1) has h sub-stages; in each, every node
// forwards one half-block of S/(2n) bytes one hop clockwise and one anticlockwise. Sub-stages run
// one after another (store-and-forward).
class RingProgram : public Program {
public:
  RingProgram(std::int64_t n, double S) : n_(n), piece_(S / (2.0 * static_cast<double>(n))) {
    std::int64_t subs = n * (n - 1) / 2;
    for (std::int64_t k = 0; k < subs; ++k)
      infos_.push_back(
          {k == 0 ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{k - 1}, 0});
  }
  const std::vector<std::string>& phases() const override { return names_; }
  const std::vector<StepInfo>& steps() const override { return infos_; }
  void flows(std::size_t, StepFlows& out) const override {
    out.clear();
    for (std::int64_t i = 0; i < n_; ++i) {
      out.add1(i, (i + 1) % n_, piece_, 2 * i);                            // cw over link i
      out.add1(i, (i + n_ - 1) % n_, piece_, 2 * ((i + n_ - 1) % n_) + 1); // acw over link i-1
    }
  }

private:
  std::int64_t n_;
  double piece_;
  std::vector<std::string> names_{"ring"};
  std::vector<StepInfo> infos_;
};

} // namespace

TEST_CASE("one flow takes latency + bytes / bandwidth", "[sim]") {
  auto net = make_net(2, {{0, 1, 5e10, 1e-6}});
  VecProgram p;
  p.add_step({{0, 1, 1048576, {0}}});
  auto r = simulate_analytic(p, net);
  CHECK(r.time_s == 1e-6 + 1048576 / 5e10);
  CHECK(r.flows == 1);
  CHECK(r.steps == 1);

  // Over three hops of different bandwidths: the latencies add up once, the bytes go at the
  // bottleneck's rate (pipelined over the hops).
  auto line = make_net(4, {{0, 1, 4e9, 1e-6}, {1, 2, 1e9, 2e-6}, {2, 3, 8e9, 3e-6}});
  VecProgram q;
  q.add_step({{0, 3, 5000, {0, 2, 4}}});
  auto s = simulate_analytic(q, line);
  CHECK(close(s.time_s, 6e-6 + 5000 / 1e9, 1e-12));
}

TEST_CASE("two flows sharing a channel take twice as long; opposite directions do not share",
          "[sim]") {
  auto net = make_net(2, {{0, 1, 1e9, 0}});
  VecProgram p;
  p.add_step({{0, 1, 1000, {0}}, {0, 1, 1000, {0}}});
  CHECK(simulate_analytic(p, net).time_s == 2 * 1000 / 1e9);
  VecProgram q;
  q.add_step({{0, 1, 1000, {0}}, {1, 0, 1000, {1}}});
  CHECK(simulate_analytic(q, net).time_s == 1000 / 1e9);
}

TEST_CASE("max-min fairness with two bottlenecks", "[sim]") {
  // Channel X (0 -> 1, 10 B/s) carries f1 and f2; channel Y (1 -> 2, 4 B/s) carries f2, f3, f4.
  // Y is the first bottleneck: f2, f3, f4 get 4/3 each; f1 gets what X has left, 10 - 4/3 = 26/3.
  // All move 8 bytes except f1 (100): f2..f4 drain at 8 / (4/3) = 6; by then f1 has sent
  // 26/3 * 6 = 52, and its last 48 go alone at 10 B/s: it ends at 6 + 4.8 = 10.8.
  auto net = make_net(3, {{0, 1, 10, 0}, {1, 2, 4, 0}});
  VecProgram p;
  p.add_step({{0, 1, 100, {0}}});
  p.add_step({{0, 2, 8, {0, 2}}});
  p.add_step({{1, 2, 8, {2}}});
  p.add_step({{1, 2, 8, {2}}});
  auto r = simulate_analytic(p, net);
  CHECK(close(r.step_end_s[1], 6.0));
  CHECK(close(r.step_end_s[2], 6.0));
  CHECK(close(r.step_end_s[3], 6.0));
  CHECK(close(r.step_end_s[0], 10.8));
  CHECK(close(r.time_s, 10.8));
  // Symmetric flows are frozen at one level and drain at one instant.
  CHECK(r.step_end_s[1] == r.step_end_s[2]);
  CHECK(r.step_end_s[2] == r.step_end_s[3]);
}

TEST_CASE("rates are recomputed when flows start mid-way", "[sim]") {
  // f1: 10 bytes on channel 0 from t = 0. Step 1 (2 bytes on channel 2) ends at 2; step 2
  // (4 bytes on channel 0) starts then. From 2 on, channel 0 is shared: f1 has 8 left, f2 4, at
  // 1/2 each: f2 drains at 10, f1 has 4 left and ends alone at 14.
  auto net = make_net(3, {{0, 1, 1, 0}, {1, 2, 1, 0}});
  VecProgram p;
  p.add_step({{0, 1, 10, {0}}});
  p.add_step({{1, 2, 2, {2}}});
  p.add_step({{0, 1, 4, {0}}}, {1});
  auto r = simulate_analytic(p, net);
  CHECK(r.step_start_s[2] == r.step_end_s[1]);
  CHECK(close(r.step_end_s[1], 2));
  CHECK(close(r.step_end_s[2], 10));
  CHECK(close(r.step_end_s[0], 14));
}

TEST_CASE("a step starts when all its dependencies have finished", "[sim]") {
  auto net = make_net(2, {{0, 1, 1e9, 1e-6}});
  VecProgram p;
  auto a = p.add_step({{0, 1, 1000, {0}}});
  auto b = p.add_step({{1, 0, 3000, {1}}});
  auto c =
      p.add_step({{0, 1, 500, {0}}}, {static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)});
  auto r = simulate_analytic(p, net);
  CHECK(r.step_start_s[a] == 0);
  CHECK(r.step_start_s[b] == 0);
  CHECK(r.step_start_s[c] == r.step_end_s[b]); // b is the later one
  CHECK(close(r.step_end_s[b], 1e-6 + 3e-6));
  CHECK(close(r.time_s, 1e-6 + 3e-6 + 1e-6 + 0.5e-6));
}

TEST_CASE("steps without flows finish when they start", "[sim]") {
  auto net = make_net(2, {{0, 1, 1e9, 1e-6}});
  VecProgram p;
  p.add_step({});
  p.add_step({{0, 1, 1000, {0}}}, {0});
  p.add_step({}, {1});
  auto r = simulate_analytic(p, net);
  CHECK(r.step_end_s[0] == 0);
  CHECK(r.step_start_s[2] == r.step_end_s[1]);
  CHECK(r.step_end_s[2] == r.step_end_s[1]);
  CHECK(close(r.time_s, 2e-6));
}

TEST_CASE("per-phase times of a chain add up to the total", "[sim]") {
  auto net = make_ring(4, 3e9, 7e-7);
  VecProgram p;
  p.names = {"x", "y", "z"};
  std::int64_t prev = -1;
  for (int ph = 0; ph < 3; ++ph)
    for (int k = 0; k < 3; ++k) {
      std::vector<F> fl;
      for (std::int64_t i = 0; i < 4; ++i)
        fl.push_back({i, (i + 1) % 4, 1000.0 * (ph + 1) + 17 * k, {2 * i}});
      std::vector<std::int64_t> after;
      if (prev >= 0) after.push_back(prev);
      prev = static_cast<std::int64_t>(p.add_step(fl, after, ph));
    }
  auto r = simulate_analytic(p, net);
  REQUIRE(r.phases.size() == 3);
  double sum = 0;
  for (auto& ph : r.phases) {
    CHECK(ph.steps == 3);
    sum += ph.end_s - ph.start_s;
  }
  CHECK(r.phases[0].start_s == 0);
  CHECK(r.phases[1].start_s == r.phases[0].end_s);
  CHECK(r.phases[2].start_s == r.phases[1].end_s);
  CHECK(r.phases[2].end_s == r.time_s);
  CHECK(close(sum, r.time_s, 1e-12));
}

TEST_CASE("link utilisation: bytes / (bandwidth * time) per directed channel", "[sim]") {
  // One 1000-byte flow on channel 0 of two links, no latency: channel 0 is busy all the time.
  auto net = make_net(3, {{0, 1, 1e9, 0}, {1, 2, 2e9, 0}});
  VecProgram p;
  p.add_step({{0, 1, 1000, {0}}, {1, 2, 1000, {2}}});
  auto r = simulate_analytic(p, net);
  CHECK(r.time_s == 1e-6);
  CHECK(r.channel_bytes[0] == 1000);
  CHECK(r.channel_bytes[2] == 1000);
  CHECK(r.channel_bytes[1] == 0);
  CHECK(r.live_channels == 4);
  CHECK(r.busy_channels == 2);
  CHECK(close(r.max_utilisation, 1.0));
  CHECK(close(r.mean_utilisation, (1.0 + 0.5) / 4)); // idle channels count in the mean
  CHECK(close(r.mean_busy_utilisation, 0.75));

  // A down link's channels leave the mean.
  std::vector<char> down{0, 1};
  VecProgram q;
  q.add_step({{0, 1, 1000, {0}}});
  AnalyticOptions o;
  o.down_links = &down;
  auto s = simulate_analytic(q, net, o);
  CHECK(s.live_channels == 2);
  CHECK(close(s.mean_utilisation, 0.5));
}

TEST_CASE("Ring all-to-all on one ring equals the closed form", "[sim]") {
  // Per-step latency model (one alpha per sub-stage; docs/algorithms.md §Torus cost model): the
  // Ring algorithm has sum_{h=1}^{N-1} h = N(N-1)/2 sub-stages, each moving one S/(2N) piece
  // over every directed link, one flow per channel, so each costs alpha + S/(2N B) and they run
  // back to back:
  //   T = N(N-1)/2 * (alpha + S / (2 N B)).
  const double S = 64.0 * 1024 * 1024, B = 5e10, alpha = 1e-6;
  for (std::int64_t n : {4, 5, 8}) {
    auto net = make_ring(n, B, alpha);
    RingProgram p(n, S);
    auto r = simulate_analytic(p, net);
    double nd = static_cast<double>(n);
    double want = nd * (nd - 1) / 2 * (alpha + S / (2 * nd * B));
    INFO("N = " << n);
    CHECK(close(r.time_s, want));
    CHECK(r.steps == n * (n - 1) / 2);
    CHECK(r.flows == n * (n - 1) * n);
  }
}

TEST_CASE("a step of 8192 single-channel flows", "[sim]") {
  const std::int64_t n = 4096;
  auto net = make_ring(n, 5e10, 1e-6);
  RingProgram p(n, 1 << 20);
  VecProgram one; // only the first sub-stage: 2n flows
  one.names = {"x"};
  StepFlows sf;
  p.flows(0, sf);
  std::vector<F> fl;
  for (auto& f : sf.flows) fl.push_back({f.src, f.dst, f.bytes, {sf.channels[f.first]}});
  one.add_step(fl);
  auto r = simulate_analytic(one, net);
  CHECK(r.flows == 8192);
  CHECK(close(r.time_s, 1e-6 + (1 << 20) / (2.0 * n) / 5e10));
  CHECK(r.rate_computations == 1);
}

TEST_CASE("bad programs are input errors", "[sim]") {
  auto net = make_net(2, {{0, 1, 1e9, 0}});
  VecProgram cyc;
  cyc.add_step({{0, 1, 1, {0}}}, {1});
  cyc.add_step({{0, 1, 1, {0}}}, {0});
  CHECK(kind_of([&] { simulate_analytic(cyc, net); }) == ErrorKind::Input);
  VecProgram dangling;
  dangling.add_step({}, {7});
  CHECK(kind_of([&] { simulate_analytic(dangling, net); }) == ErrorKind::Input);
  VecProgram badch;
  badch.add_step({{0, 1, 1, {2}}});
  CHECK(kind_of([&] { simulate_analytic(badch, net); }) == ErrorKind::Input);
  VecProgram badphase;
  badphase.add_step({}, {}, 3);
  CHECK(kind_of([&] { simulate_analytic(badphase, net); }) == ErrorKind::Input);
  VecProgram overdown;
  overdown.add_step({{0, 1, 1, {1}}});
  std::vector<char> down{1};
  AnalyticOptions o;
  o.down_links = &down;
  CHECK(kind_of([&] { simulate_analytic(overdown, net, o); }) == ErrorKind::Input);
}

TEST_CASE("report: JSON round trip, strictness, nccl-tests bandwidths, CSV", "[sim]") {
  auto net = make_ring(4, 5e10, 1e-6);
  RingProgram p(4, 1 << 20);
  auto r = simulate_analytic(p, net);
  Report rep = make_analytic_report(r, "schedule", "all-to-all", "ring", 4, 1 << 20, "abc", true);
  CHECK(close(rep.algbw_bytes_per_s, (1 << 20) / r.time_s, 1e-15));
  CHECK(close(rep.busbw_bytes_per_s, rep.algbw_bytes_per_s * 3 / 4, 1e-15));
  REQUIRE(rep.phases.size() == 1);
  CHECK(rep.phases[0].time_s == r.time_s);
  REQUIRE(rep.step_times);
  CHECK(rep.step_times->size() == 6);

  json j = to_json(rep);
  ObjReader rd(j, "test", "/report");
  Report back = parse_report(rd);
  CHECK(to_json(back) == j);
  CHECK(back.network_fingerprint == "abc");

  json unknown = j;
  unknown["tiem_s"] = 1.0;
  CHECK(kind_of([&] {
          ObjReader x(unknown, "test", "/report");
          parse_report(x);
        }) == ErrorKind::Input);
  json badmode = j;
  badmode["mode"] = "fast";
  CHECK(kind_of([&] {
          ObjReader x(badmode, "test", "/report");
          parse_report(x);
        }) == ErrorKind::Input);
  json negative = j;
  negative["time_s"] = -1;
  CHECK(kind_of([&] {
          ObjReader x(negative, "test", "/report");
          parse_report(x);
        }) == ErrorKind::Input);
  json missing = j;
  missing.erase("phases");
  CHECK(kind_of([&] {
          ObjReader x(missing, "test", "/report");
          parse_report(x);
        }) == ErrorKind::Input);

  std::string h = csv_header(), row = csv_row(rep);
  CHECK(h.rfind("collective,algorithm,n_nodes,bytes_per_node,time_us,algbw_GBps,busbw_GBps,"
                "max_link_util,mean_link_util",
                0) == 0);
  CHECK(std::count(h.begin(), h.end(), ',') == std::count(row.begin(), row.end(), ','));
  CHECK(row.rfind("all-to-all,ring,4,1048576,", 0) == 0);
  CHECK(std::count(row.begin(), row.end(), '\n') == 1);
}

TEST_CASE("a flow split over paths takes share x rate on each channel", "[sim]") {
  // A diamond: 0-1-3 (links 0, 1) and 0-2-3 (links 2, 3), every link 10 GB/s. Channel 2l goes
  // a -> b. A flow 0 -> 3 split evenly over both paths runs at 2 x 10 GB/s (each channel carries
  // half its rate) and pays the mean of the two paths' latencies.
  auto net =
      make_net(4, {{0, 1, 1e10, 1e-6}, {1, 3, 1e10, 2e-6}, {0, 2, 1e10, 3e-6}, {2, 3, 1e10, 6e-6}});
  VecProgram p;
  p.add_step({{0, 3, 4e6, {0, 2, 4, 6}, {0.5, 0.5, 0.5, 0.5}}});
  auto r = simulate_analytic(p, net);
  CHECK(close(r.time_s, 0.5 * (1e-6 + 2e-6) + 0.5 * (3e-6 + 6e-6) + 4e6 / 2e10));
  CHECK(close(r.channel_bytes[0], 2e6));
  CHECK(close(r.channel_bytes[6], 2e6));

  // Weighted max-min: A split half/half over channels 0 and 4, B wholly on channel 0. Filling
  // raises both rates together until channel 0 is full: r/2 + r = B, r = 2B/3 for both.
  auto two = make_net(3, {{0, 1, 3e10, 0}, {1, 2, 3e10, 0}, {0, 2, 3e10, 0}});
  VecProgram q;
  q.add_step({{0, 1, 6e6, {0, 4}, {0.5, 0.5}}, {0, 1, 6e6, {0}}});
  auto s = simulate_analytic(q, two);
  // Both at 2e10 until they drain together at 6e6 / 2e10.
  CHECK(close(s.time_s, 6e6 / 2e10));

  // Once a split flow has switched the engine to weighted sharing, unsplit flows get exactly the
  // doubles they get without it: step 1 (on forward channels) ends at the same instant whether
  // step 0 (on the reverse channels, running beside it) is split or not.
  VecProgram u, w;
  u.add_step({{2, 0, 5e5, {5}}});
  w.add_step({{2, 0, 5e5, {5, 3}, {0.5, 0.5}}});
  for (VecProgram* v : {&u, &w})
    v->add_step({{0, 2, 123456789, {0, 2}}, {0, 2, 987654, {4}}, {0, 1, 4567, {0}}});
  CHECK(simulate_analytic(u, two).step_end_s[1] == simulate_analytic(w, two).step_end_s[1]);
  // A share outside (0, 1] is a bug of the program.
  VecProgram bad;
  bad.add_step({{0, 1, 1, {0, 4}, {0.5, 1.5}}});
  CHECK(kind_of([&] { simulate_analytic(bad, two); }) == ErrorKind::Runtime);
}
