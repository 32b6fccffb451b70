#include "coll/generate.hpp"

#include "coll/auto.hpp"
#include "coll/digest.hpp"
#include "coll/in_network.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_compose.hpp"
#include "coll/rank_program.hpp"
#include "coll/rank_verify.hpp"
#include "coll/registry.hpp"
#include "coll/rings.hpp"
#include "coll/verify.hpp"

#include "topo/torus_geometry.hpp"
#include <algorithm>
#include <bit>
#include <map>

#include <bit>

namespace icnkit::coll {

namespace {

// Algorithms without fault handling need every link of every ring of every dimension they
// schedule, i.e. (on a torus, where every link belongs to a ring) every link and every chip.
void require_fault_free(const AlgorithmInfo& alg, const topo::Network& net,
                        const topo::Faults& faults, const topo::TorusGeometry& g) {
  const std::string later = " (foldedring, mate and matee route around failed links)";
  if (!faults.chips.empty()) {
    std::int64_t c = faults.chips.front().chip;
    fail_infeasible("/faults/chips", chip_text(g, c) + " has failed: " + alg.name +
                                         " all-to-all needs every chip and every ring link" +
                                         later);
  }
  auto down = faults.down_links(net);
  for (std::size_t l = 0; l < down.size(); ++l)
    if (down[l]) {
      const topo::Link& k = net.links[l];
      // Only ring links of dimensions of size > 1 are used; a torus has no other links, but a
      // size-1 dimension would make a self-loop that no ring step uses.
      if (k.dim >= 0 && k.dim < g.dims() && g.size(k.dim) == 1) continue;
      fail_infeasible("/faults/links", "link " + std::to_string(l) + " between " +
                                           chip_text(g, k.a) + " and " + chip_text(g, k.b) +
                                           " (dimension " + std::to_string(k.dim) +
                                           ") has failed, and " + alg.name +
                                           " all-to-all uses every link of every ring" + later);
    }
}

} // namespace

bool torus_form(const Request& req, const topo::Network& net) {
  // Groups are a schedule between ranks: the torus algorithms schedule the whole torus.
  const AlgorithmInfo* a = find_torus_algorithm(req.algorithm);
  return net.family == "torus" && a && a->torus->implements(req.collective) && req.group == "all" &&
         req.group_lists.empty();
}

Verification verify_ranks(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                          const route::RoutingFunction& fn, ErrorKind on_failure,
                          const std::string& where) {
  Verification v;
  std::string methods;
  for (std::size_t g = 0; g < s.stages->size(); ++g) {
    const RankStage& st = (*s.stages)[g];
    for (std::size_t p = 0; p < st.parts.size(); ++p) {
      RankCheck c = verify_rank_semantics(st.parts[p], st.collective, on_failure,
                                          where + "/stages/" + std::to_string(g) + "/parts/" +
                                              std::to_string(p));
      if (methods.find(c.method) == std::string::npos)
        methods += (methods.empty() ? "" : "; ") + c.method;
      v.phases_checked += static_cast<std::int64_t>(st.parts[p].phases.size());
      v.steps_checked += c.steps_checked;
      v.pieces_checked += c.pieces_checked;
    }
  }
  const std::int64_t composed = check_stages(s, on_failure, where);
  if (s.stages->size() > 1)
    methods += "; stages composed exactly (" + std::to_string(composed) +
               " chip states: buffer intervals and contributor sets)";
  if (s.skew) {
    if (s.collective != "all-to-all" || s.stages->size() != 1)
      throw Error(on_failure, where + "/skew",
                  "sizes the items of an all-to-all between ranks; this is " + s.collective);
    if (s.skew->kind == "matrix")
      for (const RankSchedule& r : s.stages->front().parts)
        if (static_cast<std::int64_t>(s.skew->weights.size()) != r.ranks())
          throw Error(on_failure, where + "/skew",
                      "the matrix is " + std::to_string(s.skew->weights.size()) +
                          " ranks square, a group has " + std::to_string(r.ranks()));
  }
  const std::vector<char> down_chips = faults.down_chips(net);
  for (std::int64_t c : s.left)
    if (c < 0 || c >= net.n_chip || !down_chips[static_cast<std::size_t>(c)])
      throw Error(on_failure, where + "/left",
                  "chip " + std::to_string(c) + " left its group but has not failed");
  v.delivered = true;
  v.method = methods;
  v.hop_transfers_checked = check_rank_paths(s, net, faults, fn, where);
  const std::vector<char> down = faults.down_links(net);
  v.failed_links_avoided = std::count(down.begin(), down.end(), char{1});
  return v;
}

namespace {

const AlgorithmInfo& require_rank(const std::string& name, const std::string& collective,
                                  const topo::Network& net, const std::string& where) {
  const AlgorithmInfo* alg = find_rank_algorithm(name);
  if (!alg)
    fail_usage(where, "'" + name + "' is not an algorithm of the " + net.family +
                          " (between ranks: " + rank_algorithm_names() +
                          (net.family == "torus" ? "; on a torus also " + torus_algorithm_names()
                                                 : std::string()) +
                          ")");
  if (!alg->ranks->implements(collective)) {
    std::string serve;
    for (const auto& a : algorithms())
      if (a.ranks && a.ranks->implements(collective)) serve += (serve.empty() ? "" : ", ") + a.name;
    fail_infeasible(where, alg->name + " does not schedule " + collective + " (" + collective +
                               ": " + serve + ")");
  }
  return *alg;
}

Schedule finish_ranks(Schedule& s, const topo::Network& net, const topo::Faults& faults,
                      const route::RoutingFunction& fn) {
  // In-network reduction: every group reduces in a switch all its chips have a live link to.
  for (RankStage& st : *s.stages)
    for (RankSchedule& r : st.parts) {
      if (!uses_switch(r)) continue;
      r.switches = group_switches(net, faults, r.groups);
      for (std::size_t g = 0; g < r.groups.size(); ++g)
        if (r.switches[g] < 0)
          fail_infeasible("--algorithm",
                          st.algorithm +
                              " reduces in a switch that every chip of the group has "
                              "a link to; the " +
                              std::to_string(r.groups[g].size()) + " chips of the group of chip " +
                              std::to_string(r.groups[g].front()) +
                              " share none (use --group on a switch's chips, or hierarchical "
                              "with in-network inside)");
    }
  s.network_fingerprint = net.fingerprint;
  s.verification =
      verify_ranks(s, net, faults, fn, ErrorKind::Runtime, "coll-sched internal error: /schedule");
  seal(s);
  return s;
}

// Hierarchical all-to-all: the chips in packaging order, exchanging inside each level (board,
// rack, pod) and then across, which needs levels of one size, both that size and their number
// powers of two.
Schedule hierarchical_all_to_all(const Request& req, const topo::Network& net,
                                 const topo::Faults& faults, const route::RoutingFunction& fn,
                                 Schedule& s) {
  const auto levels = rank_groups(net, faults, req.hierarchy, "--hierarchy", s.left);
  if (levels.empty()) fail_infeasible("/faults", "no live chip");
  const auto b = static_cast<std::int64_t>(levels.front().size());
  const auto count = static_cast<std::int64_t>(levels.size());
  for (const auto& g : levels)
    if (static_cast<std::int64_t>(g.size()) != b)
      fail_infeasible("--hierarchy", "the " + req.hierarchy + " of chip " +
                                         std::to_string(g.front()) + " has " +
                                         std::to_string(g.size()) + " live chips, that of chip " +
                                         std::to_string(levels.front().front()) + " " +
                                         std::to_string(b) + ": levels of one size only");
  if (!std::has_single_bit(static_cast<std::uint64_t>(b)) ||
      !std::has_single_bit(static_cast<std::uint64_t>(count)))
    fail_infeasible("--hierarchy",
                    "hierarchical all-to-all exchanges by XOR: " + std::to_string(count) + " " +
                        req.hierarchy + "s of " + std::to_string(b) + " chips, not powers of two");
  RankStage st;
  st.collective = "all-to-all";
  st.algorithm = "hierarchical";
  st.share = Fraction{1, 1};
  st.parts.push_back(coll::hierarchical_all_to_all(count * b, b));
  std::vector<std::int64_t> all;
  for (const auto& g : levels) all.insert(all.end(), g.begin(), g.end());
  st.parts.back().groups = {all};
  s.stages->push_back(std::move(st));
  return finish_ranks(s, net, faults, fn);
}

constexpr std::int64_t kMaxChunks = 65536;

// One stage: `alg` running `collective` in every group, groups of one size per part.
RankStage make_stage(const AlgorithmInfo& alg, const std::string& collective, Fraction share,
                     const std::vector<std::vector<std::int64_t>>& groups, std::int64_t root,
                     std::int64_t chunks = 0) {
  RankStage st;
  st.collective = collective;
  st.algorithm = alg.name;
  st.share = share;
  std::map<std::size_t, std::size_t> part_of; // group size -> part
  for (const auto& g : groups) {
    const auto n = static_cast<std::int64_t>(g.size());
    if (std::string why = alg.ranks->refuses(collective, n); !why.empty())
      fail_infeasible("--algorithm", alg.name + " " + why + "; the group of chip " +
                                         std::to_string(g.front()) + " has " + std::to_string(n) +
                                         " live chips");
    if (root >= n)
      fail_usage("--root", "rank " + std::to_string(root) + " is not in the group of chip " +
                               std::to_string(g.front()) + " (" + std::to_string(n) + " ranks)");
    // A pipeline lists every (sender, chunk) pair: keep the document and its verification to
    // some 4 million of them.
    if (chunks > 0 && (chunks > kMaxChunks || chunks * n > kMaxChunks * 64))
      fail_usage("--chunks", std::to_string(chunks) + " chunks on " + std::to_string(n) +
                                 " ranks: at most " + std::to_string(kMaxChunks) +
                                 ", and chunks x ranks at most " + std::to_string(kMaxChunks * 64));
    auto [it, fresh] = part_of.emplace(g.size(), st.parts.size());
    if (fresh) {
      st.parts.push_back(alg.ranks->generate(collective, n, root, chunks));
      st.parts.back().groups.clear();
    }
    st.parts[it->second].groups.push_back(g);
  }
  return st;
}

Schedule generate_ranks(const Request& req, const CollectiveInfo& col, const topo::Network& net,
                        const topo::Faults& faults, const route::RoutingFunction* fn) {
  const AlgorithmInfo& alg = require_rank(req.algorithm, col.name, net, "--algorithm");
  if (!fn)
    fail_input("/routing", "a schedule between ranks follows the routing: run topo-route first");
  if (req.root < 0) fail_usage("--root", "must be a rank, >= 0");
  Schedule s;
  s.collective = col.name;
  s.algorithm = alg.name;
  s.dim_scheduling = "none";
  s.fault_handling = "routing";
  s.bytes_per_node = req.bytes_per_node;
  s.chunks = 1;
  s.stages.emplace();
  if (alg.ranks->generate) {
    const auto groups = req.group_lists.empty()
                            ? rank_groups(net, faults, req.group, "--group", s.left)
                            : rank_groups(net, faults, req.group_lists, "--group", s.left);
    if (groups.empty()) fail_infeasible("/faults", "no live chip in any group");
    s.stages->push_back(make_stage(alg, col.name, Fraction{1, 1}, groups, req.root, req.chunks));
  } else {
    // Hierarchical: reduce-scatter in the inner groups, all-reduce of each shard across them
    // (the chips of one position in every inner group), all-gather back. A reduce-scatter stops
    // after its two reduce-scatters (inner, then across); an all-gather runs the reverse (across,
    // then inner), so that a chip's block is the same either way: the chip at position p of the
    // g-th of G inner groups holds block p G + g.
    if (req.group != "all" || !req.group_lists.empty())
      fail_usage("--group", "hierarchical runs over the whole machine, in groups of its own");
    if (col.name == "all-to-all") return hierarchical_all_to_all(req, net, faults, *fn, s);
    const bool ar = col.name == "all-reduce", rs = col.name == "reduce-scatter";
    const std::string inner_coll = ar || rs ? "reduce-scatter" : "all-gather";
    const AlgorithmInfo& in = require_rank(req.inner, inner_coll, net, "--level-algorithms");
    const AlgorithmInfo& in_ag =
        require_rank(req.inner, ar ? "all-gather" : inner_coll, net, "--level-algorithms");
    const AlgorithmInfo& out =
        require_rank(req.outer, ar ? "all-reduce" : inner_coll, net, "--level-algorithms");
    if (!in.ranks->generate || !out.ranks->generate)
      fail_usage("--level-algorithms",
                 "each level takes an algorithm of one level, not hierarchical");
    const auto inner = rank_groups(net, faults, req.hierarchy, "--hierarchy", s.left);
    if (inner.empty()) fail_infeasible("/faults", "no live chip");
    const std::size_t b = inner.front().size();
    for (const auto& g : inner)
      if (g.size() != b)
        fail_infeasible("--hierarchy",
                        "the " + req.hierarchy + " of chip " + std::to_string(g.front()) + " has " +
                            std::to_string(g.size()) + " live chips and that of chip " +
                            std::to_string(inner.front().front()) + " " + std::to_string(b) +
                            ": hierarchical needs levels of equal size (failed chips leave "
                            "theirs smaller); use a schedule of one level");
    std::vector<std::vector<std::int64_t>> across(b);
    for (const auto& g : inner)
      for (std::size_t p = 0; p < b; ++p) across[p].push_back(g[p]);
    const Fraction shard = make_fraction(1, static_cast<std::int64_t>(b));
    if (ar) {
      s.stages->push_back(make_stage(in, "reduce-scatter", Fraction{1, 1}, inner, 0));
      s.stages->push_back(make_stage(out, "all-reduce", shard, across, 0));
      s.stages->push_back(make_stage(in_ag, "all-gather", Fraction{1, 1}, inner, 0));
    } else if (rs) {
      s.stages->push_back(make_stage(in, "reduce-scatter", Fraction{1, 1}, inner, 0));
      s.stages->push_back(make_stage(out, "reduce-scatter", shard, across, 0));
    } else {
      s.stages->push_back(make_stage(out, "all-gather", shard, across, 0));
      s.stages->push_back(make_stage(in, "all-gather", Fraction{1, 1}, inner, 0));
    }
  }
  if (req.skew) {
    if (col.name != "all-to-all")
      fail_usage("--skew", "sizes the items of an all-to-all, not of " + col.name);
    for (const RankSchedule& r : s.stages->front().parts) {
      if (r.ranks() > kMaxSkewRanks)
        fail_infeasible("--skew", "all-to-all-v keeps every item's size: at most " +
                                      std::to_string(kMaxSkewRanks) + " ranks a group, not " +
                                      std::to_string(r.ranks()));
      if (req.skew->kind == "matrix" &&
          static_cast<std::int64_t>(req.skew->weights.size()) != r.ranks())
        fail_input("--skew", "the matrix has " + std::to_string(req.skew->weights.size()) +
                                 " rows, a group " + std::to_string(r.ranks()) + " ranks");
    }
    s.skew = req.skew;
  }
  return finish_ranks(s, net, faults, *fn);
}

} // namespace

Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults,
                  const route::RoutingFunction* fn) {
  const CollectiveInfo& col = require_collective(req.collective, "--collective");
  if (req.algorithm == "auto") return generate_auto(req, net, faults, fn);
  if (req.bytes_per_node <= 0) fail_usage("--bytes", "must be a positive number of bytes");
  // Between ranks unless it is a torus algorithm's request (whose own checks then say why a
  // network or collective does not suit it).
  if (!torus_form(req, net) &&
      (find_rank_algorithm(req.algorithm) || !find_torus_algorithm(req.algorithm))) {
    if (req.skew && req.collective != "all-to-all")
      fail_usage("--skew", "sizes the items of an all-to-all, not of " + req.collective);
    if (const AlgorithmInfo* a = find_rank_algorithm(req.algorithm);
        req.chunks != 0 && !(a && a->ranks->pipelined)) {
      std::string pipelined;
      for (const AlgorithmInfo& p : algorithms())
        if (p.ranks && p.ranks->pipelined) pipelined += (pipelined.empty() ? "" : ", ") + p.name;
      fail_usage("--chunks", "belongs to the torus ring algorithms and the pipelined ones "
                             "between ranks (" +
                                 pipelined + "); " + req.algorithm + " on the " + net.family +
                                 " runs between ranks");
    }
    return generate_ranks(req, col, net, faults, fn);
  }
  // Here the name has a torus form (an unknown name took the path between ranks, which says so).
  const AlgorithmInfo& entry = require_algorithm(req.algorithm, "--algorithm");
  const TorusForm& alg = *entry.torus;
  if (req.skew)
    fail_usage("--skew", "all-to-all-v runs between ranks; the torus's " + req.algorithm +
                             " moves equal items (use direct, pairwise, bruck or hierarchical)");
  const DimSchedulingInfo& dims = require_dim_scheduling(req.dim_scheduling, "--dims");
  require_implements(entry, col.name, "--collective");
  if (req.bytes_per_node <= 0) fail_usage("--bytes", "must be a positive number of bytes");
  const int chunks = resolve_chunks(dims, req.chunks);
  topo::TorusGeometry g = topo::TorusGeometry::of(net, "coll-sched " + entry.name);
  if (alg.fault_handling == "none") require_fault_free(entry, net, faults, g);
  std::vector<DimFaults> df = dim_faults(g, net, faults, entry.name);
  if (alg.needs_fault &&
      std::all_of(df.begin(), df.end(), [](const DimFaults& f) { return f.faulty.empty(); }))
    fail_infeasible("/faults", entry.name +
                                   " accelerates a torus with a failed link, and this one has "
                                   "none (use halfring on a fault-free torus)");
  const std::vector<char> down = faults.down_links(net);

  // Bytes: S is a whole number, but S / (chunks * N * 2) need not be (64MiB on a ring of 5).
  // Requiring divisibility would reject the paper's own configurations (5x5x5 with 8 KB), so
  // pieces are real numbers of bytes: the analytic model (fluid flows, max-min sharing) is exact
  // for them, and verification works on exact fractions of a block, never on bytes. A
  // packet/flit-level engine rounds each piece up to whole flits.
  ComposeInput in{&entry, &g, col.name, req.bytes_per_node, {}, chunks, false};
  // On a faulty torus the dimensions' plans differ in length; slots in lockstep keep chunks
  // from meeting in the slow dimension (and MATE's borrowed links from other traffic).
  in.lockstep =
      std::any_of(df.begin(), df.end(), [](const DimFaults& f) { return !f.faulty.empty(); });
  if (col.name != "all-to-all")
    for (int d = 0; d < g.dims(); ++d)
      if (g.size(d) > 64)
        fail_infeasible("--collective", col.name +
                                            " schedules are verified on rings of up to 64 "
                                            "chips; dimension " +
                                            std::to_string(d) + " has " +
                                            std::to_string(g.size(d)));
  std::vector<PhaseOp> ops;
  if (col.name == "all-to-all") ops = {PhaseOp::AllToAll};
  if (col.name == "reduce-scatter" || col.name == "all-reduce")
    ops.push_back(PhaseOp::ReduceScatter);
  if (col.name == "all-gather" || col.name == "all-reduce") ops.push_back(PhaseOp::AllGather);
  // The ring that sets a slot's length: the largest, unless dimensions run one at a time.
  int largest = 1;
  for (int d = 0; d < g.dims(); ++d) largest = std::max(largest, g.size(d));
  for (PhaseOp op : ops) {
    auto& plans = in.plans[static_cast<std::size_t>(op)];
    plans.resize(static_cast<std::size_t>(g.dims()));
    for (int d = 0; d < g.dims(); ++d)
      if (g.size(d) > 1)
        plans[static_cast<std::size_t>(d)] =
            alg.plan(DimContext{&g, d, &df[static_cast<std::size_t>(d)], &down, entry.name, op,
                                dims.one_dimension_at_a_time ? g.size(d) : largest});
  }
  Schedule s = dims.compose(in);
  s.network_fingerprint = net.fingerprint;
  s.verification =
      verify(s, net, faults, ErrorKind::Runtime, "coll-sched internal error: /schedule");
  seal(s);
  return s;
}

} // namespace icnkit::coll
