#include "route/dragonfly_min.hpp"

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "topo/context.hpp"

namespace icnkit::route {

namespace {
template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}
} // namespace

DragonflyMinRouting::DragonflyMinRouting(const topo::Network& n) : n_(n) {
  if (n.family != "dragonfly")
    fail_infeasible("/network/family",
                    "dragonfly MIN routes a dragonfly; this network is a " + n.family);
  const json& attrs = n.metrics.family_attrs;
  for (const char* key : {"a", "g"})
    if (!attrs.contains(key))
      fail_input(std::string("/network/metrics/family_attrs/") + key, "missing");
  a_ = as_integer(attrs["a"], "/network/metrics/family_attrs/a", 1, topo::kMaxChips);
  groups_ = as_integer(attrs["g"], "/network/metrics/family_attrs/g", 1, topo::kMaxChips);
  const std::int64_t R = a_ * groups_;
  if (static_cast<std::int64_t>(n.nodes.size()) != n.n_chip + R)
    fail_input("/network/nodes", "a dragonfly of " + std::to_string(groups_) + " groups of " +
                                     std::to_string(a_) + " routers needs them after the chips");
  for (std::int64_t r = 0; r < R; ++r)
    if (n.nodes[z(n.n_chip + r)].kind != topo::NodeKind::Switch)
      fail_input("/network/nodes/" + std::to_string(n.n_chip + r), "not a router");
  chips_ = ChipLinks(n, "router");
  local_.assign(z(R), std::vector<std::vector<std::int64_t>>(z(a_)));
  global_.assign(z(groups_ * groups_), {});
  for (const topo::Link& l : n.links) {
    if (l.a < n.n_chip || l.b < n.n_chip) continue; // a chip's link (chips_) or a board's
    const std::int64_t ra = router_index(l.a), rb = router_index(l.b);
    const std::int64_t ga = ra / a_, gb = rb / a_;
    if (ga == gb) {
      local_[z(ra)][z(rb % a_)].push_back(topo::channel_of(l.id, true));
      local_[z(rb)][z(ra % a_)].push_back(topo::channel_of(l.id, false));
    } else {
      global_[z(ga * groups_ + gb)].push_back(topo::channel_of(l.id, true));
      global_[z(gb * groups_ + ga)].push_back(topo::channel_of(l.id, false));
    }
  }
  complete_ = true;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    complete_ &=
        chips_.switch_of[z(c)] >= 0 && !chips_.up[z(c)].empty() && !chips_.down[z(c)].empty();
  for (std::int64_t r = 0; r < R; ++r)
    for (std::int64_t s = 0; s < a_; ++s) complete_ &= s == r % a_ || !local_[z(r)][z(s)].empty();
  for (std::int64_t g = 0; g < groups_; ++g)
    for (std::int64_t h = 0; h < groups_; ++h)
      complete_ &= g == h || !global_[z(g * groups_ + h)].empty();
}

void DragonflyMinRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  auto pick = [&](const std::vector<std::int64_t>& lanes, int vc) {
    if (!lanes.empty())
      out.push_back({lanes[z(p.dst % static_cast<std::int64_t>(lanes.size()))], vc, 0});
  };
  if (p.node < n_.n_chip) { // a chip: up to its router, on either class (BookSim injects on a
    pick(chips_.up[z(p.node)], 0); // random VC); the router starts the packet in class 0 anyway
    pick(chips_.up[z(p.node)], 1);
    return;
  }
  const std::int64_t r = router_index(p.node), t = router_index(chips_.switch_of[z(p.dst)]);
  const int phase = p.in_channel >= 0 && n_.channel_src(p.in_channel) >= n_.n_chip ? p.vc : 0;
  if (r == t) {
    pick(chips_.down[z(p.dst)], phase);
    return;
  }
  const std::int64_t g = r / a_, h = t / a_;
  if (g == h) {
    pick(local_[z(r)][z(t % a_)], phase);
    return;
  }
  // Toward another group: a global link of this router if it has one to h, else a local hop to
  // the router of the global link the destination names.
  const std::vector<std::int64_t>& links = global_[z(g * groups_ + h)];
  if (links.empty()) return; // not a dragonfly the generator builds: trace() reports it
  std::int64_t mine = 0;
  for (std::int64_t ch : links) mine += router_index(n_.channel_src(ch)) == r;
  if (mine > 0) {
    std::int64_t k = p.dst % mine;
    for (std::int64_t ch : links)
      if (router_index(n_.channel_src(ch)) == r && k-- == 0) out.push_back({ch, 1, 0});
    return;
  }
  const std::int64_t via =
      router_index(n_.channel_src(links[z(p.dst % static_cast<std::int64_t>(links.size()))]));
  pick(local_[z(r)][z(via % a_)], phase);
}

std::vector<Choice> DragonflyMinRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

} // namespace icnkit::route
