// coll-sched: schedule a collective on the document's torus network, verify it, add `schedule`.
#include "coll/auto.hpp"
#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/msccl.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/verify.hpp"
#include "core/units.hpp"
#include "options.hpp"
#include "route/routing.hpp"

#include <cstdio>
#include <limits>

using namespace icnkit;
using namespace icnkit::coll_sched;

int main(int argc, char** argv) {
  Cli cli;
  const std::string help = help_text();
  return tool::run(
      "coll-sched", help.c_str(), argc, argv,
      [&](CLI::App& app, tool::Common& c) { add_options(app, c, cli); },
      [&](tool::Common& c) {
        tool::table_format(c, cli.format, SummarySection::Schedule);
        if (cli.check) {
          // A schedule read from a document is input: failing verification is exit 3.
          if (!cli.bytes.empty())
            fail_usage("--bytes",
                       "--check verifies the document's schedule; --bytes does not apply");
          Document d = tool::load(c);
          const topo::Network& net = d.require_network("coll-sched --check");
          if (!d.schedule)
            fail_input(source_name(c.input) + ":/schedule", "no schedule section to check");
          const std::string where = source_name(c.input) + ":/schedule";
          if (d.schedule->stages) {
            if (!d.routing)
              fail_input(source_name(c.input) + ":/routing",
                         "a schedule between ranks follows the routing: run topo-route first");
            auto fn = route::make_routing(*d.routing, net, d.faults_or_none());
            d.schedule->verification = coll::verify_ranks(*d.schedule, net, d.faults_or_none(), *fn,
                                                          ErrorKind::Input, where);
          } else {
            d.schedule->verification =
                coll::verify(*d.schedule, net, d.faults_or_none(), ErrorKind::Input, where);
          }
          coll::seal(*d.schedule);
          if (cli.format == "msccl")
            write_output(c.output, coll::to_msccl_xml(*d.schedule, d.schedule->collective + " " +
                                                                       d.schedule->algorithm));
          else
            tool::store(c, d);
          return;
        }
        // The command line is checked before the input is read: a wrong request fails the same
        // way whatever the document.
        coll::Request req;
        req.collective = coll::require_collective(cli.collective, "--collective").name;
        const coll::AlgorithmInfo* torus_alg = coll::find_torus_algorithm(cli.algorithm);
        const coll::AlgorithmInfo* rank_alg = coll::find_rank_algorithm(cli.algorithm);
        const bool automatic = cli.algorithm == "auto";
        if (!torus_alg && !rank_alg && !automatic)
          fail_usage("--algorithm", "unknown algorithm '" + cli.algorithm + "' (known: " +
                                        coll::torus_algorithm_names() + " on a torus; " +
                                        coll::rank_algorithm_names() + " on any network)");
        if (!automatic && !(torus_alg && torus_alg->torus->implements(req.collective)) &&
            !(rank_alg && rank_alg->ranks->implements(req.collective))) {
          if (torus_alg && !rank_alg)
            coll::require_implements(*torus_alg, req.collective, "--collective");
          fail_infeasible("--collective", cli.algorithm + " does not schedule " + req.collective);
        }
        req.algorithm = cli.algorithm;
        req.dim_scheduling = coll::require_dim_scheduling(cli.dims, "--dims").name;
        req.root = cli.root;
        if (cli.group.rfind("list:", 0) == 0) {
          const std::string file = cli.group.substr(5);
          if (file.empty()) fail_usage("--group", "list:FILE names a file");
          req.group_lists = read_group_lists(file);
        } else {
          req.group = cli.group;
        }
        if (!cli.skew.empty()) {
          if (cli.skew.rfind("matrix:", 0) == 0) {
            const std::string file = cli.skew.substr(7);
            if (file.empty()) fail_usage("--skew", "matrix:FILE names a file");
            coll::Skew k;
            k.kind = "matrix";
            k.weights = coll::parse_skew_matrix(read_input(file), file);
            req.skew = std::move(k);
          } else {
            req.skew = coll::parse_skew_spec(cli.skew, cli.seed, "--skew");
          }
        } else if (cli.given("--skew")) {
          fail_usage("--skew", "expected zipf:S or matrix:FILE");
        }
        if (cli.given("--seed") && !(req.skew && req.skew->kind == "zipf"))
          fail_usage("--seed", "seeds --skew zipf:S only");
        if (cli.given("--level-algorithms") && cli.collective == "all-to-all")
          fail_usage("--level-algorithms",
                     "hierarchical all-to-all exchanges inside, then across, by XOR: it takes no "
                     "algorithms");
        // Levels belong to the composed algorithm (stages of the others: no generator).
        for (const char* o : {"--hierarchy", "--level-algorithms"})
          if (const coll::AlgorithmInfo* a = coll::find_rank_algorithm(cli.algorithm);
              cli.given(o) && !(a && !a->ranks->generate))
            fail_usage(o, "belongs to --algorithm hierarchical");
        req.hierarchy = cli.hierarchy;
        req.level_algorithms = parse_level_algorithms(cli.level_algorithms);
        if (cli.bytes.empty())
          fail_usage("--bytes", "required: the bytes each node holds, e.g. 64MiB");
        std::uint64_t b = parse_bytes(cli.bytes, "--bytes");
        if (b > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          fail_usage("--bytes", "too large");
        req.bytes_per_node = static_cast<std::int64_t>(b);
        // A given --chunks is a count: 0 does not mean "the scheduler's default".
        if (cli.o_chunks->count() > 0 && cli.chunks < 1)
          fail_usage("--chunks", "must be at least 1");
        req.chunks = cli.chunks;
        if (torus_alg)
          coll::resolve_chunks(coll::require_dim_scheduling(req.dim_scheduling, "--dims"),
                               cli.chunks);
        Document d = tool::load(c);
        const topo::Network& net = d.require_network("coll-sched");
        if (!coll::torus_form(req, net) && cli.o_dims->count() > 0 &&
            !(req.algorithm == "auto" && net.family == "torus"))
          fail_usage("--dims", "schedules the torus ring algorithms; " + req.algorithm +
                                   " on the " + net.family + " runs between ranks");
        std::unique_ptr<route::RoutingFunction> fn;
        if (d.routing) fn = route::make_routing(*d.routing, net, d.faults_or_none());
        d.schedule = coll::generate_or_auto(req, net, d.faults_or_none(), fn.get());
        d.report.reset();
        if (cli.format == "msccl")
          write_output(c.output, coll::to_msccl_xml(*d.schedule, d.schedule->collective + " " +
                                                                     d.schedule->algorithm));
        else
          tool::store(c, d);
      });
}
