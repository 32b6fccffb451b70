// The analytic engine's max-min fair sharing against a water-filling reference written here,
// on random instances: multi-hop flows over random networks whose links have unequal
// bandwidths. The reference raises every unfrozen flow's rate by the same increment until some
// channel saturates, freezes that channel's flows, and repeats (textbook progressive filling);
// a second reference runs the flows to completion, re-filling at every drain. Checked:
// - every flow's completion time equals the reference's (each flow is a step of its own);
// - the engine's initial rates (measured: a flow with a tiny amount of data drains before
//   anything else changes, so its rate is bytes / time) equal the reference's, are feasible,
//   and have the bottleneck property: every flow crosses a saturated channel on which no flow
//   has a higher rate.
#include "sim/analytic.hpp"

#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace icnkit;
using namespace icnkit::sim;

namespace {

struct Instance {
  topo::Network net;
  std::vector<std::vector<std::int64_t>> paths; // per flow, its directed channels
  std::vector<double> bytes;
};

// Uniform in [0, 1) from the generator's raw bits (no library distribution: the same numbers
// everywhere).
double unit(std::mt19937_64& g) {
  return static_cast<double>(g() >> 11) * 0x1.0p-53;
}

// A connected random network of `nodes` nodes (a spanning path plus extra links, parallel ones
// allowed) with bandwidths spread over a decade, and `flows` flows along random simple walks of
// 1 to 5 hops.
Instance random_instance(std::uint64_t seed, int nodes, int extra_links, int flows) {
  std::mt19937_64 g(seed);
  Instance in;
  topo::Network& n = in.net;
  n.family = "test";
  n.n_chip = nodes;
  for (int i = 0; i < nodes; ++i) {
    topo::Node v;
    v.id = i;
    n.nodes.push_back(v);
  }
  auto add_link = [&](std::int64_t a, std::int64_t b) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = a;
    l.b = b;
    l.bandwidth_bytes_per_s = 1e9 * (1 + 9 * unit(g));
    l.latency_s = 0;
    n.links.push_back(l);
  };
  for (int i = 1; i < nodes; ++i) add_link(static_cast<std::int64_t>(g() % i), i);
  for (int k = 0; k < extra_links; ++k) {
    const auto a = static_cast<std::int64_t>(g() % nodes);
    auto b = static_cast<std::int64_t>(g() % (nodes - 1));
    if (b >= a) ++b;
    add_link(a, b);
  }
  // Channels leaving each node: 2l for a -> b, 2l+1 for b -> a.
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> out(
      static_cast<std::size_t>(nodes)); // (channel, next node)
  for (auto& l : n.links) {
    out[static_cast<std::size_t>(l.a)].push_back({2 * l.id, l.b});
    out[static_cast<std::size_t>(l.b)].push_back({2 * l.id + 1, l.a});
  }
  while (static_cast<int>(in.paths.size()) < flows) {
    const int want = 1 + static_cast<int>(g() % 5);
    std::int64_t at = static_cast<std::int64_t>(g() % nodes);
    std::set<std::int64_t> visited{at};
    std::vector<std::int64_t> path;
    while (static_cast<int>(path.size()) < want) {
      std::vector<std::pair<std::int64_t, std::int64_t>> options;
      for (auto& o : out[static_cast<std::size_t>(at)])
        if (!visited.count(o.second)) options.push_back(o);
      if (options.empty()) break;
      auto [ch, next] = options[g() % options.size()];
      path.push_back(ch);
      visited.insert(next);
      at = next;
    }
    if (path.empty()) continue;
    in.paths.push_back(path);
    in.bytes.push_back(1e6 * (1 + 99 * unit(g)));
  }
  return in;
}

double bandwidth(const topo::Network& n, std::int64_t ch) {
  return n.links[static_cast<std::size_t>(ch / 2)].bandwidth_bytes_per_s;
}

// Max-min fair rates of the flows `active` (indices into paths) by progressive filling.
std::vector<double> water_fill(const topo::Network& n,
                               const std::vector<std::vector<std::int64_t>>& paths,
                               const std::vector<std::size_t>& active) {
  std::vector<double> rate(paths.size(), 0.0);
  std::map<std::int64_t, double> left; // capacity not yet handed out
  for (std::size_t f : active)
    for (std::int64_t ch : paths[f]) left[ch] = bandwidth(n, ch);
  std::set<std::size_t> growing(active.begin(), active.end());
  while (!growing.empty()) {
    std::map<std::int64_t, int> users;
    for (std::size_t f : growing)
      for (std::int64_t ch : paths[f]) ++users[ch];
    double inc = INFINITY;
    for (auto& [ch, k] : users) inc = std::min(inc, left[ch] / k);
    for (std::size_t f : growing) rate[f] += inc;
    for (auto& [ch, k] : users) left[ch] -= inc * k;
    std::set<std::size_t> frozen;
    for (auto& [ch, k] : users)
      if (left[ch] <= 1e-12 * bandwidth(n, ch))
        for (std::size_t f : growing)
          if (std::count(paths[f].begin(), paths[f].end(), ch)) frozen.insert(f);
    REQUIRE(!frozen.empty());
    for (std::size_t f : frozen) growing.erase(f);
  }
  return rate;
}

// Completion time of every flow, all starting at 0, re-filling whenever one drains.
std::vector<double> reference_completions(const Instance& in) {
  const std::size_t F = in.paths.size();
  std::vector<double> left = in.bytes, done(F, 0.0);
  std::vector<std::size_t> active(F);
  for (std::size_t f = 0; f < F; ++f) active[f] = f;
  double t = 0;
  while (!active.empty()) {
    const std::vector<double> rate = water_fill(in.net, in.paths, active);
    double dt = INFINITY;
    for (std::size_t f : active) dt = std::min(dt, left[f] / rate[f]);
    t += dt;
    std::vector<std::size_t> still;
    for (std::size_t f : active) {
      left[f] -= rate[f] * dt;
      if (left[f] <= 1e-9 * in.bytes[f])
        done[f] = t;
      else
        still.push_back(f);
    }
    active = std::move(still);
  }
  return done;
}

// One step per flow, all without dependencies.
class FlowsProgram : public Program {
public:
  FlowsProgram(const std::vector<std::vector<std::int64_t>>& paths, std::vector<double> bytes)
      : paths_(paths), bytes_(std::move(bytes)), infos_(paths.size()) {}
  const std::vector<std::string>& phases() const override { return names_; }
  const std::vector<StepInfo>& steps() const override { return infos_; }
  void flows(std::size_t step, StepFlows& out) const override {
    out.clear();
    out.add(0, 0, bytes_[step], paths_[step]);
  }

private:
  const std::vector<std::vector<std::int64_t>>& paths_;
  std::vector<double> bytes_;
  std::vector<std::string> names_{"flows"};
  std::vector<StepInfo> infos_;
};

bool close(double got, double want, double rel) {
  return std::abs(got - want) <= rel * std::abs(want);
}

} // namespace

TEST_CASE("max-min: random unequal instances against water-filling", "[sim][maxmin]") {
  std::int64_t instances = 0, multi_level = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int nodes = 4 + static_cast<int>(seed % 7);
    const Instance in = random_instance(seed, nodes, nodes, 6 + static_cast<int>(seed % 13));
    INFO("seed " << seed << ": " << nodes << " nodes, " << in.net.links.size() << " links, "
                 << in.paths.size() << " flows");
    const std::size_t F = in.paths.size();
    std::vector<std::size_t> all(F);
    for (std::size_t f = 0; f < F; ++f) all[f] = f;
    const std::vector<double> want = water_fill(in.net, in.paths, all);
    ++instances;
    if (std::set<double>(want.begin(), want.end()).size() > 2) ++multi_level;

    // The whole run: every flow ends when the reference says.
    const std::vector<double> ends = reference_completions(in);
    FlowsProgram prog(in.paths, in.bytes);
    const AnalyticResult r = simulate_analytic(prog, in.net);
    REQUIRE(r.step_end_s.size() == F);
    for (std::size_t f = 0; f < F; ++f) {
      INFO("flow " << f << " (" << in.paths[f].size() << " hops)");
      CHECK(close(r.step_end_s[f], ends[f], 1e-9));
    }

    // The engine's rates at t = 0, measured one flow at a time.
    std::vector<double> rate(F);
    for (std::size_t f = 0; f < F; ++f) {
      std::vector<double> bytes(F, 1e12);
      bytes[f] = 1.0;
      FlowsProgram probe(in.paths, bytes);
      const AnalyticResult p = simulate_analytic(probe, in.net);
      rate[f] = 1.0 / p.step_end_s[f];
      INFO("flow " << f);
      CHECK(close(rate[f], want[f], 1e-9));
    }
    // Feasible, and every flow has a bottleneck: a saturated channel on which it has the
    // largest rate.
    std::map<std::int64_t, double> load;
    for (std::size_t f = 0; f < F; ++f)
      for (std::int64_t ch : in.paths[f]) load[ch] += rate[f];
    for (auto& [ch, l] : load) CHECK(l <= bandwidth(in.net, ch) * (1 + 1e-9));
    for (std::size_t f = 0; f < F; ++f) {
      bool bottleneck = false;
      for (std::int64_t ch : in.paths[f]) {
        if (load[ch] < bandwidth(in.net, ch) * (1 - 1e-9)) continue;
        bool largest = true;
        for (std::size_t g = 0; g < F; ++g)
          if (std::count(in.paths[g].begin(), in.paths[g].end(), ch) &&
              rate[g] > rate[f] * (1 + 1e-9))
            largest = false;
        bottleneck = bottleneck || largest;
      }
      INFO("flow " << f);
      CHECK(bottleneck);
    }
  }
  CHECK(instances == 40);
  CHECK(multi_level >= 30); // the instances exercise several fair-share levels
}

TEST_CASE("max-min: the water-filling reference on a hand-solved instance", "[sim][maxmin]") {
  // A line 0 - 1 - 2 - 3 with bandwidths 6, 2, 9. Flows: A 0->3 (all three links), B 1->2,
  // C 2->3, D 0->1, E 0->1. Link 1-2 (2 B/s) carries A and B: 1 each. Link 0-1 (6) then has
  // 6 - 1 = 5 for D and E: 2.5 each. Link 2-3 (9): 9 - 1 = 8 for C.
  Instance in;
  in.net.n_chip = 4;
  for (int i = 0; i < 4; ++i) {
    topo::Node v;
    v.id = i;
    in.net.nodes.push_back(v);
  }
  const double bw[] = {6, 2, 9};
  for (int i = 0; i < 3; ++i) {
    topo::Link l;
    l.id = i, l.a = i, l.b = i + 1, l.bandwidth_bytes_per_s = bw[i], l.latency_s = 0;
    in.net.links.push_back(l);
  }
  in.paths = {{0, 2, 4}, {2}, {4}, {0}, {0}};
  const std::vector<double> rate = water_fill(in.net, in.paths, {0, 1, 2, 3, 4});
  CHECK(rate == std::vector<double>{1, 1, 8, 2.5, 2.5});
}

namespace {

// Steps of several flows each, some split over two paths with unequal shares (ECMP as a fluid),
// steps depending on earlier ones, so flows start while others run and drain at many instants.
class SplitProgram : public Program {
public:
  SplitProgram(const Instance& in, std::uint64_t seed) {
    std::mt19937_64 g(seed);
    const std::size_t F = in.paths.size();
    for (std::size_t f = 0; f < F; ++f) {
      const std::size_t s = f / 3; // three flows per step
      if (s >= steps_.size()) {
        steps_.emplace_back();
        flows_.emplace_back();
        if (s > 0 && unit(g) < 0.5)
          steps_.back().after.push_back(static_cast<std::int64_t>(g() % s));
      }
      Split x;
      x.bytes = in.bytes[f];
      const std::vector<std::int64_t>& a = in.paths[f];
      const std::vector<std::int64_t>& b = in.paths[(f + 1) % F];
      const double wa = unit(g) < 0.5 ? 1.0 : 0.25 + 0.5 * unit(g);
      std::map<std::int64_t, double> share;
      for (std::int64_t ch : a) share[ch] += wa;
      if (wa < 1)
        for (std::int64_t ch : b) share[ch] += 1 - wa;
      for (auto& [ch, w] : share) {
        x.chans.push_back(ch);
        x.shares.push_back(std::min(w, 1.0));
      }
      flows_.back().push_back(x);
    }
  }
  const std::vector<std::string>& phases() const override { return names_; }
  const std::vector<StepInfo>& steps() const override { return steps_; }
  void flows(std::size_t step, StepFlows& out) const override {
    out.clear();
    for (const Split& x : flows_[step]) out.add_split(0, 0, x.bytes, x.chans, x.shares);
  }

private:
  struct Split {
    double bytes = 0;
    std::vector<std::int64_t> chans;
    std::vector<double> shares;
  };
  std::vector<std::vector<Split>> flows_;
  std::vector<std::string> names_{"flows"};
  std::vector<StepInfo> steps_;
};

} // namespace

TEST_CASE("max-min: re-rating only the flows at or above the drained ones' rate = from scratch",
          "[sim][maxmin]") {
  std::int64_t incremental = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int nodes = 4 + static_cast<int>(seed % 7);
    const Instance in = random_instance(seed, nodes, nodes, 12 + static_cast<int>(seed % 17));
    INFO("seed " << seed << ": " << in.paths.size() << " flows");
    // Unweighted (one path each, every flow its own step) and weighted with dependencies.
    FlowsProgram one_path(in.paths, in.bytes);
    SplitProgram split(in, seed);
    for (const Program* p :
         {static_cast<const Program*>(&one_path), static_cast<const Program*>(&split)}) {
      AnalyticOptions scratch;
      scratch.incremental = false;
      const AnalyticResult a = simulate_analytic(*p, in.net);
      const AnalyticResult b = simulate_analytic(*p, in.net, scratch);
      CHECK(b.incremental_computations == 0);
      incremental += a.incremental_computations;
      CHECK(a.events == b.events);
      CHECK(close(a.time_s, b.time_s, 1e-9));
      REQUIRE(a.step_end_s.size() == b.step_end_s.size());
      for (std::size_t s = 0; s < a.step_end_s.size(); ++s) {
        INFO("step " << s);
        CHECK(close(a.step_start_s[s], b.step_start_s[s], 1e-9));
        CHECK(close(a.step_end_s[s], b.step_end_s[s], 1e-9));
      }
      for (std::size_t c = 0; c < a.channel_bytes.size(); ++c)
        CHECK(close(a.channel_bytes[c] + 1, b.channel_bytes[c] + 1, 1e-9));
    }
  }
  CHECK(incremental > 200); // the cases do exercise the incremental path
}

TEST_CASE("max-min: flows that drain within rounding of one instant retire together",
          "[sim][maxmin]") {
  // Two flows alone on links of 4 and 12 GB/s whose durations are equal but for rounding:
  // x / 4e9 and 3x / 12e9 come out one unit in the last place apart. Both retire at the first
  // instant (the second has less than 1e-9 of its bytes left), in the incremental engine as in
  // the reference, so the run has one drain instant, not two, and the steps end together. and the
  // steps end together.
  const double x = 90142745.76114836, y = 270428237.2834451;
  REQUIRE(x / 4e9 != y / 12e9); // the case is the rounding one
  Instance in;
  topo::Network& n = in.net;
  n.family = "test";
  n.n_chip = 2;
  for (int i = 0; i < 2; ++i) {
    topo::Node v;
    v.id = i;
    n.nodes.push_back(v);
  }
  for (double bw : {4e9, 12e9}) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = 0;
    l.b = 1;
    l.bandwidth_bytes_per_s = bw;
    l.latency_s = 0;
    n.links.push_back(l);
  }
  in.paths = {{0}, {2}};
  in.bytes = {x, y};
  FlowsProgram prog(in.paths, in.bytes);
  AnalyticOptions scratch;
  scratch.incremental = false;
  for (const AnalyticOptions& o : {AnalyticOptions{}, scratch}) {
    const AnalyticResult r = simulate_analytic(prog, in.net, o);
    CHECK(r.events == 2); // one drain instant, then both steps' ends at one instant
    CHECK(r.step_end_s[0] == r.step_end_s[1]);
  }
}
