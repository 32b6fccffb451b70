// Helpers shared by the routing-family tests: test_routing_families.cpp (deadlock proofs) and
// test_routing_paths.cpp (the paths taken, shift permutations, stretch and load, bad input,
// emitted tables).
#pragma once
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"

#include "support.hpp"
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::test::routing_families {

using namespace icnkit::route;

using Pair = std::pair<std::int64_t, std::int64_t>;

// The first candidate of a family that `where` matches, generated.
inline topo::Network family_network(const std::string& family, std::int64_t n_chip,
                                    const std::string& where,
                                    topo::Scope scope = topo::Scope::IntraRack,
                                    std::int64_t chip_radix = 1) {
  topo::Context ctx = test::context_for(n_chip);
  ctx.scope = scope;
  ctx.chip_radix = chip_radix;
  topo::Where w;
  if (!where.empty()) w = topo::parse_where(where, "t");
  auto l = topo::enumerate(ctx, {&topo::require_family(family, "t")}, 1, std::nullopt,
                           where.empty() ? nullptr : &w);
  INFO(family << " " << n_chip << " " << where);
  REQUIRE(!l.items.empty());
  return topo::generate(ctx, l.items.front(), {});
}

// The link joining chips a and b (found by scanning the links, not by the geometry classes).
inline std::int64_t link_between(const topo::Network& n, std::int64_t a, std::int64_t b) {
  std::int64_t found = -1;
  for (auto& l : n.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) {
      REQUIRE(found < 0); // a simple graph here
      found = l.id;
    }
  REQUIRE(found >= 0);
  return found;
}

inline topo::Faults make(std::vector<std::int64_t> links, std::vector<std::int64_t> chips = {}) {
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  std::sort(chips.begin(), chips.end());
  chips.erase(std::unique(chips.begin(), chips.end()), chips.end());
  topo::Faults f;
  for (auto l : links) f.links.push_back({l, "explicit"});
  for (auto c : chips) f.chips.push_back({c, "explicit"});
  return f;
}

// Per link / per node "down" flags computed here from the fault lists.
inline std::vector<char> my_down_links(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down(n.links.size(), 0);
  std::set<std::int64_t> chips;
  for (auto& c : f.chips) chips.insert(c.chip);
  for (auto& l : f.links) down[static_cast<std::size_t>(l.link)] = 1;
  for (auto& l : n.links)
    if (chips.count(l.a) || chips.count(l.b)) down[static_cast<std::size_t>(l.id)] = 1;
  return down;
}
inline std::vector<char> my_down_nodes(const topo::Network& n, const topo::Faults& f) {
  std::vector<char> down(n.nodes.size(), 0);
  for (auto& c : f.chips) down[static_cast<std::size_t>(c.chip)] = 1;
  return down;
}

// Every pair delivered, no dependency cycle.
inline Verification check_proof(const RoutingFunction& fn, const topo::Network& n,
                                const topo::Faults& f, std::int64_t live_chips) {
  Verification v = verify_routing(fn, n, f);
  CHECK(v.deadlock_free);
  CHECK(!v.cdg.cycle);
  CHECK(v.cdg.walks_over_hop_limit == 0);
  CHECK(v.pairs == live_chips * (live_chips - 1));
  CHECK(v.unreachable_pairs == 0);
  CHECK(v.unreachable.empty());
  return v;
}

// Chips of a torus by coordinates (id = x0 + S0*(x1 + S1*x2), as the document format fixes).
inline std::int64_t tid(const std::vector<int>& S, std::vector<int> c) {
  std::int64_t id = 0, stride = 1;
  for (std::size_t d = 0; d < S.size(); ++d) {
    id += ((c[d] % S[d] + S[d]) % S[d]) * stride;
    stride *= S[d];
  }
  return id;
}

} // namespace icnkit::test::routing_families
