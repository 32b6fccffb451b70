#include "sim/symmetry.hpp"

#include "route/dor.hpp"

#include <limits>
#include <numeric>

namespace icnkit::sim {

std::optional<std::vector<int>> link_periods(const topo::TorusGeometry& geo,
                                             const topo::Network& n) {
  const int D = geo.dims();
  const std::int64_t N = geo.count();
  if (N != n.n_chip || static_cast<std::int64_t>(n.nodes.size()) != N ||
      static_cast<std::int64_t>(n.links.size()) != N * D ||
      2 * N * D >= std::numeric_limits<std::uint32_t>::max())
    return std::nullopt;
  for (std::int64_t c = 0; c < N; ++c)
    for (int d = 0; d < D; ++d) {
      const topo::Link& l = n.links[static_cast<std::size_t>(c * D + d)];
      if (l.a != c || l.b != geo.neighbour(c, d, +1)) return std::nullopt;
    }
  auto same = [&](std::int64_t u, std::int64_t v) {
    for (int d = 0; d < D; ++d) {
      const topo::Link& a = n.links[static_cast<std::size_t>(u * D + d)];
      const topo::Link& b = n.links[static_cast<std::size_t>(v * D + d)];
      if (a.bandwidth_bytes_per_s != b.bandwidth_bytes_per_s || a.latency_s != b.latency_s)
        return false;
    }
    return true;
  };
  std::vector<int> period;
  for (int a = 0; a < D; ++a) {
    const int k = geo.size(a);
    int found = k;
    for (int p = 1; p < k && found == k; ++p) {
      if (k % p != 0) continue;
      bool ok = true;
      for (std::int64_t u = 0; u < N && ok; ++u) {
        // u's coordinate plus p in dimension a, wrapping around.
        const int x = geo.coord(u, a);
        const std::int64_t v = u + (x + p < k ? p : p - k) * geo.stride(a);
        ok = same(u, v);
      }
      if (ok) found = p;
    }
    period.push_back(found);
  }
  return period;
}

Translations translations(const topo::TorusGeometry& geo, const topo::Network& n,
                          const std::vector<int>& period) {
  const int D = geo.dims();
  Translations t;
  t.period = period;
  for (int a = 0; a < D; ++a) t.order *= geo.size(a) / period[static_cast<std::size_t>(a)];
  t.channel_rep.assign(static_cast<std::size_t>(n.channel_count()), 0);
  for (std::int64_t u = 0; u < geo.count(); ++u) {
    // u's representative: its coordinates reduced modulo the periods.
    std::int64_t r = u;
    bool in_domain = true;
    for (int a = 0; a < D; ++a) {
      const int x = geo.coord(u, a), p = period[static_cast<std::size_t>(a)];
      r -= (x - x % p) * geo.stride(a);
      in_domain = in_domain && x < p;
    }
    if (in_domain) t.sources.push_back(u);
    for (int a = 0; a < D; ++a)
      for (int dir : {-1, +1})
        t.channel_rep[static_cast<std::size_t>(geo.channel(u, a, dir))] =
            static_cast<std::uint32_t>(geo.channel(r, a, dir));
  }
  return t;
}

std::optional<Translations> dor_translations(const route::RoutingFunction& fn,
                                             const topo::Network& n, const topo::Faults& f) {
  const auto* dor = dynamic_cast<const route::DorRouting*>(&fn);
  if (!dor || !f.empty()) return std::nullopt;
  const topo::TorusGeometry& geo = dor->geometry();
  auto period = link_periods(geo, n);
  if (!period) return std::nullopt;

  for (int a = 0; a < geo.dims(); ++a) {
    // DOR runs each dimension's leg straight, in one direction, until the coordinate matches
    // (dor.hpp; the tie, at half a ring, is decided at the leg's first hop): a leg x -> y on the
    // line of dimension a through chip 0 is its first hop's direction. One route query per leg,
    // not a trace: a 1,024-chip ring has a million legs of up to 512 hops.
    const int k = geo.size(a);
    const auto K = static_cast<std::size_t>(k);
    std::vector<signed char> dirs(K * K, 0);
    std::vector<route::Choice> choice;
    for (int x = 0; x < k; ++x)
      for (int y = 0; y < k; ++y) {
        if (x == y) continue;
        const std::int64_t from = x * geo.stride(a), to = y * geo.stride(a);
        fn.route_into({from, -1, 0, from, to, 0}, choice);
        if (choice.size() != 1) return std::nullopt;
        const std::int64_t ch = choice.front().channel;
        const int dir = ch == geo.channel(from, a, +1)   ? +1
                        : ch == geo.channel(from, a, -1) ? -1
                                                         : 0;
        if (dir == 0) return std::nullopt; // the leg leaves its line
        dirs[static_cast<std::size_t>(x) * K + static_cast<std::size_t>(y)] =
            static_cast<signed char>(dir);
      }
    // The smallest period that maps every leg onto a leg.
    int legs = k;
    for (int p = 1; p < k && legs == k; ++p) {
      if (k % p != 0) continue;
      bool same = true;
      for (int x = 0; x < k && same; ++x)
        for (int y = 0; y < k && same; ++y)
          same = dirs[static_cast<std::size_t>(x * k + y)] ==
                 dirs[static_cast<std::size_t>(((x + p) % k) * k + (y + p) % k)];
      if (same) legs = p;
    }
    int& p = (*period)[static_cast<std::size_t>(a)];
    p = std::lcm(p, legs); // both divide k, so their lcm does
  }
  return translations(geo, n, *period);
}

} // namespace icnkit::sim
