#include "coll/closed_form.hpp"

#include "coll/plan.hpp"
#include "coll/registry.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::coll {

namespace {

// Fault-free reductions on an equal-radix torus: entry k of a chunk's sequence (reduce-scatters,
// then all-gathers) takes T_k, the same for every chunk; chunk c's entry k starts after its own
// entry k-1 and, for the pipeline, after chunk c-1's entry k (the longest path of that grid);
// sequential and DimRotation chunks never share a dimension at a time, so they take sum T_k.
std::optional<ClosedForm> reduction_form(const Schedule& s, const TorusForm& alg,
                                         const DimSchedulingInfo& dims, int n, int D, double B,
                                         double a) {
  if (!alg.ring_reductions) return {};
  const bool rs = s.collective != "all-gather", ag = s.collective != "reduce-scatter";
  std::vector<double> T;
  const int C = s.chunks;
  double share = static_cast<double>(s.bytes_per_node) / C;
  if (!rs)
    for (int k = 0; k < D; ++k) share /= n;
  if (rs)
    for (int k = 0; k < D; ++k) {
      T.push_back(ring_reduction_time(n, share, B, a));
      share /= n;
    }
  if (ag)
    for (int k = 0; k < D; ++k) {
      share *= n;
      T.push_back(ring_reduction_time(n, share, B, a));
    }
  ClosedForm out;
  if (dims.staggered) {
    // An all-reduce's chunk c-1 gathers along the dimension chunk c still reduces along: they
    // share its links, which this recursion does not model.
    if (rs && ag) return {};
    std::vector<double> done(T.size(), 0); // chunk c-1's end of each entry
    for (int c = 0; c < C; ++c) {
      double t = 0;
      for (std::size_t k = 0; k < T.size(); ++k) {
        t = std::max(t, done[k]) + T[k];
        done[k] = t;
      }
    }
    out.time_s = done.back();
  } else {
    for (double t : T) out.time_s += t;
  }
  out.formula = s.collective + " " + s.algorithm + "+" + s.dim_scheduling +
                ": per phase (N-1)(alpha + share/(2NB)), the share shrinking by N per "
                "reduce-scatter and growing back per all-gather; per-sub-stage latency model";
  return out;
}

// Fault-free all-to-all on a torus whose dimensions differ in size: chunk c's k-th dimension
// starts after its own (k-1)-th and after the phase that last used that dimension (one chunk per
// dimension at a time; Pipeline's chunk c-1), and takes T_d = T(N_d, S/C). The makespan of that
// grid, by slots: sum_d T_d(S) sequential, (C + D - 1) T for equal T_d.
std::optional<ClosedForm> mixed_radix_form(const Schedule& s, const TorusForm& alg,
                                           const DimSchedulingInfo& dims,
                                           const topo::TorusGeometry& g,
                                           const std::vector<int>& live, double B, double a,
                                           LatencyModel m) {
  if (!alg.ring_time || !dims.chunk_orders) return {};
  const int D = static_cast<int>(live.size());
  const std::vector<std::vector<int>> order = dims.chunk_orders(live, s.chunks);
  const int C = static_cast<int>(order.size());
  const bool pipeline = dims.staggered;
  const double S = static_cast<double>(s.bytes_per_node) / C;
  std::vector<double> chunk_end(static_cast<std::size_t>(C), 0),
      dim_end(static_cast<std::size_t>(g.dims()), 0);
  const int slots = (pipeline ? C - 1 : 0) + D;
  for (int slot = 0; slot < slots; ++slot) {
    std::vector<double> used = dim_end;
    for (int c = 0; c < C; ++c) {
      const int k = slot - (pipeline ? c : 0);
      if (k < 0 || k >= D) continue;
      const int d = order[static_cast<std::size_t>(c)][static_cast<std::size_t>(k)];
      const auto uc = static_cast<std::size_t>(c), ud = static_cast<std::size_t>(d);
      const double t = std::max(chunk_end[uc], dim_end[ud]) + alg.ring_time(g.size(d), S, B, a, m);
      chunk_end[uc] = t;
      used[ud] = std::max(used[ud], t);
    }
    dim_end = used;
  }
  ClosedForm out;
  out.time_s = *std::max_element(chunk_end.begin(), chunk_end.end());
  out.formula = s.algorithm + "+" + s.dim_scheduling +
                ": mixed radix, each chunk's dimensions one after the other, one chunk per "
                "dimension at a time, T_d = T(N_d, S/C); " +
                std::string(m == LatencyModel::Table1 ? "astra (Table 1) latency model"
                                                      : "per-sub-stage latency model");
  return out;
}

} // namespace

std::optional<ClosedForm> closed_form(const Schedule& s, const topo::Network& net,
                                      const topo::Faults& faults, LatencyModel m) {
  const AlgorithmInfo* entry = find_algorithm(s.algorithm);
  const TorusForm* alg = entry && entry->torus ? &*entry->torus : nullptr;
  const DimSchedulingInfo* dims = find_dim_scheduling(s.dim_scheduling);
  if (!alg || !dims || net.links.empty() || !faults.chips.empty()) return {};
  topo::TorusGeometry g = topo::TorusGeometry::shape_of(net, "closed form");
  if (topo::TorusGeometry::twisted(net)) return {};
  std::vector<int> live;
  for (int d = 0; d < g.dims(); ++d)
    if (g.size(d) > 1) live.push_back(d);
  if (live.empty()) return {};
  const int n = g.size(live.front());
  bool mixed = false;
  for (int d : live) mixed |= g.size(d) != n;
  const double B = net.links.front().bandwidth_bytes_per_s, a = net.links.front().latency_s;
  for (auto& l : net.links)
    if (l.bandwidth_bytes_per_s != B || l.latency_s != a) return {};
  const int D = static_cast<int>(live.size());
  const double S = static_cast<double>(s.bytes_per_node);
  auto down = faults.down_links(net);
  const auto n_down = std::count(down.begin(), down.end(), 1);
  ClosedForm out;
  const std::string name = s.algorithm + "+" + s.dim_scheduling;
  if (mixed) {
    if (s.collective != "all-to-all" || n_down != 0) return {};
    return mixed_radix_form(s, *alg, *dims, g, live, B, a, m);
  }
  if (m == LatencyModel::Table1 && (s.collective != "all-to-all" || n_down != 0)) return {};
  if (s.collective != "all-to-all")
    return n_down == 0 ? reduction_form(s, *alg, *dims, n, D, B, a) : std::nullopt;
  if (n_down == 0) {
    if (!alg->ring_time || !dims->chunk_orders) return {};
    // slots x T(S / chunks): D T(S), (C + D - 1) T(S/C), D T(S/D).
    const int chunks = static_cast<int>(dims->chunk_orders(live, s.chunks).size());
    out.time_s = dims->slots(D, s.chunks) * alg->ring_time(n, S / chunks, B, a, m);
    out.formula = name + ": " + dims->form(D, s.chunks);
    out.formula += m == LatencyModel::Table1 ? ", astra (Table 1) latency model"
                                             : ", per-sub-stage latency model";
    return out;
  }
  if (n_down != 1 || alg->one_fault == TorusForm::OneFault::None ||
      dims->one_fault == DimSchedulingInfo::OneFault::None)
    return {};
  const bool rotation = dims->one_fault == DimSchedulingInfo::OneFault::Rotation;
  // One failed link, in dimension f: every slot runs one chunk's normal phases (HalfRing, the
  // faulty ring's folded share r for MATEe), then that chunk's acceleration phase: P planes of
  // HalfRing over 3-hop logical links and the folded ring, sharing the rest as plan.hpp does.
  const std::int64_t link = std::find(down.begin(), down.end(), 1) - down.begin();
  const int f = static_cast<int>(link % g.dims());
  int P = 0;
  for (int d : live)
    if (d != f && g.size(d) >= 3) ++P; // every plane of a single fault is healthy
  const Fraction rf = halfring_folded_ratio(n);
  const double r = rf.value();
  const bool early = alg->one_fault == TorusForm::OneFault::MateEarly;
  const double C = rotation ? D : 1;
  const double Sc = S / C;
  const double rem = early ? 1 - r : 1;
  const double normal_f = early ? std::max(halfring_time(n, Sc, B, a, LatencyModel::PerSubStage),
                                           folded_time(n, r * Sc, B, a, LatencyModel::PerSubStage))
                                : halfring_time(n, Sc, B, a, LatencyModel::PerSubStage);
  const double plane =
      P > 0 ? halfring_time(n, rem / (P + r) * Sc, B, a, LatencyModel::PerSubStage, 3) : 0;
  const double fold = folded_time(n, rem * r / (P + r) * Sc, B, a, LatencyModel::PerSubStage);
  const double accel = std::max(plane, fold);
  const double normal = halfring_time(n, Sc, B, a, LatencyModel::PerSubStage);
  if (rotation) {
    // D slots; in each, one chunk is in dimension f and the others in healthy dimensions.
    out.time_s = D * (std::max(normal, normal_f) + accel);
    out.formula = name + ": D (max(T_HR(S/D), T_normal,f) + max(T_HR3(w S/D), T_FR(w_f S/D)))";
  } else {
    out.time_s = (D - 1) * normal + normal_f + accel;
    out.formula = name + ": (D-1) T_HR(S) + T_normal,f + max(T_HR3(w S), T_FR(w_f S))";
  }
  out.formula += ", P = " + std::to_string(P) + " planes, r = " + to_string(rf) +
                 ", per-sub-stage latency model";
  return out;
}

} // namespace icnkit::coll
