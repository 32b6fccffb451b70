// topo-gen's command line: its options and help, and the checks of the options alone (which
// network the command line names, --budget). Included by main.cpp only.
#pragma once
#include "common/tool.hpp"
#include "core/units.hpp"
#include "topo/describe.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::topo_gen {

struct Cli {
  std::string pick, torus_shape, scale_up, scale_out, import_file, import_format, cost_table;
  std::string budget;
  std::vector<std::string> preset;
  bool list_presets = false;
  std::string format = "json";
  std::string link_bw, link_latency;
  std::vector<std::string> fail_links, fail_chips;
  std::int64_t fail_random = 0;
  std::vector<std::int64_t> fail_ocs;
  std::vector<std::string> fail_switches;
  std::vector<std::int64_t> fail_planes, fail_rails;
  std::vector<std::string> fail_nics;
  bool twist = false;
  std::uint64_t seed = 1;
  CLI::Option *o_seed = nullptr, *o_input = nullptr;
};

inline const char* const kDescription =
    "topo-gen: generate the network of one candidate: chips with coordinates, links with\n"
    "bandwidth and latency, boards / racks / pods, metrics, and optional faults.\n\n"
    "Examples:\n"
    "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' > net.json\n"
    "  topo-enum --n-chip 64 | topo-gen --pick 0 --fail-link '(1,1,0)-(2,1,0)' --fail-chip 5\n"
    "  topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-random-links 3 "
    "--seed 7\n"
    "  topo-enum --n-chip 64 | topo-gen --pick 0 --format dot | dot -Tsvg > net.svg\n"
    "  topo-enum --n-chip 128 | topo-gen --pick 'torus:4x4x8/b2x2x2' --twist\n"
    "  topo-gen --torus 5x5x5x5 --link-bw 32GB/s --link-latency 100ns > 4d.json\n"
    "  topo-gen --preset dgx-superpod su=4 > dgx-1024.json\n"
    "  topo-gen --import cluster.graphml --link-bw 50GB/s | topo-route --algorithm minimal\n"
    "  topo-gen --scale-up switch:8,switches=4 --scale-out rail-optimized:domains=64,unit=32 "
    "--link-bw 50GB/s,c2c=112.5GB/s\n"
    "  topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-ocs 0 "
    "--fail-ocs 17\n"
    "  topo-enum -n 64 --family fat-tree --scope inter-rack | topo-gen --pick 0 --fail-switch "
    "64\n";

inline void add_options(CLI::App& app, tool::Common& c, Cli& cli) {
  tool::add_input(app, c);
  cli.o_input = app.get_option("--input");
  app.add_option("--torus", cli.torus_shape,
                 "Generate this torus directly, without a candidates document: "
                 "'5x5x5x5' or '4x4x4/b2x2x2' (2 to 6 dimensions; topo-enum lists the "
                 "spec's 2 and 3)");
  app.add_option("--scale-up", cli.scale_up,
                 "Compose a network (with --scale-out): the scale-up domain, KIND:CHIPS"
                 "[,switches=S][,links=L][,board=C][,rack=DOMAINS], KIND switch, "
                 "full-mesh, ring or none (e.g. switch:8,switches=4), or torus:K0xK1x... "
                 "(e.g. torus:4x4x4)");
  app.add_option("--scale-out", cli.scale_out,
                 "The scale-out network of a composition: KIND:domains=N[,unit=U]"
                 "[,radix=K][,tiers=T][,up=UP][,spine-up=UP][,rails=R][,nics=M]"
                 "[,planes=P], KIND rail-optimized, rail-only or none (see --describe)");
  app.add_option("--preset", cli.preset,
                 "A published system: NAME [key=value ...] (--list-presets shows them)")
      ->expected(1, -1);
  app.add_option("--import", cli.import_file,
                 "Read the network from a graph file (family custom): NetworkX node-link "
                 "JSON, GraphML or an edge list 'A B [BANDWIDTH [LATENCY]]' with "
                 "'switch NAME' lines");
  app.add_option("--import-format", cli.import_format,
                 "networkx, graphml or edgelist (default: by the file's extension: .json, "
                 ".graphml/.xml, else edgelist)");
  app.add_option("--budget", cli.budget,
                 "Scale every link by one factor so the chips inject this much: "
                 "injection=BW (e.g. injection=400GB/s; the chip with the most link "
                 "bandwidth gets exactly BW, link ratios stay): designs compared at equal "
                 "injection per chip");
  app.add_option("--cost-table", cli.cost_table,
                 "Price and power table for network.metrics.cost (CSV item,gbps,usd,watts,"
                 "source; default: the shipped data/cost-table.csv)");
  app.add_flag("--list-presets", cli.list_presets,
               "List the presets, their keys and sources, and exit");
  app.add_option("-p,--pick", cli.pick,
                 "Candidate id or 0-based index (needed when the list has several)");
  app.add_option("--link-bw", cli.link_bw,
                 "Bandwidth per direction of every link (e.g. 50GB/s), or per link kind "
                 "(c2c within a board, b2b within a rack, r2r within a pod, p2p between "
                 "pods), or both: 50GB/s,c2c=900GB/s");
  app.add_option("--link-latency", cli.link_latency,
                 "Latency per hop of every link (e.g. 1us), or per link kind as --link-bw: "
                 "1us,c2c=100ns");
  app.add_option("--fail-link", cli.fail_links,
                 "Fail a link: 'A-B' chip ids, '(x,y,z)-(x,y,z)' or '#ID'")
      ->take_all();
  app.add_option("--fail-chip", cli.fail_chips, "Fail a chip (id or '(x,y,z)') and all its links")
      ->take_all();
  app.add_option("--fail-random-links", cli.fail_random,
                 "Fail K links chosen at random (with --seed)");
  app.add_option("--fail-switch", cli.fail_switches,
                 "Fail a switch (its node id) and every link it has")
      ->take_all();
  app.add_option("--fail-nic", cli.fail_nics,
                 "Fail a chip's NICs ('CHIP') or one of them ('CHIP:I'; in a composed "
                 "network its port on every plane)")
      ->take_all();
  app.add_option("--fail-plane", cli.fail_planes,
                 "Fail plane P (0-based) of a composed network's scale-out: every leaf, "
                 "spine and core switch of that plane, and their links")
      ->take_all();
  app.add_option("--fail-rail", cli.fail_rails,
                 "Fail rail R (0-based) of a composed network's scale-out: its leaves in "
                 "every unit and plane (and its own spines where a rail has them)")
      ->take_all();
  app.add_option("--fail-ocs", cli.fail_ocs,
                 "Fail optical circuit switch I (0..47) of a torus of 4x4x4 cubes (TPU "
                 "v4): every cube-boundary link of dimension I/16 at face position I%16")
      ->take_all();
  cli.o_seed = app.add_option("--seed", cli.seed, "Seed of the random faults")->default_str("1");
  app.add_flag("--twist", cli.twist,
               "TPU v4 twisted torus (k x k x 2k or k x 2k x 2k): each short "
               "dimension's wrap links shift by +k in every long dimension");
  app.add_option("--format", cli.format,
                 "Output format: json (the icnkit document), networkx (node-link JSON), "
                 "graphml, dot, booksim (anynet file), or table (a summary for people; "
                 "the default when stdout is a terminal)")
      ->default_str("json");
  tool::add_describe(app, c, "the families and the export formats", topo::describe_generation);
  tool::add_output(app, c);
}

// The option that names the network on the command line (--import, --torus, --preset, or a
// composition's --scale-up/--scale-out; nullptr: none), checked against the others.
inline const char* check_direct_options(const Cli& cli) {
  const char* direct_option = !cli.import_file.empty()   ? "--import"
                              : !cli.torus_shape.empty() ? "--torus"
                              : !cli.preset.empty()      ? "--preset"
                              : !cli.scale_up.empty()    ? "--scale-up"
                              : !cli.scale_out.empty()   ? "--scale-out"
                                                         : nullptr;
  if (direct_option) {
    const int given = !cli.torus_shape.empty() + !cli.preset.empty() + !cli.import_file.empty() +
                      (!cli.scale_up.empty() || !cli.scale_out.empty());
    if (given > 1) fail_usage(direct_option, "give one of --torus, --preset, --scale-up, --import");
    if (!cli.pick.empty())
      fail_usage("--pick", std::string("does not apply with ") + direct_option);
    if (cli.scale_up.empty() != cli.scale_out.empty())
      fail_usage(cli.scale_up.empty() ? "--scale-out" : "--scale-up",
                 "a composition needs both --scale-up and --scale-out (none for no scale-out)");
  }
  return direct_option;
}

// --budget injection=BW: the injection per chip (none when not given).
inline std::optional<double> parse_budget(const std::string& budget) {
  if (budget.empty()) return std::nullopt;
  if (budget.rfind("injection=", 0) != 0)
    fail_usage("--budget",
               "expected injection=BANDWIDTH (e.g. injection=400GB/s), got '" + budget + "'");
  return parse_bandwidth(budget.substr(10), "--budget");
}

} // namespace icnkit::topo_gen
