#include "coll/generate.hpp"

#include "coll/digest.hpp"
#include "coll/in_network.hpp"
#include "coll/rank_algorithms.hpp"
#include "coll/rank_compose.hpp"
#include "coll/rank_program.hpp"
#include "coll/rank_verify.hpp"
#include "coll/registry.hpp"
#include "coll/rings.hpp"
#include "coll/verify.hpp"

#include "topo/mesh.hpp"
#include "topo/torus_geometry.hpp"
#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <optional>

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
  std::int64_t by_symmetry = 0;
  v.hop_transfers_checked = check_rank_paths(s, net, faults, fn, where, by_symmetry);
  if (by_symmetry > 0)
    methods += "; " + std::to_string(by_symmetry) + " of the " +
               std::to_string(v.hop_transfers_checked) +
               " pairs' routes decided by symmetry (one traced per orbit of pairs under the "
               "network's symmetries that the routing respects)";
  v.delivered = true;
  v.method = methods;
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
          fail_infeasible("{algorithm}",
                          st.algorithm +
                              " reduces in a switch that every chip of the group has "
                              "a link to; the " +
                              std::to_string(r.groups[g].size()) + " chips of the group of chip " +
                              std::to_string(r.groups[g].front()) +
                              " share none (use {group} on a switch's chips, or hierarchical "
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
  if (req.hierarchy.find(',') != std::string::npos || req.hierarchy == "dims")
    fail_usage("{hierarchy}", "hierarchical all-to-all takes one level (board, rack or pod)");
  const auto levels = rank_groups(net, faults, req.hierarchy, "{hierarchy}", s.left);
  if (levels.empty()) fail_infeasible("/faults", "no live chip");
  const auto b = static_cast<std::int64_t>(levels.front().size());
  const auto count = static_cast<std::int64_t>(levels.size());
  for (const auto& g : levels)
    if (static_cast<std::int64_t>(g.size()) != b)
      fail_infeasible("{hierarchy}", "the " + req.hierarchy + " of chip " +
                                         std::to_string(g.front()) + " has " +
                                         std::to_string(g.size()) + " live chips, that of chip " +
                                         std::to_string(levels.front().front()) + " " +
                                         std::to_string(b) + ": levels of one size only");
  if (!std::has_single_bit(static_cast<std::uint64_t>(b)) ||
      !std::has_single_bit(static_cast<std::uint64_t>(count)))
    fail_infeasible("{hierarchy}",
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

// The levels of a hierarchical schedule as a grid: every live chip has one coordinate per level
// (innermost first; the last across everything), sizes[k] values each, and the chips of a group
// of level k agree on every other coordinate, in the order of coordinate k.
struct Hierarchy {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> chip_at; // by coordinates, the first varying fastest
};

// From nested packaging levels ("board,rack": boards inside racks, racks across) or a torus's
// or mesh's dimensions ("dims"; every chip live). Equal sizes at every level: Error(Infeasible)
// naming the first that differs (failed chips leave their board smaller).
Hierarchy hierarchy(const topo::Network& net, const topo::Faults& faults, const std::string& spec,
                    std::vector<std::int64_t>& left) {
  Hierarchy h;
  if (spec == "dims") {
    // Each chip's coordinates; dimensions of size 1 are dropped.
    std::function<int(std::int64_t, int)> coord;
    std::vector<int> dims;
    std::optional<topo::TorusGeometry> tg;
    std::optional<topo::MeshGeometry> mg;
    if (net.family == "torus") {
      tg = topo::TorusGeometry::of(net, "{hierarchy} dims");
      dims = tg->sizes();
      coord = [&](std::int64_t c, int d) { return tg->coord(c, d); };
    } else if (net.family == "mesh") {
      mg = topo::MeshGeometry::of(net, "{hierarchy} dims");
      dims = mg->sizes();
      coord = [&](std::int64_t c, int d) { return mg->coord(c, d); };
    } else {
      fail_usage("{hierarchy}", "dims needs a torus or a mesh, not a " + net.family);
    }
    const std::vector<char> down = faults.down_chips(net);
    for (std::int64_t c = 0; c < net.n_chip; ++c)
      if (down[static_cast<std::size_t>(c)])
        fail_infeasible("{hierarchy}", "dims needs every chip of every ring; chip " +
                                           std::to_string(c) + " has failed");
    std::vector<int> kept;
    for (int d = 0; d < static_cast<int>(dims.size()); ++d)
      if (dims[static_cast<std::size_t>(d)] > 1) {
        kept.push_back(d);
        h.sizes.push_back(dims[static_cast<std::size_t>(d)]);
      }
    if (h.sizes.empty()) h.sizes.push_back(1);
    h.chip_at.assign(static_cast<std::size_t>(net.n_chip), -1);
    for (std::int64_t c = 0; c < net.n_chip; ++c) {
      std::int64_t at = 0, stride = 1;
      for (std::size_t i = 0; i < kept.size(); ++i) {
        at += coord(c, kept[i]) * stride;
        stride *= h.sizes[i];
      }
      h.chip_at[static_cast<std::size_t>(at)] = c;
    }
    return h;
  }
  std::vector<std::string> names;
  for (std::size_t b = 0, e; b <= spec.size(); b = e + 1) {
    e = spec.find(',', b);
    if (e == std::string::npos) e = spec.size();
    names.push_back(spec.substr(b, e - b));
  }
  static const std::vector<std::string> order = {"board", "rack", "pod"};
  for (std::size_t k = 0; k < names.size(); ++k) {
    auto at = std::find(order.begin(), order.end(), names[k]);
    if (at == order.end())
      fail_usage("{hierarchy}", "'" + names[k] + "' is not a level (board, rack, pod, or dims)");
    if (k > 0 && at <= std::find(order.begin(), order.end(), names[k - 1]))
      fail_usage("{hierarchy}", "levels go outwards: " + names[k] + " after " + names[k - 1]);
  }
  names.push_back("all");
  // Per level, each chip's group; the levels' groups in packaging order.
  std::vector<std::vector<std::vector<std::int64_t>>> groups;
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::vector<std::int64_t> scratch;
    groups.push_back(rank_groups(net, faults, names[k], "{hierarchy}", k == 0 ? left : scratch));
  }
  if (groups.front().empty()) fail_infeasible("/faults", "no live chip");
  const auto N = static_cast<std::size_t>(net.n_chip);
  // coord[k][c]: level 0, the chip's place in its group; level k > 0, the place of its group of
  // level k-1 among those inside its group of level k.
  std::vector<std::vector<std::int64_t>> coord(names.size(), std::vector<std::int64_t>(N, -1));
  for (const auto& g : groups[0]) {
    if (g.size() != groups[0].front().size())
      fail_infeasible("{hierarchy}",
                      "the " + names[0] + " of chip " + std::to_string(g.front()) + " has " +
                          std::to_string(g.size()) + " live chips and that of chip " +
                          std::to_string(groups[0].front().front()) + " " +
                          std::to_string(groups[0].front().size()) +
                          ": hierarchical needs levels of equal size (failed chips leave "
                          "theirs smaller); use a schedule of one level");
    for (std::size_t p = 0; p < g.size(); ++p) coord[0][static_cast<std::size_t>(g[p])] = p;
  }
  h.sizes.push_back(static_cast<std::int64_t>(groups[0].front().size()));
  for (std::size_t k = 1; k < names.size(); ++k) {
    std::vector<std::int64_t> outer(N, -1); // chip -> its group of level k
    for (std::size_t j = 0; j < groups[k].size(); ++j)
      for (std::int64_t c : groups[k][j]) outer[static_cast<std::size_t>(c)] = j;
    std::vector<std::int64_t> inside(groups[k].size(), 0); // groups of level k-1 in each
    for (const auto& g : groups[k - 1]) {
      const std::int64_t j = outer[static_cast<std::size_t>(g.front())];
      for (std::int64_t c : g)
        if (outer[static_cast<std::size_t>(c)] != j)
          fail_infeasible("{hierarchy}", "the " + names[k - 1] + " of chip " +
                                             std::to_string(g.front()) + " spans two " + names[k] +
                                             "s");
      const std::int64_t p = inside[static_cast<std::size_t>(j)]++;
      for (std::int64_t c : g) coord[k][static_cast<std::size_t>(c)] = p;
    }
    for (std::size_t j = 0; j < inside.size(); ++j)
      if (inside[j] != inside.front())
        fail_infeasible("{hierarchy}",
                        "the " + names[k] + " of chip " + std::to_string(groups[k][j].front()) +
                            " holds " + std::to_string(inside[j]) + " " + names[k - 1] +
                            "s and that of chip " + std::to_string(groups[k].front().front()) +
                            " " + std::to_string(inside.front()) +
                            ": hierarchical needs levels of equal size");
    h.sizes.push_back(inside.front());
  }
  // Levels of size 1 add nothing (a rack of one board): dropped.
  std::vector<std::int64_t> sizes;
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < h.sizes.size(); ++k)
    if (h.sizes[k] > 1 || (k + 1 == h.sizes.size() && kept.empty())) {
      sizes.push_back(h.sizes[k]);
      kept.push_back(k);
    }
  h.sizes = sizes;
  std::int64_t total = 1;
  for (std::int64_t x : h.sizes) total *= x;
  h.chip_at.assign(static_cast<std::size_t>(total), -1);
  for (const auto& g : groups[0])
    for (std::int64_t c : g) {
      std::int64_t at = 0, stride = 1;
      for (std::size_t i = 0; i < kept.size(); ++i) {
        at += coord[kept[i]][static_cast<std::size_t>(c)] * stride;
        stride *= h.sizes[i];
      }
      h.chip_at[static_cast<std::size_t>(at)] = c;
    }
  return h;
}

// The groups of level k: the chips agreeing on every other coordinate, in the order of
// coordinate k; groups ordered by the other coordinates, the innermost most significant (so a
// reduce-scatter outwards leaves the chip of coordinates (p0, p1, ...) the block numbered
// p0 p1 ... in mixed radix, the last stage's ranks in order: rank_compose.hpp's convention).
std::vector<std::vector<std::int64_t>> level_groups(const Hierarchy& h, std::size_t k) {
  const std::size_t L = h.sizes.size();
  std::vector<std::int64_t> stride(L, 1);
  for (std::size_t i = 1; i < L; ++i) stride[i] = stride[i - 1] * h.sizes[i - 1];
  std::vector<std::int64_t> other(L, 0); // the other coordinates, an odometer (the last fastest)
  std::vector<std::vector<std::int64_t>> out;
  for (;;) {
    std::int64_t base = 0;
    for (std::size_t i = 0; i < L; ++i)
      if (i != k) base += other[i] * stride[i];
    std::vector<std::int64_t>& g = out.emplace_back();
    for (std::int64_t p = 0; p < h.sizes[k]; ++p)
      g.push_back(h.chip_at[static_cast<std::size_t>(base + p * stride[k])]);
    bool done = true;
    for (std::size_t i = L; i-- > 0;) {
      if (i == k) continue;
      if (++other[i] < h.sizes[i]) {
        done = false;
        break;
      }
      other[i] = 0;
    }
    if (done) break;
  }
  return out;
}

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
      fail_infeasible("{algorithm}", alg.name + " " + why + "; the group of chip " +
                                         std::to_string(g.front()) + " has " + std::to_string(n) +
                                         " live chips");
    if (root >= n)
      fail_usage("{root}", "rank " + std::to_string(root) + " is not in the group of chip " +
                               std::to_string(g.front()) + " (" + std::to_string(n) + " ranks)");
    // A pipeline lists every (sender, chunk) pair: keep the document and its verification to
    // some 4 million of them.
    if (chunks > 0 && (chunks > kMaxChunks || chunks * n > kMaxChunks * 64))
      fail_usage("{chunks}", std::to_string(chunks) + " chunks on " + std::to_string(n) +
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
  const AlgorithmInfo& alg = require_rank(req.algorithm, col.name, net, "{algorithm}");
  if (!fn)
    fail_input("/routing", "a schedule between ranks follows the routing: run topo-route first");
  if (req.root < 0) fail_usage("{root}", "must be a rank, >= 0");
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
                            ? rank_groups(net, faults, req.group, "{group}", s.left)
                            : rank_groups(net, faults, req.group_lists, "{group}", s.left);
    if (groups.empty()) fail_infeasible("/faults", "no live chip in any group");
    s.stages->push_back(make_stage(alg, col.name, Fraction{1, 1}, groups, req.root, req.chunks));
  } else {
    // Hierarchical: reduce-scatter in the inner groups, all-reduce of each shard across them
    // (the chips of one position in every inner group), all-gather back. A reduce-scatter stops
    // after its two reduce-scatters (inner, then across); an all-gather runs the reverse (across,
    // then inner), so that a chip's block is the same either way: the chip at position p of the
    // g-th of G inner groups holds block p G + g.
    if (req.group != "all" || !req.group_lists.empty())
      fail_usage("{group}", "hierarchical runs over the whole machine, in groups of its own");
    if (col.name == "all-to-all") return hierarchical_all_to_all(req, net, faults, *fn, s);
    const Hierarchy h = hierarchy(net, faults, req.hierarchy, s.left);
    const std::size_t L = h.sizes.size(); // levels, the last across everything
    const std::vector<std::string>& names = req.level_algorithms;
    if (names.size() != 2 && names.size() != L)
      fail_usage("{level_algorithms}",
                 std::to_string(names.size()) + " algorithms for " + std::to_string(L) +
                     " levels: give one per level (innermost first) or two (inner, across)");
    auto name_of = [&](std::size_t k) {
      return names.size() == L ? names[k] : k + 1 == L ? names[1] : names[0];
    };
    const bool ar = col.name == "all-reduce", rs = col.name == "reduce-scatter";
    // The share of the buffer level k works on: 1 / (the sizes of the levels inside it).
    std::int64_t inside = 1;
    std::vector<Fraction> share(L);
    for (std::size_t k = 0; k < L; ++k) {
      share[k] = make_fraction(1, inside);
      inside *= h.sizes[k];
    }
    auto stage = [&](std::size_t k, const std::string& collective) {
      const AlgorithmInfo& a = require_rank(name_of(k), collective, net, "{level_algorithms}");
      if (!a.ranks->generate)
        fail_usage("{level_algorithms}",
                   "each level takes an algorithm of one level, not hierarchical");
      s.stages->push_back(make_stage(a, collective, share[k], level_groups(h, k), 0));
    };
    // All-reduce: reduce-scatter inside each level outwards, all-reduce of the shard across
    // the last, all-gather back inwards; reduce-scatter stops after its reduce-scatters, and
    // all-gather runs the way back alone, so that a chip's block is the same either way.
    if (ar || rs)
      for (std::size_t k = 0; k + 1 < L; ++k) stage(k, "reduce-scatter");
    stage(L - 1, col.name);
    if (ar || !rs)
      for (std::size_t k = L - 1; k-- > 0;) stage(k, "all-gather");
  }
  if (req.skew) {
    if (col.name != "all-to-all")
      fail_usage("{skew}", "sizes the items of an all-to-all, not of " + col.name);
    for (const RankSchedule& r : s.stages->front().parts) {
      if (r.ranks() > kMaxSkewRanks)
        fail_infeasible("{skew}", "all-to-all-v keeps every item's size: at most " +
                                      std::to_string(kMaxSkewRanks) + " ranks a group, not " +
                                      std::to_string(r.ranks()));
      if (req.skew->kind == "matrix" &&
          static_cast<std::int64_t>(req.skew->weights.size()) != r.ranks())
        fail_input("{skew}", "the matrix has " + std::to_string(req.skew->weights.size()) +
                                 " rows, a group " + std::to_string(r.ranks()) + " ranks");
    }
    s.skew = req.skew;
  }
  return finish_ranks(s, net, faults, *fn);
}

} // namespace

Schedule generate(const Request& req, const topo::Network& net, const topo::Faults& faults,
                  const route::RoutingFunction* fn) {
  const CollectiveInfo& col = require_collective(req.collective, "{collective}");
  if (req.bytes_per_node <= 0) fail_usage("{bytes}", "must be a positive number of bytes");
  // Between ranks unless it is a torus algorithm's request (whose own checks then say why a
  // network or collective does not suit it).
  if (!torus_form(req, net) &&
      (find_rank_algorithm(req.algorithm) || !find_torus_algorithm(req.algorithm))) {
    if (req.skew && req.collective != "all-to-all")
      fail_usage("{skew}", "sizes the items of an all-to-all, not of " + req.collective);
    if (const AlgorithmInfo* a = find_rank_algorithm(req.algorithm);
        req.chunks != 0 && !(a && a->ranks->pipelined)) {
      std::string pipelined;
      for (const AlgorithmInfo& p : algorithms())
        if (p.ranks && p.ranks->pipelined) pipelined += (pipelined.empty() ? "" : ", ") + p.name;
      fail_usage("{chunks}", "belongs to the torus ring algorithms and the pipelined ones "
                             "between ranks (" +
                                 pipelined + "); " + req.algorithm + " on the " + net.family +
                                 " runs between ranks");
    }
    return generate_ranks(req, col, net, faults, fn);
  }
  // Here the name has a torus form (an unknown name took the path between ranks, which says so).
  const AlgorithmInfo& entry = require_algorithm(req.algorithm, "{algorithm}");
  const TorusForm& alg = *entry.torus;
  if (req.skew)
    fail_usage("{skew}", "all-to-all-v runs between ranks; the torus's " + req.algorithm +
                             " moves equal items (use direct, pairwise, bruck or hierarchical)");
  const DimSchedulingInfo& dims = require_dim_scheduling(req.dim_scheduling, "{dims}");
  require_implements(entry, col.name, "{collective}");
  if (req.bytes_per_node <= 0) fail_usage("{bytes}", "must be a positive number of bytes");
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
        fail_infeasible("{collective}", col.name +
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
