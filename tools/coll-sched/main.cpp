// coll-sched: schedule a collective on the document's torus network, verify it, add `schedule`.
#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/msccl.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/registry.hpp"
#include "coll/verify.hpp"
#include "common/tool.hpp"
#include "core/io.hpp"
#include "core/units.hpp"
#include "route/routing.hpp"

#include <cstdio>
#include <limits>

using namespace icnkit;

namespace {

// --help derives its lists from the registry, like validation and --describe.
std::string help_text() {
  std::string s =
      "coll-sched: schedule a collective (all-to-all, all-reduce, reduce-scatter, all-gather,\n"
      "broadcast, reduce) on the document's network, verify exactly that every rank ends with\n"
      "what the collective defines (every block or reduced block once, every all-to-all item\n"
      "at its destination) and that no failed link or chip is used, and add the `schedule`\n"
      "section to the document (an existing `report` section is dropped: it described another\n"
      "schedule). --bytes need not divide into whole pieces: piece sizes are real numbers of\n"
      "bytes in the analytic model. A schedule that fails verification is never written (exit\n"
      "1; --check of a document's schedule: exit 3), so --strict, accepted as by every\n"
      "verifying tool, has nothing to add.\n\nAlgorithms:\n";
  auto line = [&](const std::string& name, const std::vector<std::string>& collectives,
                  const std::string& summary) {
    s += "  " + name + " (";
    for (std::size_t k = 0; k < collectives.size(); ++k) s += (k ? ", " : "") + collectives[k];
    s += "): " + summary + "\n";
  };
  for (auto& a : coll::algorithms())
    if (a.torus) line(a.name, a.torus->collectives, a.torus->summary);
  s += "\nOn any network (between ranks, the chips in packaging order, over the routing section;\n"
       "on a torus the torus form of the same name takes precedence):\n";
  for (auto& a : coll::algorithms())
    if (a.ranks) line(a.name, a.ranks->collectives, a.ranks->summary);
  s += "\nDimension scheduling (--dims, torus algorithms):\n";
  for (auto& d : coll::dim_schedulings()) s += "  " + d.name + ": " + d.summary + "\n";
  s += "  hierarchical: --hierarchy board|rack|pod|board,rack...|dims, --level-algorithms "
       "INNER,OUTER or one per level (not for all-to-all)\n";
  s += "\nExamples:\n"
       "  topo-enum -n 32 --family fat-tree --where k=8,layers=2,chips_per_board=1 | topo-gen \\\n"
       "    | topo-route --algorithm dmodk | coll-sched --collective all-reduce --algorithm ring "
       "\\\n"
       "    --bytes 1GiB | net-sim --format csv\n"
       "  # one all-reduce per board at once; the data-parallel all-reduce of tensor groups of 8:\n"
       "  coll-sched -i routed.json --collective all-reduce --group board --bytes 64MiB\n"
       "  coll-sched -i routed.json --collective all-reduce --group stride:8 --bytes 64MiB\n"
       "  coll-sched -i routed.json --collective all-reduce --algorithm hierarchical \\\n"
       "    --level-algorithms ring,halving-doubling --bytes 1GiB\n"
       "  coll-sched -i routed.json --collective all-reduce --algorithm auto --bytes 1GiB\n"
       "  coll-sched -i routed.json --collective all-to-all --algorithm direct --skew zipf:1.2 \\\n"
       "    --seed 7 --bytes 64MiB     # MoE dispatch: all-to-all-v, popular experts\n"
       "  topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route \\\n"
       "    | coll-sched --collective all-to-all --algorithm ring --bytes 64MiB\n"
       "  # HalfRing + DimRotation; MATEe around one failed Y link; FoldedRing all-reduce:\n"
       "  topo-gen --torus 4x4x4 | coll-sched --algorithm halfring --dims dimrotation \\\n"
       "    --bytes 8MiB | net-sim\n"
       "  topo-gen --torus 4x4x4 --fail-link '(0,0,0)-(0,1,0)' \\\n"
       "    | coll-sched --algorithm matee --dims dimrotation --bytes 8MiB | net-sim\n"
       "  topo-gen --torus 4x4x4 --fail-link '(0,0,0)-(0,1,0)' \\\n"
       "    | coll-sched --collective all-reduce --algorithm foldedring --bytes 64MiB\n"
       "  coll-sched -i net.json --bytes 8KB --dims pipeline --chunks 6 -o sched.json\n"
       "  coll-sched --check -i hand-edited.json > checked.json\n"
       "  coll-sched --describe\n";
  return s;
}

} // namespace

int main(int argc, char** argv) {
  std::string collective = "all-to-all", algorithm = "ring", dims = "sequential", bytes;
  int chunks = 0;
  std::int64_t root = 0;
  std::string group = "all", hierarchy = "board", level_algorithms = "ring,ring";
  CLI::Option* o_dims = nullptr;
  CLI::App* app_ = nullptr; // to ask which options were given
  bool check = false;
  std::string format = "json";
  std::string skew;
  std::uint64_t seed = 0;
  CLI::Option* o_chunks = nullptr;
  const std::string help = help_text();
  return tool::run(
      "coll-sched", help.c_str(), argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        app_ = &app;
        tool::add_input(app, c);
        app.add_option("--collective", collective, "Collective: " + coll::collective_names())
            ->default_str("all-to-all");
        app.add_option("--algorithm", algorithm,
                       "Algorithm: on a torus " + coll::algorithm_names() + "; on any network " +
                           coll::rank_algorithm_names())
            ->default_str("ring");
        app.add_option("--root", root,
                       "Root rank of broadcast and reduce, in every group (default 0)")
            ->check(CLI::NonNegativeNumber);
        app.add_option("--group", group,
                       "Between ranks: the groups that each run the collective, all at once: all "
                       "(default), board, rack, pod (one group per board ...), stride:K (K "
                       "groups, every K-th chip in packaging order: the data-parallel peers of "
                       "tensor groups of K) or list:FILE (one group per line, chip ids separated "
                       "by spaces or commas, # comments). Failed chips leave their group")
            ->default_str("all");
        app.add_option(
            "--skew", skew,
            "All-to-all-v between ranks (direct, pairwise, bruck, hierarchical): zipf:S (the ranks "
            "ranked by popularity in a --seed order, rank r getting 1/r^S of every "
            "origin's S bytes; the MoE case) or matrix:FILE (an n x n matrix of "
            "relative sizes, row = origin, one row per line)");
        app.add_option("--seed", seed, "With --skew zipf:S: the seed of the popularity order");
        app.add_option("--hierarchy", hierarchy,
                       "hierarchical: its levels, innermost first, each inside the next: board "
                       "(default), rack, pod or a list (board,rack: inside boards, across the "
                       "boards of a rack, across racks); dims on a torus or a mesh (the rings "
                       "of dimension 0, then 1 ...: ASTRA-sim's one level per dimension)")
            ->default_str("board");
        app.add_option("--level-algorithms", level_algorithms,
                       "hierarchical: the algorithm of each level, innermost first (the inner "
                       "levels' reduce-scatter and all-gather, the last level's all-reduce), or "
                       "two, INNER,OUTER: the first for every inner level; default ring,ring")
            ->default_str("ring,ring");
        app.add_option(
            "--bytes", bytes,
            "Bytes per node, S (e.g. 64MiB, 8KB, 4096; KB/MB/GB are powers of 1000, KiB/MiB/GiB "
            "and nccl-tests' K/M/G of 1024); required");
        o_dims =
            app.add_option("--dims", dims, "Dimension scheduling: " + coll::dim_scheduling_names())
                ->default_str("sequential");
        o_chunks = app.add_option(
            "--chunks", chunks,
            "Chunks of --dims pipeline (default 6, the paper's; dimrotation uses one "
            "per dimension, sequential one), or of a pipelined algorithm between ranks: per "
            "tree of double-binary-tree (default 8 per tree level), of chain (default 4 per "
            "rank, 8 to 256)");
        app.add_flag("--check", check,
                     "Verify the document's existing schedule instead of making one (exit 3 if "
                     "it fails); writes the document with the verification refreshed");
        app.add_option("--format", format,
                       "Output: json (the document, default) or msccl (the verified schedule as "
                       "MSCCL-IR XML, for the MSCCL executor of NCCL / RCCL; exit 4 for what it "
                       "cannot express) or table (a summary for people; the default when stdout "
                       "is a terminal)")
            ->check(CLI::IsMember({"json", "msccl", "table"}))
            ->default_str("json");
        tool::add_strict(app, c);
        tool::add_describe(app, c, "the collectives, algorithms and dimension schedulers",
                           coll::describe);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        tool::table_format(c, format, SummarySection::Schedule);
        if (check) {
          // A schedule read from a document is input: failing verification is exit 3.
          if (!bytes.empty())
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
          if (format == "msccl")
            write_output(c.output, coll::to_msccl_xml(*d.schedule, d.schedule->collective + " " +
                                                                       d.schedule->algorithm));
          else
            tool::store(c, d);
          return;
        }
        // The command line is checked before the input is read: a wrong request fails the same
        // way whatever the document.
        coll::Request req;
        req.collective = coll::require_collective(collective, "--collective").name;
        const coll::AlgorithmInfo* torus_alg = coll::find_torus_algorithm(algorithm);
        const coll::AlgorithmInfo* rank_alg = coll::find_rank_algorithm(algorithm);
        const bool automatic = algorithm == "auto";
        if (!torus_alg && !rank_alg && !automatic)
          fail_usage("--algorithm", "unknown algorithm '" + algorithm + "' (known: " +
                                        coll::torus_algorithm_names() + " on a torus; " +
                                        coll::rank_algorithm_names() + " on any network)");
        if (!automatic && !(torus_alg && torus_alg->torus->implements(req.collective)) &&
            !(rank_alg && rank_alg->ranks->implements(req.collective))) {
          if (torus_alg && !rank_alg)
            coll::require_implements(*torus_alg, req.collective, "--collective");
          fail_infeasible("--collective", algorithm + " does not schedule " + req.collective);
        }
        req.algorithm = algorithm;
        req.dim_scheduling = coll::require_dim_scheduling(dims, "--dims").name;
        req.root = root;
        if (group.rfind("list:", 0) == 0) {
          // One group per line; the file's problems are the input's (exit 3).
          const std::string file = group.substr(5);
          if (file.empty()) fail_usage("--group", "list:FILE names a file");
          const std::string text = read_input(file);
          std::size_t line_no = 0, at = 0;
          while (at <= text.size()) {
            std::size_t end = text.find('\n', at);
            if (end == std::string::npos) end = text.size();
            std::string line = text.substr(at, end - at);
            at = end + 1;
            ++line_no;
            if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
            for (char& ch : line)
              if (ch == ',' || ch == '\t' || ch == '\r') ch = ' ';
            std::vector<std::int64_t> chips;
            std::size_t k = 0;
            while (k < line.size()) {
              if (line[k] == ' ') {
                ++k;
                continue;
              }
              std::size_t e = line.find(' ', k);
              if (e == std::string::npos) e = line.size();
              const std::string tok = line.substr(k, e - k);
              if (tok.size() > 9 || tok.find_first_not_of("0123456789") != std::string::npos)
                fail_input(file + ":" + std::to_string(line_no), "'" + tok + "' is not a chip id");
              chips.push_back(std::stoll(tok));
              k = e;
            }
            if (!chips.empty()) req.group_lists.push_back(std::move(chips));
          }
          if (req.group_lists.empty()) fail_input(file, "no group: one line of chip ids per group");
        } else {
          req.group = group;
        }
        if (!skew.empty()) {
          if (skew.rfind("matrix:", 0) == 0) {
            const std::string file = skew.substr(7);
            if (file.empty()) fail_usage("--skew", "matrix:FILE names a file");
            coll::Skew k;
            k.kind = "matrix";
            k.weights = coll::parse_skew_matrix(read_input(file), file);
            req.skew = std::move(k);
          } else {
            req.skew = coll::parse_skew_spec(skew, seed, "--skew");
          }
        } else if (app_->count("--skew") > 0) {
          fail_usage("--skew", "expected zipf:S or matrix:FILE");
        }
        if (app_->count("--seed") > 0 && !(req.skew && req.skew->kind == "zipf"))
          fail_usage("--seed", "seeds --skew zipf:S only");
        if (app_->count("--level-algorithms") > 0 && collective == "all-to-all")
          fail_usage("--level-algorithms",
                     "hierarchical all-to-all exchanges inside, then across, by XOR: it takes no "
                     "algorithms");
        // Levels belong to the composed algorithm (stages of the others: no generator).
        for (const char* o : {"--hierarchy", "--level-algorithms"})
          if (const coll::AlgorithmInfo* a = coll::find_rank_algorithm(algorithm);
              app_->count(o) > 0 && !(a && !a->ranks->generate))
            fail_usage(o, "belongs to --algorithm hierarchical");
        req.hierarchy = hierarchy;
        req.level_algorithms.clear();
        for (std::size_t b = 0, e; b <= level_algorithms.size(); b = e + 1) {
          e = level_algorithms.find(',', b);
          if (e == std::string::npos) e = level_algorithms.size();
          req.level_algorithms.push_back(level_algorithms.substr(b, e - b));
          if (req.level_algorithms.back().empty() || req.level_algorithms.size() > 16)
            fail_usage(
                "--level-algorithms",
                "expected one algorithm per level or INNER,OUTER, e.g. ring,halving-doubling");
        }
        if (req.level_algorithms.size() < 2)
          fail_usage("--level-algorithms",
                     "expected one algorithm per level or INNER,OUTER, e.g. ring,halving-doubling");
        if (bytes.empty()) fail_usage("--bytes", "required: the bytes each node holds, e.g. 64MiB");
        std::uint64_t b = parse_bytes(bytes, "--bytes");
        if (b > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          fail_usage("--bytes", "too large");
        req.bytes_per_node = static_cast<std::int64_t>(b);
        // A given --chunks is a count: 0 does not mean "the scheduler's default".
        if (o_chunks->count() > 0 && chunks < 1) fail_usage("--chunks", "must be at least 1");
        req.chunks = chunks;
        if (torus_alg)
          coll::resolve_chunks(coll::require_dim_scheduling(req.dim_scheduling, "--dims"), chunks);
        Document d = tool::load(c);
        const topo::Network& net = d.require_network("coll-sched");
        if (!coll::torus_form(req, net) && o_dims->count() > 0 &&
            !(req.algorithm == "auto" && net.family == "torus"))
          fail_usage("--dims", "schedules the torus ring algorithms; " + req.algorithm +
                                   " on the " + net.family + " runs between ranks");
        std::unique_ptr<route::RoutingFunction> fn;
        if (d.routing) fn = route::make_routing(*d.routing, net, d.faults_or_none());
        d.schedule = coll::generate(req, net, d.faults_or_none(), fn.get());
        d.report.reset();
        if (format == "msccl")
          write_output(c.output, coll::to_msccl_xml(*d.schedule, d.schedule->collective + " " +
                                                                     d.schedule->algorithm));
        else
          tool::store(c, d);
      });
}
