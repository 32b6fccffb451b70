#include "route/routing.hpp"

#include "core/error.hpp"

namespace icnkit::route {

namespace detail {

int pick(const std::vector<Choice>& choices, const topo::Network& n,
         const std::vector<char>& down_links, const std::vector<char>& down_chips,
         std::int64_t node, std::string* reason) {
  if (choices.empty()) {
    *reason = "no route at chip " + std::to_string(node);
    return -1;
  }
  for (std::size_t i = 0; i < choices.size(); ++i) {
    const std::int64_t ch = choices[i].channel;
    if (ch < 0 || ch >= n.channel_count() || n.channel_src(ch) != node)
      fail_runtime("routing", "the routing function chose channel " + std::to_string(ch) +
                                  ", which does not leave chip " + std::to_string(node));
    const std::int64_t next = n.channel_dst(ch);
    const bool chip_down = !down_chips.empty() && down_chips[static_cast<std::size_t>(next)];
    if (!chip_down && !down_links[static_cast<std::size_t>(topo::link_of_channel(ch))])
      return static_cast<int>(i);
  }
  const std::int64_t ch = choices.front().channel;
  const std::int64_t next = n.channel_dst(ch);
  if (!down_chips.empty() && down_chips[static_cast<std::size_t>(next)])
    *reason = "failed chip " + std::to_string(next);
  else
    *reason = "failed link " + std::to_string(topo::link_of_channel(ch)) + " (chip " +
              std::to_string(node) + " -> chip " + std::to_string(next) + ")";
  return -1;
}

std::string loop_reason(std::int64_t hop_limit) {
  return "not delivered within " + std::to_string(hop_limit) + " hops (routing loop)";
}

} // namespace detail

Path trace(const RoutingFunction& fn, const topo::Network& n, const std::vector<char>& down_links,
           std::int64_t src, std::int64_t dst, std::int64_t max_hops) {
  return trace(fn, n, down_links, {}, src, dst, max_hops);
}

Path trace(const RoutingFunction& fn, const topo::Network& n, const std::vector<char>& down_links,
           const std::vector<char>& down_chips, std::int64_t src, std::int64_t dst,
           std::int64_t max_hops) {
  Path path;
  PacketState p{src, -1, 0, src, dst, 0};
  std::vector<Choice> choices;
  while (p.node != dst) {
    if (static_cast<std::int64_t>(path.hops.size()) >= max_hops) {
      path.reason = detail::loop_reason(max_hops);
      return path;
    }
    fn.route_into(p, choices);
    int i = detail::pick(choices, n, down_links, down_chips, p.node, &path.reason);
    if (i < 0) return path;
    const Choice& c = choices[static_cast<std::size_t>(i)];
    path.hops.push_back({c.channel, c.vc});
    p.node = n.channel_dst(c.channel);
    p.in_channel = c.channel;
    p.vc = c.vc;
    p.flags = c.flags;
  }
  path.delivered = true;
  return path;
}

} // namespace icnkit::route
