// coll-sched: schedule a collective on the document's torus network, verify it, add `schedule`.
#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/registry.hpp"
#include "coll/verify.hpp"
#include "common/tool.hpp"
#include "core/units.hpp"

#include <cstdio>
#include <limits>

using namespace icnkit;

namespace {

// --help derives its lists from the registry, like validation and --describe.
std::string help_text() {
  std::string s =
      "coll-sched: schedule a collective (all-to-all, all-reduce, reduce-scatter, all-gather)\n"
      "on a torus network as hop-by-hop store-and-forward steps between neighbours, verify\n"
      "exactly that every (source, destination) block (or reduced block) arrives once and no\n"
      "failed link is used, and add the `schedule`\n"
      "section to the document (an existing `report` section is dropped: it described another\n"
      "schedule). --bytes need not divide into whole pieces: piece sizes are real numbers of\n"
      "bytes in the analytic model. A schedule that fails verification is never written (exit\n"
      "1; --check of a document's schedule: exit 3), so --strict, accepted as by every\n"
      "verifying tool, has nothing to add.\n\nAlgorithms:\n";
  for (auto& a : coll::algorithms()) {
    s += "  " + a.name + " (";
    for (std::size_t k = 0; k < a.collectives.size(); ++k) {
      if (k) s += ", ";
      s += a.collectives[k];
    }
    s += "): " + a.summary + "\n";
  }
  s += "Dimension scheduling (--dims):\n";
  for (auto& d : coll::dim_schedulings()) s += "  " + d.name + ": " + d.summary + "\n";
  s += "\nExamples:\n"
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
  bool check = false;
  CLI::Option* o_chunks = nullptr;
  const std::string help = help_text();
  return tool::run(
      "coll-sched", help.c_str(), argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        tool::add_input(app, c);
        app.add_option("--collective", collective, "Collective: " + coll::collective_names())
            ->default_str("all-to-all");
        app.add_option("--algorithm", algorithm, "Algorithm: " + coll::algorithm_names())
            ->default_str("ring");
        app.add_option(
            "--bytes", bytes,
            "Bytes per node, S (e.g. 64MiB, 8KB, 4096; KB/MB/GB are powers of 1000, KiB/MiB/GiB "
            "and nccl-tests' K/M/G of 1024); required");
        app.add_option("--dims", dims, "Dimension scheduling: " + coll::dim_scheduling_names())
            ->default_str("sequential");
        o_chunks = app.add_option(
            "--chunks", chunks,
            "Chunks of --dims pipeline (default 6, the paper's); dimrotation uses one "
            "per dimension, sequential one");
        app.add_flag("--check", check,
                     "Verify the document's existing schedule instead of making one (exit 3 if "
                     "it fails); writes the document with the verification refreshed");
        tool::add_strict(app, c);
        tool::add_describe(app, c, "the collectives, algorithms and dimension schedulers",
                           coll::describe);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        if (check) {
          // A schedule read from a document is input: failing verification is exit 3.
          if (!bytes.empty())
            fail_usage("--bytes",
                       "--check verifies the document's schedule; --bytes does not apply");
          Document d = tool::load(c);
          const topo::Network& net = d.require_network("coll-sched --check");
          if (!d.schedule)
            fail_input(source_name(c.input) + ":/schedule", "no schedule section to check");
          d.schedule->verification =
              coll::verify(*d.schedule, net, d.faults_or_none(), ErrorKind::Input,
                           source_name(c.input) + ":/schedule");
          coll::seal(*d.schedule);
          tool::store(c, d);
          return;
        }
        // The command line is checked before the input is read: a wrong request fails the same
        // way whatever the document.
        coll::Request req;
        req.collective = coll::require_collective(collective, "--collective").name;
        const auto& alg = coll::require_algorithm(algorithm, "--algorithm");
        req.algorithm = alg.name;
        req.dim_scheduling = coll::require_dim_scheduling(dims, "--dims").name;
        if (bytes.empty()) fail_usage("--bytes", "required: the bytes each node holds, e.g. 64MiB");
        std::uint64_t b = parse_bytes(bytes, "--bytes");
        if (b > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          fail_usage("--bytes", "too large");
        req.bytes_per_node = static_cast<std::int64_t>(b);
        // A given --chunks is a count: 0 does not mean "the scheduler's default".
        if (o_chunks->count() > 0 && chunks < 1) fail_usage("--chunks", "must be at least 1");
        req.chunks = chunks;
        coll::resolve_chunks(coll::require_dim_scheduling(req.dim_scheduling, "--dims"), chunks);
        coll::require_implements(alg, req.collective, "--collective");
        Document d = tool::load(c);
        const topo::Network& net = d.require_network("coll-sched");
        d.schedule = coll::generate(req, net, d.faults_or_none());
        d.report.reset();
        tool::store(c, d);
      });
}
