// The physical links of one logical ring hop (schedule.hpp, "How a logical hop is carried"): the
// one place that turns a ring transfer's hop into channels, for verification and simulation.
#pragma once
#include "coll/schedule.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::coll {

// A torus's neighbours and channels tabulated once per (chip, dimension, direction): the
// verification walks every physical hop of a schedule (tens of millions on 32x32x32), and
// TorusGeometry's coordinate divisions and modulo dominated it. Answers exactly what
// TorusGeometry::neighbour() and channel() answer.
class HopTable {
public:
  explicit HopTable(const topo::TorusGeometry& g) : dims_(g.dims()) {
    const auto slots = static_cast<std::size_t>(g.count()) * static_cast<std::size_t>(dims_) * 2;
    next_.resize(slots);
    chan_.resize(slots);
    for (std::int64_t c = 0; c < g.count(); ++c)
      for (int d = 0; d < dims_; ++d)
        for (int dir : {-1, 1}) {
          next_[at(c, d, dir)] = g.neighbour(c, d, dir);
          chan_[at(c, d, dir)] = g.channel(c, d, dir);
        }
  }
  std::int64_t neighbour(std::int64_t chip, int d, int dir) const {
    return next_[at(chip, d, dir)];
  }
  std::int64_t channel(std::int64_t chip, int d, int dir) const { return chan_[at(chip, d, dir)]; }

private:
  std::size_t at(std::int64_t chip, int d, int dir) const {
    return (static_cast<std::size_t>(chip) * static_cast<std::size_t>(dims_) +
            static_cast<std::size_t>(d)) *
               2 +
           (dir > 0 ? 1 : 0);
  }
  int dims_;
  std::vector<std::int64_t> next_, chan_;
};

// Calls emit(src_chip, dst_chip, channel) for every physical hop, in order, of the logical hop
// of transfer `t` that leaves `chip` (ring position `pos`, ring size n) in a phase along
// dimension d. Geometry: topo::TorusGeometry or its HopTable.
template <class Geometry, class Emit>
void for_each_hop(const Geometry& g, int d, int n, std::int64_t chip, int pos,
                  const RingTransfer& t, Emit&& emit) {
  auto hop = [&](std::int64_t from, int dim, int dir) {
    std::int64_t to = g.neighbour(from, dim, dir);
    emit(from, to, g.channel(from, dim, dir));
    return to;
  };
  if (t.via_dim >= 0) {
    std::int64_t c = hop(chip, t.via_dim, t.via_side);
    c = hop(c, d, t.direction);
    hop(c, t.via_dim, -t.via_side);
  } else if (t.fold_at == pos) {
    std::int64_t c = chip;
    for (int k = 0; k < n - 1; ++k) c = hop(c, d, -t.direction);
  } else {
    hop(chip, d, t.direction);
  }
}

// Physical hops of one logical hop of `t` (1, 3 via another ring, n-1 at the fold).
inline int hop_count(const RingTransfer& t, int pos, int n) {
  return t.via_dim >= 0 ? 3 : t.fold_at == pos ? n - 1 : 1;
}

// The most dimension changes along any logical hop of the schedule: 2 when a transfer goes via
// a neighbouring ring (out, along, back), else 0 (a fold stays in its dimension). A flit-level
// replay gives each leg its own VC class (sim/flit/source_routes.hpp).
inline int max_turns(const Schedule& s) {
  for (const Phase& p : s.phases)
    for (const Step& st : p.steps)
      for (const RingTransfer& t : st.transfers)
        if (t.via_dim >= 0) return 2;
  return 0;
}

} // namespace icnkit::coll
