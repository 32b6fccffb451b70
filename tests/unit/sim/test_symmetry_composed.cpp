// sim/chip_group on composed networks: the domain rotations inside a unit and across units are
// automorphisms rail routing keeps (checked here on every pair's spread against a node map
// written independently from the ids), and a program simulated one flow per orbit, with the
// channels the group fixes at 1/stabilizer of their bandwidth, gives what every flow gives.
#include "coll/generate.hpp"
#include "coll/rank_program.hpp"
#include "route/spread.hpp"
#include "sim/analytic.hpp"
#include "sim/chip_group.hpp"
#include "topo/composed.hpp"
#include "topo/enumerate.hpp"

#include "same_analytic.hpp"
#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>

using namespace icnkit;

namespace {

topo::Network composed(const std::string& up, const std::string& out) {
  auto cc = topo::composed_candidate(topo::parse_composition(up, out), "test");
  return topo::generate(cc.first, cc.second, {});
}

struct Case {
  std::string up, out;
  std::int64_t order;  // the group's order: domains, or the unit where units differ in spines
  bool fixed_channels; // some channel is fixed by a non-trivial element
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      // 2 units of 4 domains, two parallel links per leaf-spine pair.
      {"switch:4,switches=2", "rail-optimized:domains=8,unit=4,radix=16", 8, true},
      {"switch:4,switches=2", "rail-optimized:domains=8,unit=2,radix=16,planes=2", 8, true},
      // 4:1 oversubscribed leaves: the fixed leaf-spine channels are the bottleneck.
      {"switch:4,switches=2", "rail-optimized:domains=8,unit=4,radix=16,up=1", 8, true},
      // One leaf per rail: every domain in one unit, every scale-out channel moved.
      {"switch:4,switches=2", "rail-only:domains=4,radix=8", 4, false},
      // Per-rail spines over every unit (2 tiers rail-only; 3 tiers with one block per rail).
      {"switch:4,switches=2", "rail-only:domains=8,unit=2,radix=8,tiers=2", 8, true},
      {"switch:4,switches=2", "rail-optimized:domains=8,unit=2,radix=8,tiers=3", 8, true},
      // 3 tiers, two blocks of 4 units per rail, each on its own spines: the unit rotation
      // would move a block's leaves onto the other's spines, so the within-unit one alone.
      {"switch:4,switches=2", "rail-optimized:domains=16,unit=2,radix=8,tiers=3", 2, true},
      {"none:1", "rail-optimized:domains=16,unit=4,radix=8", 16, true},
      {"ring:4", "rail-optimized:domains=4,unit=2,radix=16,nics=2", 4, true},
  };
  return c;
}

// The node map of the domain permutation `to` written from the ids (chips domain-major, then
// every domain's scale-up switches, then the scale-out switches), scale-out switches by `out`.
template <class To, class Out>
std::vector<std::int64_t> node_map(const topo::Network& n, const topo::ComposedShape& s, To to,
                                   Out out) {
  const std::int64_t D = s.p.domain_chips, M = s.p.domains, S = s.up_switch_count / M;
  std::vector<std::int64_t> m(n.nodes.size());
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(m.size()); ++v) {
    if (v < n.n_chip)
      m[static_cast<std::size_t>(v)] = to(v / D) * D + v % D;
    else if (v < n.n_chip + s.up_switch_count)
      m[static_cast<std::size_t>(v)] = n.n_chip + to((v - n.n_chip) / S) * S + (v - n.n_chip) % S;
    else
      m[static_cast<std::size_t>(v)] = out(v);
  }
  return m;
}

// The channel map of a node map: the j-th link (by id) between a and b onto the j-th between
// their images, in the same direction; empty when the map is not an automorphism.
std::vector<std::int64_t> channel_map(const topo::Network& n, const std::vector<std::int64_t>& m) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> between;
  for (const topo::Link& l : n.links) between[std::minmax(l.a, l.b)].push_back(l.id);
  std::vector<std::int64_t> ch(static_cast<std::size_t>(n.channel_count()), -1);
  for (const auto& [ends, ls] : between) {
    auto it = between.find(std::minmax(m[static_cast<std::size_t>(ends.first)],
                                       m[static_cast<std::size_t>(ends.second)]));
    if (it == between.end() || it->second.size() != ls.size()) return {};
    for (std::size_t j = 0; j < ls.size(); ++j) {
      const topo::Link& l = n.links[static_cast<std::size_t>(ls[j])];
      const topo::Link& k = n.links[static_cast<std::size_t>(it->second[j])];
      const bool same = m[static_cast<std::size_t>(l.a)] == k.a;
      ch[static_cast<std::size_t>(topo::channel_of(l.id, true))] = topo::channel_of(k.id, same);
      ch[static_cast<std::size_t>(topo::channel_of(l.id, false))] = topo::channel_of(k.id, !same);
    }
  }
  return ch;
}

} // namespace

TEST_CASE("composed networks: rail routing maps every spread onto its image under the domain "
          "rotations",
          "[symmetry][composed]") {
  for (const Case& c : cases()) {
    const topo::Network n = composed(c.up, c.out);
    const topo::ComposedShape s = topo::composed_shape_of(n, "test");
    const std::int64_t M = s.p.domains, unit = s.p.unit, units = M / unit;
    const std::int64_t base = n.n_chip + s.up_switch_count,
                       per_plane = s.leaves + s.spines + s.cores;
    const std::int64_t rails = s.leaves / units;
    std::vector<std::vector<std::int64_t>> maps;
    if (unit > 1)
      maps.push_back(node_map(
          n, s, [&](std::int64_t d) { return d / unit * unit + (d + 1) % unit; },
          [](std::int64_t v) { return v; }));
    if (c.order == M && units > 1) // the leaves of unit u, rail r move to unit u + 1, rail r
      maps.push_back(node_map(
          n, s, [&](std::int64_t d) { return (d + unit) % M; },
          [&](std::int64_t v) {
            const std::int64_t k = (v - base) % per_plane;
            return k < s.leaves ? v - k + (k + rails) % s.leaves : v;
          }));
    for (const char* mode : {"pxn", "rail-aligned"}) {
      CAPTURE(c.up, c.out, mode);
      auto fn = test::routing::build("rail", n, {}, {{"rail_path", mode}});
      route::Spreader sp(*fn, n, {});
      std::vector<route::Spread> spreads(static_cast<std::size_t>(n.n_chip * n.n_chip));
      for (std::int64_t a = 0; a < n.n_chip; ++a)
        for (std::int64_t b = 0; b < n.n_chip; ++b)
          if (a != b) sp.spread(a, b, spreads[static_cast<std::size_t>(a * n.n_chip + b)]);
      for (const auto& m : maps) {
        const std::vector<std::int64_t> ch = channel_map(n, m);
        REQUIRE(!ch.empty()); // an automorphism
        for (std::int64_t a = 0; a < n.n_chip; ++a)
          for (std::int64_t b = 0; b < n.n_chip; ++b) {
            if (a == b) continue;
            const route::Spread& x = spreads[static_cast<std::size_t>(a * n.n_chip + b)];
            const route::Spread& y = spreads[static_cast<std::size_t>(
                m[static_cast<std::size_t>(a)] * n.n_chip + m[static_cast<std::size_t>(b)])];
            REQUIRE(x.delivered);
            std::map<std::int64_t, double> image, got;
            for (std::size_t k = 0; k < x.channels.size(); ++k)
              image[ch[static_cast<std::size_t>(x.channels[k])]] += x.shares[k];
            for (std::size_t k = 0; k < y.channels.size(); ++k) got[y.channels[k]] += y.shares[k];
            REQUIRE(image.size() == got.size());
            for (const auto& [chan, w] : image) {
              REQUIRE(got.count(chan) == 1);
              REQUIRE(std::abs(got[chan] - w) <= 1e-12);
            }
          }
      }
    }
  }
}

TEST_CASE("composed networks: a program by orbits, fixed channels at 1/stabilizer of their "
          "bandwidth, gives what every flow gives",
          "[symmetry][composed]") {
  const double S = 3 * 1048576.0;
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"all-to-all", "direct"},   {"all-reduce", "direct"},           {"all-gather", "direct"},
      {"all-to-all", "pairwise"}, {"all-reduce", "halving-doubling"}, {"all-reduce", "ring"},
      {"all-gather", "bruck"}};
  bool stabilized = false;
  for (const Case& c : cases()) {
    const topo::Network n = composed(c.up, c.out);
    for (const char* mode : {"pxn", "rail-aligned"}) {
      auto fn = test::routing::build("rail", n, {}, {{"rail_path", mode}});
      const std::vector<sim::ChipGroup> groups = sim::chip_groups(n, {}, *fn, route::Ecmp::Split);
      CAPTURE(c.up, c.out, mode);
      REQUIRE(groups.size() == 1);
      CHECK(groups[0].order == c.order);
      CHECK(static_cast<std::int64_t>(groups[0].sources.size()) * c.order == n.n_chip);
      CHECK(groups[0].channel_stabilizer.empty() == !c.fixed_channels);
      // Not with ECMP by hash, nor with a fault.
      CHECK(sim::chip_groups(n, {}, *fn, route::Ecmp::Hash).empty());
      topo::Faults f;
      f.links.push_back({0, "explicit"});
      CHECK(sim::chip_groups(n, f, *test::routing::build("rail", n, f, {{"rail_path", mode}}),
                             route::Ecmp::Split)
                .empty());
      for (const auto& [coll, alg] : runs) {
        CAPTURE(coll, alg);
        coll::Request req;
        req.collective = coll;
        req.algorithm = alg;
        req.bytes_per_node = static_cast<std::int64_t>(S);
        coll::Schedule sch;
        try {
          sch = coll::generate(req, n, {}, fn.get());
        } catch (const Error& e) {
          CHECK(e.kind() == ErrorKind::Infeasible); // halving-doubling on 48 chips, say
          continue;
        }
        REQUIRE(sch.stages);
        const coll::RankProgram whole(sch, n, {}, *fn, route::Ecmp::Split, 0, false);
        const coll::RankProgram quo(sch, n, {}, *fn, route::Ecmp::Split, 0, true);
        if (alg == std::string("direct")) REQUIRE(quo.orbits() != nullptr);
        if (quo.orbits() && !quo.orbits()->stabilizer.empty()) stabilized = true;
        const sim::AnalyticResult rw = sim::simulate_analytic(whole, n, {});
        const sim::AnalyticResult rq = sim::simulate_analytic(quo, n, {});
        test::check_same_analytic(rq, rw, S);
      }
    }
  }
  CHECK(stabilized);
}
