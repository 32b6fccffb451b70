// topo-gen: build one candidate's network (nodes, links, hierarchy, metrics) and its faults.
#include "options.hpp"
#include "topo/budget.hpp"
#include "topo/composed.hpp"
#include "topo/cost.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/import.hpp"
#include "topo/metrics.hpp"
#include "topo/presets.hpp"
#include "topo/reuse.hpp"
#include "topo/torus.hpp"

using namespace icnkit;
using namespace icnkit::topo_gen;

int main(int argc, char** argv) {
  Cli cli;
  return tool::run(
      "topo-gen", kDescription, argc, argv,
      [&](CLI::App& app, tool::Common& c) { add_options(app, c, cli); },
      [&](tool::Common& c) {
        if (cli.list_presets) {
          write_output(c.output, tool::spell_options(topo::list_presets()));
          return;
        }
        tool::table_format(c, cli.format, SummarySection::Network);
        const topo::ExportFormat fmt = topo::parse_export_format(cli.format);
        if (cli.fail_random < 0) fail_usage("--fail-random-links", "must not be negative");
        // A network named on the command line: --torus, a composition or a preset.
        const char* direct_option = check_direct_options(cli);
        topo::BuildRequest req;
        if (!cli.pick.empty()) req.pick = cli.pick;
        if (!cli.link_bw.empty())
          req.link_bandwidth =
              topo::parse_per_kind(cli.link_bw, "--link-bw", [](const std::string& t) {
                return parse_bandwidth(t, "--link-bw");
              });
        if (!cli.link_latency.empty())
          req.link_latency =
              topo::parse_per_kind(cli.link_latency, "--link-latency", [](const std::string& t) {
                return parse_time(t, "--link-latency");
              });
        std::optional<std::pair<topo::Context, topo::Candidate>> torus;
        if (!cli.torus_shape.empty()) torus = topo::torus_from_shape(cli.torus_shape, "--torus");
        if (!cli.scale_up.empty())
          torus = topo::composed_candidate(topo::parse_composition(cli.scale_up, cli.scale_out),
                                           "--scale-up/--scale-out");
        if (!cli.preset.empty()) {
          bool preset_twist = false;
          torus = topo::preset_candidate(
              cli.preset[0], std::vector<std::string>(cli.preset.begin() + 1, cli.preset.end()),
              preset_twist);
          if (preset_twist) cli.twist = true;
        }
        req.twist = cli.twist;
        if (!cli.import_file.empty()) {
          if (cli.o_input->count() > 0)
            fail_usage("--import", "reads its network from the file and no document, but -i "
                                   "gives one");
          if (!cli.pick.empty() || cli.twist) fail_usage("--import", "takes no --pick or --twist");
        } else if (!cli.import_format.empty()) {
          fail_usage("--import-format", "needs --import");
        }
        if (torus) {
          req.direct = torus->second;
          req.direct_option = direct_option;
        }
        Document d;
        std::optional<topo::Imported> imported;
        if (!cli.import_file.empty()) {
          const topo::ImportFormat f =
              cli.import_format.empty()
                  ? topo::import_format_of(cli.import_file)
                  : topo::parse_import_format(cli.import_format, "--import-format");
          imported = topo::import_network(read_input(cli.import_file), f, cli.import_file,
                                          req.link_bandwidth, req.link_latency);
        } else if (torus && cli.o_input->count() == 0) {
          d.context = torus->first;
          d.candidate = torus->second;
        } else {
          d = tool::load(c);
        }
        topo::FaultRequest fr{cli.fail_links, cli.fail_chips,    cli.fail_random, cli.seed,
                              cli.fail_ocs,   cli.fail_switches, cli.fail_nics};
        // A failed plane or rail is every switch of it.
        const auto add_planes = [&](const topo::Network& n) {
          for (std::int64_t p : cli.fail_planes)
            for (std::int64_t v : topo::plane_switches(n, p, "--fail-plane"))
              fr.switches.push_back(std::to_string(v));
          for (std::int64_t r : cli.fail_rails)
            for (std::int64_t v : topo::rail_switches(n, r, "--fail-rail"))
              fr.switches.push_back(std::to_string(v));
        };
        // --budget injection=BW: applied to a network built here, before faults and fingerprint.
        const std::optional<double> injection = parse_budget(cli.budget);
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
          if (torus && cli.o_input->count() > 0)
            fail_usage(direct_option, "builds its network from the command line and reads no "
                                      "document, but -i gives one (without a network to compare "
                                      "with)");
          if (!d.context)
            fail_input(source_name(c.input) + ":/context",
                       "missing context section (run topo-enum first)");
          topo::Candidate cand;
          if (d.candidates)
            cand = topo::pick_candidate(*d.candidates, cli.pick, "--pick");
          else if (d.candidate &&
                   (cli.pick.empty() || cli.pick == d.candidate->id || cli.pick == "0"))
            cand = *d.candidate;
          else if (d.candidate)
            fail_usage("--pick", "'" + cli.pick + "' is not the document's candidate ('" +
                                     d.candidate->id + "')");
          else
            fail_input(source_name(c.input) + ":/candidates",
                       "missing candidates section (run topo-enum first)");
          topo::GenerateOptions go;
          go.link_bandwidth = req.link_bandwidth;
          go.link_latency = req.link_latency;
          go.twist = cli.twist;
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
        if (!cli.cost_table.empty())
          out.network->metrics.cost = topo::network_cost(
              *out.network, topo::parse_cost_table(read_input(cli.cost_table), cli.cost_table));
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
                    cli.fail_random > 0 || *cli.o_seed ? std::optional<std::uint64_t>(cli.seed)
                                                       : std::nullopt);
      });
}
