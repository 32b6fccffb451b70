// coll-sched's command line: its options and help (the lists from the registry), and the parsing
// of the option values that name files or lists (--group list:FILE, --level-algorithms).
// Included by main.cpp only.
#pragma once
#include "coll/registry.hpp"
#include "common/tool.hpp"
#include "core/io.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::coll_sched {

struct Cli {
  std::string collective = "all-to-all", algorithm = "ring", dims = "sequential", bytes;
  int chunks = 0;
  std::int64_t root = 0;
  std::string group = "all", hierarchy = "board", level_algorithms = "ring,ring";
  bool check = false;
  std::string format = "json";
  std::string skew;
  std::uint64_t seed = 0;
  CLI::Option* o_dims = nullptr;
  CLI::Option* o_chunks = nullptr;
  const CLI::App* app = nullptr; // to ask which options were given
  bool given(const char* option) const { return app->count(option) > 0; }
};

// --help derives its lists from the registry, like validation and --describe.
inline std::string help_text() {
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

inline void add_options(CLI::App& app, tool::Common& c, Cli& cli) {
  cli.app = &app;
  tool::add_input(app, c);
  app.add_option("--collective", cli.collective, "Collective: " + coll::collective_names())
      ->default_str("all-to-all");
  app.add_option("--algorithm", cli.algorithm,
                 "Algorithm: on a torus " + coll::algorithm_names() + "; on any network " +
                     coll::rank_algorithm_names())
      ->default_str("ring");
  app.add_option("--root", cli.root,
                 "Root rank of broadcast and reduce, in every group (default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--group", cli.group,
                 "Between ranks: the groups that each run the collective, all at once: all "
                 "(default), board, rack, pod (one group per board ...), stride:K (K "
                 "groups, every K-th chip in packaging order: the data-parallel peers of "
                 "tensor groups of K) or list:FILE (one group per line, chip ids separated "
                 "by spaces or commas, # comments). Failed chips leave their group")
      ->default_str("all");
  app.add_option(
      "--skew", cli.skew,
      "All-to-all-v between ranks (direct, pairwise, bruck, hierarchical): zipf:S (the ranks "
      "ranked by popularity in a --seed order, rank r getting 1/r^S of every "
      "origin's S bytes; the MoE case) or matrix:FILE (an n x n matrix of "
      "relative sizes, row = origin, one row per line)");
  app.add_option("--seed", cli.seed, "With --skew zipf:S: the seed of the popularity order");
  app.add_option("--hierarchy", cli.hierarchy,
                 "hierarchical: its levels, innermost first, each inside the next: board "
                 "(default), rack, pod or a list (board,rack: inside boards, across the "
                 "boards of a rack, across racks); dims on a torus or a mesh (the rings "
                 "of dimension 0, then 1 ...: ASTRA-sim's one level per dimension)")
      ->default_str("board");
  app.add_option("--level-algorithms", cli.level_algorithms,
                 "hierarchical: the algorithm of each level, innermost first (the inner "
                 "levels' reduce-scatter and all-gather, the last level's all-reduce), or "
                 "two, INNER,OUTER: the first for every inner level; default ring,ring")
      ->default_str("ring,ring");
  app.add_option(
      "--bytes", cli.bytes,
      "Bytes per node, S (e.g. 64MiB, 8KB, 4096; KB/MB/GB are powers of 1000, KiB/MiB/GiB "
      "and nccl-tests' K/M/G of 1024); required");
  cli.o_dims =
      app.add_option("--dims", cli.dims, "Dimension scheduling: " + coll::dim_scheduling_names())
          ->default_str("sequential");
  cli.o_chunks = app.add_option(
      "--chunks", cli.chunks,
      "Chunks of --dims pipeline (default 6, the paper's; dimrotation uses one "
      "per dimension, sequential one), or of a pipelined algorithm between ranks: per "
      "tree of double-binary-tree (default 8 per tree level), of chain (default 4 per "
      "rank, 8 to 256)");
  app.add_flag("--check", cli.check,
               "Verify the document's existing schedule instead of making one (exit 3 if "
               "it fails); writes the document with the verification refreshed");
  app.add_option("--format", cli.format,
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
}

// --group list:FILE: one group per line, chip ids separated by spaces or commas, # comments;
// the file's problems are the input's (exit 3).
inline std::vector<std::vector<std::int64_t>> read_group_lists(const std::string& file) {
  std::vector<std::vector<std::int64_t>> groups;
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
    if (!chips.empty()) groups.push_back(std::move(chips));
  }
  if (groups.empty()) fail_input(file, "no group: one line of chip ids per group");
  return groups;
}

// --level-algorithms: one algorithm per level, or INNER,OUTER.
inline std::vector<std::string> parse_level_algorithms(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t b = 0, e; b <= text.size(); b = e + 1) {
    e = text.find(',', b);
    if (e == std::string::npos) e = text.size();
    out.push_back(text.substr(b, e - b));
    if (out.back().empty() || out.size() > 16)
      fail_usage("--level-algorithms",
                 "expected one algorithm per level or INNER,OUTER, e.g. ring,halving-doubling");
  }
  if (out.size() < 2)
    fail_usage("--level-algorithms",
               "expected one algorithm per level or INNER,OUTER, e.g. ring,halving-doubling");
  return out;
}

} // namespace icnkit::coll_sched
