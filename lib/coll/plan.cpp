#include "coll/plan.hpp"

#include "coll/hops.hpp"
#include "coll/rings.hpp"
#include "core/error.hpp"

#include <algorithm>

namespace icnkit::coll {

namespace {

RingPlan on_rings(RingPlan plan, const std::optional<std::vector<std::int64_t>>& rings) {
  for (auto& step : plan)
    for (auto& t : step) t.rings = rings;
  return plan;
}

// Appends `part`'s steps to `into` step by step (step j of both run as one step of the lane).
void merge(RingPlan& into, const RingPlan& part) {
  if (into.size() < part.size()) into.resize(part.size());
  for (std::size_t j = 0; j < part.size(); ++j)
    into[j].insert(into[j].end(), part[j].begin(), part[j].end());
}

// The rings every transfer should name: nullopt when the dimension has no faulty ring.
std::optional<std::vector<std::int64_t>> healthy_scope(const DimFaults& f) {
  if (f.faulty.empty()) return std::nullopt;
  return f.healthy;
}

std::string ring_text(const DimContext& c, std::int64_t ring) {
  DimRings rings(*c.geometry, c.dim);
  return "ring " + std::to_string(ring) + " of dimension " + std::to_string(c.dim) + " (through " +
         chip_text(*c.geometry, rings.chip(ring, 0)) + ")";
}

// The plane of ring `ring` through its neighbours in dimension g: the channels of every logical
// hop in both directions (cw via side +1, acw via side -1), or empty if one of them is down or g
// has fewer than 3 chips (side +1 and -1 would be the same ring).
std::vector<std::int64_t> plane_channels(const DimContext& c, std::int64_t ring, int g) {
  const topo::TorusGeometry& geo = *c.geometry;
  std::vector<std::int64_t> out;
  if (g == c.dim || geo.size(g) < 3) return out;
  DimRings rings(geo, c.dim);
  const int n = rings.size();
  bool ok = true;
  for (int dir : {+1, -1}) {
    RingTransfer t{dir, 0, 0, Fraction{1, 1}, std::nullopt};
    t.via_dim = g;
    t.via_side = dir;
    for (int i = 0; i < n; ++i)
      for_each_hop(geo, c.dim, n, rings.chip(ring, i), i, t,
                   [&](std::int64_t, std::int64_t, std::int64_t ch) {
                     if ((*c.down_links)[static_cast<std::size_t>(topo::link_of_channel(ch))])
                       ok = false;
                     out.push_back(ch);
                   });
  }
  if (!ok) out.clear();
  return out;
}

RingPlan via_plan(RingPlan plan, int g, std::int64_t ring) {
  for (auto& step : plan)
    for (auto& t : step) {
      t.via_dim = g;
      t.via_side = t.direction;
      t.rings = std::vector<std::int64_t>{ring};
    }
  return plan;
}

RingPlan folded_on(int n, int fold_at, std::int64_t ring, const Fraction& w) {
  RingPlan p = scaled(folded_all_to_all_plan(n, fold_at), w);
  return on_rings(std::move(p), std::vector<std::int64_t>{ring});
}

Fraction one_minus(const Fraction& f) {
  return make_fraction(f.den - f.num, f.den);
}

// MATE (early = false) and MATEe (early = true).
DimPlan mate_plan(const DimContext& c, bool early) {
  const topo::TorusGeometry& geo = *c.geometry;
  const DimFaults& f = *c.faults;
  const int n = geo.size(c.dim);
  DimPlan out;
  PhasePlan normal;
  if (!f.healthy.empty())
    normal.lanes.push_back({0, on_rings(halfring_all_to_all_plan(n), healthy_scope(f))});
  if (f.faulty.empty()) {
    out.phases.push_back(std::move(normal));
    return out;
  }
  const Fraction r = halfring_folded_ratio(n);
  // MATEe's normal-phase share on the folded ring: what fits in the slot's normal phase, whose
  // length the largest ring running beside it sets (r itself when that is this ring's size).
  const Fraction x = slot_folded_ratio(std::max(c.slot_ring, n), n);
  // Per faulty ring: its planes, what its folded ring and each plane carry in phase M, and every
  // channel phase M uses for it (to keep rings that share a link in separate phases).
  struct Part {
    std::int64_t ring;
    int fold_at = -1; // one failed link: the folded ring is usable
    std::vector<int> planes;
    std::vector<std::int64_t> channels;
  };
  std::vector<Part> parts;
  RingPlan early_fold;
  for (auto& [ring, positions] : f.faulty) {
    Part p{ring, positions.size() == 1 ? positions.front() : -1, {}, {}};
    for (int g = 0; g < geo.dims(); ++g) {
      auto ch = plane_channels(c, ring, g);
      if (ch.empty()) continue;
      p.planes.push_back(g);
      p.channels.insert(p.channels.end(), ch.begin(), ch.end());
    }
    if (p.planes.empty() && p.fold_at < 0)
      fail_infeasible("/faults/links",
                      c.algorithm + " cannot serve " + ring_text(c, ring) + ": it has " +
                          std::to_string(positions.size()) +
                          " failed links (so no folded ring) and no neighbouring ring offers a "
                          "healthy acceleration plane");
    if (p.fold_at >= 0) {
      DimRings rings(geo, c.dim);
      for (int i = 0; i < n; ++i)
        for (int dir : {+1, -1}) p.channels.push_back(geo.channel(rings.chip(ring, i), c.dim, dir));
      if (early) merge(early_fold, folded_on(n, p.fold_at, ring, x));
    }
    std::sort(p.channels.begin(), p.channels.end());
    p.channels.erase(std::unique(p.channels.begin(), p.channels.end()), p.channels.end());
    parts.push_back(std::move(p));
  }
  if (!early_fold.empty()) normal.lanes.push_back({1, std::move(early_fold)});
  out.phases.push_back(std::move(normal)); // possibly empty: the assembler skips it

  // Greedy grouping: a faulty ring joins the first acceleration phase none of whose rings shares a
  // channel with it (faults on rings far apart accelerate together,
  // docs/algorithms.md §MATE and MATEe).
  std::vector<std::vector<const Part*>> groups;
  std::vector<std::vector<std::int64_t>> group_channels;
  for (const Part& p : parts) {
    std::size_t k = 0;
    for (; k < groups.size(); ++k) {
      std::vector<std::int64_t> common;
      std::set_intersection(p.channels.begin(), p.channels.end(), group_channels[k].begin(),
                            group_channels[k].end(), std::back_inserter(common));
      if (common.empty()) break;
    }
    if (k == groups.size()) groups.emplace_back(), group_channels.emplace_back();
    groups[k].push_back(&p);
    std::vector<std::int64_t> u;
    std::set_union(p.channels.begin(), p.channels.end(), group_channels[k].begin(),
                   group_channels[k].end(), std::back_inserter(u));
    group_channels[k] = std::move(u);
  }
  for (std::size_t k = 0; k < groups.size(); ++k) {
    PhasePlan accel;
    accel.suffix = "accel" + std::to_string(k);
    RingPlan fold_lane;
    std::vector<RingPlan> plane_lanes(static_cast<std::size_t>(geo.dims()));
    for (const Part* p : groups[k]) {
      // Phase M carries what the normal phase left: everything (MATE, or a ring with several
      // faults), or 1 - r (MATEe). Each plane takes 1/(P + r') of it and the folded ring
      // r'/(P + r'), r' = r with a usable fold, 0 without: their times are then equal (bandwidth
      // terms), since the folded ring is 1/r times slower than a HalfRing.
      const bool fold = p->fold_at >= 0;
      const Fraction rem = early && fold ? one_minus(x) : Fraction{1, 1};
      if (rem.num == 0) continue; // the normal phase carried it all
      const Fraction rr = fold ? r : Fraction{0, 1};
      const auto P = static_cast<std::int64_t>(p->planes.size());
      // 1/(P + rr) = rr.den / (P rr.den + rr.num)
      const std::int64_t den = P * rr.den + rr.num;
      if (fold)
        merge(fold_lane, folded_on(n, p->fold_at, p->ring, times(rem, make_fraction(rr.num, den))));
      if (P > 0) {
        const Fraction share = times(rem, make_fraction(rr.den, den));
        for (int g : p->planes)
          merge(plane_lanes[static_cast<std::size_t>(g)],
                via_plan(scaled(halfring_all_to_all_plan(n), share), g, p->ring));
      }
    }
    if (!fold_lane.empty()) accel.lanes.push_back({1, std::move(fold_lane)});
    for (int g = 0; g < geo.dims(); ++g)
      if (!plane_lanes[static_cast<std::size_t>(g)].empty())
        accel.lanes.push_back({2 + g, std::move(plane_lanes[static_cast<std::size_t>(g)])});
    out.phases.push_back(std::move(accel));
  }
  return out;
}

} // namespace

std::vector<DimFaults> dim_faults(const topo::TorusGeometry& g, const topo::Network& net,
                                  const topo::Faults& faults, const std::string& who) {
  if (!faults.chips.empty())
    fail_infeasible("/faults/chips", chip_text(g, faults.chips.front().chip) +
                                         " has failed: " + who +
                                         " serves failed links only (a ring with a missing "
                                         "member is not handled)");
  std::vector<DimFaults> out(static_cast<std::size_t>(g.dims()));
  auto down = faults.down_links(net);
  for (std::size_t l = 0; l < down.size(); ++l) {
    if (!down[l]) continue;
    const auto id = static_cast<std::int64_t>(l);
    const int d = static_cast<int>(id % g.dims());
    if (g.size(d) == 1) continue;
    const std::int64_t chip = id / g.dims(); // the link leaves `chip` in + direction
    DimRings rings(g, d);
    out[static_cast<std::size_t>(d)].faulty[rings.ring_of(chip)].push_back(rings.pos_of(chip));
  }
  for (int d = 0; d < g.dims(); ++d) {
    DimRings rings(g, d);
    auto& f = out[static_cast<std::size_t>(d)];
    for (auto& [ring, pos] : f.faulty) std::sort(pos.begin(), pos.end());
    for (std::int64_t r = 0; r < rings.count(); ++r)
      if (!f.faulty.count(r)) f.healthy.push_back(r);
  }
  return out;
}

Fraction halfring_folded_ratio(int n) {
  return n % 2 == 0 ? make_fraction(n, 4 * (n - 1)) : make_fraction(n + 1, 4 * n);
}

Fraction slot_folded_ratio(int n, int n_f) {
  if (n == n_f) return halfring_folded_ratio(n);
  const std::int64_t N = n, F = n_f;
  const Fraction x =
      N % 2 == 0 ? make_fraction(N, 4 * (F - 1)) : make_fraction(N * N - 1, 4 * N * (F - 1));
  return x.num >= x.den ? Fraction{1, 1} : x;
}

namespace {

RingPlan ring_plan_for(PhaseOp op, int n) {
  switch (op) {
  case PhaseOp::ReduceScatter:
    return ring_reduce_scatter_plan(n);
  case PhaseOp::AllGather:
    return ring_all_gather_plan(n);
  case PhaseOp::AllToAll:
    break;
  }
  return ring_all_to_all_plan(n);
}

RingPlan folded_plan_for(PhaseOp op, int n, int fold_at) {
  switch (op) {
  case PhaseOp::ReduceScatter:
    return folded_reduce_scatter_plan(n, fold_at);
  case PhaseOp::AllGather:
    return folded_all_gather_plan(n, fold_at);
  case PhaseOp::AllToAll:
    break;
  }
  return folded_all_to_all_plan(n, fold_at);
}

} // namespace

DimPlan ring_dim_plan(const DimContext& c) {
  return DimPlan{{PhasePlan{"", {{0, ring_plan_for(c.op, c.geometry->size(c.dim))}}}}};
}

DimPlan halfring_dim_plan(const DimContext& c) {
  return DimPlan{{PhasePlan{"", {{0, halfring_all_to_all_plan(c.geometry->size(c.dim))}}}}};
}

namespace {

// A ring with one failed link runs its folded ring in lane 1; the healthy rings run HalfRing
// (all-to-all, halfring_healthy) or the bidirectional Ring in lane 0.
DimPlan folded_dim_plan(const DimContext& c, bool halfring_healthy) {
  const DimFaults& f = *c.faults;
  const int n = c.geometry->size(c.dim);
  PhasePlan normal;
  if (!f.healthy.empty())
    normal.lanes.push_back(
        {0, on_rings(halfring_healthy && c.op == PhaseOp::AllToAll ? halfring_all_to_all_plan(n)
                                                                   : ring_plan_for(c.op, n),
                     healthy_scope(f))});
  RingPlan fold;
  for (auto& [ring, positions] : f.faulty) {
    if (positions.size() > 1)
      fail_infeasible("/faults/links",
                      "foldedring cannot serve " + ring_text(c, ring) + ": it has " +
                          std::to_string(positions.size()) +
                          " failed links, which split it into segments (mate reroutes such a "
                          "ring through its neighbours)");
    merge(fold,
          on_rings(folded_plan_for(c.op, n, positions.front()), std::vector<std::int64_t>{ring}));
  }
  if (!fold.empty()) normal.lanes.push_back({1, std::move(fold)});
  return DimPlan{{std::move(normal)}};
}

} // namespace

DimPlan foldedring_dim_plan(const DimContext& c) {
  return folded_dim_plan(c, true);
}
DimPlan foldedring_ring_dim_plan(const DimContext& c) {
  return folded_dim_plan(c, false);
}

DimPlan mate_dim_plan(const DimContext& c) {
  return mate_plan(c, false);
}
DimPlan matee_dim_plan(const DimContext& c) {
  return mate_plan(c, true);
}

} // namespace icnkit::coll
