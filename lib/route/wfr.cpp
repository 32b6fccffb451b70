#include "route/wfr.hpp"

#include "core/error.hpp"

namespace icnkit::route {

WfrRouting::WfrRouting(const topo::Network& n, const topo::Faults& f, DorOptions o)
    : geo_(topo::TorusGeometry::of(n, "WFR")), opt_(std::move(o)), dims_(geo_.dims()), tab_(geo_) {
  opt_.dateline = true;
  if (static_cast<int>(opt_.dimension_order.size()) != dims_)
    fail_runtime("WFR", "dimension_order has the wrong length for this torus");
  link_down_ = f.down_links(n);
  for (const topo::Link& l : n.links)
    if (link_down_[static_cast<std::size_t>(l.id)]) faults_.push_back({l.a, l.dim});
}

int WfrRouting::dor_dir(int d, int x, int t) const {
  const int s = geo_.size(d);
  const int delta = t >= x ? t - x : t - x + s;
  if (2 * delta < s) return +1;
  if (2 * delta > s) return -1;
  return tie_direction(opt_.tie, x);
}

int WfrRouting::first_faulty_leg(std::int64_t node, std::int64_t dst) const {
  const int* here = tab_.coords(node);
  const int* there = tab_.coords(dst);
  int best = -1;
  for (const Fault& f : faults_) {
    const int* fc = tab_.coords(f.from);
    // The leg in f.dim runs with the dimensions before it (in order) at the destination's
    // coordinates and those after it at the current node's.
    int leg = -1;
    for (int i = 0; i < dims_; ++i)
      if (opt_.dimension_order[static_cast<std::size_t>(i)] == f.dim) leg = i;
    if (best >= 0 && leg >= best) continue;
    bool on_line = true;
    for (int i = 0; i < dims_ && on_line; ++i) {
      const int d = opt_.dimension_order[static_cast<std::size_t>(i)];
      if (d == f.dim) continue;
      on_line = fc[d] == (i < leg ? there[d] : here[d]);
    }
    if (!on_line) continue;
    const int x = here[f.dim], t = there[f.dim];
    if (x == t) continue;
    const int s = geo_.size(f.dim), dir = dor_dir(f.dim, x, t);
    // The leg crosses links (y, y+1) for y = x, x+1, ... , t-1 going +, or (y-1, y) for
    // y = x, x-1, ..., t+1 going -: the failed link (a, a+1) is on it when a is in that range.
    const int a = fc[f.dim];
    const int steps = dir > 0 ? (t - x + s) % s : (x - t + s) % s;
    const int offset = dir > 0 ? (a - x + s) % s : (x - (a + 1) + s) % s;
    if (offset < steps) best = leg;
  }
  return best;
}

Choice WfrRouting::hop(std::int64_t node, int d, int dir, const PacketState& p, bool wild) const {
  Choice c;
  c.channel = tab_.channel(node, d, dir);
  if (wild) {
    c.vc = kWildVc;
    return c;
  }
  const int x = tab_.coord(node, d), s = geo_.size(d);
  const bool same_dim =
      p.in_channel >= 0 && p.vc != kWildVc && topo::link_of_channel(p.in_channel) % dims_ == d;
  const bool wrap = dir > 0 ? x == s - 1 : x == 0;
  c.vc = (same_dim && p.vc == 1) || wrap ? 1 : 0;
  return c;
}

std::vector<Choice> WfrRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void WfrRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const int* here = tab_.coords(p.node);
  const int* there = tab_.coords(p.dst);
  int j = -1; // the leg the packet moves in next
  for (int i = 0; i < dims_ && j < 0; ++i)
    if (here[opt_.dimension_order[static_cast<std::size_t>(i)]] !=
        there[opt_.dimension_order[static_cast<std::size_t>(i)]])
      j = i;
  const int dj = opt_.dimension_order[static_cast<std::size_t>(j)];
  const int dir = dor_dir(dj, here[dj], there[dj]);
  const int k = faults_.empty() ? -1 : first_faulty_leg(p.node, p.dst);
  if (k != j) { // clean, or the fault lies in a later dimension: DOR
    out.push_back(hop(p.node, dj, dir, p, false));
    return;
  }
  if (j == dims_ - 1) { // the last dimension: the long way round
    out.push_back(hop(p.node, dj, -dir, p, false));
    return;
  }
  // One wild hop in the first later dimension the packet still moves in, else the next one.
  int w = opt_.dimension_order[static_cast<std::size_t>(j + 1)];
  for (int i = j + 1; i < dims_; ++i) {
    const int d = opt_.dimension_order[static_cast<std::size_t>(i)];
    if (here[d] != there[d]) {
      w = d;
      break;
    }
  }
  const int wdir =
      here[w] != there[w] ? dor_dir(w, here[w], there[w]) : (here[w] % 2 == 0 ? +1 : -1);
  // The other way only when that wild link is down: a choice listed is a dependency the
  // checker counts, taken or not.
  Choice wild = hop(p.node, w, wdir, p, true);
  if (link_down_[static_cast<std::size_t>(topo::link_of_channel(wild.channel))])
    wild = hop(p.node, w, -wdir, p, true);
  out.push_back(wild);
}

} // namespace icnkit::route
