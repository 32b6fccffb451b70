// Fuzz target: the routing section, read with the fingerprints made to match, then what net-sim
// does with it on small networks: rebuild the routing function through the registry
// (route::make_routing, which checks the parameters against the network), follow it between
// every pair of chips (route::trace: every hop must leave the node the packet is at, on a live
// link, and a delivered packet ends at its destination) and simulate the all-to-all baseline
// over it (the pattern by the input's hash), then write the report and read it back.
#include "doc/document.hpp"
#include "fuzz.hpp"
#include "route/routing.hpp"
#include "route/verify.hpp"
#include "sim/analytic.hpp"
#include "sim/traffic.hpp"

#include <functional>

using namespace icnkit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::with_fingerprints(fuzz::text_of(data, size));
  Document d;
  if (!fuzz::attempt([&] { d = parse_document(text, "fuzz"); })) return 0;
  if (!d.network || !d.routing || d.network->nodes.size() > fuzz::kMaxReplayNodes) return 0;
  const topo::Network& n = *d.network;
  const topo::Faults& f = d.faults_or_none();
  std::unique_ptr<route::RoutingFunction> fn;
  if (!fuzz::attempt([&] { fn = route::make_routing(*d.routing, n, f); })) return 0;

  const std::vector<char> down = f.down_links(n), down_chips = f.down_chips(n);
  const std::int64_t limit = route::default_hop_limit(n);
  for (std::int64_t s = 0; s < n.n_chip; ++s)
    for (std::int64_t t = 0; t < n.n_chip; ++t) {
      if (s == t || down_chips[static_cast<std::size_t>(s)] ||
          down_chips[static_cast<std::size_t>(t)])
        continue;
      route::Path p;
      if (!fuzz::attempt([&] { p = route::trace(*fn, n, down, down_chips, s, t, limit); }))
        continue;
      std::int64_t at = s;
      for (const route::Hop& hop : p.hops) {
        if (hop.channel < 0 || hop.channel >= n.channel_count())
          fuzz::finding("trace: channel out of range");
        if (n.channel_src(hop.channel) != at) fuzz::finding("trace: a hop leaves another node");
        if (down[static_cast<std::size_t>(topo::link_of_channel(hop.channel))])
          fuzz::finding("trace: a hop over a failed link");
        if (hop.vc < 0 || hop.vc >= fn->vc_count()) fuzz::finding("trace: VC out of range");
        at = n.channel_dst(hop.channel);
      }
      if (p.delivered && at != t) fuzz::finding("trace: delivered elsewhere");
    }

  const std::size_t h = std::hash<std::string>{}(text);
  const sim::AllToAllPattern pattern = h % 3 == 0   ? sim::AllToAllPattern::Simultaneous
                                       : h % 3 == 1 ? sim::AllToAllPattern::Pairwise
                                                    : sim::AllToAllPattern::Mpich;
  fuzz::attempt([&] {
    sim::AllToAllTraffic t(n, f, *fn, 1 << 20, {pattern});
    sim::AnalyticOptions opt;
    opt.down_links = &down;
    sim::AnalyticResult r = sim::simulate_analytic(t, n, opt);
    Document out = d;
    out.report = sim::make_analytic_report(r, "traffic", "all-to-all", d.routing->algorithm,
                                           t.n_nodes(), 1 << 20, n.fingerprint, false);
    const std::string written = dump_document(out, false);
    fuzz::must("reading back net-sim's output", [&] { parse_document(written, "sim"); });
    fuzz::must("net-sim's CSV", [&] { sim::csv_row(*out.report); });
  });
  return 0;
}
