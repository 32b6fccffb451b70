// topo-gen: build one candidate's network (nodes, links, hierarchy, metrics) and its faults.
#include "common/tool.hpp"
#include "core/units.hpp"
#include "topo/budget.hpp"
#include "topo/composed.hpp"
#include "topo/cost.hpp"
#include "topo/describe.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/import.hpp"
#include "topo/metrics.hpp"
#include "topo/presets.hpp"
#include "topo/reuse.hpp"
#include "topo/torus.hpp"

using namespace icnkit;

int main(int argc, char** argv) {
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
  return tool::run(
      "topo-gen",
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
      "64\n",
      argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        o_input = app.get_option("--input");
        app.add_option("--torus", torus_shape,
                       "Generate this torus directly, without a candidates document: "
                       "'5x5x5x5' or '4x4x4/b2x2x2' (2 to 6 dimensions; topo-enum lists the "
                       "spec's 2 and 3)");
        app.add_option("--scale-up", scale_up,
                       "Compose a network (with --scale-out): the scale-up domain, KIND:CHIPS"
                       "[,switches=S][,links=L][,board=C][,rack=DOMAINS], KIND switch, "
                       "full-mesh, ring or none (e.g. switch:8,switches=4), or torus:K0xK1x... "
                       "(e.g. torus:4x4x4)");
        app.add_option("--scale-out", scale_out,
                       "The scale-out network of a composition: KIND:domains=N[,unit=U]"
                       "[,radix=K][,tiers=T][,up=UP][,spine-up=UP][,rails=R][,nics=M]"
                       "[,planes=P], KIND rail-optimized, rail-only or none (see --describe)");
        app.add_option("--preset", preset,
                       "A published system: NAME [key=value ...] (--list-presets shows them)")
            ->expected(1, -1);
        app.add_option("--import", import_file,
                       "Read the network from a graph file (family custom): NetworkX node-link "
                       "JSON, GraphML or an edge list 'A B [BANDWIDTH [LATENCY]]' with "
                       "'switch NAME' lines");
        app.add_option("--import-format", import_format,
                       "networkx, graphml or edgelist (default: by the file's extension: .json, "
                       ".graphml/.xml, else edgelist)");
        app.add_option("--budget", budget,
                       "Scale every link by one factor so the chips inject this much: "
                       "injection=BW (e.g. injection=400GB/s; the chip with the most link "
                       "bandwidth gets exactly BW, link ratios stay): designs compared at equal "
                       "injection per chip");
        app.add_option("--cost-table", cost_table,
                       "Price and power table for network.metrics.cost (CSV item,gbps,usd,watts,"
                       "source; default: the shipped data/cost-table.csv)");
        app.add_flag("--list-presets", list_presets,
                     "List the presets, their keys and sources, and exit");
        app.add_option("-p,--pick", pick,
                       "Candidate id or 0-based index (needed when the list has several)");
        app.add_option("--link-bw", link_bw,
                       "Bandwidth per direction of every link (e.g. 50GB/s), or per link kind "
                       "(c2c within a board, b2b within a rack, r2r within a pod, p2p between "
                       "pods), or both: 50GB/s,c2c=900GB/s");
        app.add_option("--link-latency", link_latency,
                       "Latency per hop of every link (e.g. 1us), or per link kind as --link-bw: "
                       "1us,c2c=100ns");
        app.add_option("--fail-link", fail_links,
                       "Fail a link: 'A-B' chip ids, '(x,y,z)-(x,y,z)' or '#ID'")
            ->take_all();
        app.add_option("--fail-chip", fail_chips, "Fail a chip (id or '(x,y,z)') and all its links")
            ->take_all();
        app.add_option("--fail-random-links", fail_random,
                       "Fail K links chosen at random (with --seed)");
        app.add_option("--fail-switch", fail_switches,
                       "Fail a switch (its node id) and every link it has")
            ->take_all();
        app.add_option("--fail-nic", fail_nics,
                       "Fail a chip's NICs ('CHIP') or one of them ('CHIP:I'; in a composed "
                       "network its port on every plane)")
            ->take_all();
        app.add_option("--fail-plane", fail_planes,
                       "Fail plane P (0-based) of a composed network's scale-out: every leaf, "
                       "spine and core switch of that plane, and their links")
            ->take_all();
        app.add_option("--fail-rail", fail_rails,
                       "Fail rail R (0-based) of a composed network's scale-out: its leaves in "
                       "every unit and plane (and its own spines where a rail has them)")
            ->take_all();
        app.add_option("--fail-ocs", fail_ocs,
                       "Fail optical circuit switch I (0..47) of a torus of 4x4x4 cubes (TPU "
                       "v4): every cube-boundary link of dimension I/16 at face position I%16")
            ->take_all();
        o_seed = app.add_option("--seed", seed, "Seed of the random faults")->default_str("1");
        app.add_flag("--twist", twist,
                     "TPU v4 twisted torus (k x k x 2k or k x 2k x 2k): each short "
                     "dimension's wrap links shift by +k in every long dimension");
        app.add_option("--format", format,
                       "Output format: json (the icnkit document), networkx (node-link JSON), "
                       "graphml, dot, booksim (anynet file), or table (a summary for people; "
                       "the default when stdout is a terminal)")
            ->default_str("json");
        tool::add_describe(app, c, "the families and the export formats",
                           topo::describe_generation);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        if (list_presets) {
          write_output(c.output, topo::list_presets());
          return;
        }
        tool::table_format(c, format, SummarySection::Network);
        const topo::ExportFormat fmt = topo::parse_export_format(format);
        if (fail_random < 0) fail_usage("--fail-random-links", "must not be negative");
        // A network named on the command line: --torus, a composition or a preset.
        const char* direct_option = !import_file.empty()   ? "--import"
                                    : !torus_shape.empty() ? "--torus"
                                    : !preset.empty()      ? "--preset"
                                    : !scale_up.empty()    ? "--scale-up"
                                    : !scale_out.empty()   ? "--scale-out"
                                                           : nullptr;
        if (direct_option) {
          const int given = !torus_shape.empty() + !preset.empty() + !import_file.empty() +
                            (!scale_up.empty() || !scale_out.empty());
          if (given > 1)
            fail_usage(direct_option, "give one of --torus, --preset, --scale-up, --import");
          if (!pick.empty())
            fail_usage("--pick", std::string("does not apply with ") + direct_option);
          if (scale_up.empty() != scale_out.empty())
            fail_usage(scale_up.empty() ? "--scale-out" : "--scale-up",
                       "a composition needs both --scale-up and --scale-out (none for no "
                       "scale-out)");
        }
        topo::BuildRequest req;
        if (!pick.empty()) req.pick = pick;
        if (!link_bw.empty())
          req.link_bandwidth = topo::parse_per_kind(link_bw, "--link-bw", [](const std::string& t) {
            return parse_bandwidth(t, "--link-bw");
          });
        if (!link_latency.empty())
          req.link_latency =
              topo::parse_per_kind(link_latency, "--link-latency", [](const std::string& t) {
                return parse_time(t, "--link-latency");
              });
        std::optional<std::pair<topo::Context, topo::Candidate>> torus;
        if (!torus_shape.empty()) torus = topo::torus_from_shape(torus_shape, "--torus");
        if (!scale_up.empty())
          torus = topo::composed_candidate(topo::parse_composition(scale_up, scale_out),
                                           "--scale-up/--scale-out");
        if (!preset.empty()) {
          bool preset_twist = false;
          torus = topo::preset_candidate(
              preset[0], std::vector<std::string>(preset.begin() + 1, preset.end()), preset_twist);
          if (preset_twist) twist = true;
        }
        req.twist = twist;
        if (!import_file.empty()) {
          if (o_input->count() > 0)
            fail_usage("--import", "reads its network from the file and no document, but -i "
                                   "gives one");
          if (!pick.empty() || twist) fail_usage("--import", "takes no --pick or --twist");
        } else if (!import_format.empty()) {
          fail_usage("--import-format", "needs --import");
        }
        if (torus) {
          req.direct = torus->second;
          req.direct_option = direct_option;
        }
        Document d;
        std::optional<topo::Imported> imported;
        if (!import_file.empty()) {
          const topo::ImportFormat f =
              import_format.empty() ? topo::import_format_of(import_file)
                                    : topo::parse_import_format(import_format, "--import-format");
          imported = topo::import_network(read_input(import_file), f, import_file,
                                          req.link_bandwidth, req.link_latency);
        } else if (torus && o_input->count() == 0) {
          d.context = torus->first;
          d.candidate = torus->second;
        } else {
          d = tool::load(c);
        }
        topo::FaultRequest fr{fail_links, fail_chips,    fail_random, seed,
                              fail_ocs,   fail_switches, fail_nics};
        // A failed plane or rail is every switch of it.
        const auto add_planes = [&](const topo::Network& n) {
          for (std::int64_t p : fail_planes)
            for (std::int64_t v : topo::plane_switches(n, p, "--fail-plane"))
              fr.switches.push_back(std::to_string(v));
          for (std::int64_t r : fail_rails)
            for (std::int64_t v : topo::rail_switches(n, r, "--fail-rail"))
              fr.switches.push_back(std::to_string(v));
        };
        // --budget injection=BW: applied to a network built here, before faults and fingerprint.
        std::optional<double> injection;
        if (!budget.empty()) {
          if (budget.rfind("injection=", 0) != 0)
            fail_usage("--budget", "expected injection=BANDWIDTH (e.g. injection=400GB/s), got '" +
                                       budget + "'");
          injection = parse_bandwidth(budget.substr(10), "--budget");
        }
        const auto apply_budget = [&](topo::Network& n) {
          if (injection) topo::scale_to_injection(n, *injection, "--budget");
        };
        Document out;
        if (imported) {
          out.context = imported->context;
          out.candidate = imported->candidate;
          out.network = std::move(imported->network);
          apply_budget(*out.network);
          add_planes(*out.network);
          auto faults = topo::make_faults(*out.network, fr);
          if (!faults.empty()) out.faults = faults;
          refresh_fingerprint(out);
        } else if (d.network) {
          // The document's network is kept exactly; options may only agree with it, and
          // faults add to its own.
          topo::check_build_agrees(*d.network, d.candidate ? &*d.candidate : nullptr,
                                   d.candidates ? &*d.candidates : nullptr, req);
          if (injection)
            fail_usage("--budget", "scales a network topo-gen builds; the document's network is "
                                   "kept as it is (build it again with --budget)");
          out = std::move(d);
          const std::string before = out.network->fingerprint;
          add_planes(*out.network);
          auto faults = topo::make_faults(*out.network, fr, out.faults ? &*out.faults : nullptr);
          out.faults.reset();
          if (!faults.empty()) out.faults = faults;
          refresh_fingerprint(out);
          if (out.network->fingerprint != before) {
            auto drop = [&](auto& section, const char* name) {
              if (!section) return;
              section.reset();
              tool::warn(c, std::string("dropped the ") + name +
                                " section: it was computed for the network without the new "
                                "faults (run that stage again)");
            };
            drop(out.routing, "routing");
            drop(out.schedule, "schedule");
            drop(out.report, "report");
          }
        } else {
          if (torus && o_input->count() > 0)
            fail_usage(direct_option, "builds its network from the command line and reads no "
                                      "document, but -i gives one (without a network to compare "
                                      "with)");
          if (!d.context)
            fail_input(source_name(c.input) + ":/context",
                       "missing context section (run topo-enum first)");
          topo::Candidate cand;
          if (d.candidates)
            cand = topo::pick_candidate(*d.candidates, pick, "--pick");
          else if (d.candidate && (pick.empty() || pick == d.candidate->id || pick == "0"))
            cand = *d.candidate;
          else if (d.candidate)
            fail_usage("--pick", "'" + pick + "' is not the document's candidate ('" +
                                     d.candidate->id + "')");
          else
            fail_input(source_name(c.input) + ":/candidates",
                       "missing candidates section (run topo-enum first)");
          topo::GenerateOptions go;
          go.link_bandwidth = req.link_bandwidth;
          go.link_latency = req.link_latency;
          go.twist = twist;
          out.provenance = d.provenance;
          out.context = d.context;
          out.candidate = cand;
          out.ext = d.ext;
          out.network = topo::generate(*d.context, cand, go);
          apply_budget(*out.network);
          add_planes(*out.network);
          auto faults = topo::make_faults(*out.network, fr);
          if (!faults.empty()) out.faults = faults;
          refresh_fingerprint(out);
        }
        // Cost: of every new network, and of a kept one when a table is given.
        if (!cost_table.empty())
          out.network->metrics.cost = topo::network_cost(
              *out.network, topo::parse_cost_table(read_input(cost_table), cost_table));
        else if (!out.network->metrics.cost)
          out.network->metrics.cost = topo::network_cost(*out.network, topo::default_cost_table());
        out.network->metrics.degraded.reset();
        if (out.faults)
          out.network->metrics.degraded = topo::degraded_metrics(*out.network, *out.faults);
        if (fmt != topo::ExportFormat::Json) {
          std::vector<std::string> notes;
          auto text =
              topo::export_network(*out.network, out.faults ? &*out.faults : nullptr, fmt, &notes);
          for (auto& note : notes) tool::warn(c, note);
          write_output(c.output, text);
          return;
        }
        tool::store(c, out,
                    fail_random > 0 || *o_seed ? std::optional<std::uint64_t>(seed) : std::nullopt);
      });
}
