// Collectives between ranks on switched and direct networks (coll/rank_*.hpp): the analytic
// simulation of each algorithm against its closed form, written here from the algorithm's
// definition (steps x (path latency + bytes / bandwidth)), and the ECMP split.
#include "coll/auto.hpp"
#include "coll/bound.hpp"
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_program.hpp"
#include "coll/rank_verify.hpp"
#include "coll/registry.hpp"
#include "coll/skew.hpp"
#include "route/load.hpp"
#include "route/spread.hpp"
#include "sim/analytic.hpp"
#include "sim/traffic.hpp"

#include "same_analytic.hpp"
#include "support.hpp"
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

using namespace icnkit;
using icnkit::test::kind_of;

namespace {

bool close(double got, double want, double rel = 1e-9) {
  return std::abs(got - want) <= rel * std::abs(want);
}

// The candidate `id` of a family for n chips, generated with every link at bw and lat.
topo::Network network(const std::string& family, std::int64_t n, const std::string& id,
                      double bw = 50e9, double lat = 1e-6, std::int64_t chip_radix = 1) {
  topo::Context ctx = test::context_for(n);
  ctx.scope = topo::Scope::InterRack;
  ctx.chip_radix = chip_radix;
  // The first 2,000 (dragonflies of 64 chips number hundreds of thousands).
  topo::CandidateList l = test::enum_family(family, ctx, 2000);
  for (const topo::Candidate& c : l.items)
    if (c.id == id) {
      topo::GenerateOptions o;
      o.link_bandwidth.every = bw;
      o.link_latency.every = lat;
      topo::Network net = topo::generate(ctx, c, o);
      net.fingerprint = topo::fingerprint(net, nullptr);
      return net;
    }
  FAIL("no candidate " << id);
  return {};
}

coll::Schedule schedule(const std::string& collective, const std::string& algorithm,
                        const topo::Network& net, double bytes, const route::RoutingFunction& fn,
                        const topo::Faults& faults = {}, int chunks = 0, std::int64_t root = 0) {
  coll::Request req;
  req.collective = collective;
  req.algorithm = algorithm;
  req.bytes_per_node = static_cast<std::int64_t>(bytes);
  req.chunks = chunks;
  req.root = root;
  return coll::generate_or_auto(req, net, faults, &fn);
}

double simulate(const std::string& collective, const std::string& algorithm,
                const topo::Network& net, double bytes, const std::string& routing = "minimal",
                const topo::Faults& faults = {}, int chunks = 0, std::int64_t root = 0) {
  auto fn = test::routing::build(routing, net, faults);
  coll::Schedule s = schedule(collective, algorithm, net, bytes, *fn, faults, chunks, root);
  REQUIRE(s.verification);
  CHECK(s.verification->delivered);
  coll::RankProgram p(s, net, faults, *fn);
  std::vector<char> down = faults.down_links(net);
  sim::AnalyticOptions o;
  o.down_links = &down;
  return sim::simulate_analytic(p, net, o).time_s;
}

} // namespace

TEST_CASE("ring, halving-doubling, Bruck and direct on a single switch match their closed forms",
          "[coll][ranks]") {
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0;
  const topo::Network net = network("single-switch", 16, "single-switch:16/c1", B, a);
  const double n = 16;
  // Every transfer crosses two links (chip -> switch -> chip); one flow per uplink and downlink.
  CHECK(close(simulate("all-reduce", "ring", net, S), 2 * (n - 1) * (2 * a + S / n / B)));
  CHECK(close(simulate("reduce-scatter", "ring", net, S), (n - 1) * (2 * a + S / n / B)));
  // Halving-doubling: log2 n steps each way, step j moving S / 2^(j+1).
  CHECK(close(simulate("all-reduce", "halving-doubling", net, S),
              2 * 4 * 2 * a + 2 * (n - 1) / n * S / B));
  // Bruck all-gather: ceil(log2 n) steps moving 1, 2, 4, 8 blocks.
  CHECK(close(simulate("all-gather", "bruck", net, S), 4 * 2 * a + (n - 1) * S / n / B));
  // Direct all-to-all: one step, every uplink shared by n-1 flows of S/n: the injection bound.
  const double direct = simulate("all-to-all", "direct", net, S);
  CHECK(close(direct, 2 * a + (n - 1) / n * S / B));
  const auto bound = coll::collective_bound("all-to-all", coll::rank_order(net, {}), S, net, {});
  REQUIRE(bound);
  CHECK(close(bound->time_s, (n - 1) / n * S / B));
  // Bidirectional ring: each step puts S/2n on a rank's uplink twice (one flow each way round),
  // so a single switch gains nothing over the ring.
  CHECK(close(simulate("all-reduce", "bidirectional-ring", net, S),
              2 * (n - 1) * (2 * a + S / n / B)));
  // Binomial broadcast: ceil(log2 n) steps of the whole buffer.
  CHECK(close(simulate("broadcast", "binomial", net, S), 4 * (2 * a + S / B)));
}

TEST_CASE("pipelined chain, MPICH's folded halving-doubling and the double binary tree on a "
          "single switch match their closed forms",
          "[coll][ranks]") {
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0;
  const topo::Network net = network("single-switch", 16, "single-switch:16/c1", B, a);
  const double n = 16;
  // Chain of n ranks, P chunks: chunk k leaves the j-th rank in step k + j, so P + n - 2 steps,
  // each one chunk per link (two links a hop).
  for (int P : {1, 5, 40})
    for (const char* c : {"broadcast", "reduce"}) {
      INFO(c << " chain, " << P << " chunks");
      CHECK(close(simulate(c, "chain", net, S, "minimal", {}, P, 7),
                  (P + n - 2) * (2 * a + S / P / B)));
    }
  // 12 ranks = 8 + 4: the 4 extra ranks fold their whole buffer in (one step), 8 ranks halve
  // and double over 8 blocks (3 + 3 steps, (8-1)/8 S each way), and the result unfolds.
  const topo::Network n12 = network("single-switch", 12, "single-switch:12/c1", B, a);
  CHECK(close(simulate("all-reduce", "halving-doubling", n12, S),
              2 * (2 * a + S / B) + 6 * 2 * a + 2 * 7.0 / 8 * S / B));
  // Double binary tree: the in-order tree on 16 ranks has height L = 4 (root 16, then 8, 4, 2,
  // 1); P chunks per tree take P + 2L - 1 steps. A rank is an inner node of one tree and a leaf
  // of the other, so a full step puts 4 chunks of S / 2P on its uplink (up, two children down,
  // up as a leaf) and 4 on its downlink: 2a + 2S / (P B), and the pipeline's first and last
  // steps carry less.
  for (int P : {4, 32}) {
    INFO(P << " chunks per tree");
    auto fn = test::routing::build("minimal", net);
    const coll::Schedule s = schedule("all-reduce", "double-binary-tree", net, S, *fn, {}, P);
    const coll::RankSchedule& r = s.stages->front().parts.front();
    CHECK(r.blocks == 2 * P);
    CHECK(static_cast<int>(r.steps.size()) == P + 2 * 4 - 1);
    const double full = 2 * a + 2 * S / P / B,
                 t = simulate("all-reduce", "double-binary-tree", net, S, "minimal", {}, P);
    CHECK(t <= (P + 2 * 4 - 1) * full * (1 + 1e-9));
    CHECK(t >= P * full * (1 - 1e-9));
    // Exactly: per step, the most chunks on one link (counted here from the rules' senders and
    // peers) times S / 2P over B, plus the path.
    double exact = 0;
    for (const coll::RankStep& st : r.steps) {
      std::vector<int> up(16, 0), down(16, 0);
      for (const coll::RankTransfer& x : st.transfers)
        for (std::int64_t i : *x.from) {
          ++up[static_cast<std::size_t>(i)];
          ++down[static_cast<std::size_t>((i + x.k) % 16)];
        }
      const int most = std::max(*std::max_element(up.begin(), up.end()),
                                *std::max_element(down.begin(), down.end()));
      CHECK(most <= 4);
      exact += 2 * a + most * S / (2 * P) / B;
    }
    CHECK(close(t, exact));
  }
  // Broadcast hangs both trees (over the other 15 ranks) below the root: each step the root
  // sends one chunk to each tree root and an inner node one to each child, 2 chunks of S / 2P
  // per link; the deepest of the 15-node trees is 3 below its root: 4 hops, P + 3 steps.
  for (int P : {1, 16}) {
    INFO("broadcast, " << P << " chunks per tree");
    CHECK(close(simulate("broadcast", "double-binary-tree", net, S, "minimal", {}, P, 3),
                (P + 3) * (2 * a + S / P / B)));
  }
}

TEST_CASE("auto tries a pipelined algorithm at several chunk counts and takes the one the "
          "closed form says is fastest",
          "[coll][ranks][auto]") {
  const double B = 50e9, a = 1e-6, n = 16;
  const topo::Network net = network("single-switch", 16, "single-switch:16/c1", B, a);
  auto fn = test::routing::build("minimal", net);
  // The chain's time (closed form above): (P + n - 2)(2a + S / (P B)); its optimum moves from
  // few chunks at small sizes (latency) to many at large ones (bandwidth).
  for (double S : {64 * 1024.0, 4 * 1048576.0, 1073741824.0}) {
    INFO(S << " bytes");
    const coll::Schedule s = schedule("broadcast", "auto", net, S, *fn);
    REQUIRE(s.selection);
    std::vector<std::int64_t> tried;
    double chosen = INFINITY;
    for (const coll::Candidate& k : s.selection->candidates) {
      chosen = std::min(chosen, k.time_s);
      if (k.algorithm == "chain" && k.chunks > 0) {
        tried.push_back(k.chunks);
        CHECK(close(k.time_s, (k.chunks + n - 2) * (2 * a + S / k.chunks / B)));
      }
    }
    CHECK(tried == std::vector<std::int64_t>{1, 4, 16, 64, 256});
    double best = INFINITY;
    std::int64_t best_p = 0;
    for (std::int64_t P : tried)
      if (const double t = (P + n - 2) * (2 * a + S / P / B); t < best) {
        best = t;
        best_p = P;
      }
    // The winner is never slower than the best chain, and is that chain when it wins.
    CHECK(chosen <= best * (1 + 1e-12));
    if (s.algorithm == "chain") CHECK(s.stages->front().parts.front().blocks == best_p);
  }
  // A chunk count the user gives is kept: the chain is tried at it alone.
  coll::Request req;
  req.collective = "broadcast";
  req.algorithm = "auto";
  req.bytes_per_node = 1048576;
  req.chunks = 5;
  const coll::Schedule s5 = coll::generate_or_auto(req, net, {}, fn.get());
  REQUIRE(s5.selection);
  int chains = 0;
  for (const coll::Candidate& k : s5.selection->candidates)
    if (k.algorithm == "chain") {
      ++chains;
      CHECK(k.chunks == 5);
    }
  CHECK(chains == 1);
}

TEST_CASE("ring and direct on a full mesh match their closed forms", "[coll][ranks]") {
  const double B = 25e9, a = 2e-6, S = 8 * 1048576.0;
  const topo::Network net = network("full-mesh", 8, "full-mesh:8/c1", B, a);
  const double n = 8;
  // One link per pair: a ring step is one hop.
  CHECK(close(simulate("all-reduce", "ring", net, S), 2 * (n - 1) * (a + S / n / B)));
  // Direct all-to-all: every item on its own link at once.
  CHECK(close(simulate("all-to-all", "direct", net, S), a + S / n / B));
  // Direct all-reduce: a reduce-scatter step and an all-gather step, each one hop of S/n.
  CHECK(close(simulate("all-reduce", "direct", net, S), 2 * (a + S / n / B)));
}

TEST_CASE("the ring's repeated steps are not simulated twice and give the same figures",
          "[coll][ranks]") {
  // A ring program's steps all repeat its first two (reduce-scatter, all-gather); the engine
  // replays them by duration. Against the same schedule with repeats disabled (a wrapper that
  // hides them), the time and channel bytes agree to rounding.
  const topo::Network net = network("fat-tree", 16, "fat-tree:2L-k4-osr1/c2");
  auto fn = test::routing::build("minimal", net);
  coll::Request req;
  req.collective = "all-reduce";
  req.algorithm = "ring";
  req.bytes_per_node = 3 << 20;
  coll::Schedule s = coll::generate(req, net, {}, fn.get());
  coll::RankProgram p(s, net, {}, *fn);
  REQUIRE(p.repeats(5) >= 0);
  struct Hide : sim::Program {
    const sim::Program& q;
    explicit Hide(const sim::Program& p) : q(p) {}
    const std::vector<std::string>& phases() const override { return q.phases(); }
    const std::vector<sim::StepInfo>& steps() const override { return q.steps(); }
    void flows(std::size_t k, sim::StepFlows& out) const override { q.flows(k, out); }
  } hidden(p);
  auto fast = sim::simulate_analytic(p, net), slow = sim::simulate_analytic(hidden, net);
  CHECK(close(fast.time_s, slow.time_s, 1e-12));
  CHECK(fast.flows == slow.flows);
  for (std::size_t c = 0; c < fast.channel_bytes.size(); ++c)
    CHECK(close(fast.channel_bytes[c] + 1, slow.channel_bytes[c] + 1, 1e-12));
  CHECK(fast.events < slow.events);
}

TEST_CASE("the ECMP split makes minimal routing as fast as D-mod-k on a fat-tree",
          "[coll][ranks][ecmp]") {
  // 32 chips, k = 8, two levels: D-mod-k is contention-free for all-to-all, and so is the even
  // split of every flow over its equal-cost paths.
  const topo::Network net = network("fat-tree", 32, "fat-tree:2L-k8-osr1/c1");
  const double S = 64 * 1048576.0;
  auto run = [&](const std::string& routing) {
    auto fn = test::routing::build(routing, net);
    sim::AllToAllTraffic t(net, {}, *fn, S);
    return sim::simulate_analytic(t, net).time_s;
  };
  const double dmodk = run("dmodk"), split = run("minimal");
  CHECK(std::abs(split - dmodk) <= 0.02 * dmodk);
  // Both at the injection bound plus one path latency (at most 4 hops of 1 us).
  CHECK(dmodk >= 31.0 / 32 * S / 50e9);
  CHECK(dmodk <= 31.0 / 32 * S / 50e9 + 4e-6);
}

TEST_CASE("a flow's ECMP split is the load topo-route --load gives its pair", "[coll][ecmp]") {
  // The Spreader (route/spread.hpp) and demand_load (route/load.hpp) compute the fluid split by
  // different walks; on a three-level fat-tree with 16 equal-cost paths between pods they must
  // put the same share on every channel.
  const topo::Network net = network("fat-tree", 64, "fat-tree:3L-k8-osr1/c1");
  auto fn = test::routing::build("minimal", net);
  route::Spreader sp(*fn, net, {});
  route::Spread out;
  for (auto pair : {std::pair<std::int64_t, std::int64_t>{0, 63}, {5, 6}, {17, 40}}) {
    const std::int64_t src = pair.first, dst = pair.second;
    sp.spread(src, dst, out);
    REQUIRE(out.delivered);
    CHECK(out.split_exact);
    route::LoadReport want = route::demand_load(
        *fn, net, {}, 64, [&](std::int64_t s, std::int64_t d) { return s == src && d == dst; });
    std::vector<double> got(want.channel_load.size(), 0.0);
    for (std::size_t k = 0; k < out.channels.size(); ++k)
      got[static_cast<std::size_t>(out.channels[k])] += out.shares[k];
    for (std::size_t c = 0; c < got.size(); ++c)
      CHECK(close(got[c] + 1, want.channel_load[c] + 1, 1e-12));
  }
  // Hashing takes one path: shares of 1 on a path from src to dst, the same for the same seed.
  route::Spreader h1(*fn, net, {}, route::Ecmp::Hash, 1), h1b(*fn, net, {}, route::Ecmp::Hash, 1);
  route::Spread a, b;
  h1.spread(0, 63, a);
  h1b.spread(0, 63, b);
  CHECK(a.channels == b.channels);
  for (double x : a.shares) CHECK(x == 1.0);
  CHECK(net.channel_src(a.channels.front()) == 0);
  CHECK(net.channel_dst(a.channels.back()) == 63);
}

TEST_CASE("a spread reusing its switch pair's middle is the spread computed afresh",
          "[coll][ecmp]") {
  // Every ordered pair through one Spreader (which keeps the part between the two chips'
  // switches per switch pair, after the first) in a scrambled order, against a new Spreader per
  // pair: the same channels in the same order with the same shares, to the bit. A dragonfly
  // (several minimal paths for some pairs, a channel reached on two VCs) and a 3-level fat-tree
  // (16 paths between pods).
  for (const auto& [family, id] :
       {std::pair<std::string, std::string>{"dragonfly", "dragonfly:p2-a4-h3-g8/c1"},
        {"fat-tree", "fat-tree:3L-k8-osr1/c1"}}) {
    CAPTURE(id);
    const topo::Network net = network(family, 64, id);
    auto fn = test::routing::build("minimal", net);
    route::Spreader reuse(*fn, net, {});
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    for (std::int64_t a = 0; a < 64; ++a)
      for (std::int64_t b = 0; b < 64; ++b)
        if (a != b) pairs.push_back({a, b});
    for (std::size_t k = 0; k < pairs.size(); ++k) // a fixed scramble
      std::swap(pairs[k], pairs[(k * 2654435761u) % pairs.size()]);
    route::Spread got, want;
    std::int64_t shared = 0;
    for (const auto& [a, b] : pairs) {
      reuse.spread(a, b, got);
      route::Spreader fresh(*fn, net, {});
      fresh.spread(a, b, want);
      CAPTURE(a, b);
      REQUIRE(got.delivered);
      CHECK(got.channels == want.channels);
      CHECK(got.shares == want.shares);
      CHECK(got.split_exact == want.split_exact);
      shared += got.channels.size() > 3;
    }
    CHECK(shared > 1000); // the middles were exercised, not only one-switch paths
  }
}

TEST_CASE("a flow's share of a channel it reaches on several VCs is at most 1", "[coll][ecmp]") {
  // On this dragonfly, chip 4's flow to chip 50 reaches one channel on two VCs with 1/3 and 2/3
  // of its bytes, which sum to 1.0000000000000002 in floating point: the analytic engine refused
  // the step ("share not in (0, 1]") until the spread clamped it.
  const topo::Network net = network("dragonfly", 64, "dragonfly:p2-a4-h3-g8/c1");
  auto fn = test::routing::build("minimal", net);
  route::Spreader sp(*fn, net, {});
  route::Spread s;
  sp.spread(4, 50, s);
  REQUIRE(s.delivered);
  for (double x : s.shares) CHECK((x > 0 && x <= 1));
  CHECK(simulate("all-to-all", "direct", net, 1 << 20) > 0);
}

TEST_CASE("stages compose only as reduce-scatter, all-reduce of the shard, all-gather",
          "[coll][ranks]") {
  // 64 chips in boards of 8: hierarchical all-reduce generated, then broken by hand.
  const topo::Network net = network("fat-tree", 64, "fat-tree:2L-k8-osr1/c8");
  auto fn = test::routing::build("minimal", net);
  coll::Request req;
  req.collective = "all-reduce";
  req.algorithm = "hierarchical";
  req.bytes_per_node = 1 << 20;
  const coll::Schedule s = coll::generate(req, net, {}, fn.get());
  REQUIRE(s.stages);
  REQUIRE(s.stages->size() == 3);
  CHECK((*s.stages)[1].share == coll::Fraction{1, 8});
  auto bad = [&](auto edit) {
    coll::Schedule t = s;
    edit(t);
    return kind_of([&] { coll::verify_ranks(t, net, {}, *fn, ErrorKind::Input, "t"); });
  };
  CHECK(bad([](coll::Schedule& t) { (*t.stages)[1].share = {1, 1}; }) == ErrorKind::Input);
  CHECK(bad([](coll::Schedule& t) { t.stages->pop_back(); }) == ErrorKind::Input);
  CHECK(bad([](coll::Schedule& t) { std::swap((*t.stages)[0], (*t.stages)[2]); }) ==
        ErrorKind::Input);
  // Across groups that mix positions: chip 0 (position 0 of board 0) with chip 9 (position 1).
  CHECK(bad([](coll::Schedule& t) {
          auto& g = (*t.stages)[1].parts[0].groups;
          std::swap(g[0][1], g[1][1]);
        }) == ErrorKind::Input);
  CHECK(bad([](coll::Schedule& t) { t.left = {3}; }) == ErrorKind::Input);
  CHECK_NOTHROW(coll::verify_ranks(s, net, {}, *fn, ErrorKind::Input, "t"));
}

TEST_CASE("hierarchical reduce-scatter and all-gather: composed exactly, and their closed form",
          "[coll][ranks]") {
  // 64 chips, 8 boards of 8 on a non-blocking two-level tree, every link B and a. Reduce-scatter:
  // a ring inside each board (b-1 steps of S/b over chip-leaf-chip), then a ring across the
  // boards among the chips of one position (G-1 steps of S/n over chip-leaf-spine-leaf-chip,
  // the ECMP split leaving each uplink one flow's worth). All-gather runs the same steps
  // backwards.
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0, b = 8, G = 8, n = 64;
  const topo::Network net = network("fat-tree", 64, "fat-tree:2L-k8-osr1/c8", B, a);
  const double want = (b - 1) * (2 * a + S / b / B) + (G - 1) * (4 * a + S / n / B);
  for (const char* c : {"reduce-scatter", "all-gather"}) {
    INFO(c);
    CHECK(close(simulate(c, "hierarchical", net, S), want));
  }
  auto fn = test::routing::build("minimal", net);
  for (const char* c : {"reduce-scatter", "all-gather"}) {
    INFO(c);
    coll::Request req;
    req.collective = c;
    req.algorithm = "hierarchical";
    req.bytes_per_node = 1 << 20;
    const coll::Schedule s = coll::generate(req, net, {}, fn.get());
    REQUIRE(s.stages->size() == 2);
    const bool rs = std::string(c) == "reduce-scatter";
    CHECK((*s.stages)[rs ? 1 : 0].share == coll::Fraction{1, 8});
    auto bad = [&](auto edit) {
      coll::Schedule t = s;
      edit(t);
      return kind_of([&] { coll::verify_ranks(t, net, {}, *fn, ErrorKind::Input, "t"); });
    };
    // The levels the other way round, a stage on the wrong share, an all-reduce inside, and
    // (reduce-scatter) the last stage's ranks reordered so the blocks land on other chips.
    CHECK(bad([](coll::Schedule& t) { std::swap((*t.stages)[0], (*t.stages)[1]); }) ==
          ErrorKind::Input);
    CHECK(bad([&](coll::Schedule& t) {
            (*t.stages)[rs ? 1 : 0].share = {1, 1};
          }) == ErrorKind::Input);
    CHECK(bad([](coll::Schedule& t) { (*t.stages)[0].collective = "all-reduce"; }) ==
          ErrorKind::Input);
    if (rs)
      CHECK(bad([](coll::Schedule& t) {
              auto& g = (*t.stages)[1].parts[0].groups;
              std::swap(g[0], g[1]);
            }) == ErrorKind::Input);
    CHECK_NOTHROW(coll::verify_ranks(s, net, {}, *fn, ErrorKind::Input, "t"));
  }
}

TEST_CASE("hierarchical all-to-all: inside the board, then across, by XOR", "[coll][ranks]") {
  // 64 chips in 16 boards of 4 on a non-blocking two-level tree. b-1 = 3 exchanges inside the
  // board move n/b = 16 items of S/n each; 15 across move b = 4 items. A step whose pairs all
  // share a leaf switch takes 2 hops, else 4 (the ECMP split keeps every uplink to one flow's
  // worth): the leaf of a chip is the other end of its one link.
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0, n = 64, b = 4;
  const topo::Network net = network("fat-tree", 64, "fat-tree:2L-k16-osr1/c4", B, a);
  std::vector<std::int64_t> leaf(64, -1);
  for (const topo::Link& l : net.links)
    for (auto [c, sw] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
      if (c < 64 && sw >= 64) leaf[static_cast<std::size_t>(c)] = sw;
  const std::vector<std::int64_t> order = coll::rank_order(net, {});
  auto hops = [&](std::int64_t x) {
    for (std::int64_t i = 0; i < 64; ++i)
      if (leaf[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] !=
          leaf[static_cast<std::size_t>(order[static_cast<std::size_t>(i ^ x)])])
        return 4.0;
    return 2.0;
  };
  double want = 0;
  for (std::int64_t x = 1; x < 4; ++x) want += hops(x) * a + (n / b) * (S / n) / B;
  for (std::int64_t y = 4; y < 64; y += 4) want += hops(y) * a + b * (S / n) / B;
  CHECK(close(simulate("all-to-all", "hierarchical", net, S), want));
  // Boards of 3 (a failed chip) or a count that is no power of two are refused.
  const topo::Network ft = network("fat-tree", 64, "fat-tree:2L-k16-osr1/c4");
  auto fn = test::routing::build("minimal", ft);
  coll::Request req;
  req.collective = "all-to-all";
  req.algorithm = "hierarchical";
  req.bytes_per_node = 1 << 20;
  topo::FaultRequest fr;
  fr.chips = {"5"};
  const topo::Faults f = topo::make_faults(ft, fr);
  auto fnf = test::routing::build("minimal", ft, f);
  CHECK(kind_of([&] { coll::generate(req, ft, f, fnf.get()); }) == ErrorKind::Infeasible);
  const topo::Network odd = network("fat-tree", 48, "fat-tree:2L-k12-osr1/c4");
  auto fno = test::routing::build("minimal", odd);
  CHECK(kind_of([&] { coll::generate(req, odd, {}, fno.get()); }) == ErrorKind::Infeasible);
}

namespace {

coll::Schedule skewed(const std::string& algorithm, const topo::Network& net, double S,
                      const coll::Skew& k, const route::RoutingFunction& fn) {
  coll::Request req;
  req.collective = "all-to-all";
  req.algorithm = algorithm;
  req.bytes_per_node = static_cast<std::int64_t>(S);
  req.skew = k;
  return coll::generate(req, net, {}, &fn);
}

sim::AnalyticResult run(const coll::Schedule& s, const topo::Network& net,
                        const route::RoutingFunction& fn) {
  coll::RankProgram p(s, net, {}, fn);
  return sim::simulate_analytic(p, net);
}

} // namespace

TEST_CASE("all-to-all-v: Zipf popularity, closed forms of direct, pairwise and Bruck",
          "[coll][ranks][skew]") {
  const double S = 12 * 1048576.0;
  coll::Skew z;
  z.exponent = 1.2;
  z.seed = 7;
  SECTION("the Zipf sizes") {
    const std::int64_t n = 12;
    const auto m = coll::skew_bytes(z, n, S, "t");
    // Every buffer holds S; every origin splits it alike (global popularity); sorted, the
    // popularities fall as 1/r^1.2.
    std::vector<double> col(12);
    for (std::int64_t o = 0; o < n; ++o) {
      double row = 0;
      for (std::int64_t d = 0; d < n; ++d) {
        row += m[static_cast<std::size_t>(o * n + d)];
        CHECK(close(m[static_cast<std::size_t>(o * n + d)], m[static_cast<std::size_t>(d)]));
      }
      CHECK(close(row, S));
    }
    for (std::int64_t d = 0; d < n; ++d)
      col[static_cast<std::size_t>(d)] = m[static_cast<std::size_t>(d)];
    std::sort(col.rbegin(), col.rend());
    for (std::size_t r = 0; r < col.size(); ++r)
      CHECK(close(col[0] / col[r], std::pow(static_cast<double>(r + 1), 1.2)));
    // The seed decides who is popular, and only the seed.
    CHECK(coll::skew_bytes(z, n, S, "t") == m);
    coll::Skew z2 = z;
    z2.seed = 8;
    CHECK(coll::skew_bytes(z2, n, S, "t") != m);
    // Exponent 0: the uniform all-to-all.
    coll::Skew u;
    for (double x : coll::skew_bytes(u, n, S, "t")) CHECK(close(x, S / 12));
  }
  SECTION("direct on a full mesh: every item on its own link, the largest decides") {
    const double B = 25e9, a = 2e-6;
    const topo::Network net = network("full-mesh", 8, "full-mesh:8/c1", B, a);
    auto fn = test::routing::build("minimal", net);
    const auto m = coll::skew_bytes(z, 8, S, "t");
    double largest = 0;
    for (std::size_t o = 0; o < 8; ++o)
      for (std::size_t d = 0; d < 8; ++d)
        if (o != d) largest = std::max(largest, m[o * 8 + d]);
    const coll::Schedule s = skewed("direct", net, S, z, *fn);
    CHECK(close(run(s, net, *fn).time_s, a + largest / B));
    // A permutation matrix: every rank sends its whole buffer to the next.
    coll::Skew perm;
    perm.kind = "matrix";
    perm.weights = coll::parse_skew_matrix(
        "0 1 0 0 0 0 0 0\n0 0 1 0 0 0 0 0\n0,0,0,1,0,0,0,0\n0 0 0 0 1 0 0 0 # four\n"
        "0 0 0 0 0 1 0 0\n0 0 0 0 0 0 1 0\n0 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 0\n",
        "m");
    CHECK(close(run(skewed("direct", net, S, perm, *fn), net, *fn).time_s, a + S / B));
    // Bruck: an item moves once for every bit of its distance (d - o) mod n, each move one hop.
    const sim::AnalyticResult br = run(skewed("bruck", net, S, z, *fn), net, *fn);
    double want = 0, got = 0;
    for (std::int64_t o = 0; o < 8; ++o)
      for (std::int64_t d = 0; d < 8; ++d)
        want += m[static_cast<std::size_t>(o * 8 + d)] *
                std::popcount(static_cast<unsigned>(((d - o) % 8 + 8) % 8));
    for (double x : br.channel_bytes) got += x;
    CHECK(close(got, want));
  }
  SECTION("pairwise on a single switch: step k, one item per link, the largest decides") {
    const double B = 50e9, a = 1e-6;
    const topo::Network net = network("single-switch", 12, "single-switch:12/c1", B, a);
    auto fn = test::routing::build("minimal", net);
    const auto m = coll::skew_bytes(z, 12, S, "t");
    double want = 0;
    for (std::int64_t k = 1; k < 12; ++k) {
      double largest = 0;
      for (std::int64_t i = 0; i < 12; ++i)
        largest = std::max(largest, m[static_cast<std::size_t>(i * 12 + (i + k) % 12)]);
      want += 2 * a + largest / B;
    }
    const coll::Schedule s = skewed("pairwise", net, S, z, *fn);
    const double t = run(s, net, *fn).time_s;
    CHECK(close(t, want));
    // The bound: the busiest rank's sent or received bytes over its one link.
    const auto b = coll::all_to_all_v_bound(s.stages->front().parts.front().groups, m, net, {});
    REQUIRE(b);
    double busiest = 0;
    for (std::int64_t i = 0; i < 12; ++i) {
      double out = 0, in = 0;
      for (std::int64_t j = 0; j < 12; ++j)
        if (j != i) {
          out += m[static_cast<std::size_t>(i * 12 + j)];
          in += m[static_cast<std::size_t>(j * 12 + i)];
        }
      busiest = std::max({busiest, out, in});
    }
    CHECK(close(b->time_s, busiest / B));
    CHECK(t >= b->time_s);
  }
  SECTION("refused where it does not apply") {
    const topo::Network net = network("single-switch", 12, "single-switch:12/c1");
    auto fn = test::routing::build("minimal", net);
    coll::Request req;
    req.collective = "all-reduce";
    req.algorithm = "ring";
    req.bytes_per_node = 1 << 20;
    req.skew = z;
    CHECK(kind_of([&] { coll::generate(req, net, {}, fn.get()); }) == ErrorKind::Usage);
    coll::Skew small;
    small.kind = "matrix";
    small.weights.assign(3, std::vector<double>(3, 1.0));
    CHECK(kind_of([&] { skewed("direct", net, S, small, *fn); }) == ErrorKind::Input);
  }
}

// In-network reduction (NVLS-like): per slot t of P + 1, every rank sends chunk t up (S/P) and
// its reduced share of chunk t-1 (S/(nP)) for the switch to multicast; it receives its share of
// chunk t and every share of chunk t-1. A rank's link each way carries (S/P)(n+1)/n per middle
// slot and S/P in the first and last, each slot charged the way up and down (2a).
double in_network_time(double n, double P, double S, double B, double a) {
  return (P + 1) * 2 * a + 2 * S / (P * B) + (P - 1) * (S / P) * (n + 1) / n / B;
}

TEST_CASE("in-network all-reduce, reduce-scatter and all-gather: closed forms and the bound",
          "[coll][ranks][in-network]") {
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0;
  for (auto [n, P] : {std::pair{8, 32}, std::pair{8, 5}, std::pair{6, 3}}) {
    CAPTURE(n, P);
    const topo::Network net =
        network("single-switch", n, "single-switch:" + std::to_string(n) + "/c1", B, a);
    CHECK(close(simulate("all-reduce", "in-network", net, S, "minimal", {}, P),
                in_network_time(n, P, S, B, a)));
    // Reduce-scatter: S up, S/n down; all-gather: S/n up, S down.
    CHECK(close(simulate("reduce-scatter", "in-network", net, S), 2 * a + S / B));
    CHECK(close(simulate("all-gather", "in-network", net, S), 2 * a + S / B));
    const auto chips = coll::rank_order(net, {});
    const auto b = coll::collective_bound("all-reduce", chips, S, net, {}, 0, true);
    REQUIRE(b);
    CHECK(b->kind == "injection (in-network)");
    CHECK(close(b->time_s, S / B)); // each rank sends S once and receives the sum once
    // The pipeline approaches n/(n+1) of the bound (NVLS's bus bandwidth 2(n-1)/(n+1) B).
    CHECK(b->time_s / in_network_time(n, 4096, S, B, 0) == Approx(n / (n + 1.0)).epsilon(1e-3));
  }
  // Auto leaves it out: it assumes switches that add.
  const topo::Network net = network("single-switch", 8, "single-switch:8/c1", B, a);
  auto fn = test::routing::build("minimal", net, {});
  const coll::Schedule s = schedule("all-reduce", "auto", net, S, *fn);
  REQUIRE(s.selection);
  for (const coll::Candidate& k : s.selection->candidates) CHECK(k.algorithm != "in-network");
  CHECK(!coll::uses_switch(s));
  CHECK(coll::uses_switch(schedule("all-reduce", "in-network", net, S, *fn)));
}

TEST_CASE("in-network over parallel links: a failed link slows only its chip's share",
          "[coll][ranks][in-network]") {
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0, n = 8, P = 16;
  const topo::Network net = network("single-switch", 8, "single-switch:8/c1", B, a, 2);
  REQUIRE(net.links.size() == 16);
  // Two links a chip: every rank injects 2B, the flows split over both.
  const double full = simulate("all-reduce", "in-network", net, S, "minimal", {}, P);
  CHECK(close(full, (P + 1) * 2 * a + (in_network_time(n, P, S, B, a) - (P + 1) * 2 * a) / 2));
  // One of chip 3's links fails: its share moves at B, which sets every slot.
  topo::Faults f;
  for (const topo::Link& l : net.links)
    if (l.a == 3 || l.b == 3) {
      f.links.push_back({l.id, "explicit"});
      break;
    }
  const double faulty = simulate("all-reduce", "in-network", net, S, "minimal", f, P);
  CHECK(close(faulty, in_network_time(n, P, S, B, a)));
  // Both fail: chip 3 has no way to the switch, and cannot be a rank of it.
  topo::Faults both;
  for (const topo::Link& l : net.links)
    if (l.a == 3 || l.b == 3) both.links.push_back({l.id, "explicit"});
  auto fn = test::routing::build("minimal", net, both);
  CHECK(kind_of([&] { schedule("all-reduce", "in-network", net, S, *fn, both); }) ==
        ErrorKind::Infeasible);
}

TEST_CASE("in-network needs a switch the whole group shares; hierarchical uses it inside",
          "[coll][ranks][in-network]") {
  const double B = 50e9, a = 1e-6, S = 64 * 1048576.0;
  // 32 chips, two leaves of 16, boards of 4.
  const topo::Network ft = network("fat-tree", 32, "fat-tree:2L-k8-osr1/c4", B, a);
  auto fn = test::routing::build("dmodk", ft, {});
  CHECK(kind_of([&] { schedule("all-reduce", "in-network", ft, S, *fn); }) ==
        ErrorKind::Infeasible);
  coll::Request req;
  req.collective = "all-reduce";
  req.algorithm = "in-network";
  req.bytes_per_node = static_cast<std::int64_t>(S);
  req.group = "board";
  const coll::Schedule s = coll::generate(req, ft, {}, fn.get());
  const coll::RankSchedule& r = s.stages->front().parts.front();
  REQUIRE(r.groups.size() == 8);
  for (std::size_t g = 0; g < r.groups.size(); ++g) {
    CAPTURE(g);
    const std::int64_t w = r.switches[g];
    CHECK(ft.nodes[static_cast<std::size_t>(w)].role == "leaf");
    for (std::int64_t c : r.groups[g])
      CHECK(std::any_of(ft.links.begin(), ft.links.end(), [&](const topo::Link& l) {
        return (l.a == c && l.b == w) || (l.b == c && l.a == w);
      }));
  }
  // Every board reduces in its leaf at once: a board's 4 chips own their links, so each group
  // takes the single switch's time for 4 ranks.
  coll::RankProgram p(s, ft, {}, *fn);
  const double t = sim::simulate_analytic(p, ft, {}).time_s;
  CHECK(close(t, in_network_time(4, 32, S, B, a)));
  // Hierarchical: in-network reduce-scatter inside each board (S up, S/4 down), a ring across
  // the boards' shards, in-network all-gather back.
  req.group = "all";
  req.algorithm = "hierarchical";
  req.hierarchy = "board";
  req.level_algorithms = {"in-network", "ring"};
  const coll::Schedule h = coll::generate(req, ft, {}, fn.get());
  REQUIRE(h.stages->size() == 3);
  CHECK(coll::uses_switch(h));
  CHECK(h.stages->at(0).parts.front().switches.size() == 8);
  CHECK(h.stages->at(1).parts.front().switches.empty());
}

TEST_CASE("in-network schedules are verified like any other: mutants fail where they go wrong",
          "[coll][ranks][in-network]") {
  const coll::AlgorithmInfo* entry = coll::find_rank_algorithm("in-network");
  REQUIRE(entry);
  const coll::RankForm* alg = &*entry->ranks;
  const std::int64_t n = 4, P = 3;
  const coll::RankSchedule good = alg->generate("all-reduce", n, 0, P);
  REQUIRE(good.blocks == n * P);
  REQUIRE(good.steps.size() == static_cast<std::size_t>(P + 1));
  auto verdict = [](const coll::RankSchedule& r, const std::string& c = "all-reduce") {
    try {
      coll::verify_rank_semantics(r, c, ErrorKind::Input, "/s");
      return std::string("ok");
    } catch (const Error& e) {
      return e.where() + ": " + e.what();
    }
  };
  CHECK(verdict(good) == "ok");
  CHECK(verdict(alg->generate("reduce-scatter", n, 0, 0), "reduce-scatter") == "ok");
  CHECK(verdict(alg->generate("all-gather", n, 0, 0), "all-gather") == "ok");
  // The last multicast left out: chunk P-1 never reaches the ranks that do not own it.
  coll::RankSchedule cut = good;
  cut.steps.pop_back();
  CHECK_THAT(verdict(cut), Catch::StartsWith("/s: rank 0 ends without block 9 complete"));
  // Multicasting chunk 1 in the step that reduces it: its shares are not complete yet.
  coll::RankSchedule early = good;
  early.steps[1].transfers[1].offset = n; // chunk 1 instead of chunk 0
  CHECK_THAT(verdict(early),
             Catch::Contains("/s/steps/1/transfers/1") && Catch::Contains("before it is complete"));
  // Reducing chunk 0 again: its owners would count every contribution twice.
  coll::RankSchedule twice = good;
  twice.steps[2].transfers.push_back(twice.steps[0].transfers[0]);
  CHECK_THAT(verdict(twice), Catch::Contains("/s/steps/2/transfers/2") && Catch::Contains("twice"));
  // A transfer via the switch does not serve an all-to-all or a broadcast.
  coll::RankSchedule bc = alg->generate("all-gather", n, 0, 0);
  CHECK_THAT(verdict(bc, "broadcast"), Catch::Contains("via the switch"));
}

TEST_CASE("schedules between ranks by orbits: the quotient gives what every flow gives",
          "[coll][ranks][symmetry]") {
  const double S = 3 * 1048576.0;
  struct Net {
    std::string family, id, routing;
    std::int64_t n, radix;
  };
  // Every group chip_groups() finds: torus translations (DOR and minimal), the hypercube's XOR
  // translations, the full mesh's and single switch's rotations and XOR translations (parallel
  // links too), HyperX's coordinate translations and XOR translations (chips per switch too),
  // a mesh's reflections (of its even dimensions only, under DOR and minimal routing).
  const std::vector<Net> nets = {
      {"torus", "torus:4x4/b1x1", "dor", 16, 1},
      {"torus", "torus:4x4/b1x1", "minimal", 16, 1},
      {"torus", "torus:2x4x2/b1x1x1", "minimal", 16, 1},
      {"hypercube", "hypercube:n4", "minimal", 16, 1},
      {"full-mesh", "full-mesh:8/c1", "minimal", 8, 1},
      {"single-switch", "single-switch:8/c1", "minimal", 8, 1},
      {"single-switch", "single-switch:8/c1", "minimal", 8, 2},
      {"hyperx", "hyperx:4x4-t1/c1", "minimal", 16, 1},
      {"hyperx", "hyperx:2x4-t2/c1", "minimal", 16, 1},
      {"hyperx", "hyperx:2x3-t2/c1", "minimal", 12, 1},
      {"mesh", "mesh:4x4/b1x1", "dor", 16, 1},
      {"mesh", "mesh:4x4/b1x1", "minimal", 16, 1},
      {"mesh", "mesh:3x4/b1x1", "dor", 12, 1},
      {"ring", "ring:16/c1", "dor", 16, 1},
  };
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"all-reduce", "direct"},  {"reduce-scatter", "direct"},        {"all-gather", "direct"},
      {"all-to-all", "direct"},  {"all-to-all", "pairwise"},          {"all-to-all", "bruck"},
      {"all-gather", "bruck"},   {"all-reduce", "halving-doubling"},  {"all-reduce", "ring"},
      {"broadcast", "binomial"}, {"all-reduce", "double-binary-tree"}};
  for (const Net& x : nets) {
    const topo::Network net = network(x.family, x.n, x.id, 50e9, 1e-6, x.radix);
    auto fn = test::routing::build(x.routing, net, {});
    std::int64_t quotients = 0;
    for (const auto& [c, a] : runs) {
      CAPTURE(x.id, x.routing, x.radix, c, a);
      const coll::Schedule s = schedule(c, a, net, S, *fn);
      if (!s.stages) continue; // a torus's own ring
      const coll::RankProgram whole(s, net, {}, *fn, route::Ecmp::Split, 0, false);
      const coll::RankProgram quo(s, net, {}, *fn, route::Ecmp::Split, 0, true);
      CHECK(whole.orbits() == nullptr);
      const sim::AnalyticResult rw = sim::simulate_analytic(whole, net, {});
      const sim::AnalyticResult rq = sim::simulate_analytic(quo, net, {});
      test::check_same_analytic(rq, rw, S);
      if (const sim::FlowOrbits* o = quo.orbits()) {
        ++quotients;
        CHECK(o->multiplicity * 1 <= net.n_chip);
        sim::StepFlows fw, fq;
        whole.flows(0, fw);
        quo.flows(0, fq);
        CHECK(fq.flows.size() * static_cast<std::size_t>(o->multiplicity) == fw.flows.size());
      }
      // Every direct step (all pairs) maps onto itself under any of these groups.
      if (a == "direct") CHECK(quo.orbits() != nullptr);
    }
    CHECK(quotients >= 4);
  }
  // Not with faults, nor with ECMP by hash, nor where a step is not symmetric (the ring's
  // shift in packaging order on a hypercube is no XOR translation).
  const topo::Network hc = network("hypercube", 16, "hypercube:n4");
  auto fn = test::routing::build("minimal", hc, {});
  const coll::Schedule d = schedule("all-reduce", "direct", hc, S, *fn);
  CHECK(coll::RankProgram(d, hc, {}, *fn, route::Ecmp::Hash, 1, true).orbits() == nullptr);
  CHECK(coll::RankProgram(schedule("all-reduce", "ring", hc, S, *fn), hc, {}, *fn,
                          route::Ecmp::Split, 0, true)
            .orbits() == nullptr);
  topo::Faults f;
  f.links.push_back({3, "explicit"});
  auto ff = test::routing::build("minimal", hc, f);
  const coll::Schedule df = schedule("all-reduce", "direct", hc, S, *ff, f);
  CHECK(coll::RankProgram(df, hc, f, *ff, route::Ecmp::Split, 0, true).orbits() == nullptr);
}

TEST_CASE("hierarchical by dimensions: a ring along each dimension in turn, in closed form",
          "[coll][ranks][hierarchical]") {
  // ASTRA-sim's one level per dimension, between ranks over DOR: reduce-scatter along the rings
  // of dimension 0, then 1 ..., all-reduce along the last, all-gather back. Every step of level k
  // puts one flow of S_k / N_k on each + link of dimension k (the wrap-around is a link too), where
  // S_k = S / (N_0 ... N_{k-1}): a level costs (N_k - 1) steps each way of a + S_k / (N_k B).
  const double B = 50e9, a = 1e-6, S = 6 << 20;
  for (const std::vector<int>& dims : std::vector<std::vector<int>>{{4, 4, 4}, {3, 4, 5}, {8, 2}}) {
    std::string shape;
    for (int d : dims) {
      if (!shape.empty()) shape += 'x';
      shape += std::to_string(d);
    }
    const topo::Network net = test::torus_of(shape, B, a);
    auto fn = test::routing::build("dor", net);
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      CAPTURE(shape, c);
      coll::Request h;
      h.collective = c;
      h.algorithm = "hierarchical";
      h.hierarchy = "dims";
      h.bytes_per_node = static_cast<std::int64_t>(S);
      const coll::Schedule hs = coll::generate(h, net, {}, fn.get());
      REQUIRE(hs.stages);
      const std::size_t D = dims.size();
      const bool ar = std::string(c) == "all-reduce";
      CHECK(hs.stages->size() == (ar ? 2 * D - 1 : D));
      double want = 0, share = S;
      for (int n : dims) {
        share /= n;
        want += (ar ? 2 : 1) * (n - 1) * (a + share / B);
      }
      const coll::RankProgram hp(hs, net, {}, *fn);
      CHECK(close(sim::simulate_analytic(hp, net).time_s, want));
      // Level 0's groups are the rings of dimension 0, in ring order: chips 0 .. N_0 - 1 first.
      const coll::RankStage& inner =
          ar || std::string(c) == "reduce-scatter" ? hs.stages->front() : hs.stages->back();
      std::vector<std::int64_t> ring0(static_cast<std::size_t>(dims[0]));
      for (int k = 0; k < dims[0]; ++k) ring0[static_cast<std::size_t>(k)] = k;
      CHECK(inner.parts.front().groups.front() == ring0);
    }
  }
}

TEST_CASE("hierarchical by dimensions with a bidirectional ring at every level is the torus's "
          "Ring",
          "[coll][ranks][hierarchical]") {
  // The torus form's Ring (halves each way, reduce-scatter dimension by dimension, all-gather
  // back) and the schedule between ranks that says the same (one level per dimension, each a
  // bidirectional ring over DOR), each simulated by its own program: the same time and the same
  // bytes on every channel, odd sizes included. The bridge from the torus algorithms to the
  // model every network shares. (Not for a dimension of 2: its two links join the same two
  // chips, the torus form sends one half over each, while a transfer between ranks follows the
  // routing's one path between them.)
  for (const char* shape : {"4x4x4", "3x4x5", "8x3"}) {
    const topo::Network net = test::torus_of(shape, 50e9, 1e-6);
    auto fn = test::routing::build("dor", net);
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      CAPTURE(shape, c);
      coll::Request t;
      t.collective = c;
      t.algorithm = "ring";
      t.dim_scheduling = "sequential";
      t.bytes_per_node = 6 << 20;
      const coll::Schedule ts = coll::generate(t, net, {}, fn.get());
      REQUIRE(!ts.stages);
      coll::Request h = t;
      h.algorithm = "hierarchical";
      h.hierarchy = "dims";
      h.level_algorithms = {"bidirectional-ring", "bidirectional-ring"};
      const coll::Schedule hs = coll::generate(h, net, {}, fn.get());
      REQUIRE(hs.stages);
      REQUIRE(hs.verification);
      const coll::ScheduleProgram tp(ts, net);
      const coll::RankProgram hp(hs, net, {}, *fn);
      const sim::AnalyticResult a = sim::simulate_analytic(tp, net);
      const sim::AnalyticResult b = sim::simulate_analytic(hp, net);
      CHECK(close(a.time_s, b.time_s, 1e-12));
      CHECK(a.steps == b.steps);
      REQUIRE(a.channel_bytes.size() == b.channel_bytes.size());
      for (std::size_t ch = 0; ch < a.channel_bytes.size(); ++ch)
        CHECK(std::abs(a.channel_bytes[ch] - b.channel_bytes[ch]) <= 1e-9 * (6 << 20));
    }
  }
}

TEST_CASE("hierarchical over three levels composes and is refused where levels differ",
          "[coll][ranks][hierarchical]") {
  // A 64-chip fat-tree in boards of 4, racks of 4 boards: inside boards, across the boards of
  // a rack, across racks. Generation verifies what every chip ends with (rank_compose.hpp).
  const topo::Network net = network("fat-tree", 64, "fat-tree:2L-k8-osr1/c4");
  auto fn = test::routing::build("minimal", net);
  std::set<std::int64_t> racks, boards;
  for (std::int64_t c = 0; c < 64; ++c) {
    racks.insert(net.nodes[static_cast<std::size_t>(c)].rack);
    boards.insert(net.nodes[static_cast<std::size_t>(c)].board);
  }
  coll::Request h;
  h.algorithm = "hierarchical";
  h.hierarchy = "board,rack";
  h.bytes_per_node = 6 << 20;
  const std::int64_t b = 64 / static_cast<std::int64_t>(boards.size());
  const std::int64_t m = static_cast<std::int64_t>(boards.size() / racks.size());
  const std::int64_t r = static_cast<std::int64_t>(racks.size());
  CAPTURE(b, m, r);
  const std::size_t L = 1 + (m > 1) + (r > 1);
  for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
    h.collective = c;
    const coll::Schedule s = coll::generate(h, net, {}, fn.get());
    REQUIRE(s.stages);
    CHECK(s.stages->size() == (std::string(c) == "all-reduce" ? 2 * L - 1 : L));
    CHECK(s.verification->delivered);
  }
  // One algorithm per level, or two; three for two levels is refused.
  h.collective = "all-reduce";
  h.level_algorithms = {"ring", "halving-doubling", "ring"};
  if (L == 3) CHECK(coll::generate(h, net, {}, fn.get()).stages->size() == 5);
  h.level_algorithms = {"ring", "ring", "ring", "ring"};
  CHECK(kind_of([&] { coll::generate(h, net, {}, fn.get()); }) == ErrorKind::Usage);
  h.level_algorithms = {"ring", "ring"};
  h.hierarchy = "rack,board";
  CHECK(kind_of([&] { coll::generate(h, net, {}, fn.get()); }) == ErrorKind::Usage);
  h.hierarchy = "dims";
  CHECK(kind_of([&] { coll::generate(h, net, {}, fn.get()); }) == ErrorKind::Usage);
  // A failed chip leaves its board smaller: levels of unequal size.
  h.hierarchy = "board,rack";
  topo::Faults f;
  f.chips.push_back({5, "explicit"});
  auto ff = test::routing::build("minimal", net, f);
  CHECK(kind_of([&] { coll::generate(h, net, f, ff.get()); }) == ErrorKind::Infeasible);
}

TEST_CASE("routes between ranks are traced once per orbit of pairs on a symmetric network",
          "[coll][ranks][symmetry]") {
  // Direct all-reduce: every rank sends to every other, n (n - 1) pairs. On a ring under
  // minimal routing (the half-way pairs split both ways) the rotations map the pair (a, a + k)
  // onto (b, b + k): one trace per distance k, n - 1. Under DOR the half-way tie is broken by
  // the source's parity, so only the even rotations keep the routes: 2 (n - 1). On a hypercube
  // the XOR translations map (a, b) onto (a ^ x, b ^ x): one per a ^ b, n - 1.
  struct Net {
    std::string family, id, routing;
    std::int64_t n, traced;
  };
  for (const Net& x :
       {Net{"ring", "ring:16/c1", "minimal", 16, 15}, Net{"ring", "ring:16/c1", "dor", 16, 30},
        Net{"hypercube", "hypercube:n4", "minimal", 16, 15}}) {
    CAPTURE(x.id, x.routing);
    const topo::Network net = network(x.family, x.n, x.id);
    auto fn = test::routing::build(x.routing, net, {});
    const coll::Schedule s = schedule("all-reduce", "direct", net, 1 << 20, *fn);
    REQUIRE(s.verification);
    CHECK(s.verification->hop_transfers_checked == x.n * (x.n - 1));
    const std::string decided = std::to_string(x.n * (x.n - 1) - x.traced) + " of the " +
                                std::to_string(x.n * (x.n - 1)) +
                                " pairs' routes decided by symmetry";
    CHECK(s.verification->method.find(decided) != std::string::npos);
  }
  // With a failed link no symmetry is claimed: every pair is traced, and the ring routes the
  // pairs across the failed link the other way round.
  const topo::Network ring = network("ring", 16, "ring:16/c1");
  topo::Faults f;
  f.links.push_back({0, "explicit"});
  auto fn = test::routing::build("minimal", ring, f);
  const coll::Schedule s = schedule("all-reduce", "direct", ring, 1 << 20, *fn, f);
  REQUIRE(s.verification);
  CHECK(s.verification->hop_transfers_checked == 16 * 15);
  CHECK(s.verification->method.find("symmetry") == std::string::npos);
}
