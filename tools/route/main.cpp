// topo-route: choose the routing algorithm of a network, verify it (deadlock freedom, reachability
// under faults, hop statistics) and record it as the document's `routing` section.
#include "options.hpp"
#include "route/emit.hpp"
#include "route/load.hpp"
#include "route/verify.hpp"

#include <cstdio>

using namespace icnkit;
using namespace icnkit::topo_route;

namespace {

// A node as people read it: chips by coordinates where they have them, else by id; switches
// by role and id.
std::string coord_text(const topo::Node& node) {
  if (node.kind == topo::NodeKind::Switch) return node.role + "#" + std::to_string(node.id);
  if (node.coord.empty()) return "chip#" + std::to_string(node.id);
  std::string s = "(";
  for (std::size_t i = 0; i < node.coord.size(); ++i)
    s += (i ? "," : "") + std::to_string(node.coord[i]);
  return s + ")";
}

// A chip given as its id or as "(x,y,z)".
std::int64_t parse_chip(const std::string& text, const topo::Network& n) {
  if (!text.empty() && text.front() == '(') {
    if (text.back() != ')')
      fail_usage("--path", "'" + text + "' is neither a chip id nor '(x,y,z)'");
    std::vector<std::int64_t> c = parse_int_list(text.substr(1, text.size() - 2), "--path");
    for (std::int64_t id = 0; id < n.n_chip; ++id) {
      const auto& coord = n.nodes[static_cast<std::size_t>(id)].coord;
      if (coord.size() == c.size() && std::equal(coord.begin(), coord.end(), c.begin())) return id;
    }
    fail_usage("--path", "no chip at " + text);
  }
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    fail_usage("--path", "'" + text + "' is neither a chip id nor '(x,y,z)'");
  std::int64_t id = std::stoll(text);
  if (id >= n.n_chip)
    fail_usage("--path", "chip " + text + " does not exist (the network has " +
                             std::to_string(n.n_chip) + " chips)");
  return id;
}

void print_path(const route::RoutingFunction& fn, const std::string& algorithm,
                const topo::Network& n, const topo::Faults& f, std::int64_t src, std::int64_t dst) {
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  const auto& nodes = n.nodes;
  std::string head = "path " + std::to_string(src) + " " +
                     coord_text(nodes[static_cast<std::size_t>(src)]) + " -> " +
                     std::to_string(dst) + " " + coord_text(nodes[static_cast<std::size_t>(dst)]) +
                     " (" + algorithm + ")";
  if (down_chips[static_cast<std::size_t>(src)] || down_chips[static_cast<std::size_t>(dst)]) {
    std::printf("%s: not delivered: %s chip has failed\n", head.c_str(),
                down_chips[static_cast<std::size_t>(src)] ? "the source" : "the destination");
    return;
  }
  route::Path p =
      route::trace(fn, n, down_links, down_chips, src, dst, route::default_hop_limit(n));
  if (p.delivered)
    std::printf("%s: delivered in %zu hops\n", head.c_str(), p.hops.size());
  else
    std::printf("%s: NOT delivered after %zu hops: %s\n", head.c_str(), p.hops.size(),
                p.reason.c_str());
  if (p.hops.empty()) return;
  std::printf("%4s  %-12s  %-12s  %3s  %3s  %6s  %2s\n", "hop", "from", "to", "dim", "dir", "link",
              "vc");
  for (std::size_t i = 0; i < p.hops.size(); ++i) {
    const std::int64_t ch = p.hops[i].channel;
    const topo::Link& l = n.links[static_cast<std::size_t>(topo::link_of_channel(ch))];
    const int dir = topo::channel_forward(ch) ? l.dir : -l.dir;
    const std::string dim = l.dim >= 0 ? std::to_string(l.dim) : "-";
    std::printf("%4zu  %-12s  %-12s  %3s  %3s  %6lld  %2d\n", i + 1,
                coord_text(nodes[static_cast<std::size_t>(n.channel_src(ch))]).c_str(),
                coord_text(nodes[static_cast<std::size_t>(n.channel_dst(ch))]).c_str(), dim.c_str(),
                dir > 0   ? "+"
                : dir < 0 ? "-"
                          : "-",
                static_cast<long long>(l.id), p.hops[i].vc);
  }
}

} // namespace

int main(int argc, char** argv) {
  Cli cli;
  return tool::run(
      "topo-route", kDescription, argc, argv,
      [&](CLI::App& app, tool::Common& c) { add_options(app, c, cli); },
      [&](tool::Common& c) {
        tool::table_format(c, c.describe_format, SummarySection::Routing);
        // Everything the command line alone can get wrong is checked before the input is read.
        const bool algorithm_given = cli.algorithm_option->count() > 0;
        cli.threads = resolve_threads(cli.threads); // checks ICNKIT_THREADS
        const route::Algorithm* a =
            &route::require_algorithm(cli.algorithm, ErrorKind::Usage, "--algorithm");
        // At the parameter's option; one the algorithm does not have, at its name.
        route::ParamErrors errors{ErrorKind::Usage, [&a](const route::ParamSpec& p) {
                                    return a->param(p.name) ? option_of(p) : p.name;
                                  }};
        const json given = cli.given_params();
        json params = route::complete_params(*a, given, errors);
        if (!cli.load && (!cli.load_traffic.empty() || !cli.load_hotspot.empty()))
          fail_usage("--traffic", "--traffic and --hotspot choose the traffic of --load");
        if (!cli.load_hotspot.empty() && cli.load_traffic != "hotspot")
          fail_usage("--hotspot", "only applies to --traffic hotspot");

        Document d = tool::load(c);
        const topo::Network& n = d.require_network("topo-route");
        const topo::Faults f = d.faults_or_none();
        // Re-routing a routed document without --algorithm keeps its algorithm and parameters;
        // the options given change single parameters.
        if (!algorithm_given && d.routing) {
          a = &route::require_algorithm(d.routing->algorithm, ErrorKind::Input,
                                        source_name(c.input) + ":/routing/algorithm");
          json merged = d.routing->params;
          for (auto it = given.begin(); it != given.end(); ++it) merged[it.key()] = it.value();
          params = route::complete_params(*a, merged, errors);
        }
        route::require_connected(n, f);
        route::Built b = a->build(params, n, f, errors);

        if (!cli.path.empty()) {
          print_path(*b.fn, a->name, n, f, parse_chip(cli.path[0], n), parse_chip(cli.path[1], n));
          return;
        }

        route::RoutingSection s;
        s.algorithm = a->name;
        s.params = b.params;
        s.vc_count = b.fn->vc_count();
        s.verification = route::verify_routing(*b.fn, n, f, cli.threads);
        if (cli.load) {
          route::LoadReport lr;
          route::LoadSummary ls;
          if (cli.load_traffic.empty() || cli.load_traffic == "all-to-all") {
            lr = route::uniform_load(*b.fn, n, f, s.verification->hop_limit);
          } else {
            sim::PatternSpec ps;
            ps.kind = sim::pattern_by_name(cli.load_traffic, "--traffic");
            ps.seed = cli.load_seed;
            if (ps.kind == sim::PatternKind::Hotspot) {
              if (cli.load_hotspot.empty())
                fail_usage("--hotspot", "--traffic hotspot needs --hotspot NODES:FRACTION");
              sim::parse_hotspot(cli.load_hotspot, ps, "--hotspot");
            }
            const sim::Pattern pattern(ps, n);
            lr = route::demand_load(
                *b.fn, n, f, s.verification->hop_limit,
                [&](std::int64_t a, std::int64_t d) { return pattern.weight(a, d); });
            ls.traffic = cli.load_traffic;
          }
          ls.max = lr.max_load;
          ls.mean = lr.mean_load;
          ls.throughput_bound = lr.throughput_bound;
          ls.split_exact = lr.split_exact;
          if (lr.max_channel >= 0) {
            ls.max_link = topo::link_of_channel(lr.max_channel);
            ls.max_from = n.channel_src(lr.max_channel);
            ls.max_to = n.channel_dst(lr.max_channel);
          }
          s.verification->load = ls;
        }
        if (!cli.emit.empty()) s.emitted = route::emit_routing(*b.fn, n, f, cli.emit == "paths");
        s.network_fingerprint = n.fingerprint;
        const route::Verification& v = *s.verification;
        // Verdicts: warnings, or under --strict the first failed one is exit 4.
        if (v.unreachable_pairs > 0) {
          const auto& u = v.unreachable.front();
          tool::verdict(c, false,
                        std::to_string(v.unreachable_pairs) + " of " + std::to_string(v.pairs) +
                            " pairs are unreachable under the faults with " + a->name + ", e.g. " +
                            std::to_string(u.src) + " -> " + std::to_string(u.dst) + ": " +
                            u.reason);
        }
        if (!v.deadlock_free)
          tool::verdict(
              c, false,
              "the routing is NOT deadlock-free: the channel-dependency graph has a cycle of " +
                  std::to_string(v.cdg.cycle->size()) +
                  " channels (listed in routing.verification.cdg.cycle)");
        if (v.cdg.walks_over_hop_limit > 0)
          tool::verdict(c, false,
                        std::to_string(v.cdg.walks_over_hop_limit) + " routing walks exceeded " +
                            std::to_string(v.hop_limit) + " hops (possible livelock)");
        d.routing = std::move(s);
        d.report.reset(); // computed under the previous routing
        tool::store(c, d);
      });
}
