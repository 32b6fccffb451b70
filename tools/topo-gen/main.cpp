// topo-gen: build one candidate's network (nodes, links, hierarchy, metrics) and its faults.
#include "common/tool.hpp"
#include "core/units.hpp"
#include "topo/describe.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"

using namespace icnkit;

int main(int argc, char** argv) {
  std::string pick, torus_shape;
  std::string format = "json";
  std::string link_bw, link_latency;
  std::vector<std::string> fail_links, fail_chips;
  std::int64_t fail_random = 0;
  std::vector<std::int64_t> fail_ocs;
  bool twist = false;
  std::uint64_t seed = 1;
  CLI::Option* o_seed = nullptr;
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
      "  topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-ocs 0 "
      "--fail-ocs 17\n",
      argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        app.add_option("--torus", torus_shape,
                       "Generate this torus directly, without a candidates document: "
                       "'5x5x5x5' or '4x4x4/b2x2x2' (2 to 6 dimensions; topo-enum lists the "
                       "spec's 2 and 3)");
        app.add_option("-p,--pick", pick,
                       "Candidate id or 0-based index (needed when the list has several)");
        app.add_option("--link-bw", link_bw,
                       "Bandwidth of every link, per direction (e.g. 50GB/s)");
        app.add_option("--link-latency", link_latency, "Latency of every link, per hop (e.g. 1us)");
        app.add_option("--fail-link", fail_links,
                       "Fail a link: 'A-B' chip ids, '(x,y,z)-(x,y,z)' or '#ID'")
            ->take_all();
        app.add_option("--fail-chip", fail_chips, "Fail a chip (id or '(x,y,z)') and all its links")
            ->take_all();
        app.add_option("--fail-random-links", fail_random,
                       "Fail K links chosen at random (with --seed)");
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
                       "graphml, dot, booksim (anynet file)")
            ->default_str("json");
        tool::add_describe(app, c, "the families and the export formats",
                           topo::describe_generation);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        const topo::ExportFormat fmt = topo::parse_export_format(format);
        Document d;
        if (!torus_shape.empty()) {
          if (!pick.empty()) fail_usage("--pick", "does not apply with --torus");
          auto [ctx, cand] = topo::torus_from_shape(torus_shape, "--torus");
          d.context = ctx;
          d.candidate = cand;
        } else {
          d = tool::load(c);
        }
        if (!d.context)
          fail_input(source_name(c.input) + ":/context",
                     "missing context section (run topo-enum first)");
        topo::Candidate cand;
        if (d.candidates) {
          const auto& items = d.candidates->items;
          if (items.empty())
            fail_infeasible("--pick", "the candidates list is empty: nothing to generate");
          if (pick.empty()) {
            if (items.size() != 1)
              fail_usage("--pick", "the list has " + std::to_string(items.size()) +
                                       " candidates; pick one by id or index");
            cand = items[0];
          } else {
            bool found = false;
            for (auto& it : items)
              if (it.id == pick) cand = it, found = true;
            if (!found && !pick.empty() &&
                pick.find_first_not_of("0123456789") == std::string::npos) {
              if (pick.size() > 9 || std::stoul(pick) >= items.size())
                fail_usage("--pick", "index " + pick + " is out of range (the list has " +
                                         std::to_string(items.size()) + ")");
              cand = items[std::stoul(pick)];
              found = true;
            }
            if (!found) fail_usage("--pick", "no candidate with id '" + pick + "'");
          }
        } else if (d.candidate) {
          cand = *d.candidate;
        } else {
          fail_input(source_name(c.input) + ":/candidates",
                     "missing candidates section (run topo-enum first)");
        }
        topo::GenerateOptions go;
        if (!link_bw.empty()) go.link_bandwidth_bytes_per_s = parse_bandwidth(link_bw, "--link-bw");
        if (!link_latency.empty()) go.link_latency_s = parse_time(link_latency, "--link-latency");
        go.twist = twist;
        Document out;
        out.provenance = d.provenance;
        out.context = d.context;
        out.candidate = cand;
        out.ext = d.ext;
        out.network = topo::generate(*d.context, cand, go);
        topo::FaultRequest fr{fail_links, fail_chips, fail_random, seed, fail_ocs};
        if (fail_random < 0) fail_usage("--fail-random-links", "must not be negative");
        auto faults = topo::make_faults(*out.network, fr);
        if (!faults.empty()) out.faults = faults;
        refresh_fingerprint(out);
        if (fmt != topo::ExportFormat::Json) {
          write_output(c.output, topo::export_network(*out.network,
                                                      out.faults ? &*out.faults : nullptr, fmt));
          return;
        }
        tool::store(c, out,
                    fail_random > 0 || *o_seed ? std::optional<std::uint64_t>(seed) : std::nullopt);
      });
}
