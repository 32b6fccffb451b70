#include "route/dor.hpp"

#include "core/error.hpp"

namespace icnkit::route {

DorRouting::DorRouting(const topo::Network& n, DorOptions o)
    : geo_(topo::TorusGeometry::of(n, "DOR")), opt_(std::move(o)), dims_(geo_.dims()), tab_(geo_) {
  if (static_cast<int>(opt_.dimension_order.size()) != dims_)
    fail_runtime("DOR", "dimension_order has the wrong length for this torus");
}

std::vector<Choice> DorRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void DorRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const int* here = tab_.coords(p.node);
  const int* there = tab_.coords(p.dst);
  for (int d : opt_.dimension_order) {
    const int x = here[d], t = there[d];
    if (x == t) continue;
    const int s = geo_.size(d);
    const int delta = t >= x ? t - x : t - x + s; // (t - x) mod s, without a division
    int dir;
    if (2 * delta < s)
      dir = +1;
    else if (2 * delta > s)
      dir = -1;
    else
      dir = tie_direction(opt_.tie, x);
    Choice c;
    c.channel = tab_.channel(p.node, d, dir);
    if (opt_.dateline) {
      // Link ids are chip * D + d, so a channel's dimension is its link id mod D.
      const bool same_dim = p.in_channel >= 0 && topo::link_of_channel(p.in_channel) % dims_ == d;
      if (opt_.dateline_vc == DatelineVc::FromWrap) {
        const bool wrap = dir > 0 ? x == s - 1 : x == 0;
        c.vc = (same_dim && p.vc == 1) || wrap ? 1 : 0;
      } else {
        c.vc = same_dim ? p.vc : ((dir > 0 ? t < x : t > x) ? 1 : 0);
      }
    }
    out.push_back(c);
    return;
  }
}

MeshDorRouting::MeshDorRouting(const topo::Network& n, std::vector<int> dimension_order)
    : geo_(topo::MeshGeometry::of(n, "DOR")), order_(std::move(dimension_order)),
      dims_(geo_.dims()), tab_(geo_) {
  if (static_cast<int>(order_.size()) != dims_)
    fail_runtime("DOR", "dimension_order has the wrong length for this mesh");
}

std::vector<Choice> MeshDorRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void MeshDorRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const int* here = tab_.coords(p.node);
  const int* there = tab_.coords(p.dst);
  for (int d : order_) {
    if (here[d] == there[d]) continue;
    const bool plus = there[d] > here[d];
    out.push_back({tab_.channel(p.node, d, plus ? +1 : -1), 0, 0});
    return;
  }
}

} // namespace icnkit::route
