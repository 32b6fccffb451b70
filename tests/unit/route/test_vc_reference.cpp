// DOR's path and dateline VC of every hop, for every pair of 4x4x4 and 8x4x4 under both tie
// rules, against the path computed here from coordinates alone: dimensions in order, each in
// its shorter direction (a half-way tie: + from an even coordinate under parity, always + under
// plus); the hop over a dimension's wrap link (S-1 -> 0 going +, 0 -> S-1 going -) and every
// later hop in that dimension on VC 1, all other hops on VC 0 (with dateline_vc whole-dimension:
// every hop of a dimension whose route crosses the wrap link on VC 1). WFR without faults must take
// the same paths on the same VCs. The tables DOR and WFR route from (topo::GridTables) are checked
// against the network's links.
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "topo/mesh.hpp"
#include "topo/torus_geometry.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>

using namespace icnkit;
using namespace icnkit::route;

namespace {

std::unique_ptr<RoutingFunction> build(const std::string& algorithm, const topo::Network& n,
                                       const json& params) {
  ParamErrors errors{ErrorKind::Usage, [](const ParamSpec& p) { return p.name; }};
  return build_routing(*find_algorithm(algorithm), params, n, {}, errors).fn;
}

struct ExpectedHop {
  std::vector<int> from, to;
  int vc;
};

// The hops from a to b on a torus of shape S, from coordinates only.
std::vector<ExpectedHop> expected_path(const std::vector<int>& S, std::vector<int> a,
                                       const std::vector<int>& b, bool plus_tie,
                                       bool whole_dimension = false) {
  std::vector<ExpectedHop> hops;
  for (std::size_t d = 0; d < S.size(); ++d) {
    const int s = S[d];
    const int ahead = ((b[d] - a[d]) % s + s) % s; // steps going +
    if (ahead == 0) continue;
    int dir, steps;
    if (ahead < s - ahead) {
      dir = +1, steps = ahead;
    } else if (ahead > s - ahead) {
      dir = -1, steps = s - ahead;
    } else {
      dir = plus_tie || a[d] % 2 == 0 ? +1 : -1;
      steps = ahead;
    }
    bool past_dateline = false;
    const std::size_t first = hops.size();
    for (int k = 0; k < steps; ++k) {
      std::vector<int> next = a;
      next[d] = a[d] + dir;
      if (next[d] == s) next[d] = 0, past_dateline = true;
      if (next[d] == -1) next[d] = s - 1, past_dateline = true;
      hops.push_back({a, next, past_dateline ? 1 : 0});
      a = next;
    }
    if (whole_dimension)
      for (std::size_t i = first; i < hops.size(); ++i) hops[i].vc = past_dateline ? 1 : 0;
  }
  REQUIRE(a == b);
  return hops;
}

// Compares every pair's traced path with the expected one; returns the number of pairs that
// differ (and reports the first few).
std::int64_t mismatches(const RoutingFunction& fn, const topo::Network& n,
                        const std::vector<int>& S, bool plus_tie, bool whole_dimension = false) {
  const std::vector<char> up(n.links.size(), 0);
  std::int64_t bad = 0;
  auto coord = [&](std::int64_t v) { return n.nodes[static_cast<std::size_t>(v)].coord; };
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t d = 0; d < n.n_chip; ++d) {
      if (s == d) continue;
      const auto want = expected_path(S, coord(s), coord(d), plus_tie, whole_dimension);
      const Path got = trace(fn, n, up, s, d, 64);
      bool same = got.delivered && got.hops.size() == want.size();
      for (std::size_t i = 0; same && i < want.size(); ++i) {
        const std::int64_t ch = got.hops[i].channel;
        same = coord(n.channel_src(ch)) == want[i].from && coord(n.channel_dst(ch)) == want[i].to &&
               got.hops[i].vc == want[i].vc;
      }
      if (!same && ++bad <= 5) UNSCOPED_INFO("pair " << s << " -> " << d << " differs");
    }
  return bad;
}

} // namespace

TEST_CASE("DOR: every hop's channel and dateline VC from coordinates, 4x4x4 and 8x4x4",
          "[route][vc]") {
  for (std::vector<int> S : {std::vector<int>{4, 4, 4}, {8, 4, 4}}) {
    const topo::Network n = test::grid_network("torus", S, {1, 1, 1});
    for (const char* tie : {"parity", "plus"}) {
      INFO(S[0] << "x4x4, tie " << tie);
      const bool plus = std::string(tie) == "plus";
      CHECK(mismatches(*build("dor", n, {{"tie", tie}}), n, S, plus) == 0);
      CHECK(mismatches(*build("wfr", n, {{"tie", tie}}), n, S, plus) == 0);
      CHECK(mismatches(*build("dor", n, {{"tie", tie}, {"dateline_vc", "whole-dimension"}}), n, S,
                       plus, true) == 0);
    }
  }
}

TEST_CASE("the expected paths themselves: hand-worked pairs", "[route][vc]") {
  // 8-ring: 6 -> 1 is 3 hops +: 6 -> 7 on VC 0, the wrap 7 -> 0 and 0 -> 1 on VC 1; 1 -> 6 is
  // 3 hops -: 1 -> 0 on VC 0, the wrap 0 -> 7 and 7 -> 6 on VC 1. 4x4: 3 -> 1 is a tie: + from
  // odd 3 under plus (3 -> 0 over the wrap, 0 -> 1: VC 1, 1), - under parity (VC 0, 0).
  auto vcs = [](const std::vector<ExpectedHop>& h) {
    std::vector<int> v;
    for (auto& x : h) v.push_back(x.vc);
    return v;
  };
  CHECK(vcs(expected_path({8, 4}, {6, 0}, {1, 0}, false)) == std::vector<int>{0, 1, 1});
  CHECK(vcs(expected_path({8, 4}, {1, 0}, {6, 0}, false)) == std::vector<int>{0, 1, 1});
  CHECK(expected_path({8, 4}, {1, 0}, {6, 0}, false)[1].to == std::vector<int>{7, 0});
  CHECK(vcs(expected_path({4, 4}, {3, 0}, {1, 0}, true)) == std::vector<int>{1, 1});
  CHECK(expected_path({4, 4}, {3, 0}, {1, 0}, true)[0].to == std::vector<int>{0, 0});
  CHECK(vcs(expected_path({4, 4}, {3, 0}, {1, 0}, false)) == std::vector<int>{0, 0});
  // A new dimension starts on VC 0 again: (3,3) -> (1,1) under plus: X over the wrap (1, 1),
  // then Y over the wrap (1, 1); (2,3) -> (0,1) under parity: X + over the wrap from even 2
  // (0, 1), Y - from odd 3 (0, 0).
  CHECK(vcs(expected_path({4, 4}, {3, 3}, {1, 1}, true)) == std::vector<int>{1, 1, 1, 1});
  CHECK(vcs(expected_path({4, 4}, {2, 3}, {0, 1}, false)) == std::vector<int>{0, 1, 0, 0});
}

TEST_CASE("GridTables: coordinates and the channel to leave on, from the network's links",
          "[route][vc]") {
  // Expected from the links themselves: the channel leaving chip c in (d, dir) is the one whose
  // far chip differs from c by dir in coordinate d (mod S_d on a torus; none past a mesh's
  // boundary, -1).
  for (const char* family : {"torus", "mesh"})
    for (std::vector<int> S : {std::vector<int>{4, 3, 2}, {5, 2}}) {
      INFO(family << " " << S.size() << "-D");
      const topo::Network n = test::grid_network(family, S, std::vector<int>(S.size(), 1));
      const bool torus = std::string(family) == "torus";
      const topo::GridTables tab = torus ? topo::GridTables(topo::TorusGeometry::of(n, "t"))
                                         : topo::GridTables(topo::MeshGeometry::of(n, "t"));
      REQUIRE(tab.dims() == static_cast<int>(S.size()));
      std::int64_t bad = 0;
      for (std::int64_t c = 0; c < n.n_chip; ++c) {
        const auto& x = n.nodes[static_cast<std::size_t>(c)].coord;
        for (int d = 0; d < tab.dims(); ++d) {
          bad += tab.coord(c, d) != x[static_cast<std::size_t>(d)];
          bad += tab.coords(c)[d] != x[static_cast<std::size_t>(d)];
          for (int dir : {-1, +1}) {
            std::vector<int> want = x;
            auto& w = want[static_cast<std::size_t>(d)];
            w += dir;
            const int s = S[static_cast<std::size_t>(d)];
            const bool outside = w < 0 || w >= s;
            if (torus) w = (w + s) % s;
            const std::int64_t ch = tab.channel(c, d, dir);
            if (!torus && outside) {
              bad += ch != -1;
              continue;
            }
            if (ch < 0) {
              ++bad;
              continue;
            }
            // The link's own dimension and direction say which of a size-2 dimension's two
            // parallel links it is.
            bool ok = n.channel_src(ch) == c &&
                      n.nodes[static_cast<std::size_t>(n.channel_dst(ch))].coord == want;
            const topo::Link& l = n.links[static_cast<std::size_t>(topo::link_of_channel(ch))];
            ok = ok && l.dim == d && (topo::channel_forward(ch) ? l.dir : -l.dir) == dir;
            bad += !ok;
          }
        }
      }
      CHECK(bad == 0);
    }
}
