#include "topo/invariants.hpp"

#include <boost/pending/disjoint_sets.hpp>
#include <map>
#include <tuple>

namespace icnkit::topo {

void check_invariants(const Network& n, ErrorKind kind, const std::string& where) {
  auto bad = [&](const std::string& what) {
    throw Error(kind, where, "invariant violated: " + what);
  };
  const auto N = n.n_chip;
  const auto V = static_cast<std::int64_t>(n.nodes.size());
  const std::int64_t cpb = n.metrics.derived_chips_per_board;

  // Chip coverage: the boards' chips are exactly {0..N-1}, each once; node.board agrees.
  std::vector<std::int64_t> board_of(static_cast<std::size_t>(N), -1);
  for (std::size_t bi = 0; bi < n.boards.size(); ++bi) {
    const Board& b = n.boards[bi];
    if (b.id != static_cast<std::int64_t>(bi)) bad("board ids must be dense 0..B-1");
    if (static_cast<std::int64_t>(b.chips.size()) != cpb)
      bad("board " + std::to_string(b.id) + " holds " + std::to_string(b.chips.size()) +
          " chips, derived chips_per_board is " + std::to_string(cpb));
    if (b.rack < 0 || b.rack >= static_cast<std::int64_t>(n.racks.size()))
      bad("board " + std::to_string(b.id) + " names rack " + std::to_string(b.rack) +
          " which does not exist");
    for (auto c : b.chips) {
      if (c < 0 || c >= N)
        bad("board " + std::to_string(b.id) + " holds " + std::to_string(c) +
            ", which is not a chip");
      if (board_of[static_cast<std::size_t>(c)] >= 0)
        bad("chip " + std::to_string(c) + " is on two boards");
      board_of[static_cast<std::size_t>(c)] = b.id;
    }
  }
  for (std::int64_t c = 0; c < N; ++c)
    if (board_of[static_cast<std::size_t>(c)] < 0)
      bad("chip " + std::to_string(c) + " is on no board");

  // Racks and pods: non-empty, dense ids, membership lists agree with the parents' fields.
  for (std::size_t ri = 0; ri < n.racks.size(); ++ri) {
    const Rack& r = n.racks[ri];
    if (r.id != static_cast<std::int64_t>(ri)) bad("rack ids must be dense 0..R-1");
    if (r.boards.empty()) bad("rack " + std::to_string(r.id) + " is empty");
    if (r.pod < 0 || r.pod >= static_cast<std::int64_t>(n.pods.size()))
      bad("rack " + std::to_string(r.id) + " names pod " + std::to_string(r.pod) +
          " which does not exist");
    for (auto b : r.boards)
      if (b < 0 || b >= static_cast<std::int64_t>(n.boards.size()) ||
          n.boards[static_cast<std::size_t>(b)].rack != r.id)
        bad("rack " + std::to_string(r.id) + " lists board " + std::to_string(b) +
            " which is not in it");
  }
  std::vector<std::int64_t> listed(n.boards.size(), 0);
  for (auto& r : n.racks)
    for (auto b : r.boards) listed[static_cast<std::size_t>(b)]++;
  for (std::size_t b = 0; b < listed.size(); ++b)
    if (listed[b] != 1)
      bad("board " + std::to_string(b) + " is listed by " + std::to_string(listed[b]) + " racks");
  for (std::size_t pi = 0; pi < n.pods.size(); ++pi) {
    const Pod& p = n.pods[pi];
    if (p.id != static_cast<std::int64_t>(pi)) bad("pod ids must be dense 0..P-1");
    if (p.racks.empty()) bad("pod " + std::to_string(p.id) + " is empty");
    for (auto r : p.racks)
      if (r < 0 || r >= static_cast<std::int64_t>(n.racks.size()) ||
          n.racks[static_cast<std::size_t>(r)].pod != p.id)
        bad("pod " + std::to_string(p.id) + " lists rack " + std::to_string(r) +
            " which is not in it");
  }
  if (n.pods.empty()) bad("there is no pod");

  // Nodes: chips are tier 6 and agree with the hierarchy; switches are tier 8, 9 or 9+ only.
  for (const Node& v : n.nodes) {
    if (v.kind == NodeKind::Chip) {
      if (v.tier != 6) bad("chip " + std::to_string(v.id) + " is not at tier 6");
      const Board& b = n.boards[static_cast<std::size_t>(board_of[static_cast<std::size_t>(v.id)])];
      const Rack& r = n.racks[static_cast<std::size_t>(b.rack)];
      if (v.board != b.id || v.rack != r.id || v.pod != r.pod)
        bad("chip " + std::to_string(v.id) +
            " names board/rack/pod that disagree with the hierarchy");
    } else {
      if (v.role.empty()) bad("switch " + std::to_string(v.id) + " has no role");
      if (v.tier < 8 || v.tier > 10)
        bad("switch " + std::to_string(v.id) + " at tier " + std::to_string(v.tier) +
            ": switches belong to tier 8, 9 or 9+");
      if (v.tier == 8 && (v.rack < 0 || v.rack >= static_cast<std::int64_t>(n.racks.size())))
        bad("rack switch " + std::to_string(v.id) + " names no existing rack");
      if (v.tier == 9 && (v.pod < 0 || v.pod >= static_cast<std::int64_t>(n.pods.size())))
        bad("pod switch " + std::to_string(v.id) + " names no existing pod");
    }
  }

  // Links: containment of rack and pod switches, multiplicity, every chip connected.
  // Parallel links touching a chip are bounded by chip_radix, counted per unordered pair
  // and, for coordinate families, per dimension and direction (a size-2 torus ring has two
  // distinct links between its chips). Between two switches the bound is their ports
  // (lanes of a trunk), checked with the degrees below. The links sorted by that key (a sorted
  // array: a million-chip torus's 3M links in a tree would take 290 MB) give the first link, in
  // link order, that passes the bound; the loop below reports it where it comes.
  struct Pair {
    std::int64_t lo, hi;
    int dim, dir;
    std::size_t link;
    auto key() const { return std::tie(lo, hi, dim, dir); }
  };
  std::vector<Pair> pairs;
  pairs.reserve(n.links.size());
  for (std::size_t i = 0; i < n.links.size(); ++i) {
    const Link& l = n.links[i];
    if (l.a < 0 || l.b < 0 || l.a >= V || l.b >= V) continue; // reported below
    if (n.nodes[static_cast<std::size_t>(l.a)].kind == NodeKind::Switch &&
        n.nodes[static_cast<std::size_t>(l.b)].kind == NodeKind::Switch)
      continue;
    const std::int64_t lo = std::min(l.a, l.b), hi = std::max(l.a, l.b);
    pairs.push_back({lo, hi, l.dim, l.dim >= 0 ? (l.a == lo ? l.dir : -l.dir) : 0, i});
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) {
    return x.key() < y.key() || (x.key() == y.key() && x.link < y.link);
  });
  std::size_t too_many = n.links.size(); // the first link over the bound
  for (std::size_t i = 0, j = 0; i < pairs.size(); i = j) {
    while (j < pairs.size() && pairs[j].key() == pairs[i].key()) ++j;
    if (static_cast<std::int64_t>(j - i) > n.chip_radix)
      too_many = std::min(too_many, pairs[i + static_cast<std::size_t>(n.chip_radix)].link);
  }
  pairs = std::vector<Pair>();
  std::vector<std::int64_t> degree(static_cast<std::size_t>(V), 0);
  for (const Link& l : n.links) {
    const Node& a = n.nodes[static_cast<std::size_t>(l.a)];
    const Node& b = n.nodes[static_cast<std::size_t>(l.b)];
    degree[static_cast<std::size_t>(l.a)]++;
    degree[static_cast<std::size_t>(l.b)]++;
    for (auto [x, y] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
      if (y->kind == NodeKind::Switch && y->tier == 8 && x->kind == NodeKind::Chip &&
          x->rack != y->rack)
        bad("link " + std::to_string(l.id) + " joins chip " + std::to_string(x->id) +
            " to the switch of another rack");
      if (y->kind == NodeKind::Switch && y->tier == 9 && x->kind == NodeKind::Switch &&
          x->tier == 8 && n.racks[static_cast<std::size_t>(x->rack)].pod != y->pod)
        bad("link " + std::to_string(l.id) + " joins a rack switch to the switch of another pod");
    }
    if (static_cast<std::size_t>(&l - n.links.data()) == too_many) {
      const std::int64_t lo = std::min(l.a, l.b), hi = std::max(l.a, l.b);
      bad("nodes " + std::to_string(lo) + " and " + std::to_string(hi) +
          " have more parallel links than chip_radix " + std::to_string(n.chip_radix));
    }
  }
  for (const Node& v : n.nodes)
    if (v.kind == NodeKind::Switch && degree[static_cast<std::size_t>(v.id)] > v.ports)
      bad("switch " + std::to_string(v.id) + " has " +
          std::to_string(degree[static_cast<std::size_t>(v.id)]) + " links but " +
          std::to_string(v.ports) + " ports");
  for (std::int64_t c = 0; c < N; ++c)
    if (degree[static_cast<std::size_t>(c)] == 0 && V > 1)
      bad("chip " + std::to_string(c) + " has no link");

  // Connectivity: Boost's disjoint sets over the links (no graph to build).
  std::vector<std::size_t> rank(static_cast<std::size_t>(V)), parent(static_cast<std::size_t>(V));
  boost::disjoint_sets<std::size_t*, std::size_t*> sets(rank.data(), parent.data());
  for (std::size_t v = 0; v < static_cast<std::size_t>(V); ++v) sets.make_set(v);
  for (const Link& l : n.links)
    sets.union_set(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b));
  std::size_t ncomp = 0;
  for (std::size_t v = 0; v < static_cast<std::size_t>(V); ++v) ncomp += sets.find_set(v) == v;
  if (ncomp > 1) bad("the network is not connected (" + std::to_string(ncomp) + " components)");
}

} // namespace icnkit::topo
