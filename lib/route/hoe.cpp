#include "route/hoe.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <numeric>

namespace icnkit::route {

MeshPorts::MeshPorts(const topo::Network& n, const std::string& who) {
  if (n.family != "mesh")
    fail_infeasible("/network/family", who + " routes 2-D meshes; this network is a " + n.family);
  topo::MeshGeometry g = topo::MeshGeometry::of(n, who);
  if (g.dims() != 2)
    fail_infeasible("/network/metrics/family_attrs/dimension_sizes",
                    who + " routes 2-D meshes; this mesh has " + std::to_string(g.dims()) +
                        " dimensions");
  cols_ = g.size(0);
  rows_ = g.size(1);
  port_.resize(static_cast<std::size_t>(g.count()) * 4);
  for (std::int64_t c = 0; c < g.count(); ++c) {
    port_[static_cast<std::size_t>(c) * 4 + kEast] = g.channel(c, 0, +1);
    port_[static_cast<std::size_t>(c) * 4 + kWest] = g.channel(c, 0, -1);
    port_[static_cast<std::size_t>(c) * 4 + kNorth] = g.channel(c, 1, +1);
    port_[static_cast<std::size_t>(c) * 4 + kSouth] = g.channel(c, 1, -1);
  }
  dir_of_ch_.assign(static_cast<std::size_t>(n.channel_count()), static_cast<std::int8_t>(kNone));
  for (std::size_t i = 0; i < port_.size(); ++i)
    if (port_[i] >= 0)
      dir_of_ch_[static_cast<std::size_t>(port_[i])] = static_cast<std::int8_t>(i % 4);
}

std::int64_t MeshPorts::neighbour(std::int64_t c, int dir) const {
  switch (dir) {
  case kEast:
    return x(c) + 1 < cols_ ? c + 1 : -1;
  case kWest:
    return x(c) > 0 ? c - 1 : -1;
  case kNorth:
    return y(c) + 1 < rows_ ? c + cols_ : -1;
  case kSouth:
    return y(c) > 0 ? c - cols_ : -1;
  }
  return -1;
}

int MeshPorts::dir_of(std::int64_t channel) const {
  return channel < 0 ? static_cast<int>(kNone)
                     : static_cast<int>(dir_of_ch_[static_cast<std::size_t>(channel)]);
}

// --- odd-even ----------------------------------------------------------------------------

OddEvenRouting::OddEvenRouting(const topo::Network& n) : mesh_(n, "odd-even") {}

std::vector<Choice> OddEvenRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  if (p.node == p.dst) return out;
  const int cx = mesh_.x(p.node), cy = mesh_.y(p.node);
  const int dx = mesh_.x(p.dst), dy = mesh_.y(p.dst);
  const int e0 = dx - cx, e1 = dy - cy;
  const bool in_source_column = (p.flags & 1u) == 0; // c.x = s.x: no east or west move yet
  auto add = [&](int dir) {
    out.push_back(
        {mesh_.channel(p.node, dir), 0, dir == kEast || dir == kWest ? (p.flags | 1u) : p.flags});
  };
  const int vertical = e1 > 0 ? kNorth : kSouth;
  if (e0 == 0) {
    add(vertical);
  } else if (e0 > 0) {
    if (e1 == 0) {
      add(kEast);
    } else {
      if (cx % 2 == 1 || in_source_column) add(vertical);
      if (dx % 2 == 1 || e0 != 1) add(kEast);
    }
  } else {
    add(kWest);
    if (e1 != 0 && cx % 2 == 0) add(vertical);
  }
  return out;
}

// --- FTHOE --------------------------------------------------------------------------------

bool FthoeRouting::legal_turn(int from, int to, int y) {
  if (from == kNone) return true;
  if ((from ^ to) == 1) return false; // U-turn: E<->W (0,1), N<->S (2,3)
  return !(raises(from, y) && !raises(to, y));
}

FthoeRouting::FthoeRouting(const topo::Network& n, const topo::Faults& f)
    : mesh_(n, "FTHOE"), V_(static_cast<std::size_t>(n.n_chip)) {
  const auto entries = static_cast<std::int64_t>(V_) * static_cast<std::int64_t>(V_) * 5;
  if (entries > (std::int64_t{1} << 27))
    fail_infeasible("{algorithm}", "FTHOE's reachability tables for " + std::to_string(V_) +
                                       " chips would take " + std::to_string(entries >> 20) +
                                       " MiB; at most 128 MiB (a 72x72 mesh)");
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  chip_up_.resize(V_);
  for (std::size_t c = 0; c < V_; ++c) chip_up_[c] = !down_chips[c];
  up_.resize(static_cast<std::size_t>(n.channel_count()));
  for (std::int64_t c = 0; c < n.channel_count(); ++c)
    up_[static_cast<std::size_t>(c)] =
        !down_links[static_cast<std::size_t>(topo::link_of_channel(c))] &&
        !down_chips[static_cast<std::size_t>(n.channel_dst(c))];
  // Nodes by snake label: the DP visits raising-phase states from the top label down, then
  // lowering-phase states from the bottom up.
  const int cols = mesh_.cols();
  std::vector<std::int64_t> by_label(V_);
  for (std::size_t c = 0; c < V_; ++c) {
    const int x = mesh_.x(static_cast<std::int64_t>(c)), y = mesh_.y(static_cast<std::int64_t>(c));
    by_label[static_cast<std::size_t>(y) * static_cast<std::size_t>(cols) +
             static_cast<std::size_t>(y % 2 == 0 ? x : cols - 1 - x)] =
        static_cast<std::int64_t>(c);
  }
  reach_.assign(V_ * V_ * 5, 0);
  for (std::size_t dst = 0; dst < V_; ++dst) {
    if (!chip_up_[dst]) continue;
    std::uint8_t* r = &reach_[dst * V_ * 5];
    const int tx = mesh_.x(static_cast<std::int64_t>(dst)),
              ty = mesh_.y(static_cast<std::int64_t>(dst));
    auto state = [&](std::int64_t v, int last) {
      const int y = mesh_.y(v);
      std::uint8_t bits = 0;
      if (static_cast<std::size_t>(v) == dst) return std::uint8_t{3};
      const int x = mesh_.x(v);
      for (int dir = 0; dir < 4; ++dir) {
        if (!healthy(v, dir) || !legal_turn(last, dir, y)) continue;
        const std::int64_t u = mesh_.neighbour(v, dir);
        const std::uint8_t next =
            r[static_cast<std::size_t>(u) * 5 + static_cast<std::size_t>(dir)];
        const bool productive = (dir == kEast && tx > x) || (dir == kWest && tx < x) ||
                                (dir == kNorth && ty > y) || (dir == kSouth && ty < y);
        bits |= next & 1u;
        if (productive) bits |= next & 2u;
      }
      return bits;
    };
    for (auto it = by_label.rbegin(); it != by_label.rend(); ++it) // raising-phase arrivals
      for (int last = 0; last < 4; ++last)
        if (raises(last, mesh_.y(*it)) && chip_up_[static_cast<std::size_t>(*it)])
          r[static_cast<std::size_t>(*it) * 5 + static_cast<std::size_t>(last)] = state(*it, last);
    for (std::int64_t v : by_label) // lowering-phase arrivals and injection
      for (int last = 0; last <= kNone; ++last)
        if ((last == kNone || !raises(last, mesh_.y(v))) && chip_up_[static_cast<std::size_t>(v)])
          r[static_cast<std::size_t>(v) * 5 + static_cast<std::size_t>(last)] = state(v, last);
  }
}

bool FthoeRouting::healthy(std::int64_t node, int dir) const {
  const std::int64_t ch = mesh_.channel(node, dir);
  return ch >= 0 && up_[static_cast<std::size_t>(ch)];
}

bool FthoeRouting::reachable(std::int64_t node, int last, std::int64_t dst, bool minimal) const {
  const std::uint8_t b =
      reach_[(static_cast<std::size_t>(dst) * V_ + static_cast<std::size_t>(node)) * 5 +
             static_cast<std::size_t>(last)];
  return minimal ? (b & 2u) != 0 : (b & 1u) != 0;
}

std::vector<Choice> FthoeRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void FthoeRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const int last = mesh_.dir_of(p.in_channel);
  const int x = mesh_.x(p.node), y = mesh_.y(p.node);
  const int tx = mesh_.x(p.dst), ty = mesh_.y(p.dst);
  // Minimal ports, the horizontal one first (the seed's EN rows: [E, N]).
  int minimal[2], count = 0;
  if (tx != x) minimal[count++] = tx > x ? kEast : kWest;
  if (ty != y) minimal[count++] = ty > y ? kNorth : kSouth;
  auto usable = [&](int dir, bool need_minimal) {
    return healthy(p.node, dir) && legal_turn(last, dir, y) &&
           reachable(mesh_.neighbour(p.node, dir), dir, p.dst, need_minimal);
  };
  for (int i = 0; i < count; ++i)
    if (usable(minimal[i], true)) out.push_back({mesh_.channel(p.node, minimal[i]), 0, 0});
  if (!out.empty()) return;
  // No minimal legal route is left: any port from which a legal route exists (a detour).
  for (int dir = 0; dir < 4; ++dir)
    if (usable(dir, false)) out.push_back({mesh_.channel(p.node, dir), 0, 0});
}

} // namespace icnkit::route
