#include "route/rail.hpp"

#include <algorithm>
#include <deque>

namespace icnkit::route {

RailRouting::RailRouting(const topo::Network& n, const topo::Faults& f, RailPath mode)
    : n_(n), s_(topo::composed_shape_of(n, "{algorithm} rail")), at_(s_), mode_(mode), adj_(n) {
  if (!f.empty() || !f.switches.empty()) {
    down_links_ = f.down_links(n);
    down_nodes_ = f.down_chips(n);
  }
  D_ = s_.p.domain_chips;
  S_ = s_.p.scale_up == "switch" ? s_.p.up_switches : 0;
  has_up_ = s_.p.scale_up != "none" && D_ > 1;
  has_out_ = s_.p.scale_out != "none";
  per_rail_ = has_out_ ? D_ * s_.p.nics / s_.p.rails : 1;
  // A ring or torus domain has chips as transit around its cycles: hop-count VCs, as many as
  // the longest path: the domain's diameter at each end plus a chip-leaf-...-leaf-chip
  // scale-out path.
  std::int64_t up_diameter = D_ / 2;
  if (s_.p.scale_up == "torus") {
    up_diameter = 0;
    for (std::int64_t k : s_.p.up_shape) up_diameter += k / 2;
  }
  hop_vcs_ = (s_.p.scale_up == "ring" && D_ >= 4) ||
             (s_.p.scale_up == "torus" && D_ > 2 && up_diameter > 1);
  if (hop_vcs_) vcs_ = static_cast<int>(2 * up_diameter + (has_out_ ? 2 * s_.p.tiers : 0));
  split_vcs_ = !hop_vcs_ && has_up_ && has_out_ && (!f.empty() || !f.switches.empty());
  if (split_vcs_) vcs_ = 2;
  const auto V = n.nodes.size();
  role_.assign(V, Role::Chip);
  for (std::size_t v = static_cast<std::size_t>(n.n_chip); v < V; ++v) {
    const auto id = static_cast<std::int64_t>(v);
    if (id < at_.out_base) {
      role_[v] = Role::UpSwitch;
    } else {
      const std::int64_t i = (id - at_.out_base) % at_.per_plane;
      role_[v] = i < s_.leaves ? Role::Leaf : i < s_.leaves + s_.spines ? Role::Spine : Role::Core;
    }
  }
  auto chip_down = [&](std::int64_t v) {
    return v < n.n_chip && !down_nodes_.empty() && down_nodes_[static_cast<std::size_t>(v)];
  };
  // Scale-up hops inside every domain, to each of its chips.
  const std::int64_t W = D_ + S_, N = s_.p.domains;
  if (has_up_) {
    up_dist_.assign(static_cast<std::size_t>(N * D_ * W), kFar);
    std::vector<std::int64_t> queue;
    for (std::int64_t d = 0; d < N; ++d)
      for (std::int64_t i = 0; i < D_; ++i) {
        const std::int64_t x = d * D_ + i;
        if (chip_down(x)) continue;
        std::uint8_t* dist = up_dist_.data() + (x * W);
        queue.assign(1, x);
        dist[local_of(x)] = 0;
        for (std::size_t q = 0; q < queue.size(); ++q) {
          const std::int64_t v = queue[q];
          const std::int32_t* nb = adj_.neighbours(v);
          for (const std::int64_t* c = adj_.begin(v); c != adj_.end(v); ++c, ++nb) {
            const std::int64_t w = *nb;
            if (role_[static_cast<std::size_t>(w)] != Role::Chip &&
                role_[static_cast<std::size_t>(w)] != Role::UpSwitch)
              continue;
            if (domain_of(w) != d || !live(*c) || chip_down(w)) continue;
            std::uint8_t& dw = dist[local_of(w)];
            if (dw != kFar) continue;
            dw = static_cast<std::uint8_t>(std::min<int>(dist[local_of(v)] + 1, kFar - 1));
            queue.push_back(w);
          }
        }
      }
  }
  if (!has_out_) return;
  // Scale-out switch hops to every leaf.
  const std::int64_t OUT = s_.p.planes * at_.per_plane;
  const std::int64_t leaves = s_.p.planes * s_.leaves;
  leaf_dist_.assign(static_cast<std::size_t>(leaves * OUT), kFar);
  std::vector<std::int64_t> queue;
  for (std::int64_t l = 0; l < leaves; ++l) {
    const std::int64_t leaf = at_.out_base + (l / s_.leaves) * at_.per_plane + l % s_.leaves;
    std::uint8_t* dist = leaf_dist_.data() + l * OUT;
    queue.assign(1, leaf);
    dist[leaf - at_.out_base] = 0;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::int64_t v = queue[q];
      const std::int32_t* nb = adj_.neighbours(v);
      for (const std::int64_t* c = adj_.begin(v); c != adj_.end(v); ++c, ++nb) {
        const std::int64_t w = *nb;
        if (w < at_.out_base || !live(*c)) continue;
        std::uint8_t& dw = dist[w - at_.out_base];
        if (dw != kFar) continue;
        dw = static_cast<std::uint8_t>(std::min<int>(dist[v - at_.out_base] + 1, kFar - 1));
        queue.push_back(w);
      }
    }
  }
  nic_ch_.resize(static_cast<std::size_t>(n.n_chip));
  nic_leaf_.resize(static_cast<std::size_t>(n.n_chip));
  nic_row_.resize(static_cast<std::size_t>(n.n_chip));
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    if (chip_down(c)) continue;
    const std::int32_t* nb = adj_.neighbours(c);
    for (const std::int64_t* ch = adj_.begin(c); ch != adj_.end(c); ++ch, ++nb)
      if (role_[static_cast<std::size_t>(*nb)] == Role::Leaf && live(*ch)) {
        nic_ch_[static_cast<std::size_t>(c)].push_back(*ch);
        nic_leaf_[static_cast<std::size_t>(c)].push_back(*nb);
        const std::int64_t l = ((*nb - at_.out_base) / at_.per_plane) * s_.leaves +
                               (*nb - at_.out_base) % at_.per_plane;
        nic_row_[static_cast<std::size_t>(c)].push_back(l * OUT - at_.out_base);
      }
  }
  build_hop_table(OUT, leaves);
}

void RailRouting::build_hop_table(std::int64_t OUT, std::int64_t leaves) {
  const std::int64_t P = s_.p.planes;
  if (OUT * leaves > kMaxHopTable) return; // the scan in toward_out serves
  // Every chip's one leaf per plane (-1: none, or several: those chips take the scan).
  leaf_of_chip_.assign(static_cast<std::size_t>(n_.n_chip * P), -1);
  for (std::int64_t c = 0; c < n_.n_chip; ++c) {
    std::vector<int> seen(static_cast<std::size_t>(P), 0);
    for (std::int64_t a : nic_leaf_[static_cast<std::size_t>(c)]) {
      const std::int64_t p = (a - at_.out_base) / at_.per_plane;
      const std::int64_t l = p * s_.leaves + (a - at_.out_base) % at_.per_plane;
      auto& slot = leaf_of_chip_[static_cast<std::size_t>(c * P + p)];
      slot = ++seen[static_cast<std::size_t>(p)] == 1 ? static_cast<std::int32_t>(l) : -1;
    }
  }
  hop_begin_.assign(static_cast<std::size_t>(OUT * leaves + 1), 0);
  for (std::int64_t u = 0; u < OUT; ++u) {
    const std::int64_t v = at_.out_base + u, p = u / at_.per_plane;
    for (std::int64_t l = 0; l < leaves; ++l) {
      const std::int64_t k = u * leaves + l;
      hop_begin_[static_cast<std::size_t>(k + 1)] = hop_begin_[static_cast<std::size_t>(k)];
      if (l / s_.leaves != p) continue; // another plane's leaf: unreachable from v
      const std::uint8_t* dist = leaf_dist_.data() + l * OUT - at_.out_base;
      const int dv = dist[v];
      if (dv == kFar || dv == 0) continue; // v is the leaf itself: toward_out's scan serves
      const std::int32_t* nb = adj_.neighbours(v);
      for (const std::int64_t* c = adj_.begin(v); c != adj_.end(v); ++c, ++nb)
        if (live(*c) && *nb >= at_.out_base && dist[*nb] == dv - 1) {
          hop_ch_.push_back(*c);
          ++hop_begin_[static_cast<std::size_t>(k + 1)];
        }
    }
  }
}

std::int64_t RailRouting::domain_of(std::int64_t v) const {
  return v < n_.n_chip ? v / D_ : (v - at_.up_base) / S_;
}

std::int64_t RailRouting::local_of(std::int64_t v) const {
  return v < n_.n_chip ? v % D_ : D_ + (v - at_.up_base) % S_;
}

int RailRouting::up_distance(std::int64_t v, std::int64_t x) const {
  return up_dist_[static_cast<std::size_t>(x * (D_ + S_) + local_of(v))];
}

int RailRouting::out_distance(std::int64_t v, std::int64_t x) const {
  int best = kFar;
  for (std::int64_t row : nic_row_[static_cast<std::size_t>(x)])
    best = std::min<int>(best, leaf_dist_[static_cast<std::size_t>(row + v)]);
  return best == kFar ? kFar : best + 1;
}

std::int64_t RailRouting::rail_of_leaf(std::int64_t leaf) const {
  return ((leaf - at_.out_base) % at_.per_plane) % s_.p.rails;
}

bool RailRouting::chip_on_rail(std::int64_t chip, std::int64_t r) const {
  const std::int64_t first = (chip % D_) * s_.p.nics;
  return first / per_rail_ <= r && r <= (first + s_.p.nics - 1) / per_rail_;
}

std::int64_t RailRouting::rail_chip(std::int64_t r, std::int64_t dst) const {
  const std::int64_t domain = dst / D_;
  auto lands = [&](std::int64_t c) {
    if (!chip_on_rail(c, r)) return false;
    bool nic = false;
    for (std::int64_t a : nic_leaf_[static_cast<std::size_t>(c)]) nic = nic || rail_of_leaf(a) == r;
    return nic && (c == dst || !has_up_ || up_distance(c, dst) != kFar);
  };
  if (lands(dst)) return dst;
  const std::int64_t nics = s_.p.nics;
  for (std::int64_t c = r * per_rail_ / nics; c <= ((r + 1) * per_rail_ - 1) / nics; ++c)
    if (lands(domain * D_ + c)) return domain * D_ + c;
  return -1;
}

bool RailRouting::can_leave(std::int64_t c, std::int64_t dst) const {
  for (std::int64_t a : nic_leaf_[static_cast<std::size_t>(c)]) {
    const std::int64_t x = rail_chip(rail_of_leaf(a), dst);
    if (x >= 0 && out_distance(a, x) != kFar) return true;
  }
  return false;
}

std::int64_t RailRouting::exit_chip(std::int64_t domain, std::int64_t dst) const {
  for (std::int64_t k = 0; k < D_; ++k) {
    const std::int64_t c = domain * D_ + (dst + k) % D_;
    if (can_leave(c, dst)) return c;
  }
  return -1;
}

std::int64_t RailRouting::rail_here(std::int64_t v, std::int64_t in, std::int64_t dst) const {
  const Role r = role_[static_cast<std::size_t>(v)];
  if (r == Role::Leaf) return rail_of_leaf(v);
  const bool rail_spines = s_.p.tiers == 3 || s_.p.scale_out == "rail-only";
  if (r == Role::Spine && rail_spines) {
    const std::int64_t i = (v - at_.out_base) % at_.per_plane - s_.leaves;
    return i / ((s_.units / s_.block_units) * s_.spines_per_block);
  }
  if (in >= 0) {
    const std::int64_t from = n_.channel_src(in);
    if (from >= at_.out_base) return rail_here(from, -1, dst);
  }
  return (dst % D_) * s_.p.nics / per_rail_;
}

std::int64_t RailRouting::pxn_relay(std::int64_t domain, std::int64_t dst) const {
  // The chip at dst's position; if it cannot reach dst (it or its NICs failed), the next one
  // round the domain that can: the same for every node, so the choice is source-independent.
  for (std::int64_t k = 0; k < D_; ++k) {
    const std::int64_t c = domain * D_ + (dst + k) % D_;
    if (!down_nodes_.empty() && down_nodes_[static_cast<std::size_t>(c)]) continue;
    for (std::int64_t a : nic_leaf_[static_cast<std::size_t>(c)])
      if (out_distance(a, dst) != kFar) return c;
  }
  return -1;
}

std::int64_t RailRouting::pxn_entry(std::int64_t dst) const {
  const std::int64_t domain = dst / D_;
  for (std::int64_t k = 0; k < D_; ++k) {
    const std::int64_t c = domain * D_ + (dst + k) % D_;
    if (nic_ch_[static_cast<std::size_t>(c)].empty()) continue; // no live NIC, or chip down
    if (c != dst && up_distance(c, dst) == kFar) continue;
    return c;
  }
  return -1;
}

void RailRouting::toward_up(std::int64_t v, std::int64_t x, std::vector<Choice>& out) const {
  const int dv = up_distance(v, x);
  if (dv == kFar || dv == 0) return;
  const std::int64_t d = x / D_;
  const std::int32_t* nb = adj_.neighbours(v);
  for (const std::int64_t* c = adj_.begin(v); c != adj_.end(v); ++c, ++nb) {
    const std::int64_t w = *nb;
    const Role rw = role_[static_cast<std::size_t>(w)];
    if ((rw != Role::Chip && rw != Role::UpSwitch) || domain_of(w) != d || !live(*c)) continue;
    if (up_distance(w, x) == dv - 1) out.push_back({*c, 0, 0});
  }
}

void RailRouting::toward_out(std::int64_t v, std::int64_t x, std::vector<Choice>& out) const {
  if (role_[static_cast<std::size_t>(v)] == Role::Chip) {
    const auto& ch = nic_ch_[static_cast<std::size_t>(v)];
    const auto& leaf = nic_leaf_[static_cast<std::size_t>(v)];
    int best = kFar;
    for (std::int64_t a : leaf) best = std::min(best, out_distance(a, x));
    if (best == kFar) return;
    for (std::size_t i = 0; i < ch.size(); ++i)
      if (out_distance(leaf[i], x) == best) out.push_back({ch[i], 0, 0});
    return;
  }
  if (!hop_begin_.empty()) {
    // The table: the next hops from v toward x's one leaf in v's plane.
    const std::int64_t u = v - at_.out_base, P = s_.p.planes;
    const std::int32_t l = leaf_of_chip_[static_cast<std::size_t>(x * P + u / at_.per_plane)];
    if (l >= 0 && at_.out_base + (l / s_.leaves) * at_.per_plane + l % s_.leaves != v) {
      const std::int64_t k = u * P * s_.leaves + l;
      for (std::int64_t i = hop_begin_[static_cast<std::size_t>(k)];
           i < hop_begin_[static_cast<std::size_t>(k + 1)]; ++i)
        out.push_back({hop_ch_[static_cast<std::size_t>(i)], 0, 0});
      return;
    }
  }
  const int dv = out_distance(v, x);
  if (dv == kFar) return;
  if (dv == 1 && !nic_ch_[static_cast<std::size_t>(x)].empty()) {
    // v is one of x's NIC leaves: down x's live NIC links from v (the reverse of x's NIC
    // channels, in the order v's ports list them), not a scan of v's ports.
    const auto& ch = nic_ch_[static_cast<std::size_t>(x)];
    const auto& leaf = nic_leaf_[static_cast<std::size_t>(x)];
    for (std::size_t i = 0; i < ch.size(); ++i)
      if (leaf[i] == v) out.push_back({ch[i] ^ 1, 0, 0});
    return;
  }
  const std::int32_t* nb = adj_.neighbours(v);
  for (const std::int64_t* c = adj_.begin(v); c != adj_.end(v); ++c, ++nb) {
    const std::int64_t w = *nb;
    if (!live(*c)) continue;
    if (dv == 1 ? w == x : (w >= at_.out_base && out_distance(w, x) == dv - 1))
      out.push_back({*c, 0, 0});
  }
}

void RailRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  choose(p, out);
  if (hop_vcs_)
    for (Choice& c : out) c.vc = p.in_channel < 0 ? 0 : p.vc + 1;
  if (split_vcs_ && !out.empty() && p.in_channel >= 0) {
    // In the destination's domain, having come from the scale-out network (or already on 1).
    const Role r = role_[static_cast<std::size_t>(p.node)];
    const bool landed =
        (r == Role::Chip || r == Role::UpSwitch) && domain_of(p.node) == p.dst / D_ &&
        (p.vc == 1 || role_[static_cast<std::size_t>(n_.channel_src(p.in_channel))] == Role::Leaf);
    if (landed)
      for (Choice& c : out) c.vc = 1;
  }
}

void RailRouting::choose(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  const std::int64_t v = p.node, t = p.dst;
  if (v == t) return;
  const Role r = role_[static_cast<std::size_t>(v)];
  const std::int64_t dt = t / D_;
  if (r == Role::Chip || r == Role::UpSwitch) {
    const std::int64_t dv = domain_of(v);
    if (!has_out_ || (dv == dt && has_up_)) return toward_up(v, t, out);
    if (!has_up_) {
      if (r == Role::Chip) toward_out(v, t, out);
      return;
    }
    if (mode_ == RailPath::Pxn) {
      const std::int64_t entry = pxn_entry(t);
      const std::int64_t relay = entry < 0 ? -1 : pxn_relay(dv, entry);
      if (relay < 0) return;
      return v == relay ? toward_out(v, entry, out) : toward_up(v, relay, out);
    }
    // Rail-aligned: a chip that cannot leave (and a scale-up switch) hands the packet to the
    // domain's exit chip.
    if (r != Role::Chip || !can_leave(v, t)) {
      const std::int64_t exit = exit_chip(dv, t);
      if (exit >= 0 && exit != v) toward_up(v, exit, out);
      return;
    }
    // Out of every NIC towards the destination domain's chip on that NIC's rail; the nearest.
    const auto& ch = nic_ch_[static_cast<std::size_t>(v)];
    const auto& leaf = nic_leaf_[static_cast<std::size_t>(v)];
    int best = kFar;
    std::vector<int> d(leaf.size());
    for (std::size_t i = 0; i < leaf.size(); ++i) {
      const std::int64_t x = rail_chip(rail_of_leaf(leaf[i]), t);
      d[i] = x < 0 ? kFar : out_distance(leaf[i], x);
      best = std::min(best, d[i]);
    }
    if (best == kFar) return;
    for (std::size_t i = 0; i < ch.size(); ++i)
      if (d[i] == best) out.push_back({ch[i], 0, 0});
    return;
  }
  const std::int64_t x = !has_up_                 ? t
                         : mode_ == RailPath::Pxn ? pxn_entry(t)
                                                  : rail_chip(rail_here(v, p.in_channel, t), t);
  if (x < 0) return;
  toward_out(v, x, out);
}

std::vector<Choice> RailRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

} // namespace icnkit::route
