// topo-route: choose the routing algorithm of a network, verify it (deadlock freedom, reachability
// under faults, hop statistics) and record it as the document's `routing` section.
#include "common/tool.hpp"
#include "core/threads.hpp"
#include "route/emit.hpp"
#include "route/load.hpp"
#include "route/registry.hpp"
#include "route/verify.hpp"
#include "sim/pattern.hpp"

#include <cstdio>
#include <set>

using namespace icnkit;

namespace {

std::vector<std::int64_t> parse_int_list(const std::string& text, const std::string& where) {
  std::vector<std::int64_t> out;
  std::size_t i = 0;
  while (true) {
    std::size_t j = text.find(',', i);
    std::string tok = text.substr(i, j == std::string::npos ? std::string::npos : j - i);
    while (!tok.empty() && tok.front() == ' ') tok.erase(tok.begin());
    while (!tok.empty() && tok.back() == ' ') tok.pop_back();
    if (tok.empty() || tok.size() > 9 || tok.find_first_not_of("0123456789") != std::string::npos)
      fail_usage(where, "expected comma-separated non-negative integers, got '" + text + "'");
    out.push_back(std::stoll(tok));
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

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
  std::string algorithm = "dor";
  std::string dim_order, tie, paths, vc_scheme, dateline_vc, rail_path;
  bool no_dateline = false, load = false;
  std::string load_traffic, load_hotspot;
  std::uint64_t load_seed = 0;
  int threads = 0;
  const CLI::Option* algorithm_option = nullptr;
  std::string emit;
  std::vector<std::string> path;
  std::string algo_help = "Routing algorithm (" + route::algorithm_names() + "; see --describe)";
  std::string description =
      "topo-route: choose the routing algorithm of a network, verify it and add the `routing`\n"
      "section: deadlock check on the channel-dependency graph (the cycle if there is one),\n"
      "reachability under the document's faults (pairs a routing cannot serve are listed with\n"
      "a reason and a warning; faults that split the network are exit 4), hop statistics and\n"
      "path stretch; on request the link load of uniform all-to-all (--load) and explicit\n"
      "tables or paths (--emit). Drops a stale `report`; re-routing a routed document without\n"
      "--algorithm keeps its algorithm and parameters. A routing that deadlocks or leaves\n"
      "pairs unreachable is written with a warning; under --strict it is exit 4 instead.\n\n"
      "Algorithms: dor (torus, mesh, hyperx), wfr (torus with faults), odd-even and fthoe (2-D "
      "mesh),\n"
      "dmodk (fat-tree), dragonfly-min (dragonfly), minimal (any network; hop-count VCs make it\n"
      "deadlock-free), rail (composed networks: scale-up domain and rails, pxn or "
      "rail-aligned).\n\n"
      "Examples:\n"
      "  topo-gen --preset dgx-superpod su=4 | topo-route --algorithm rail --rail-path pxn\n"
      "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route --algorithm "
      "dor\n"
      "  topo-gen -i cands.json --pick 'torus:4x4x4/b1x1x1' --fail-link '(1,1,0)-(2,1,0)' \\\n"
      "    | topo-route --algorithm wfr --load                        # around the fault\n"
      "  topo-enum -n 64 --family mesh | topo-gen --pick 'mesh:8x8/b1x1' --fail-chip 27 \\\n"
      "    | topo-route --algorithm fthoe\n"
      "  topo-enum -n 32 --family fat-tree --where k=8,layers=2,chips_per_board=1 | topo-gen \\\n"
      "    | topo-route --algorithm dmodk --load                      # throughput bound 1\n"
      "  topo-route -i net.json --tie plus --no-dateline -o routed.json   # finds a deadlock "
      "cycle\n"
      "  topo-route -i net.json --path '(0,0,0)' '(2,3,1)'                 # one path, hop by hop\n"
      "  topo-route -i net.json --tie plus --no-dateline --strict      # exit 4: not "
      "deadlock-free\n"
      "  topo-route --describe                                            # algorithms and "
      "parameters\n";
  return tool::run(
      "topo-route", description.c_str(), argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        algorithm_option = app.add_option("-a,--algorithm", algorithm, algo_help)
                               ->default_str("dor (or, on a routed document, its algorithm)");
        app.add_option("--dim-order", dim_order, route::param_help("dimension_order"));
        app.add_option("--tie", tie, route::param_help("tie"))
            ->check(CLI::IsMember(route::param_choices("tie")));
        app.add_flag("--no-dateline", no_dateline, route::param_help("dateline"));
        app.add_option("--dateline-vc", dateline_vc, route::param_help("dateline_vc"))
            ->check(CLI::IsMember(route::param_choices("dateline_vc")));
        app.add_option("--paths", paths, route::param_help("paths"))
            ->check(CLI::IsMember(route::param_choices("paths")));
        app.add_option("--vc-scheme", vc_scheme, route::param_help("vc_scheme"))
            ->check(CLI::IsMember(route::param_choices("vc_scheme")));
        app.add_option("--rail-path", rail_path, route::param_help("rail_path"))
            ->check(CLI::IsMember(route::param_choices("rail_path")));
        app.add_option("--path", path,
                       "Print the path from SRC to DST (chip ids or '(x,y,z)') and stop")
            ->expected(2)
            ->type_name("SRC DST");
        app.add_flag("--load", load,
                     "Also compute the link load of uniform all-to-all under the routing "
                     "(routing.verification.load: busiest channel, throughput bound)");
        app.add_option("--traffic", load_traffic,
                       "With --load: the traffic whose load is computed, all-to-all (default) or "
                       "a synthetic pattern of net-sim --mode flit (" +
                           sim::pattern_names() +
                           "); its throughput bound is then in flits per node per cycle");
        app.add_option("--hotspot", load_hotspot,
                       "With --traffic hotspot: NODES:FRACTION, e.g. 0,63:0.2");
        app.add_option("--seed", load_seed, "With --traffic random-permutation: its seed");
        app.add_option("--emit", emit,
                       "Also record explicit routing: tables (per-node next hop for every "
                       "destination) or paths (every pair's channels and VCs); up to 1M pairs")
            ->check(CLI::IsMember({"tables", "paths"}));
        app.add_option("--threads", threads,
                       "Workers of the verification (default: ICNKIT_THREADS, else the "
                       "machine's cores); the output is the same bytes whatever their number")
            ->check(CLI::Range(1, kMaxThreads));
        tool::add_strict(app, c);
        tool::add_describe(app, c, "the routing algorithms, their references and parameters",
                           route::describe);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        tool::table_format(c, c.describe_format, SummarySection::Routing);
        // Everything the command line alone can get wrong is checked before the input is read.
        const bool algorithm_given = algorithm_option->count() > 0;
        threads = resolve_threads(threads); // checks ICNKIT_THREADS
        const route::Algorithm* a =
            &route::require_algorithm(algorithm, ErrorKind::Usage, "--algorithm");
        route::ParamErrors cli{ErrorKind::Usage,
                               [](const route::ParamSpec& p) { return p.option; }};
        json given = json::object();
        if (!dim_order.empty()) {
          auto order = parse_int_list(dim_order, "--dim-order");
          if (std::set<std::int64_t>(order.begin(), order.end()).size() != order.size())
            fail_usage("--dim-order", "'" + dim_order + "' repeats a dimension");
          given["dimension_order"] = order;
        }
        if (!tie.empty()) given["tie"] = tie;
        if (no_dateline) given["dateline"] = false;
        if (!dateline_vc.empty()) given["dateline_vc"] = dateline_vc;
        if (!paths.empty()) given["paths"] = paths;
        if (!rail_path.empty()) given["rail_path"] = rail_path;
        if (!vc_scheme.empty()) given["vc_scheme"] = vc_scheme;
        json params = route::complete_params(*a, given, cli);
        if (!load && (!load_traffic.empty() || !load_hotspot.empty()))
          fail_usage("--traffic", "--traffic and --hotspot choose the traffic of --load");
        if (!load_hotspot.empty() && load_traffic != "hotspot")
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
          params = route::complete_params(*a, merged, cli);
        }
        route::require_connected(n, f);
        route::Built b = a->build(params, n, f, cli);

        if (!path.empty()) {
          print_path(*b.fn, a->name, n, f, parse_chip(path[0], n), parse_chip(path[1], n));
          return;
        }

        route::RoutingSection s;
        s.algorithm = a->name;
        s.params = b.params;
        s.vc_count = b.fn->vc_count();
        s.verification = route::verify_routing(*b.fn, n, f, threads);
        if (load) {
          route::LoadReport lr;
          route::LoadSummary ls;
          if (load_traffic.empty() || load_traffic == "all-to-all") {
            lr = route::uniform_load(*b.fn, n, f, s.verification->hop_limit);
          } else {
            sim::PatternSpec ps;
            ps.kind = sim::pattern_by_name(load_traffic, "--traffic");
            ps.seed = load_seed;
            if (ps.kind == sim::PatternKind::Hotspot) {
              if (load_hotspot.empty())
                fail_usage("--hotspot", "--traffic hotspot needs --hotspot NODES:FRACTION");
              sim::parse_hotspot(load_hotspot, ps, "--hotspot");
            }
            const sim::Pattern pattern(ps, n);
            lr = route::demand_load(
                *b.fn, n, f, s.verification->hop_limit,
                [&](std::int64_t a, std::int64_t d) { return pattern.weight(a, d); });
            ls.traffic = load_traffic;
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
        if (!emit.empty()) s.emitted = route::emit_routing(*b.fn, n, f, emit == "paths");
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
