#include "route/dmodk.hpp"

#include "core/error.hpp"
#include "core/json_reader.hpp"

#include <algorithm>

namespace icnkit::route {

namespace {
int level_of(const topo::Node& v) {
  if (v.kind == topo::NodeKind::Chip) return 0;
  if (v.role == "leaf" || v.role == "tor") return 1;
  if (v.role == "spine" || v.role == "aggregation") return 2;
  if (v.role == "core") return 3;
  return -1;
}
} // namespace

DmodkRouting::DmodkRouting(const topo::Network& n) : n_(n) {
  if (n.family != "fat-tree")
    fail_infeasible("/network/family",
                    "D-mod-k routes PGFT fat-trees; this network is a " + n.family);
  const json& a = n.metrics.family_attrs;
  auto ints = [&](const char* key) {
    std::vector<std::int64_t> v;
    if (!a.contains(key) || !a[key].is_array())
      fail_input(std::string("/network/metrics/family_attrs/") + key, "missing PGFT description");
    // Documents are checked on reading (topo/structure.hpp); a network built in process may
    // not be: at least 1 each, never a JSON type error or a division by zero.
    for (std::size_t i = 0; i < a[key].size(); ++i)
      v.push_back(as_integer(
          a[key][i], std::string("/network/metrics/family_attrs/") + key + "/" + std::to_string(i),
          1, topo::kMaxChips));
    return v;
  };
  const auto w = ints("w_levels"), p = ints("p_levels"), m = ints("m_levels");
  layers_ = static_cast<int>(w.size());
  if (layers_ < 2 || layers_ > 3 || p.size() != w.size() || m.size() != w.size())
    fail_input("/network/metrics/family_attrs/w_levels", "expected 2 or 3 PGFT levels");
  if (w[0] != 1)
    fail_input("/network/metrics/family_attrs/w_levels/0", "a chip has one leaf / ToR above it");
  // Up-port divisors over the ports: prod_{i<=l} w_i, the parents (not the parallel links) of
  // the levels below l; level 0: 1. Ports D' = D R + j below a leaf are R d C consecutive
  // numbers, so the digits of D' in this mixed radix name the whole way up.
  std::int64_t prod = 1;
  for (int l = 0; l < layers_; ++l) {
    w_.push_back(w[static_cast<std::size_t>(l)]);
    p_.push_back(p[static_cast<std::size_t>(l)]);
    divisor_.push_back(prod);
    prod *= w[static_cast<std::size_t>(l)];
  }
  ports_ = p_[0];

  const std::size_t V = n.nodes.size();
  level_.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    level_[v] = level_of(n.nodes[v]);
    if (level_[v] < 0 || level_[v] > layers_)
      fail_input("/network/nodes/" + std::to_string(v),
                 "not a node of a " + std::to_string(layers_) + "-layer fat-tree (role '" +
                     n.nodes[v].role + "')");
  }
  up_.resize(V);
  down_.resize(V);
  down_child_.resize(V);
  low_.assign(V, -1);
  up_from_.assign(n.links.size(), -1);
  up_pos_.assign(n.links.size(), -1);
  leaf_of_.assign(static_cast<std::size_t>(n.n_chip), -1);
  // Channels in link order: each node's up links come parent by parent, lanes consecutive.
  for (const topo::Link& l : n.links) {
    for (bool fwd : {true, false}) {
      const std::int64_t from = fwd ? l.a : l.b, to = fwd ? l.b : l.a;
      const std::int64_t ch = topo::channel_of(l.id, fwd);
      const auto lf = level_[static_cast<std::size_t>(from)],
                 lt = level_[static_cast<std::size_t>(to)];
      if (lt == lf + 1) {
        auto& up = up_[static_cast<std::size_t>(from)];
        up_from_[static_cast<std::size_t>(l.id)] = from;
        up_pos_[static_cast<std::size_t>(l.id)] = static_cast<std::int64_t>(up.size());
        up.push_back(ch);
        if (lf == 0) leaf_of_[static_cast<std::size_t>(from)] = to;
      } else if (lt + 1 == lf) {
        down_[static_cast<std::size_t>(from)].push_back(ch);
        down_child_[static_cast<std::size_t>(from)].push_back(to);
      } else if (!(lf == 0 && lt == 0)) { // board links between chips are not used
        fail_input("/network/links/" + std::to_string(l.id),
                   "joins fat-tree levels " + std::to_string(lf) + " and " + std::to_string(lt));
      }
    }
  }
  for (std::size_t v = 0; v < V; ++v) {
    const auto lv = level_[v];
    if (lv < layers_ && static_cast<std::int64_t>(up_[v].size()) !=
                            w_[static_cast<std::size_t>(lv)] * p_[static_cast<std::size_t>(lv)])
      fail_input(
          "/network/nodes/" + std::to_string(v),
          "has " + std::to_string(up_[v].size()) + " up links, the PGFT says " +
              std::to_string(w_[static_cast<std::size_t>(lv)] * p_[static_cast<std::size_t>(lv)]));
  }
  every_chip_attached_ =
      std::all_of(leaf_of_.begin(), leaf_of_.end(), [](std::int64_t leaf) { return leaf >= 0; });
  // low_: D' mod divisor_[level] of the ports routed up through a node below the top, level by
  // level from its first child's up links: 0 on levels 0 and 1 (divisor 1); on level 2 its index
  // among that child's parents (D' mod w_2 chose it).
  for (std::size_t v = 0; v < V; ++v)
    if (level_[v] <= 1) low_[v] = 0;
  for (std::int64_t lv = 2; lv < layers_; ++lv)
    for (std::size_t v = 0; v < V; ++v) {
      if (level_[v] != lv) continue;
      for (std::size_t i = 0; i < down_[v].size() && low_[v] < 0; ++i) {
        const auto link = static_cast<std::size_t>(topo::link_of_channel(down_[v][i]));
        const auto c = static_cast<std::size_t>(up_from_[link]);
        const auto lc = static_cast<std::size_t>(lv - 1);
        low_[v] = low_[c] + divisor_[lc] * (up_pos_[link] / p_[lc]);
      }
      if (low_[v] < 0) low_[v] = 0; // no children: nothing goes through it
    }
}

std::int64_t DmodkRouting::port_of(std::int64_t in_channel, std::int64_t D) const {
  const auto link = static_cast<std::size_t>(topo::link_of_channel(in_channel));
  const std::int64_t x = up_from_[link], pos = up_pos_[link];
  if (x < 0) return 0; // a board link: D-mod-k never takes one
  const auto k = static_cast<std::size_t>(level_[static_cast<std::size_t>(x)]);
  // The up-port x took (or, coming down, the one D's up-port rule names at x's level):
  // q_k = parent + w lane = floor(D' / divisor_k) mod (w p); with D' mod divisor_k (low_[x]) that
  // is D' mod M, and M >= R, so j = (D' - D R) mod M.
  const std::int64_t q = pos / p_[k] + w_[k] * (pos % p_[k]);
  const std::int64_t M = divisor_[k] * w_[k] * p_[k];
  const std::int64_t r = low_[static_cast<std::size_t>(x)] + divisor_[k] * q;
  const std::int64_t j = ((r - D * ports_) % M + M) % M;
  return j % ports_; // j < R on every state D-mod-k reaches
}

std::vector<Choice> DmodkRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

void DmodkRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  const std::int64_t D = p.dst;
  const auto node = static_cast<std::size_t>(p.node);
  const std::int64_t l = level_[node];
  const std::int64_t leaf = leaf_of_[static_cast<std::size_t>(D)];
  // D's port: at injection the source picks lane j = (src + D) mod R, so the N-1 sources of a
  // destination, and the N-1 destinations of a source, are spread over its R links; on the way
  // the lane is read back from the channel the packet came in on. (A packet starting at a
  // switch, as --emit tables asks: j = D mod R.)
  const std::int64_t j = p.in_channel >= 0 ? port_of(p.in_channel, D)
                         : l == 0          ? (p.node + D) % ports_
                                           : D % ports_;
  const std::int64_t port = D * ports_ + j;
  // Is this switch an ancestor of D? Leaves: D hangs from it; level 2 of a 3-layer tree: the
  // same group (pod); the top level is everybody's ancestor.
  bool ancestor = false;
  if (l == layers_)
    ancestor = true;
  else if (l == 1)
    ancestor = static_cast<std::int64_t>(node) == leaf;
  else if (l == 2)
    ancestor = n_.nodes[node].pod == n_.nodes[static_cast<std::size_t>(D)].pod;
  if (!ancestor) {
    const auto ls = static_cast<std::size_t>(l);
    const std::int64_t q = (port / divisor_[ls]) % (w_[ls] * p_[ls]);
    const std::int64_t parent = q % w_[ls], lane = q / w_[ls];
    out.push_back({up_[node][static_cast<std::size_t>(parent * p_[ls] + lane)], 0, 0});
    return;
  }
  // Down: the child toward D. Level 1: D itself; level 2: D's leaf (2 layers) or D's ToR
  // (3 layers); level 3: the aggregation switch of D's group.
  const auto& children = down_child_[node];
  const auto& channels = down_[node];
  std::int64_t target = -1;
  if (l == 1)
    target = D;
  else if (l == 2)
    target = leaf;
  std::size_t first = channels.size(), count = 0;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const std::int64_t c = children[i];
    const bool hit = target >= 0 ? c == target
                                 : n_.nodes[static_cast<std::size_t>(c)].pod ==
                                       n_.nodes[static_cast<std::size_t>(D)].pod;
    if (hit) {
      if (first == channels.size()) first = i;
      ++count;
    } else if (count) {
      break; // the lanes to one child are consecutive
    }
  }
  if (count == 0) return; // not in this tree: no route
  // The parallel link down is the one the port's own up-port rule names one level below (child
  // level l-1: q = floor(D' / divisor) mod (w p), link floor(q / w); into the chip: lane j):
  // ports that share an up-port parent come down on distinct links, which keeps shifts
  // contention-free.
  const auto lc = static_cast<std::size_t>(l - 1);
  const std::int64_t q = (port / divisor_[lc]) % (w_[lc] * p_[lc]);
  const std::int64_t lane = (q / w_[lc]) % static_cast<std::int64_t>(count);
  out.push_back({channels[first + static_cast<std::size_t>(lane)], 0, 0});
}

} // namespace icnkit::route
