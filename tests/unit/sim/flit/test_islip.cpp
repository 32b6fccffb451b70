// sim/flit/islip.hpp: the allocator against iSLIP written out plainly (McKeown 1999), over
// random request sets and evolving pointers, on small ports (the bit-mask path and the direct
// shapes) and on more than 64 ports (the general path).
#include "sim/flit/islip.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

using icnkit::sim::flit::Islip;

namespace {

// One iSLIP allocation, literally: each iteration, every unmatched output that some unmatched
// input requests grants the first such input at or after its grant pointer; every unmatched
// input accepts the first granting output at or after its accept pointer; first-iteration
// matches move both pointers one past the match.
std::set<std::pair<std::uint32_t, std::uint32_t>>
reference(const std::vector<Islip::Req>& reqs, std::uint32_t NI, std::uint32_t NO, int iters,
          std::vector<std::uint32_t>& gptr, std::vector<std::uint32_t>& aptr) {
  std::vector<char> in_m(NI, 0), out_m(NO, 0);
  auto requests = [&](std::uint32_t i, std::uint32_t o) {
    return std::any_of(reqs.begin(), reqs.end(),
                       [&](const Islip::Req& q) { return q.in == i && q.out == o; });
  };
  std::set<std::pair<std::uint32_t, std::uint32_t>> matched;
  for (int it = 0; it < iters; ++it) {
    std::vector<int> grant(NO, -1);
    for (std::uint32_t o = 0; o < NO; ++o) {
      if (out_m[o]) continue;
      for (std::uint32_t k = 0; k < NI; ++k) {
        const std::uint32_t i = (gptr[o] + k) % NI;
        if (!in_m[i] && requests(i, o)) {
          grant[o] = static_cast<int>(i);
          break;
        }
      }
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> now;
    for (std::uint32_t i = 0; i < NI; ++i) {
      if (in_m[i]) continue;
      for (std::uint32_t k = 0; k < NO; ++k) {
        const std::uint32_t o = (aptr[i] + k) % NO;
        if (grant[o] == static_cast<int>(i)) {
          now.push_back({i, o});
          break;
        }
      }
    }
    for (auto [i, o] : now) {
      in_m[i] = out_m[o] = 1;
      matched.insert({i, o});
      if (it == 0) {
        gptr[o] = (i + 1) % NI;
        aptr[i] = (o + 1) % NO;
      }
    }
    if (now.empty()) break;
  }
  return matched;
}

void compare(std::uint32_t NI, std::uint32_t NO, int iters, double density, int rounds,
             std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Islip alloc(iters, static_cast<int>(std::max(NI, NO)));
  std::vector<std::uint32_t> g(NO, 0), a(NI, 0), rg(NO, 0), ra(NI, 0);
  for (int r = 0; r < rounds; ++r) {
    std::vector<Islip::Req>& reqs = alloc.requests();
    reqs.clear();
    // Shapes the engine meets: a sparse random set, one input asking several outputs, several
    // inputs asking one output.
    const int shape = r % 3;
    const auto i0 = static_cast<std::uint32_t>(rng() % NI);
    const auto o0 = static_cast<std::uint32_t>(rng() % NO);
    for (std::uint32_t i = 0; i < NI; ++i)
      for (std::uint32_t o = 0; o < NO; ++o) {
        const bool pick = shape == 0   ? u(rng) < density
                          : shape == 1 ? i == i0 && u(rng) < 0.5
                                       : o == o0 && u(rng) < 0.5;
        if (pick) reqs.push_back({i, o, static_cast<std::int32_t>(i * 1000 + o)});
      }
    std::shuffle(reqs.begin(), reqs.end(), rng);
    const std::vector<Islip::Req> asked = reqs;
    const auto want = reference(asked, NI, NO, iters, rg, ra);
    std::set<std::pair<std::uint32_t, std::uint32_t>> got;
    for (const Islip::Req& m : alloc.match(NI, NO, g.data(), a.data())) {
      CHECK(m.label == static_cast<std::int32_t>(m.in * 1000 + m.out));
      got.insert({m.in, m.out});
    }
    INFO("ports " << NI << "x" << NO << ", round " << r << ", " << asked.size() << " requests");
    REQUIRE(got == want);
    REQUIRE(g == rg);
    REQUIRE(a == ra);
  }
}

} // namespace

TEST_CASE("iSLIP: the allocator matches iSLIP written out, pointers included", "[flit]") {
  // Switch allocation of a 5-port router, VC allocation of 5 ports x 2 VCs, a 64-port switch,
  // and past 64 ports (the general path), with one and two iterations.
  for (int iters : {1, 2}) {
    compare(5, 5, iters, 0.3, 3000, 1);
    compare(10, 10, iters, 0.15, 3000, 2);
    compare(64, 64, iters, 0.05, 300, 3);
    compare(70, 66, iters, 0.05, 300, 4);
    compare(3, 9, iters, 0.4, 2000, 5);
  }
}
