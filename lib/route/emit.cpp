#include "route/emit.hpp"

#include "core/error.hpp"
#include "route/verify.hpp"

namespace icnkit::route {

Emitted emit_routing(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                     bool paths) {
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  Emitted e;
  const auto N = n.n_chip;
  if (!paths) {
    const auto V = static_cast<std::int64_t>(n.nodes.size());
    if (V * N > kMaxEmitted)
      fail_infeasible("{emit}", "tables of " + std::to_string(V) + " nodes x " + std::to_string(N) +
                                    " destinations exceed " + std::to_string(kMaxEmitted) +
                                    " entries");
    std::vector<Choice> buf;
    std::string why;
    for (std::int64_t v = 0; v < V; ++v) {
      std::vector<std::int64_t> row(static_cast<std::size_t>(N), -1);
      for (std::int64_t d = 0; d < N; ++d) {
        if (d == v || down_chips[static_cast<std::size_t>(d)]) continue;
        fn.route_into({v, -1, 0, v, d, 0}, buf);
        int i = detail::pick(buf, n, down_links, down_chips, v, &why);
        if (i >= 0) row[static_cast<std::size_t>(d)] = buf[static_cast<std::size_t>(i)].channel;
      }
      e.tables.push_back(std::move(row));
    }
    return e;
  }
  if (N * (N - 1) > kMaxEmitted)
    fail_infeasible("{emit}", "paths of " + std::to_string(N * (N - 1)) + " pairs exceed " +
                                  std::to_string(kMaxEmitted));
  const std::int64_t limit = default_hop_limit(n);
  for (std::int64_t s = 0; s < N; ++s)
    for (std::int64_t d = 0; d < N; ++d) {
      if (s == d || down_chips[static_cast<std::size_t>(s)] ||
          down_chips[static_cast<std::size_t>(d)])
        continue;
      Path p = trace(fn, n, down_links, down_chips, s, d, limit);
      Emitted::PairPath x{s, d, {}, {}};
      for (const Hop& h : p.hops) {
        x.channels.push_back(h.channel);
        x.vcs.push_back(h.vc);
      }
      e.paths.push_back(std::move(x));
    }
  return e;
}

} // namespace icnkit::route
