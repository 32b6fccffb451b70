// Same answer on every machine: the routing verification is the same bytes whatever the number
// of workers it is split over (1, 2, 3, 8), for every routing algorithm on a network with
// faults; and the hop tally behind its statistics is exact and order-independent.
#include "route/hop_tally.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"

#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>

using namespace icnkit;
using namespace icnkit::route;
using namespace icnkit::test::routing;

namespace {

topo::Network generated(const std::string& family, std::int64_t n_chip, const std::string& where) {
  topo::Context ctx = test::context_for(n_chip);
  ctx.scope = topo::Scope::InterRack;
  topo::Where w = topo::parse_where(where, "test");
  auto l = topo::enumerate(ctx, {&topo::require_family(family, "test")}, 1, std::nullopt, &w);
  REQUIRE(l.items.size() == 1);
  return topo::generate(ctx, l.items[0], {});
}

topo::Faults chips_down(std::initializer_list<std::int64_t> chips) {
  topo::Faults f;
  for (std::int64_t c : chips) f.chips.push_back({c, "explicit"});
  return f;
}

// verify_routing_all_pairs() and verify_routing() with 1, 2, 3 and 8 workers: one text.
void same_for_every_worker_count(const std::string& algorithm, const topo::Network& n,
                                 const topo::Faults& f, const json& params = json::object()) {
  INFO(algorithm << " on a " << n.family << " of " << n.n_chip << " chips");
  auto fn = build(algorithm, n, f, params);
  const std::string one = section_text(verify_routing_all_pairs(*fn, n, f, 1), algorithm);
  for (int t : {2, 3, 8}) {
    INFO(t << " workers");
    CHECK(section_text(verify_routing_all_pairs(*fn, n, f, t), algorithm) == one);
  }
  for (int t : {1, 3}) CHECK(section_text(verify_routing(*fn, n, f, t), algorithm) == one);
}

} // namespace

TEST_CASE("the routing verification is the same bytes for 1, 2, 3 and 8 workers",
          "[route][threads]") {
  // FTHOE on a 16x16 mesh around four failed chips: stretch_mean once differed in its last
  // digits between 1, 2 and 3 workers (a floating-point sum per worker).
  same_for_every_worker_count("fthoe", mesh({16, 16}), chips_down({27, 100, 140, 201}));
  // WFR around random failed links (five different stretch_mean for 1, 2, 3, 5, 8 workers).
  const auto t = torus({6, 6, 6});
  same_for_every_worker_count("wfr", t, failed_links(t, 12, 3));
  const auto m = mesh({8, 8});
  same_for_every_worker_count("odd-even", m, {});
  same_for_every_worker_count("dor", t, failed_links(t, 4, 5));
  same_for_every_worker_count("dor", m, failed_links(m, 3, 1));
  const auto ft = generated("fat-tree", 32, "layers=3,k=8,osr=1");
  same_for_every_worker_count("dmodk", ft, failed_links(ft, 3, 7));
  same_for_every_worker_count("minimal", ft, failed_links(ft, 3, 7));
  const auto df = generated("dragonfly", 36, "p=2,a=4,h=1,g=5");
  same_for_every_worker_count("dragonfly-min", df, failed_links(df, 2, 9));
  same_for_every_worker_count("minimal", df, failed_links(df, 2, 9));
  same_for_every_worker_count("minimal", t, failed_links(t, 6, 11));
}

TEST_CASE("the hop tally gives the same statistics in any order and any split, exactly",
          "[route][threads]") {
  // Pairs (hops, shortest) with ratios that are not dyadic (7/5, 4/3, ...), in a fixed
  // multiset, added in shuffled orders and split over several tallies absorbed in turn.
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  std::mt19937 rng(42);
  for (int k = 0; k < 20000; ++k) {
    const std::int64_t s = 1 + static_cast<std::int64_t>(rng() % 9);
    pairs.push_back({s + static_cast<std::int64_t>(rng() % 5), s});
  }
  for (int k = 0; k < 300; ++k) pairs.push_back({3 + k % 4, 0}); // shortest unknown
  HopTally all;
  for (auto [h, s] : pairs) all.add(h, s);
  const HopStats ref = all.stats();

  // Closed forms from the pairs themselves: integer sums, then one exact rational for the
  // stretch, rounded once (the tally may differ from it by its few roundings only).
  std::int64_t delivered = 0, total = 0, stretched = 0, non_minimal = 0, max_h = 0;
  std::vector<std::int64_t> histogram;
  double stretch_max = 1;
  std::int64_t num = 0; // sum of h/s over the stretched pairs, times lcm(1..9) = 2520
  for (auto [h, s] : pairs) {
    ++delivered;
    total += h;
    max_h = std::max(max_h, h);
    if (static_cast<std::size_t>(h) >= histogram.size()) histogram.resize(h + 1, 0);
    ++histogram[static_cast<std::size_t>(h)];
    if (s == 0) continue;
    ++stretched;
    non_minimal += h > s;
    stretch_max = std::max(stretch_max, static_cast<double>(h) / static_cast<double>(s));
    num += h * (2520 / s);
  }
  CHECK(ref.histogram == histogram);
  CHECK(ref.max == max_h);
  CHECK(ref.mean == static_cast<double>(total) / static_cast<double>(delivered));
  CHECK(ref.non_minimal_pairs == non_minimal);
  CHECK(ref.stretch_max == stretch_max);
  const double exact = static_cast<double>(num) / 2520.0 / static_cast<double>(stretched);
  CHECK(ref.stretch_mean == Approx(exact).epsilon(1e-14));

  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(pairs.begin(), pairs.end(), rng);
    const std::size_t parts = 1 + static_cast<std::size_t>(trial) * 2;
    std::vector<HopTally> t(parts);
    for (std::size_t k = 0; k < pairs.size(); ++k)
      t[k % parts].add(pairs[k].first, pairs[k].second);
    for (std::size_t p = 1; p < parts; ++p) t[0].absorb(t[p]);
    const HopStats st = t[0].stats();
    CHECK(st.histogram == ref.histogram);
    CHECK(st.mean == ref.mean);
    CHECK(st.stretch_mean == ref.stretch_mean); // bit for bit
    CHECK(st.stretch_max == ref.stretch_max);
    CHECK(st.non_minimal_pairs == ref.non_minimal_pairs);
    CHECK(t[0].delivered() == delivered);
  }
  // Several pairs at once (the symmetric paths) = one by one.
  HopTally grouped;
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> counts;
  for (auto p : pairs) ++counts[p];
  for (auto [p, c] : counts) grouped.add(p.first, p.second, c);
  CHECK(grouped.stats().stretch_mean == ref.stretch_mean);
  CHECK(grouped.stats().histogram == ref.histogram);
}
