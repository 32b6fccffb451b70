// topo-route's command line: its options and help, and the routing parameters' options derived
// from the registry's parameters (route/registry.hpp), one option per parameter, so a parameter
// added to the registry is an option here. Included by main.cpp only.
#pragma once
#include "common/tool.hpp"
#include "core/threads.hpp"
#include "route/registry.hpp"
#include "sim/pattern.hpp"

#include <map>
#include <set>
#include <string_view>

namespace icnkit::topo_route {

// --- The routing parameters' options -----------------------------------------------------------
// A parameter's option is "--" + its name with '_' replaced by '-'; a Bool parameter defaulting
// to true is cleared by "--no-" + that. Options spelled otherwise, and what the command line
// checks beyond the registry, are listed here.
struct OptionException {
  std::string_view name;   // the parameter
  std::string_view option; // its option, instead of the rule's
  // IntList: the entries must be distinct, and a repeated one is called this ("" no check).
  std::string_view distinct;
};
inline constexpr OptionException kOptionExceptions[] = {
    {"dimension_order", "--dim-order", "a dimension"},
};

inline const OptionException* option_exception(const std::string& name) {
  for (const OptionException& e : kOptionExceptions)
    if (e.name == name) return &e;
  return nullptr;
}

// Whether the parameter's option clears it (--no-*) rather than setting a value.
inline bool clears(const route::ParamSpec& p) {
  return p.type == route::ParamType::Bool && p.default_value == json(true);
}

// The option that sets parameter p.
inline std::string option_of(const route::ParamSpec& p) {
  if (const OptionException* e = option_exception(p.name)) return std::string(e->option);
  std::string dashed = p.name;
  for (char& ch : dashed)
    if (ch == '_') ch = '-';
  return (clears(p) ? "--no-" : "--") + dashed;
}

// The option's help: the parameter's meaning, allowed values and default (or, for a switch that
// clears it, what turning it off does), and the algorithms that have it.
inline std::string option_help(const route::ParamUse& u) {
  const route::ParamSpec& p = *u.spec;
  std::string which;
  for (auto& a : u.algorithms) which += (which.empty() ? "" : ", ") + a;
  if (p.type == route::ParamType::Bool && !p.off_help.empty())
    return p.off_help + " [" + which + "]";
  return p.meaning + " [" + which + "; allowed: " + p.allowed + "; default: " + p.default_text +
         "]";
}

// The registry's description with each parameter's option (--describe).
inline json describe() {
  json d = route::describe();
  for (json& a : d["algorithms"])
    for (json& p : a["parameters"])
      p["option"] = option_of(*route::find_algorithm(a["name"].get<std::string>())
                                   ->param(p["name"].get<std::string>()));
  return d;
}

inline std::vector<std::int64_t> parse_int_list(const std::string& text, const std::string& where) {
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

// --- The command line --------------------------------------------------------------------------
struct Cli {
  std::string algorithm = "dor";
  const CLI::Option* algorithm_option = nullptr;
  // The routing parameters' options by parameter name: their text (empty: not given), and
  // whether a switch was given (std::map: CLI11 keeps references to the values).
  std::map<std::string, std::string> param_text;
  std::map<std::string, bool> param_switch;
  bool load = false;
  std::string load_traffic, load_hotspot;
  std::uint64_t load_seed = 0;
  int threads = 0;
  std::string emit;
  std::vector<std::string> path;

  // The parameters given on the command line, as routing.params has them.
  json given_params() const {
    json given = json::object();
    for (const route::ParamUse& u : route::parameters()) {
      const route::ParamSpec& p = *u.spec;
      const std::string option = option_of(p);
      if (p.type == route::ParamType::Bool) {
        if (param_switch.at(p.name)) given[p.name] = !clears(p);
        continue;
      }
      const std::string& text = param_text.at(p.name);
      if (text.empty()) continue;
      if (p.type == route::ParamType::Choice) {
        given[p.name] = text;
        continue;
      }
      auto list = parse_int_list(text, option);
      const OptionException* e = option_exception(p.name);
      if (e && !e->distinct.empty() &&
          std::set<std::int64_t>(list.begin(), list.end()).size() != list.size())
        fail_usage(option, "'" + text + "' repeats " + std::string(e->distinct));
      given[p.name] = list;
    }
    return given;
  }
};

inline const char* const kDescription =
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

inline void add_options(CLI::App& app, tool::Common& c, Cli& cli) {
  tool::add_input(app, c);
  cli.algorithm_option =
      app.add_option("-a,--algorithm", cli.algorithm,
                     "Routing algorithm (" + route::algorithm_names() + "; see --describe)")
          ->default_str("dor (or, on a routed document, its algorithm)");
  // One option per routing parameter, in registry order.
  for (const route::ParamUse& u : route::parameters()) {
    const route::ParamSpec& p = *u.spec;
    if (p.type == route::ParamType::Bool) {
      app.add_flag(option_of(p), cli.param_switch[p.name], option_help(u));
      continue;
    }
    CLI::Option* o = app.add_option(option_of(p), cli.param_text[p.name], option_help(u));
    if (p.type == route::ParamType::Choice) o->check(CLI::IsMember(p.choices));
  }
  app.add_option("--path", cli.path,
                 "Print the path from SRC to DST (chip ids or '(x,y,z)') and stop")
      ->expected(2)
      ->type_name("SRC DST");
  app.add_flag("--load", cli.load,
               "Also compute the link load of uniform all-to-all under the routing "
               "(routing.verification.load: busiest channel, throughput bound)");
  app.add_option("--traffic", cli.load_traffic,
                 "With --load: the traffic whose load is computed, all-to-all (default) or "
                 "a synthetic pattern of net-sim --mode flit (" +
                     sim::pattern_names() +
                     "); its throughput bound is then in flits per node per cycle");
  app.add_option("--hotspot", cli.load_hotspot,
                 "With --traffic hotspot: NODES:FRACTION, e.g. 0,63:0.2");
  app.add_option("--seed", cli.load_seed, "With --traffic random-permutation: its seed");
  app.add_option("--emit", cli.emit,
                 "Also record explicit routing: tables (per-node next hop for every "
                 "destination) or paths (every pair's channels and VCs); up to 1M pairs")
      ->check(CLI::IsMember({"tables", "paths"}));
  app.add_option("--threads", cli.threads,
                 "Workers of the verification (default: ICNKIT_THREADS, else the "
                 "machine's cores); the output is the same bytes whatever their number")
      ->check(CLI::Range(1, kMaxThreads));
  tool::add_strict(app, c);
  tool::add_describe(app, c, "the routing algorithms, their references and parameters", describe);
  tool::add_output(app, c);
}

} // namespace icnkit::topo_route
