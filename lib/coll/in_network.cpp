#include "coll/in_network.hpp"

#include <algorithm>
#include <unordered_map>

namespace icnkit::coll {

namespace {

// Per chip, the switches it has a live link to (ascending, each once).
std::vector<std::vector<std::int64_t>> live_switches(const topo::Network& net,
                                                     const topo::Faults& faults) {
  const std::vector<char> down = faults.down_links(net);
  std::vector<std::vector<std::int64_t>> of(static_cast<std::size_t>(net.n_chip));
  for (const topo::Link& l : net.links) {
    if (down[static_cast<std::size_t>(l.id)]) continue;
    for (auto [c, w] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
      if (c < net.n_chip && w >= net.n_chip) of[static_cast<std::size_t>(c)].push_back(w);
  }
  for (auto& v : of) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return of;
}

} // namespace

std::vector<std::int64_t> group_switches(const topo::Network& net, const topo::Faults& faults,
                                         const std::vector<std::vector<std::int64_t>>& groups) {
  const auto of = live_switches(net, faults);
  std::vector<std::int64_t> out;
  out.reserve(groups.size());
  for (const auto& g : groups) {
    std::vector<std::int64_t> common;
    for (std::size_t k = 0; k < g.size(); ++k) {
      const auto c = static_cast<std::size_t>(g[k]);
      if (g[k] < 0 || g[k] >= net.n_chip) {
        common.clear();
        break;
      }
      if (k == 0) {
        common = of[c];
        continue;
      }
      std::vector<std::int64_t> both;
      std::set_intersection(common.begin(), common.end(), of[c].begin(), of[c].end(),
                            std::back_inserter(both));
      common = std::move(both);
      if (common.empty()) break;
    }
    out.push_back(common.empty() ? -1 : common.front());
  }
  return out;
}

std::vector<std::vector<std::vector<std::int64_t>>>
switch_links(const topo::Network& net, const std::vector<char>& down_links,
             const std::vector<std::vector<std::int64_t>>& groups,
             const std::vector<std::int64_t>& switches) {
  std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>> at; // chip -> (g, i)
  std::vector<std::vector<std::vector<std::int64_t>>> out(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    out[g].resize(groups[g].size());
    for (std::size_t i = 0; i < groups[g].size(); ++i) at.emplace(groups[g][i], std::pair{g, i});
  }
  for (const topo::Link& l : net.links) {
    if (down_links[static_cast<std::size_t>(l.id)]) continue;
    for (auto [c, w] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
      auto it = at.find(c);
      if (it != at.end() && switches[it->second.first] == w)
        out[it->second.first][it->second.second].push_back(l.id);
    }
  }
  return out;
}

} // namespace icnkit::coll
