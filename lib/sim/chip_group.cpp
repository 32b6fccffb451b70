#include "sim/chip_group.hpp"

#include "core/error.hpp"
#include "route/dor.hpp"
#include "route/minimal.hpp"
#include "route/rail.hpp"
#include "sim/symmetry.hpp"
#include "topo/composed.hpp"
#include "topo/mesh.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>

namespace icnkit::sim {

namespace {

bool minimal_split(const route::RoutingFunction& fn, route::Ecmp ecmp) {
  const auto* m = dynamic_cast<const route::MinimalRouting*>(&fn);
  return m && ecmp == route::Ecmp::Split && m->options().ecmp && !m->options().random;
}

// Every link the same bandwidth and latency (the groups below move any link onto any other of
// its kind, so they need no finer test).
bool uniform_links(const topo::Network& n) {
  for (const topo::Link& l : n.links)
    if (l.bandwidth_bytes_per_s != n.links.front().bandwidth_bytes_per_s ||
        l.latency_s != n.links.front().latency_s || l.a == l.b)
      return false;
  return !n.links.empty() && n.channel_count() < std::numeric_limits<std::uint32_t>::max();
}

std::optional<ChipGroup> torus(const topo::Network& n, const route::RoutingFunction& fn,
                               route::Ecmp ecmp, const topo::Faults& f) {
  if (topo::TorusGeometry::twisted(n)) return std::nullopt;
  std::optional<Translations> t;
  std::optional<topo::TorusGeometry> of;
  try {
    of = topo::TorusGeometry::of(n, "symmetry");
  } catch (const Error&) {
    return std::nullopt; // not a torus DOR knows: no symmetry assumed
  }
  const topo::TorusGeometry& geo = *of;
  if (dynamic_cast<const route::DorRouting*>(&fn)) {
    t = dor_translations(fn, n, f);
  } else if (minimal_split(fn, ecmp)) {
    if (auto period = link_periods(geo, n)) t = translations(geo, n, *period);
  }
  if (!t) return std::nullopt;
  ChipGroup g;
  g.order = t->order;
  g.sources = t->sources;
  g.channel_rep = std::move(t->channel_rep);
  for (int a = 0; a < geo.dims(); ++a) {
    const int k = geo.size(a), p = t->period[static_cast<std::size_t>(a)];
    if (p == k) continue;
    std::vector<std::int64_t> perm(static_cast<std::size_t>(n.n_chip));
    for (std::int64_t u = 0; u < n.n_chip; ++u) {
      const int x = geo.coord(u, a);
      perm[static_cast<std::size_t>(u)] = u + (x + p < k ? p : p - k) * geo.stride(a);
    }
    g.generators.push_back(std::move(perm));
  }
  return g;
}

// The links joining nodes u and v, per unordered pair, in a table sorted by pair and id (a full
// mesh of 1,024 chips has 523,776 links: a search tree of them cost a fifth of net-sim's time).
class PairLinks {
public:
  // nullopt when a pair has several links and `parallel` is false.
  static std::optional<PairLinks> of(const topo::Network& n, bool parallel = false) {
    PairLinks t;
    t.at_.reserve(n.links.size());
    for (const topo::Link& l : n.links) {
      const auto [u, v] = std::minmax(l.a, l.b);
      t.at_.push_back({u, v, l.id});
    }
    std::sort(t.at_.begin(), t.at_.end());
    t.rank_.assign(n.links.size(), 0);
    for (std::size_t k = 1; k < t.at_.size(); ++k)
      if (t.at_[k].u == t.at_[k - 1].u && t.at_[k].v == t.at_[k - 1].v) {
        if (!parallel) return std::nullopt;
        t.rank_[static_cast<std::size_t>(t.at_[k].id)] =
            t.rank_[static_cast<std::size_t>(t.at_[k - 1].id)] + 1;
      }
    return t;
  }
  // The j-th link (by id) joining u and v, or -1.
  std::int64_t find(std::int64_t u, std::int64_t v, std::int64_t j = 0) const {
    const auto [a, b] = std::minmax(u, v);
    auto it = std::lower_bound(at_.begin(), at_.end(), Entry{a, b, -1});
    if (at_.end() - it <= j) return -1;
    it += j;
    return it->u == a && it->v == b ? it->id : -1;
  }
  // Link l's place among the links joining its ends (0 for the first by id).
  std::int64_t rank(std::int64_t l) const { return rank_[static_cast<std::size_t>(l)]; }

private:
  struct Entry {
    std::int64_t u, v, id;
    friend auto operator<=>(const Entry&, const Entry&) = default;
  };
  std::vector<Entry> at_;
  std::vector<std::int64_t> rank_;
};

// The channel from u to v over link l.
std::int64_t channel(const topo::Network& n, std::int64_t l, std::int64_t u) {
  return topo::channel_of(l, n.links[static_cast<std::size_t>(l)].a == u);
}

std::optional<ChipGroup> hypercube(const topo::Network& n) {
  const std::int64_t N = n.n_chip;
  if (N < 2 || !std::has_single_bit(static_cast<std::uint64_t>(N)) ||
      static_cast<std::int64_t>(n.nodes.size()) != N)
    return std::nullopt;
  const auto links = PairLinks::of(n);
  if (!links) return std::nullopt;
  const int bits = std::countr_zero(static_cast<std::uint64_t>(N));
  if (static_cast<std::int64_t>(n.links.size()) != N / 2 * bits) return std::nullopt;
  ChipGroup g;
  g.order = N;
  g.sources = {0};
  g.channel_rep.assign(static_cast<std::size_t>(n.channel_count()), 0);
  for (const topo::Link& l : n.links) {
    const std::int64_t x = l.a ^ l.b;
    if (!std::has_single_bit(static_cast<std::uint64_t>(x))) return std::nullopt;
    const std::int64_t rep = links->find(0, x);
    if (rep < 0) return std::nullopt;
    // a -> b is 0 -> x translated by a; b -> a is 0 -> x translated by b.
    g.channel_rep[static_cast<std::size_t>(channel(n, l.id, l.a))] =
        static_cast<std::uint32_t>(channel(n, rep, 0));
    g.channel_rep[static_cast<std::size_t>(channel(n, l.id, l.b))] =
        static_cast<std::uint32_t>(channel(n, rep, 0));
  }
  for (int b = 0; b < bits; ++b) {
    std::vector<std::int64_t> perm(static_cast<std::size_t>(N));
    for (std::int64_t u = 0; u < N; ++u)
      perm[static_cast<std::size_t>(u)] = u ^ (std::int64_t{1} << b);
    g.generators.push_back(std::move(perm));
  }
  return g;
}

std::vector<std::int64_t> rotation(std::int64_t N) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(N));
  for (std::int64_t u = 0; u < N; ++u) perm[static_cast<std::size_t>(u)] = (u + 1) % N;
  return perm;
}

// The XOR translations' generators, n a power of two.
std::vector<std::vector<std::int64_t>> xor_generators(std::int64_t N) {
  std::vector<std::vector<std::int64_t>> gens;
  for (std::int64_t x = 1; x < N; x <<= 1) {
    std::vector<std::int64_t> perm(static_cast<std::size_t>(N));
    for (std::int64_t u = 0; u < N; ++u) perm[static_cast<std::size_t>(u)] = u ^ x;
    gens.push_back(std::move(perm));
  }
  return gens;
}

// `xr`: the XOR translations (n a power of two), else the rotations.
std::optional<ChipGroup> full_mesh(const topo::Network& n, bool xr) {
  const std::int64_t N = n.n_chip;
  if (N < 2 || static_cast<std::int64_t>(n.nodes.size()) != N ||
      static_cast<std::int64_t>(n.links.size()) != N * (N - 1) / 2)
    return std::nullopt;
  const auto links = PairLinks::of(n);
  if (!links) return std::nullopt;
  ChipGroup g;
  g.order = N;
  g.sources = {0};
  g.channel_rep.assign(static_cast<std::size_t>(n.channel_count()), 0);
  std::vector<std::uint32_t> from0(static_cast<std::size_t>(N), 0); // chip 0 -> w
  for (std::int64_t w = 1; w < N; ++w)
    from0[static_cast<std::size_t>(w)] =
        static_cast<std::uint32_t>(channel(n, links->find(0, w), 0));
  for (const topo::Link& l : n.links)
    for (auto [u, v] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      // u -> v is 0 -> (v - u) rotated by u (0 -> u ^ v translated by u).
      const std::int64_t w = xr ? u ^ v : ((v - u) % N + N) % N;
      g.channel_rep[static_cast<std::size_t>(channel(n, l.id, u))] =
          from0[static_cast<std::size_t>(w)];
    }
  if (xr)
    g.generators = xor_generators(N);
  else
    g.generators.push_back(rotation(N));
  return g;
}

std::optional<ChipGroup> single_switch(const topo::Network& n, bool xr) {
  const std::int64_t N = n.n_chip;
  if (N < 2 || static_cast<std::int64_t>(n.nodes.size()) != N + 1) return std::nullopt;
  // Each chip's links to the switch, in id order: the j-th of chip u is the j-th of chip 0
  // rotated by u.
  std::vector<std::vector<std::int64_t>> of(static_cast<std::size_t>(N));
  for (const topo::Link& l : n.links) {
    const std::int64_t c = l.a < N ? l.a : l.b, w = l.a < N ? l.b : l.a;
    if (c >= N || w != N) return std::nullopt;
    of[static_cast<std::size_t>(c)].push_back(l.id);
  }
  for (const auto& v : of)
    if (v.size() != of.front().size() || v.empty()) return std::nullopt;
  ChipGroup g;
  g.order = N;
  g.sources = {0};
  g.channel_rep.assign(static_cast<std::size_t>(n.channel_count()), 0);
  for (std::int64_t u = 0; u < N; ++u)
    for (std::size_t j = 0; j < of[static_cast<std::size_t>(u)].size(); ++j) {
      const std::int64_t l = of[static_cast<std::size_t>(u)][j], r = of.front()[j];
      g.channel_rep[static_cast<std::size_t>(channel(n, l, u))] =
          static_cast<std::uint32_t>(channel(n, r, 0));
      g.channel_rep[static_cast<std::size_t>(channel(n, l, N))] =
          static_cast<std::uint32_t>(channel(n, r, N));
    }
  if (xr)
    g.generators = xor_generators(N);
  else
    g.generators.push_back(rotation(N));
  return g;
}

// The group generated by node permutations (chips to chips, switches to switches) that must
// be automorphisms: every link maps onto a link of the same bandwidth and latency (one per pair
// of nodes; with `parallel`, the j-th link by id of a pair onto the j-th of the image pair).
// Orbits by union-find. The action must be free on chips, and the order is taken to be a chip
// orbit's size: so the generators must generate a group acting regularly on each chip orbit
// (commuting translations, every orbit the same size). The action must be free on channels
// too, unless `stabilizers`: then a channel's orbit may be smaller, and channel_stabilizer says
// how many elements fix it (order / orbit size). nullopt otherwise.
std::optional<ChipGroup> generated(const topo::Network& n,
                                   const std::vector<std::vector<std::int64_t>>& node_perms,
                                   bool parallel = false, bool stabilizers = false) {
  const auto links = PairLinks::of(n, parallel);
  if (!links || node_perms.empty()) return std::nullopt;
  const auto C = static_cast<std::size_t>(n.channel_count());
  std::vector<std::uint32_t> up(C), chip_up(static_cast<std::size_t>(n.n_chip));
  for (std::size_t c = 0; c < C; ++c) up[c] = static_cast<std::uint32_t>(c);
  for (std::size_t c = 0; c < chip_up.size(); ++c) chip_up[c] = static_cast<std::uint32_t>(c);
  auto find = [](std::vector<std::uint32_t>& p, std::uint32_t x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  auto join = [&](std::vector<std::uint32_t>& p, std::uint32_t x, std::uint32_t y) {
    x = find(p, x);
    y = find(p, y);
    if (x != y) p[std::max(x, y)] = std::min(x, y); // the smaller id represents
  };
  for (const auto& perm : node_perms) {
    if (perm.size() != n.nodes.size()) return std::nullopt;
    for (std::int64_t c = 0; c < n.n_chip; ++c) {
      const std::int64_t d = perm[static_cast<std::size_t>(c)];
      if (d < 0 || d >= n.n_chip) return std::nullopt;
      join(chip_up, static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(d));
    }
    for (const topo::Link& l : n.links) {
      const std::int64_t a = perm[static_cast<std::size_t>(l.a)],
                         b = perm[static_cast<std::size_t>(l.b)];
      const std::int64_t image = links->find(a, b, links->rank(l.id));
      if (image < 0) return std::nullopt; // not an automorphism
      const topo::Link& m = n.links[static_cast<std::size_t>(image)];
      if (m.bandwidth_bytes_per_s != l.bandwidth_bytes_per_s || m.latency_s != l.latency_s)
        return std::nullopt; // onto a link of another speed
      for (const std::int64_t from : {l.a, l.b})
        join(up, static_cast<std::uint32_t>(channel(n, l.id, from)),
             static_cast<std::uint32_t>(channel(n, image, perm[static_cast<std::size_t>(from)])));
    }
  }
  ChipGroup g;
  std::vector<std::int64_t> size(std::max(C, chip_up.size()), 0);
  for (std::size_t c = 0; c < chip_up.size(); ++c)
    ++size[find(chip_up, static_cast<std::uint32_t>(c))];
  g.order = size[find(chip_up, 0)];
  for (std::size_t c = 0; c < chip_up.size(); ++c) {
    if (size[find(chip_up, static_cast<std::uint32_t>(c))] != g.order) return std::nullopt;
    if (find(chip_up, static_cast<std::uint32_t>(c)) == c)
      g.sources.push_back(static_cast<std::int64_t>(c));
  }
  std::fill(size.begin(), size.end(), 0);
  g.channel_rep.resize(C);
  for (std::size_t c = 0; c < C; ++c)
    ++size[g.channel_rep[c] = find(up, static_cast<std::uint32_t>(c))];
  bool free = true;
  for (std::size_t c = 0; c < C; ++c) {
    const std::int64_t k = size[g.channel_rep[c]];
    if (k == g.order) continue;
    if (!stabilizers || g.order % k != 0) return std::nullopt;
    free = false;
  }
  if (!free) {
    g.channel_stabilizer.assign(C, 1);
    for (std::size_t c = 0; c < C; ++c)
      g.channel_stabilizer[c] = static_cast<std::uint32_t>(g.order / size[g.channel_rep[c]]);
  }
  for (const auto& perm : node_perms)
    g.generators.emplace_back(perm.begin(), perm.begin() + n.n_chip);
  return g;
}

// HyperX: the translations of the switch coordinates, one generator per dimension, each
// switch's chips (by id) following it in order; `xr`: the XOR translations of each coordinate
// instead (every dimension is a complete graph, so any permutation of it is an automorphism;
// the sizes must be powers of two).
std::optional<ChipGroup> hyperx(const topo::Network& n, bool xr) {
  const std::int64_t N = n.n_chip;
  std::map<std::vector<int>, std::int64_t> at;
  std::vector<std::vector<std::int64_t>> chips_of(n.nodes.size());
  for (const topo::Node& v : n.nodes)
    if (v.kind == topo::NodeKind::Switch && !at.emplace(v.coord, v.id).second) return std::nullopt;
  for (const topo::Link& l : n.links) {
    if ((l.a < N) == (l.b < N)) continue;
    const std::int64_t c = std::min(l.a, l.b), w = std::max(l.a, l.b);
    chips_of[static_cast<std::size_t>(w)].push_back(c);
  }
  for (auto& v : chips_of) std::sort(v.begin(), v.end());
  if (at.empty()) return std::nullopt;
  const std::size_t D = at.begin()->first.size();
  std::vector<int> size(D, 0);
  for (const auto& [coord, id] : at) {
    if (coord.size() != D) return std::nullopt;
    for (std::size_t d = 0; d < D; ++d) size[d] = std::max(size[d], coord[d] + 1);
  }
  std::vector<std::vector<std::int64_t>> perms;
  std::vector<std::pair<std::size_t, int>> moves; // (dimension, +1 or the XOR mask)
  for (std::size_t d = 0; d < D; ++d) {
    if (size[d] < 2) continue;
    if (!xr) {
      moves.push_back({d, 1});
      continue;
    }
    if (!std::has_single_bit(static_cast<unsigned>(size[d]))) return std::nullopt;
    for (int x = 1; x < size[d]; x <<= 1) moves.push_back({d, x});
  }
  for (const auto& [d, x] : moves) {
    std::vector<std::int64_t> perm(n.nodes.size(), -1);
    for (const auto& [coord, id] : at) {
      std::vector<int> to = coord;
      to[d] = xr ? to[d] ^ x : (to[d] + 1) % size[d];
      auto it = at.find(to);
      if (it == at.end()) return std::nullopt;
      perm[static_cast<std::size_t>(id)] = it->second;
      const auto& from_chips = chips_of[static_cast<std::size_t>(id)];
      const auto& to_chips = chips_of[static_cast<std::size_t>(it->second)];
      if (from_chips.size() != to_chips.size()) return std::nullopt;
      for (std::size_t j = 0; j < from_chips.size(); ++j)
        perm[static_cast<std::size_t>(from_chips[j])] = to_chips[j];
    }
    if (std::find(perm.begin(), perm.end(), -1) != perm.end()) return std::nullopt;
    perms.push_back(std::move(perm));
  }
  return generated(n, perms);
}

// Mesh: the reflections x -> k-1-x of every dimension of even size k (an odd one would fix
// its middle: the action would not be free). Dimension-order routing keeps them (a reflected
// path is the reflected pair's path: the order of the dimensions is the same, only directions
// flip), as does minimal routing (hop distances are kept).
std::optional<ChipGroup> mesh(const topo::Network& n) {
  std::optional<topo::MeshGeometry> geo;
  try {
    geo = topo::MeshGeometry::of(n, "symmetry");
  } catch (const Error&) {
    return std::nullopt;
  }
  if (static_cast<std::int64_t>(n.nodes.size()) != n.n_chip || geo->count() != n.n_chip)
    return std::nullopt;
  std::vector<std::vector<std::int64_t>> perms;
  for (int d = 0; d < geo->dims(); ++d) {
    const int k = geo->size(d);
    if (k < 2 || k % 2 != 0) continue;
    std::vector<std::int64_t> perm(static_cast<std::size_t>(n.n_chip));
    for (std::int64_t u = 0; u < n.n_chip; ++u)
      perm[static_cast<std::size_t>(u)] = u + (k - 1 - 2 * geo->coord(u, d)) * geo->stride(d);
    perms.push_back(std::move(perm));
  }
  return generated(n, perms);
}

// Composed networks (topo/composed.hpp) under fault-free rail routing: domain permutations,
// each chip onto the chip at its position in the image domain and each scale-up switch onto the
// one at its index there. The rotation of the domains inside every unit (the domains whose NICs
// share leaves) fixes every scale-out switch; the rotation of the units, each domain onto the one
// at its place in the next unit, moves each leaf to the next unit's leaf of its plane and rail
// and fixes the spines and cores (an automorphism only where every unit's leaves reach the same
// spines alike: the check drops it otherwise). Rail routing keeps both: its choices depend on
// the domain, the position in it, rails and hop distances, and split evenly among equals. The
// within-unit rotation fixes the leaf-spine channels, so channels have stabilizers.
std::optional<ChipGroup> composed(const topo::Network& n) {
  std::optional<topo::ComposedShape> sh;
  try {
    sh = topo::composed_shape_of(n, "symmetry");
  } catch (const Error&) {
    return std::nullopt;
  }
  const topo::ComposedShape& s = *sh;
  const topo::ComposedLayout at(s);
  const std::int64_t D = s.p.domain_chips, M = s.p.domains, unit = s.p.unit;
  if (M < 2 || unit < 1 || M % unit != 0 || s.up_switch_count % M != 0 || D * M != n.n_chip ||
      static_cast<std::int64_t>(n.nodes.size()) != at.out_base + s.p.planes * at.per_plane)
    return std::nullopt;
  const std::int64_t S = s.up_switch_count / M, units = M / unit;
  // The node permutation of domain permutation `to`, scale-out switch v onto out[v - out_base].
  auto perm_of = [&](auto to, auto out) {
    std::vector<std::int64_t> perm(n.nodes.size());
    for (std::int64_t d = 0; d < M; ++d) {
      const std::int64_t e = to(d);
      for (std::int64_t i = 0; i < D; ++i) perm[static_cast<std::size_t>(d * D + i)] = e * D + i;
      for (std::int64_t j = 0; j < S; ++j)
        perm[static_cast<std::size_t>(at.up_base + d * S + j)] = at.up_base + e * S + j;
    }
    for (auto v = static_cast<std::size_t>(at.out_base); v < perm.size(); ++v)
      perm[v] = out(static_cast<std::int64_t>(v));
    return perm;
  };
  std::vector<std::vector<std::int64_t>> perms;
  if (unit > 1)
    perms.push_back(perm_of([&](std::int64_t d) { return d - d % unit + (d % unit + 1) % unit; },
                            [](std::int64_t v) { return v; }));
  if (units > 1) {
    const std::int64_t R = s.leaves / units; // leaves per unit and plane: one per rail
    auto shift = perm_of([&](std::int64_t d) { return (d + unit) % M; },
                         [&](std::int64_t v) {
                           const std::int64_t k = (v - at.out_base) % at.per_plane;
                           if (k >= s.leaves) return v; // a spine or a core
                           return v - k + (k + R) % s.leaves;
                         });
    perms.push_back(std::move(shift));
    if (auto g = generated(n, perms, true, true)) return g;
    perms.pop_back();
  }
  if (perms.empty()) return std::nullopt;
  return generated(n, perms, true, true);
}

} // namespace

std::vector<ChipGroup> chip_groups(const topo::Network& n, const topo::Faults& f,
                                   const route::RoutingFunction& fn, route::Ecmp ecmp) {
  std::vector<ChipGroup> out;
  auto add = [&](std::optional<ChipGroup> g) {
    if (g) out.push_back(std::move(*g));
  };
  if (!f.empty()) return out;
  // A packaged torus's translations keep its link kinds apart (link_periods); the other
  // groups move any link onto any other, so they need links of one kind.
  if (n.family == "torus" || n.family == "ring") {
    add(torus(n, fn, ecmp, f));
    return out;
  }
  if (n.family == "mesh") {
    if (dynamic_cast<const route::MeshDorRouting*>(&fn) || minimal_split(fn, ecmp)) add(mesh(n));
    return out;
  }
  if (n.family == "composed") {
    const auto* r = dynamic_cast<const route::RailRouting*>(&fn);
    if (r && ecmp == route::Ecmp::Split) add(composed(n));
    return out;
  }
  if (!minimal_split(fn, ecmp) || !uniform_links(n)) return out;
  const bool pow2 = std::has_single_bit(static_cast<std::uint64_t>(n.n_chip));
  if (n.family == "hypercube") add(hypercube(n));
  if (n.family == "hyperx") {
    add(hyperx(n, false));
    add(hyperx(n, true));
  }
  if (n.family == "full-mesh") {
    add(full_mesh(n, false));
    if (pow2) add(full_mesh(n, true));
  }
  if (n.family == "single-switch") {
    add(single_switch(n, false));
    if (pow2) add(single_switch(n, true));
  }
  return out;
}

} // namespace icnkit::sim
