#include "topo/composed.hpp"

#include "topo/enumerate.hpp"
#include "topo/metrics.hpp"
#include "topo/structure.hpp"

#include <algorithm>
#include <deque>

namespace icnkit::topo {

namespace {

// The smallest divisor s of `of` with fits(s), or 0.
template <class F> std::int64_t smallest_divisor(std::int64_t of, F fits) {
  for (std::int64_t s = 1; s <= of; ++s)
    if (of % s == 0 && fits(s)) return s;
  return 0;
}

bool known_up(const std::string& k) {
  return k == "switch" || k == "full-mesh" || k == "ring" || k == "torus" || k == "none";
}

// The sizes of the scale-up torus above 1 (a dimension of size 1 has no links).
std::int64_t torus_links(const std::vector<std::int64_t>& shape) {
  std::int64_t D = 1, per_chip = 0;
  for (std::int64_t k : shape) D *= k;
  for (std::int64_t k : shape) per_chip += k == 2 ? 1 : k > 2 ? 2 : 0;
  return D * per_chip / 2;
}
bool known_out(const std::string& k) {
  return k == "rail-optimized" || k == "rail-only" || k == "none";
}

std::int64_t up_link_count(const ComposedParams& p) {
  const std::int64_t D = p.domain_chips, L = p.up_links;
  if (p.scale_up == "switch") return D * p.up_switches * L;
  if (p.scale_up == "full-mesh") return D * (D - 1) / 2 * L;
  if (p.scale_up == "ring") return D < 2 ? 0 : (D == 2 ? 1 : D) * L;
  if (p.scale_up == "torus") return torus_links(p.up_shape) * L;
  return 0;
}

// How many of chip c's NICs share one rail, at most (the parallel links of a chip to a leaf).
std::int64_t nics_on_one_rail(const ComposedParams& p, std::int64_t per_rail) {
  std::int64_t best = 0;
  for (std::int64_t c = 0; c < p.domain_chips; ++c) {
    const std::int64_t first = c * p.nics, last = first + p.nics - 1;
    for (std::int64_t r = first / per_rail; r <= last / per_rail; ++r)
      best = std::max(best,
                      std::min(last, (r + 1) * per_rail - 1) - std::max(first, r * per_rail) + 1);
  }
  return best;
}

} // namespace

ComposedShape composed_shape(const ComposedParams& in, ErrorKind kind, const std::string& where) {
  ComposedShape s;
  s.p = in;
  ComposedParams& p = s.p;
  auto bad = [&](const std::string& what) { throw Error(kind, where, what); };
  auto positive = [&](std::int64_t v, const char* key, std::int64_t hi = kMaxChips) {
    if (v < 1 || v > hi)
      bad(std::string(key) + " must be in [1, " + std::to_string(hi) + "], got " +
          std::to_string(v));
  };
  if (!known_up(p.scale_up))
    bad("unknown scale-up '" + p.scale_up + "' (use switch, full-mesh, ring, torus or none)");
  if (p.scale_up == "torus") {
    if (p.up_shape.empty() || p.up_shape.size() > 6)
      bad("a torus scale-up needs a shape of 1 to 6 dimensions, e.g. torus:4x4x4");
    std::int64_t D = 1;
    for (std::int64_t k : p.up_shape) {
      if (k < 1 || k > kMaxChips)
        bad("torus sizes must be in [1, " + std::to_string(kMaxChips) + "]");
      D *= k;
      if (D > kMaxChips) bad("the torus holds more than " + std::to_string(kMaxChips) + " chips");
    }
    if (D != p.domain_chips)
      bad("the torus " + std::to_string(D) + " chips, the domain " +
          std::to_string(p.domain_chips));
  } else if (!p.up_shape.empty()) {
    bad("a shape applies to a torus scale-up only");
  }
  if (!known_out(p.scale_out))
    bad("unknown scale-out '" + p.scale_out + "' (use rail-optimized, rail-only or none)");
  positive(p.domains, "domains");
  positive(p.domain_chips, "domain chips");
  if (p.domains * p.domain_chips > kMaxChips || p.domains * p.domain_chips < 2)
    bad("domains x domain chips must be in [2, " + std::to_string(kMaxChips) + "], got " +
        std::to_string(p.domains * p.domain_chips));
  const std::int64_t N = p.domains, D = p.domain_chips;
  positive(p.up_links, "links", 1024);
  if (p.scale_up == "switch") {
    positive(p.up_switches, "switches", 1024);
  } else if (p.up_switches != 0) {
    bad("switches applies to a scale-up of switch chips only");
  }
  if (p.scale_up == "none" && p.up_links != 1) bad("links needs a scale-up");
  if (p.board_chips == 0) p.board_chips = D;
  positive(p.board_chips, "board");
  if (D % p.board_chips)
    bad("board (" + std::to_string(p.board_chips) + " chips) must divide the domain's " +
        std::to_string(D) + " chips");
  positive(p.rack_domains, "rack");
  s.up_switch_count = p.scale_up == "switch" ? N * p.up_switches : 0;
  s.link_count = N * up_link_count(p);

  if (p.scale_out == "none") {
    if (N != 1) bad("a scale-out of none leaves " + std::to_string(N) + " domains apart");
    if (p.scale_up == "none") bad("neither a scale-up nor a scale-out: the chips never meet");
    p.nics = 0;
    p.planes = 0;
    p.rails = 0;
    p.unit = 1;
    p.tiers = 0;
    p.leaf_up = 0;
    p.spine_up = 0;
    if (p.rack_domains != 1) bad("rack must be 1 with one domain");
    s.switch_count = s.up_switch_count;
    if (s.link_count > kMaxComposedLinks)
      bad("the composition has " + std::to_string(s.link_count) + " links, more than " +
          std::to_string(kMaxComposedLinks));
    return s;
  }
  positive(p.nics, "nics", 64);
  positive(p.planes, "planes", 16);
  const std::int64_t ports = D * p.nics; // NICs of a domain
  if (p.rails == 0) p.rails = ports;
  positive(p.rails, "rails");
  if (ports % p.rails)
    bad("rails (" + std::to_string(p.rails) + ") must divide the " + std::to_string(ports) +
        " NICs of a domain");
  if (p.unit == 0) p.unit = N;
  positive(p.unit, "unit");
  if (N % p.unit)
    bad("unit (" + std::to_string(p.unit) + " domains) must divide the " + std::to_string(N) +
        " domains");
  if (p.unit % p.rack_domains)
    bad("rack (" + std::to_string(p.rack_domains) + " domains) must divide the unit of " +
        std::to_string(p.unit) + " domains (a unit is a pod of whole racks)");
  positive(p.radix, "radix", 4096);
  const std::int64_t R = p.rails;
  s.units = N / p.unit;
  s.leaf_down = p.unit * (ports / R);
  s.leaves = s.units * R;
  if (p.scale_out == "rail-only" && p.scale_up == "none" && R > 1)
    bad("a rail-only network needs a scale-up domain: its rails never meet otherwise");
  const bool rail_only = p.scale_out == "rail-only";
  if (rail_only ? (p.tiers < 1 || p.tiers > 2) : (p.tiers < 2 || p.tiers > 3))
    bad(rail_only ? "tiers of a rail-only network must be 1 or 2"
                  : "tiers of a rail-optimized network must be 2 or 3");
  if (s.leaf_down > p.radix)
    bad("a leaf serves one rail of a unit: " + std::to_string(s.leaf_down) +
        " ports down (unit x NICs per rail), more than radix " + std::to_string(p.radix) +
        " (give a smaller unit or more rails)");
  if (p.tiers == 1) {
    if (s.units != 1)
      bad("a 1-tier rail-only network has one leaf per rail for every domain: unit must be "
          "all " +
          std::to_string(N) + " domains");
    if (p.leaf_up > 0) bad("up: a 1-tier network has no uplinks");
    p.leaf_up = 0;
  } else if (p.leaf_up < 0) {
    p.leaf_up = s.leaf_down;
  }
  if (p.tiers > 1) positive(p.leaf_up, "up", 4096);
  if (s.leaf_down + p.leaf_up > p.radix)
    bad("a leaf needs " + std::to_string(s.leaf_down) + " ports down (unit x NICs per rail) + " +
        std::to_string(p.leaf_up) + " up, more than radix " + std::to_string(p.radix));
  s.link_count += p.planes * N * ports;
  s.spine_ports = 0;
  if (p.tiers == 2 && !rail_only) {
    if (p.spine_up >= 0) bad("spine-up applies to 3 tiers");
    p.spine_up = 0;
    const std::int64_t S = smallest_divisor(
        p.leaf_up, [&](std::int64_t x) { return s.leaves * (p.leaf_up / x) <= p.radix; });
    if (!S)
      bad(std::to_string(s.leaves) + " leaves with " + std::to_string(p.leaf_up) +
          " uplinks each do not fit on spines of radix " + std::to_string(p.radix) +
          " (use 3 tiers)");
    s.spines = S;
    s.spines_per_block = S;
    s.block_units = s.units;
    s.leaf_spine_links = p.leaf_up / S;
    s.spine_ports = s.leaves * s.leaf_spine_links;
  } else if (p.tiers >= 2) {
    // Per rail, blocks of units, each on its own spines.
    if (rail_only) {
      if (p.spine_up >= 0) bad("spine-up: a rail-only network has no tier above its spines");
      p.spine_up = 0;
    } else if (p.spine_up < 0) {
      p.spine_up = p.radix / 2;
    }
    if (!rail_only) positive(p.spine_up, "spine-up", p.radix - 1);
    const std::int64_t down = p.radix - p.spine_up;
    std::int64_t S2 = smallest_divisor(
        p.leaf_up, [&](std::int64_t x) { return s.units * (p.leaf_up / x) <= down; });
    std::int64_t bu = s.units;
    if (!S2) {
      if (rail_only)
        bad("the " + std::to_string(s.units) + " leaves of a rail with " +
            std::to_string(p.leaf_up) + " uplinks each do not fit on one block of spines of " +
            std::to_string(down) + " ports down");
      S2 = p.leaf_up;
      bu = 1;
      for (std::int64_t b = 1; b <= s.units; ++b)
        if (s.units % b == 0 && b <= down) bu = b;
    }
    s.spines_per_block = S2;
    s.block_units = bu;
    s.leaf_spine_links = p.leaf_up / S2;
    s.spines = R * (s.units / bu) * S2;
    s.spine_ports = bu * s.leaf_spine_links + p.spine_up;
    if (!rail_only) {
      const std::int64_t members = R * (s.units / bu);
      const std::int64_t Cg = smallest_divisor(
          p.spine_up, [&](std::int64_t x) { return members * (p.spine_up / x) <= p.radix; });
      if (!Cg)
        bad(std::to_string(members) + " spines with " + std::to_string(p.spine_up) +
            " uplinks each do not fit on cores of radix " + std::to_string(p.radix));
      s.cores_per_group = Cg;
      s.cores = S2 * Cg;
      s.spine_core_links = p.spine_up / Cg;
      s.core_ports = members * s.spine_core_links;
    }
  } else {
    if (p.spine_up >= 0) bad("spine-up applies to 3 tiers");
    p.spine_up = 0;
  }
  s.link_count += p.planes * (s.leaves * p.leaf_up + s.spines * p.spine_up);
  s.switch_count = s.up_switch_count + p.planes * (s.leaves + s.spines + s.cores);
  if (s.link_count > kMaxComposedLinks)
    bad("the composition has " + std::to_string(s.link_count) + " links, more than " +
        std::to_string(kMaxComposedLinks));
  return s;
}

std::int64_t composed_chip_radix(const ComposedShape& s) {
  std::int64_t r = s.p.scale_up == "none" ? 1 : s.p.up_links;
  if (s.p.scale_out != "none")
    r = std::max(r, nics_on_one_rail(s.p, s.p.domain_chips * s.p.nics / s.p.rails));
  return r;
}

json composed_attrs(const ComposedShape& s) {
  const ComposedParams& p = s.p;
  json j = {{"domains", p.domains},
            {"domain_chips", p.domain_chips},
            {"scale_up", p.scale_up},
            {"scale_up_switches", p.up_switches},
            {"scale_up_links", p.up_links},
            {"board_chips", p.board_chips},
            {"rack_domains", p.rack_domains},
            {"scale_out", p.scale_out},
            {"nics_per_chip", p.nics},
            {"planes", p.planes},
            {"rails", p.rails},
            {"unit_domains", p.unit},
            {"radix", p.radix},
            {"tiers", p.tiers},
            {"leaf_up", p.leaf_up},
            {"spine_up", p.spine_up},
            {"leaves", p.planes * s.leaves},
            {"spines", p.planes * s.spines},
            {"cores", p.planes * s.cores}};
  if (p.scale_up == "torus") j["scale_up_shape"] = p.up_shape;
  return j;
}

namespace {

std::string candidate_id(const ComposedShape& s) {
  const ComposedParams& p = s.p;
  std::string up = p.scale_up == "switch" ? "switch" + std::to_string(p.up_switches) : p.scale_up;
  for (std::size_t i = 0; i < p.up_shape.size(); ++i) {
    if (i) up += 'x';
    up += std::to_string(p.up_shape[i]);
  }
  std::string id =
      "composed:" + std::to_string(p.domains) + "x" + std::to_string(p.domain_chips) + "-" + up;
  if (p.scale_out == "none") return id;
  id += "/" + p.scale_out + "-" + std::to_string(p.tiers) + "t-k" + std::to_string(p.radix) + "-r" +
        std::to_string(p.rails);
  if (p.planes > 1) id += "-p" + std::to_string(p.planes);
  return id;
}

// Reads family_attrs back into parameters (the caller calls done()).
ComposedParams read_params(ObjReader& a) {
  ComposedParams p;
  p.domains = a.integer("domains", 1, kMaxChips);
  p.domain_chips = a.integer("domain_chips", 1, kMaxChips);
  p.scale_up = a.string("scale_up");
  if (a.has("scale_up_shape")) p.up_shape = a.int_list("scale_up_shape", 1, kMaxChips);
  p.up_switches = a.integer("scale_up_switches", 0, 1024);
  p.up_links = a.integer("scale_up_links", 1, 1024);
  p.board_chips = a.integer("board_chips", 1, kMaxChips);
  p.rack_domains = a.integer("rack_domains", 1, kMaxChips);
  p.scale_out = a.string("scale_out");
  const bool none = p.scale_out == "none";
  p.nics = a.integer("nics_per_chip", none ? 0 : 1, 64);
  p.planes = a.integer("planes", none ? 0 : 1, 16);
  p.rails = a.integer("rails", none ? 0 : 1, kMaxChips);
  p.unit = a.integer("unit_domains", 1, kMaxChips);
  p.radix = a.integer("radix", 1, 4096);
  p.tiers = a.integer("tiers", 0, 3);
  p.leaf_up = a.integer("leaf_up", 0, 4096);
  p.spine_up = a.integer("spine_up", 0, 4096);
  if (!none) {
    // 0 means "not used" in the document; the shape reads -1 as "the default".
    if (p.tiers == 2 && p.scale_out == "rail-optimized" && p.spine_up == 0) p.spine_up = -1;
    if (p.scale_out == "rail-only" && p.spine_up == 0) p.spine_up = -1;
    if (p.tiers == 1 && p.leaf_up == 0) p.leaf_up = -1;
  }
  return p;
}

// The document's family_attrs must be what the parameters give, key by key (the derived
// switch counts included); the caller calls done().
void check_attrs(ObjReader& attrs, const json& want) {
  for (const char* key : {"leaves", "spines", "cores"}) attrs.integer(key);
  for (auto it = want.begin(); it != want.end(); ++it)
    if (attrs.raw(it.key()) != it.value())
      attrs.fail(it.key(), "disagrees with the composition (expected " + it.value().dump() + ")");
}

struct Builder {
  const Context& ctx;
  const GenerateOptions& o;
  Network& n;
  void node(NodeKind k, int tier, std::int64_t board, std::int64_t rack, std::int64_t pod,
            const char* role, std::int64_t ports) {
    Node v;
    v.id = static_cast<std::int64_t>(n.nodes.size());
    v.kind = k;
    v.tier = tier;
    v.board = board;
    v.rack = rack;
    v.pod = pod;
    if (role) v.role = role;
    v.ports = ports;
    n.nodes.push_back(std::move(v));
  }
  void link(std::int64_t a, std::int64_t b, LinkKind k, std::int64_t times = 1) {
    const LinkParams lp = link_params(ctx, o, k, is_nic_link(n, a, b, k));
    for (std::int64_t i = 0; i < times; ++i) {
      Link l;
      l.id = static_cast<std::int64_t>(n.links.size());
      l.a = a;
      l.b = b;
      l.kind = k;
      l.bandwidth_bytes_per_s = lp.bandwidth_bytes_per_s;
      l.latency_s = lp.latency_s;
      n.links.push_back(l);
    }
  }
};

// The structure of `s` (nodes, links, hierarchy); metrics left empty.
Network build(const Context& ctx, const GenerateOptions& o, const ComposedShape& s) {
  const ComposedParams& p = s.p;
  const std::int64_t N = p.domains, D = p.domain_chips, C = p.board_chips, BD = D / C;
  Network n;
  n.family = "composed";
  n.n_chip = N * D;
  n.chip_radix = ctx.chip_radix;
  n.nodes.reserve(static_cast<std::size_t>(n.n_chip + s.switch_count));
  n.links.reserve(static_cast<std::size_t>(s.link_count));
  Builder b{ctx, o, n};
  // Hierarchy: boards in domain order, a rack per rack_domains domains, a pod per unit.
  const std::int64_t racks = N / p.rack_domains;
  const std::int64_t racks_per_pod = p.unit / p.rack_domains;
  for (std::int64_t k = 0; k < N * BD; ++k) {
    Board bd;
    bd.id = k;
    bd.rack = (k / BD) / p.rack_domains;
    for (std::int64_t c = 0; c < C; ++c) bd.chips.push_back(k * C + c);
    n.boards.push_back(std::move(bd));
  }
  for (std::int64_t r = 0; r < racks; ++r) {
    Rack rk;
    rk.id = r;
    rk.pod = r / racks_per_pod;
    for (std::int64_t k = r * p.rack_domains * BD; k < (r + 1) * p.rack_domains * BD; ++k)
      rk.boards.push_back(k);
    n.racks.push_back(std::move(rk));
  }
  for (std::int64_t q = 0; q < racks / racks_per_pod; ++q) {
    Pod pd;
    pd.id = q;
    for (std::int64_t r = q * racks_per_pod; r < (q + 1) * racks_per_pod; ++r)
      pd.racks.push_back(r);
    n.pods.push_back(std::move(pd));
  }
  auto rack_of_domain = [&](std::int64_t d) { return d / p.rack_domains; };
  auto pod_of_domain = [&](std::int64_t d) { return d / p.unit; };
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    const std::int64_t d = c / D;
    b.node(NodeKind::Chip, 6, c / C, rack_of_domain(d), pod_of_domain(d), nullptr, 0);
  }
  // Scale-up switches, domain by domain.
  const std::int64_t S = p.scale_up == "switch" ? p.up_switches : 0;
  for (std::int64_t d = 0; d < N; ++d)
    for (std::int64_t k = 0; k < S; ++k)
      b.node(NodeKind::Switch, 8, -1, rack_of_domain(d), pod_of_domain(d), "scale-up",
             D * p.up_links);
  const std::int64_t up_base = n.n_chip;
  // Scale-out switches, plane by plane: leaves (unit-major), spines, cores.
  const std::int64_t per_plane = s.leaves + s.spines + s.cores;
  const std::int64_t out_base = up_base + N * S;
  for (std::int64_t pl = 0; pl < p.planes; ++pl) {
    for (std::int64_t l = 0; l < s.leaves; ++l)
      b.node(NodeKind::Switch, 9, -1, -1, l / p.rails, "leaf", p.radix);
    for (std::int64_t x = 0; x < s.spines; ++x)
      b.node(NodeKind::Switch, 10, -1, -1, -1, "spine", p.radix);
    for (std::int64_t x = 0; x < s.cores; ++x)
      b.node(NodeKind::Switch, 10, -1, -1, -1, "core", p.radix);
  }
  // Scale-up links.
  const std::int64_t L = p.up_links;
  for (std::int64_t d = 0; d < N; ++d) {
    const std::int64_t c0 = d * D;
    if (p.scale_up == "switch") {
      for (std::int64_t c = 0; c < D; ++c)
        for (std::int64_t k = 0; k < S; ++k) b.link(c0 + c, up_base + d * S + k, LinkKind::C2C, L);
    } else if (p.scale_up == "full-mesh") {
      for (std::int64_t i = 0; i < D; ++i)
        for (std::int64_t j = i + 1; j < D; ++j) b.link(c0 + i, c0 + j, LinkKind::C2C, L);
    } else if (p.scale_up == "ring" && D >= 2) {
      for (std::int64_t i = 0; i < (D == 2 ? 1 : D); ++i)
        b.link(c0 + i, c0 + (i + 1) % D, LinkKind::C2C, L);
    } else if (p.scale_up == "torus") {
      // As the torus family numbers its chips: the first dimension has stride 1.
      for (std::int64_t i = 0; i < D; ++i) {
        std::int64_t stride = 1;
        for (std::size_t k = 0; k < p.up_shape.size(); ++k) {
          const std::int64_t size = p.up_shape[k], x = (i / stride) % size;
          if (size > 2 || (size == 2 && x == 0))
            b.link(c0 + i, c0 + i + ((x + 1) % size - x) * stride, LinkKind::C2C, L);
          stride *= size;
        }
      }
    }
  }
  if (p.scale_out == "none") return n;
  const std::int64_t R = p.rails, per_rail = D * p.nics / R;
  const std::int64_t blocks = s.block_units ? s.units / s.block_units : 0;
  for (std::int64_t pl = 0; pl < p.planes; ++pl) {
    const std::int64_t base = out_base + pl * per_plane;
    const std::int64_t spine0 = base + s.leaves, core0 = spine0 + s.spines;
    // Chips (NICs) to leaves.
    for (std::int64_t d = 0; d < N; ++d)
      for (std::int64_t j = 0; j < D * p.nics; ++j)
        b.link(d * D + j / p.nics, base + (d / p.unit) * R + j / per_rail, LinkKind::B2B);
    if (p.tiers < 2) continue;
    // Leaves to spines.
    for (std::int64_t u = 0; u < s.units; ++u)
      for (std::int64_t r = 0; r < R; ++r) {
        const std::int64_t leaf = base + u * R + r;
        if (p.tiers == 2 && p.scale_out == "rail-optimized") {
          for (std::int64_t x = 0; x < s.spines; ++x)
            b.link(leaf, spine0 + x, LinkKind::R2R, s.leaf_spine_links);
        } else {
          const std::int64_t first = (r * blocks + u / s.block_units) * s.spines_per_block;
          for (std::int64_t x = 0; x < s.spines_per_block; ++x)
            b.link(leaf, spine0 + first + x, LinkKind::R2R, s.leaf_spine_links);
        }
      }
    // Spines to cores: spine j of every rail and block to core group j.
    for (std::int64_t x = 0; x < (s.cores ? s.spines : 0); ++x) {
      const std::int64_t j = x % s.spines_per_block;
      for (std::int64_t c = 0; c < s.cores_per_group; ++c)
        b.link(spine0 + x, core0 + j * s.cores_per_group + c, LinkKind::P2P, s.spine_core_links);
    }
  }
  return n;
}

// Hop distance from `src` to the farthest chip (BFS over the multigraph).
std::int64_t chip_eccentricity(const Network& n, const std::vector<std::vector<std::int64_t>>& adj,
                               std::int64_t src) {
  std::vector<std::int64_t> dist(n.nodes.size(), -1);
  std::deque<std::int64_t> q{src};
  dist[static_cast<std::size_t>(src)] = 0;
  std::int64_t far = 0;
  while (!q.empty()) {
    const std::int64_t v = q.front();
    q.pop_front();
    if (v < n.n_chip) far = std::max(far, dist[static_cast<std::size_t>(v)]);
    for (std::int64_t w : adj[static_cast<std::size_t>(v)])
      if (dist[static_cast<std::size_t>(w)] < 0) {
        dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(v)] + 1;
        q.push_back(w);
      }
  }
  return far;
}

} // namespace

std::pair<Context, Candidate> composed_candidate(const ComposedParams& p,
                                                 const std::string& where) {
  const ComposedShape s = composed_shape(p, ErrorKind::Usage, where);
  Context ctx;
  ctx.n_chip = s.p.domains * s.p.domain_chips;
  ctx.scope = Scope::InterRack;
  ctx.chips_per_board_max = std::max<std::int64_t>(ctx.chips_per_board_max, s.p.board_chips);
  ctx.chip_radix = composed_chip_radix(s);
  Candidate c;
  c.family = "composed";
  c.id = candidate_id(s);
  c.family_attrs = composed_attrs(s);
  c.derived_chips_per_board = s.p.board_chips;
  c.n_endpoint = ctx.n_chip / s.p.board_chips;
  return {ctx, c};
}

ComposedShape composed_shape_of(const Network& n, const std::string& where) {
  if (n.family != "composed")
    fail_infeasible(where, "needs a composed network (topo-gen {scale_up}/{scale_out} or "
                           "{preset}), not a " +
                               n.family);
  ObjReader attrs(n.metrics.family_attrs, "", "/network/metrics/family_attrs");
  return composed_shape(read_params(attrs), ErrorKind::Input, "/network/metrics/family_attrs");
}

std::vector<std::int64_t> plane_switches(const Network& n, std::int64_t plane,
                                         const std::string& where) {
  if (n.family != "composed")
    fail_usage(where, "planes belong to composed networks, not to a " + n.family);
  const ComposedShape s = composed_shape_of(n, where);
  const std::int64_t planes = s.p.planes;
  if (plane < 0 || plane >= planes)
    fail_usage(where, "the network has " + std::to_string(planes) + " plane" +
                          (planes == 1 ? "" : "s") + " (0.." + std::to_string(planes - 1) +
                          "), not " + std::to_string(plane));
  const ComposedLayout at(s);
  std::vector<std::int64_t> out;
  for (std::int64_t v = 0; v < at.per_plane; ++v)
    out.push_back(at.out_base + plane * at.per_plane + v);
  return out;
}

std::vector<std::int64_t> rail_switches(const Network& n, std::int64_t rail,
                                        const std::string& where) {
  if (n.family != "composed")
    fail_usage(where, "rails belong to composed networks, not to a " + n.family);
  const ComposedShape s = composed_shape_of(n, where);
  const ComposedParams& p = s.p;
  if (p.scale_out == "none") fail_usage(where, "the network has no scale-out, so no rails");
  if (rail < 0 || rail >= p.rails)
    fail_usage(where, "the network has " + std::to_string(p.rails) + " rail" +
                          (p.rails == 1 ? "" : "s") + " (0.." + std::to_string(p.rails - 1) +
                          "), not " + std::to_string(rail));
  const ComposedLayout at(s);
  const bool per_rail_spines = p.tiers >= 2 && !(p.tiers == 2 && p.scale_out == "rail-optimized");
  const std::int64_t blocks = s.block_units ? s.units / s.block_units : 0;
  std::vector<std::int64_t> out;
  for (std::int64_t pl = 0; pl < p.planes; ++pl) {
    const std::int64_t base = at.out_base + pl * at.per_plane;
    for (std::int64_t u = 0; u < s.units; ++u) out.push_back(base + u * p.rails + rail);
    if (!per_rail_spines) continue;
    const std::int64_t first = base + s.leaves + rail * blocks * s.spines_per_block;
    for (std::int64_t x = 0; x < blocks * s.spines_per_block; ++x) out.push_back(first + x);
  }
  return out;
}

std::string ComposedFamily::parameters() const {
  return "from the command line: {scale_up} KIND:CHIPS[,switches=S][,links=L][,board=C]"
         "[,rack=DOMAINS] (KIND switch, full-mesh, ring, none; or torus:K0xK1x...) and {scale_out} "
         "KIND:domains=N[,unit=U][,radix=K][,tiers=T][,up=UP][,spine-up=UP][,rails=R][,nics=M]"
         "[,planes=P] (KIND rail-optimized, rail-only, none); or topo-gen {preset}";
}

std::vector<std::string> ComposedFamily::attr_keys() const {
  return {"domains",        "domain_chips", "scale_up",     "scale_up_shape", "scale_up_switches",
          "scale_up_links", "board_chips",  "rack_domains", "scale_out",      "nics_per_chip",
          "planes",         "rails",        "unit_domains", "radix",          "tiers",
          "leaf_up",        "spine_up",     "leaves",       "spines",         "cores"};
}

const std::vector<std::string>& ComposedFamily::warning_names() const {
  static const std::vector<std::string> none;
  return none;
}

Candidate ComposedFamily::make(const Context&, const CandidateRun&, std::int64_t) const {
  fail_runtime("composed", "composed candidates are built from the command line, not enumerated");
}

Estimate ComposedFamily::estimate(const Context&, const CandidateRun&, std::int64_t) const {
  fail_runtime("composed", "composed candidates are built from the command line, not enumerated");
}

Network ComposedFamily::generate(const Context& ctx, const Candidate& c,
                                 const GenerateOptions& o) const {
  ObjReader attrs(c.family_attrs, "candidate " + c.id, "/family_attrs");
  const ComposedParams p = read_params(attrs);
  const ComposedShape s =
      composed_shape(p, ErrorKind::Input, "candidate " + c.id + ":/family_attrs");
  const json want = composed_attrs(s);
  check_attrs(attrs, want);
  attrs.done();
  const std::string where = "candidate " + c.id;
  if (ctx.n_chip != s.p.domains * s.p.domain_chips)
    fail_input(where + ":/family_attrs",
               "domains x domain_chips must be the context's n_chip " + std::to_string(ctx.n_chip));
  if (c.derived_chips_per_board != s.p.board_chips ||
      c.n_endpoint * c.derived_chips_per_board != ctx.n_chip)
    fail_input(where + ":/derived_chips_per_board",
               "must be board_chips, and n_endpoint the number of boards");
  if (ctx.chip_radix < composed_chip_radix(s))
    fail_input("/context/chip_radix", "the composition has " +
                                          std::to_string(composed_chip_radix(s)) +
                                          " parallel links between a chip and one node: "
                                          "chip_radix must be at least that");
  Network n = build(ctx, o, s);
  Metrics& m = n.metrics;
  m.link_count = static_cast<std::int64_t>(n.links.size());
  m.switch_count = s.switch_count;
  if (m.link_count != s.link_count)
    fail_runtime("composed", "built " + std::to_string(m.link_count) + " links, counted " +
                                 std::to_string(s.link_count));
  // Diameter and path diversity exactly, from the chips of domain 0 (every domain is alike:
  // units, the domains of a unit and blocks are interchangeable) to every chip, resp. to every
  // chip of domain 0, of domain 1 and of the first domain of the next unit and block.
  std::vector<std::vector<std::int64_t>> adj(n.nodes.size());
  for (const Link& l : n.links) {
    adj[static_cast<std::size_t>(l.a)].push_back(l.b);
    adj[static_cast<std::size_t>(l.b)].push_back(l.a);
  }
  const std::int64_t D = s.p.domain_chips;
  for (std::int64_t c0 = 0; c0 < D; ++c0)
    m.diameter = std::max(m.diameter, chip_eccentricity(n, adj, c0));
  std::vector<std::int64_t> targets;
  for (std::int64_t first :
       {std::int64_t{0}, std::int64_t{1}, s.p.unit, s.block_units ? s.block_units * s.p.unit : 0})
    if (first < s.p.domains && (first > 0 || D > 1))
      for (std::int64_t c = 0; c < D; ++c)
        if (first * D + c != 0) targets.push_back(first * D + c);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  // A ring or torus domain is vertex-transitive; with the rails too when each chip has rails of
  // its own (a rotation then maps rails to rails), else every chip of domain 0 is a source.
  const bool chips_alike = (s.p.scale_up != "ring" && s.p.scale_up != "torus") ||
                           s.p.scale_out == "none" || s.p.domain_chips == s.p.rails;
  std::int64_t best = INT64_MAX;
  for (std::int64_t src = 0; src < (chips_alike ? 1 : D); ++src)
    for (std::int64_t t : targets)
      if (t != src) best = std::min(best, edge_disjoint_paths(n, src, t));
  m.path_diversity = best == INT64_MAX ? 0 : best;
  set_bisection(n, heuristic_bisection(n), "heuristic");
  m.derived_chips_per_board = s.p.board_chips;
  m.family_attrs = want;
  return n;
}

void ComposedFamily::check_network(const Network& n, const NetworkSite& at) const {
  ObjReader attrs = at.attrs(n);
  const ComposedParams p = read_params(attrs);
  const ComposedShape s = composed_shape(p, ErrorKind::Input, at.where("/metrics/family_attrs"));
  const json want = composed_attrs(s);
  check_attrs(attrs, want);
  attrs.done();
  if (n.n_chip != s.p.domains * s.p.domain_chips)
    at.fail("/n_chip",
            "must be domains x domain_chips = " + std::to_string(s.p.domains * s.p.domain_chips));
  if (n.chip_radix < composed_chip_radix(s))
    at.fail("/chip_radix", "must be at least " + std::to_string(composed_chip_radix(s)));
  if (n.metrics.derived_chips_per_board != s.p.board_chips)
    at.fail("/metrics/derived_chips_per_board", "must be board_chips");
  // Rebuild the structure and compare it: nodes, then link ends and kinds.
  Context ctx;
  ctx.n_chip = n.n_chip;
  ctx.chip_radix = n.chip_radix;
  const Network want_n = build(ctx, GenerateOptions{}, s);
  if (n.nodes.size() != want_n.nodes.size())
    at.fail("/nodes", "has " + std::to_string(n.nodes.size()) + " nodes, the composition " +
                          std::to_string(want_n.nodes.size()));
  for (std::size_t i = 0; i < n.nodes.size(); ++i) {
    const Node &x = n.nodes[i], &y = want_n.nodes[i];
    if (x.kind != y.kind || x.tier != y.tier || x.board != y.board || x.rack != y.rack ||
        x.pod != y.pod || x.role != y.role || x.ports != y.ports || !x.coord.empty())
      at.fail(node_ptr(x.id), "is not the node the composition has there (" +
                                  std::string(y.kind == NodeKind::Chip ? "chip" : y.role) +
                                  " at tier " + std::to_string(y.tier) + ")");
  }
  if (n.links.size() != want_n.links.size())
    at.fail("/links", "has " + std::to_string(n.links.size()) + " links, the composition " +
                          std::to_string(want_n.links.size()));
  for (std::size_t i = 0; i < n.links.size(); ++i) {
    const Link &x = n.links[i], &y = want_n.links[i];
    if (x.a != y.a || x.b != y.b || x.kind != y.kind || x.dim != -1)
      at.fail(link_ptr(x.id), "is not the link the composition has there (" + std::to_string(y.a) +
                                  "-" + std::to_string(y.b) + " " + to_string(y.kind) + ")");
  }
}

namespace {

std::int64_t positive_value(const std::string& v, const std::string& where,
                            const std::string& key) {
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
    fail_usage(where, key + " must be a positive integer, got '" + v + "'");
  return std::stoll(v);
}

// "kind:first,key=value,..." -> kind, the value before the first '=' (may be empty), pairs.
struct Spec {
  std::string kind, first;
  std::vector<std::pair<std::string, std::string>> kv;
};
Spec split_spec(const std::string& text, const std::string& where) {
  Spec s;
  const auto colon = text.find(':');
  s.kind = text.substr(0, colon);
  if (colon == std::string::npos) return s;
  std::size_t at = colon + 1;
  while (at <= text.size()) {
    auto comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(at, comma - at);
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      if (!s.first.empty() || !s.kv.empty())
        fail_usage(where, "expected key=value, got '" + item + "' in '" + text + "'");
      s.first = item;
    } else {
      const std::string key = item.substr(0, eq);
      for (auto& [k, v] : s.kv)
        if (k == key) fail_usage(where, "gives " + key + " twice");
      s.kv.push_back({key, item.substr(eq + 1)});
    }
    at = comma + 1;
  }
  return s;
}

} // namespace

ComposedParams parse_composition(const std::string& scale_up, const std::string& scale_out) {
  ComposedParams p;
  {
    const Spec u = split_spec(scale_up, "{scale_up}");
    if (!known_up(u.kind))
      fail_usage("{scale_up}",
                 "unknown scale-up '" + u.kind +
                     "' (use switch, full-mesh, ring, torus or none, e.g. switch:8,switches=4)");
    p.scale_up = u.kind;
    if (u.first.empty())
      fail_usage("{scale_up}", "give the chips of a domain after the kind, e.g. " + u.kind +
                                   (u.kind == "torus" ? ":4x4x4" : ":8"));
    if (p.scale_up == "torus") {
      std::size_t at = 0;
      p.domain_chips = 1;
      while (true) {
        const std::size_t x = u.first.find('x', at);
        const std::int64_t k = positive_value(
            u.first.substr(at, x == std::string::npos ? x : x - at), "{scale_up}", "a torus size");
        p.up_shape.push_back(k);
        if (k < 1 || p.up_shape.size() > 6 || k > kMaxChips || p.domain_chips > kMaxChips / k)
          fail_usage("{scale_up}", "a torus of at most 6 dimensions and " +
                                       std::to_string(kMaxChips) + " chips, not '" + u.first + "'");
        p.domain_chips *= k;
        if (x == std::string::npos) break;
        at = x + 1;
      }
    } else {
      p.domain_chips = positive_value(u.first, "{scale_up}", "the chips of a domain");
    }
    for (auto& [k, v] : u.kv) {
      const std::int64_t x = positive_value(v, "{scale_up}", k);
      if (k == "switches")
        p.up_switches = x;
      else if (k == "links")
        p.up_links = x;
      else if (k == "board")
        p.board_chips = x;
      else if (k == "rack")
        p.rack_domains = x;
      else
        fail_usage("{scale_up}", "unknown key '" + k + "' (switches, links, board, rack)");
    }
    if (p.scale_up == "switch" && p.up_switches == 0) p.up_switches = 1;
  }
  const Spec o = split_spec(scale_out, "{scale_out}");
  if (!known_out(o.kind))
    fail_usage("{scale_out}", "unknown scale-out '" + o.kind +
                                  "' (use rail-optimized, rail-only or none, e.g. "
                                  "rail-optimized:domains=64,unit=32)");
  if (!o.first.empty()) fail_usage("{scale_out}", "expected key=value, got '" + o.first + "'");
  p.scale_out = o.kind;
  if (p.scale_out == "rail-only") p.tiers = 1;
  bool domains = false;
  for (auto& [k, v] : o.kv) {
    const std::int64_t x = positive_value(v, "{scale_out}", k);
    if (k == "domains")
      p.domains = x, domains = true;
    else if (k == "unit")
      p.unit = x;
    else if (k == "radix")
      p.radix = x;
    else if (k == "tiers")
      p.tiers = x;
    else if (k == "up")
      p.leaf_up = x;
    else if (k == "spine-up")
      p.spine_up = x;
    else if (k == "rails")
      p.rails = x;
    else if (k == "nics")
      p.nics = x;
    else if (k == "planes")
      p.planes = x;
    else
      fail_usage("{scale_out}", "unknown key '" + k +
                                    "' (domains, unit, radix, tiers, up, spine-up, rails, nics, "
                                    "planes)");
  }
  if (!domains && p.scale_out != "none")
    fail_usage("{scale_out}", "give the number of domains, e.g. " + o.kind + ":domains=64");
  return p;
}

} // namespace icnkit::topo
