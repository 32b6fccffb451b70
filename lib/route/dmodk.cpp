#include "route/dmodk.hpp"

#include "core/error.hpp"

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
  // Up-port divisors: prod_{i<=l} w_i p_i over the levels below l (level 0: 1).
  std::int64_t prod = 1;
  for (int l = 0; l < layers_; ++l) {
    w_.push_back(w[static_cast<std::size_t>(l)]);
    p_.push_back(p[static_cast<std::size_t>(l)]);
    divisor_.push_back(prod);
    prod *= w[static_cast<std::size_t>(l)] * p[static_cast<std::size_t>(l)];
  }

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
  leaf_of_.assign(static_cast<std::size_t>(n.n_chip), -1);
  // Channels in link order: each node's up links come parent by parent, lanes consecutive.
  for (const topo::Link& l : n.links) {
    for (bool fwd : {true, false}) {
      const std::int64_t from = fwd ? l.a : l.b, to = fwd ? l.b : l.a;
      const std::int64_t ch = topo::channel_of(l.id, fwd);
      const auto lf = level_[static_cast<std::size_t>(from)],
                 lt = level_[static_cast<std::size_t>(to)];
      if (lt == lf + 1) {
        up_[static_cast<std::size_t>(from)].push_back(ch);
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
    const std::int64_t q = (D / divisor_[ls]) % (w_[ls] * p_[ls]);
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
  // The parallel link down is the one D's own up-port rule names one level below (child
  // level l-1: q = floor(D / prod) mod (w p), link floor(q / w)): destinations that share an
  // up-port parent come down on distinct links, which keeps shifts contention-free.
  const auto lc = static_cast<std::size_t>(l - 1);
  const std::int64_t q = (D / divisor_[lc]) % (w_[lc] * p_[lc]);
  const std::int64_t lane = (q / w_[lc]) % static_cast<std::int64_t>(count);
  out.push_back({channels[first + static_cast<std::size_t>(lane)], 0, 0});
}

} // namespace icnkit::route
