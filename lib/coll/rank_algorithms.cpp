#include "coll/rank_algorithms.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace icnkit::coll {

namespace {

using Peer = RankTransfer::Peer;
using Blocks = RankTransfer::Blocks;

bool whole_buffer(const std::string& c) {
  return c == "broadcast" || c == "reduce";
}

// A schedule skeleton: blocks per collective, steps appended in a chain.
struct Builder {
  RankSchedule s;
  Builder(const std::string& collective, std::int64_t n, std::int64_t root) {
    s.groups.assign(1, std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
    s.blocks = whole_buffer(collective) ? 1 : n;
    s.root = root;
  }
  int phase(const std::string& name) {
    auto it = std::find(s.phases.begin(), s.phases.end(), name);
    if (it != s.phases.end()) return static_cast<int>(it - s.phases.begin());
    s.phases.push_back(name);
    return static_cast<int>(s.phases.size()) - 1;
  }
  RankStep& step(const std::string& phase_name) {
    RankStep st;
    st.id = static_cast<std::int64_t>(s.steps.size());
    if (st.id > 0) st.after = {st.id - 1};
    st.phase = phase(phase_name);
    s.steps.push_back(std::move(st));
    return s.steps.back();
  }
  RankSchedule done() {
    if (s.phases.empty()) s.phases.push_back("none");
    return std::move(s);
  }
};

RankTransfer shift(std::int64_t k, bool reduce, Blocks b, std::int64_t offset = 0,
                   std::int64_t count = 1) {
  RankTransfer t;
  t.peer = Peer::Shift;
  t.k = k;
  t.reduce = reduce;
  t.blocks = b;
  t.offset = offset;
  t.count = count;
  return t;
}

RankTransfer xor_mask(std::int64_t d, bool reduce, std::int64_t mask, bool match_peer) {
  RankTransfer t;
  t.peer = Peer::Xor;
  t.k = d;
  t.reduce = reduce;
  t.blocks = Blocks::Mask;
  t.mask = mask;
  t.match_peer = match_peer;
  return t;
}

bool reduces(const std::string& c) {
  return c == "all-reduce" || c == "reduce-scatter";
}
bool gathers(const std::string& c) {
  return c == "all-reduce" || c == "all-gather";
}

std::string any_n(std::int64_t) {
  return "";
}
std::string pow2_n(std::int64_t n) {
  return (n & (n - 1)) == 0 ? "" : "needs a power-of-two number of ranks";
}

// Ring: n-1 steps of reduce-scatter, rank i passing its partial sum of block i-s-1 to i+1, then
// n-1 of all-gather passing the complete block i-s on: every rank sends and receives S/n per step.
RankSchedule ring(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  if (reduces(c))
    for (std::int64_t s = 0; s + 1 < n; ++s)
      b.step("reduce-scatter")
          .transfers.push_back(shift(1, true, Blocks::Offset, rank_mod(-(s + 1), n)));
  if (gathers(c))
    for (std::int64_t s = 0; s + 1 < n; ++s)
      b.step("all-gather").transfers.push_back(shift(1, false, Blocks::Offset, rank_mod(-s, n)));
  return b.done();
}

// Direct: one step in which every rank sends every other rank its block (reduce-scatter: the
// partial sum of the peer's block; all-gather: its own block; all-to-all: the peer's item).
RankSchedule direct(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  if (n < 2) return b.done();
  if (c == "all-to-all") {
    RankStep& st = b.step("all-to-all");
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, false, Blocks::Offset, k));
    return b.done();
  }
  if (reduces(c)) {
    RankStep& st = b.step("reduce-scatter");
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, true, Blocks::Offset, k));
  }
  if (gathers(c)) {
    RankStep& st = b.step("all-gather");
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, false, Blocks::Offset, 0));
  }
  return b.done();
}

// Recursive halving (reduce-scatter) then doubling (all-gather), Rabenseifner's all-reduce: in
// the step at distance d a rank exchanges with rank XOR d the half of its remaining blocks that
// the peer keeps (the blocks agreeing with the peer on every bit from d up).
RankSchedule halving_doubling(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  if (reduces(c))
    for (std::int64_t d = n / 2; d >= 1; d /= 2)
      b.step("reduce-scatter").transfers.push_back(xor_mask(d, true, (n - 1) & ~(d - 1), true));
  if (gathers(c))
    for (std::int64_t d = 1; d < n; d *= 2)
      b.step("all-gather").transfers.push_back(xor_mask(d, false, (n - 1) & ~(d - 1), false));
  return b.done();
}

// Bruck: all-gather in ceil(log2 n) steps, rank i sending the blocks i .. i+c-1 it holds to
// rank i-d (d = 1, 2, 4 ...; c = min(d, n-d)); reduce-scatter is its reverse (d descending, rank
// i reducing blocks i+d .. i+d+c-1 into rank i+d); all-to-all sends at distance 2^t the items
// whose destination lies an odd multiple of 2^t ahead (bit t of the remaining distance).
RankSchedule bruck(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  std::vector<std::int64_t> ds;
  for (std::int64_t d = 1; d < n; d *= 2) ds.push_back(d);
  if (c == "all-to-all") {
    for (std::size_t t = 0; t < ds.size(); ++t) {
      RankTransfer tr = shift(ds[t], false, Blocks::Bit);
      tr.bit = static_cast<int>(t);
      b.step("all-to-all").transfers.push_back(tr);
    }
    return b.done();
  }
  if (reduces(c))
    for (auto it = ds.rbegin(); it != ds.rend(); ++it)
      b.step("reduce-scatter")
          .transfers.push_back(shift(*it, true, Blocks::Offset, *it, std::min(*it, n - *it)));
  if (gathers(c))
    for (std::int64_t d : ds)
      b.step("all-gather")
          .transfers.push_back(shift(n - d, false, Blocks::Offset, 0, std::min(d, n - d)));
  return b.done();
}

// Pairwise exchange (MPICH's MPI_Alltoall for long messages): n-1 steps, in step k rank i sends
// its item for rank i XOR k (n a power of two) or i + k.
RankSchedule pairwise(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  const bool pow2 = (n & (n - 1)) == 0;
  for (std::int64_t k = 1; k < n; ++k) {
    RankStep& st = b.step("all-to-all");
    if (pow2) {
      RankTransfer t = xor_mask(k, false, n - 1, true);
      st.transfers.push_back(t);
    } else {
      st.transfers.push_back(shift(k, false, Blocks::Offset, k));
    }
  }
  return b.done();
}

// Binomial tree from the root: broadcast doubles the ranks holding the buffer each step (ranks
// root + j, j < d, send to root + j + d); reduce runs the same tree backwards.
RankSchedule binomial(const std::string& c, std::int64_t n, std::int64_t root) {
  Builder b(c, n, root);
  std::vector<std::int64_t> ds;
  for (std::int64_t d = 1; d < n; d *= 2) ds.push_back(d);
  auto senders = [&](std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> f;
    for (std::int64_t j = lo; j < hi; ++j) f.push_back(rank_mod(root + j, n));
    std::sort(f.begin(), f.end());
    return f;
  };
  if (c == "broadcast")
    for (std::int64_t d : ds) {
      RankTransfer t = shift(d, false, Blocks::All);
      t.from = senders(0, std::min(d, n - d));
      b.step("broadcast").transfers.push_back(t);
    }
  else
    for (auto it = ds.rbegin(); it != ds.rend(); ++it) {
      const std::int64_t d = *it;
      RankTransfer t = shift(n - d, true, Blocks::All);
      t.from = senders(d, std::min(2 * d, n));
      b.step("reduce").transfers.push_back(t);
    }
  return b.done();
}

constexpr const char* kThakur =
    "R. Thakur, R. Rabenseifner, W. Gropp, \"Optimization of Collective Communication Operations "
    "in MPICH\", IJHPCA 19(1), 2005";

} // namespace

bool RankAlgorithmInfo::implements(const std::string& collective) const {
  return std::find(collectives.begin(), collectives.end(), collective) != collectives.end();
}

const std::vector<RankAlgorithmInfo>& rank_algorithms() {
  static const std::vector<RankAlgorithmInfo> list = {
      {"ring",
       "ring over the ranks in packaging order: n-1 steps of reduce-scatter (each rank passes a "
       "partial sum of one block to the next) and n-1 of all-gather; every step moves S/n per "
       "rank (NCCL's ring, one direction)",
       std::string("P. Patarasuk, X. Yuan, \"Bandwidth optimal all-reduce algorithms for "
                   "clusters of workstations\", JPDC 69(2), 2009; NCCL"),
       {"all-reduce", "reduce-scatter", "all-gather"},
       &any_n,
       &ring},
      {"direct",
       "one step: every rank sends every other rank its block at once (all-reduce: one "
       "reduce-scatter step, one all-gather step); for full meshes and single switches",
       std::string(kThakur) + " (the scattered algorithms); NCCL's one-shot all-reduce",
       {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"},
       &any_n,
       &direct},
      {"halving-doubling",
       "recursive halving reduce-scatter and recursive doubling all-gather (Rabenseifner's "
       "all-reduce): log2 n steps each, exchanging with rank XOR d half of the remaining data",
       std::string(kThakur) + ", section 4.4",
       {"all-reduce", "reduce-scatter", "all-gather"},
       &pow2_n,
       &halving_doubling},
      {"bruck",
       "Bruck's log-step algorithms on any n: all-gather (rank i sends what it holds to i-d, d "
       "doubling), reduce-scatter (its reverse) and all-to-all (items an odd multiple of d ahead "
       "move d)",
       std::string("J. Bruck et al., \"Efficient algorithms for all-to-all communications in "
                   "multiport message-passing systems\", IEEE TPDS 8(11), 1997"),
       {"all-gather", "reduce-scatter", "all-reduce", "all-to-all"},
       &any_n,
       &bruck},
      {"pairwise",
       "pairwise exchange: n-1 steps, rank i sending its item for rank i XOR k (powers of two) "
       "or i + k in step k (MPICH's long-message MPI_Alltoall)",
       std::string(kThakur) + ", section 5",
       {"all-to-all"},
       &any_n,
       &pairwise},
      {"hierarchical",
       "one collective per packaging level (NCCL's intra/inter-node split, ASTRA-sim's "
       "per-dimension lists): reduce-scatter inside each board (--hierarchy rack/pod: each rack, "
       "pod), all-reduce of every shard across them (the chips of one position in every "
       "board), all-gather back; --level-algorithms picks each level's algorithm (ring,ring)",
       std::string("NCCL (intra-node then inter-node rings and trees); W. Won et al., "
                   "\"ASTRA-sim2.0\", ISPASS 2023 (hierarchical collectives per dimension)"),
       {"all-reduce"},
       &any_n,
       nullptr},
      {"binomial",
       "binomial tree rooted at --root: ceil(log2 n) steps, the ranks holding the buffer "
       "doubling each step (broadcast) or halving (reduce)",
       std::string(kThakur) + ", section 3",
       {"broadcast", "reduce"},
       &any_n,
       &binomial},
  };
  return list;
}

const RankAlgorithmInfo* find_rank_algorithm(const std::string& name) {
  for (const auto& a : rank_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

std::string rank_algorithm_names() {
  std::string out;
  for (const auto& a : rank_algorithms()) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

namespace {

// Every chip (failed ones too) in packaging order.
std::vector<std::int64_t> packaging_order(const topo::Network& net) {
  std::vector<std::int64_t> chips(static_cast<std::size_t>(net.n_chip));
  for (std::int64_t c = 0; c < net.n_chip; ++c) chips[static_cast<std::size_t>(c)] = c;
  auto key = [&](std::int64_t c) {
    const topo::Node& n = net.nodes[static_cast<std::size_t>(c)];
    return std::make_tuple(n.pod, n.rack, n.board, c);
  };
  std::stable_sort(chips.begin(), chips.end(),
                   [&](std::int64_t a, std::int64_t b) { return key(a) < key(b); });
  return chips;
}

// Drops the failed chips of every group into `left` and the groups left empty.
std::vector<std::vector<std::int64_t>> drop_failed(std::vector<std::vector<std::int64_t>> groups,
                                                   const std::vector<char>& down,
                                                   std::vector<std::int64_t>& left) {
  std::vector<std::vector<std::int64_t>> out;
  for (auto& g : groups) {
    std::vector<std::int64_t> live;
    for (std::int64_t c : g)
      if (static_cast<std::size_t>(c) < down.size() && down[static_cast<std::size_t>(c)])
        left.push_back(c);
      else
        live.push_back(c);
    if (!live.empty()) out.push_back(std::move(live));
  }
  std::sort(left.begin(), left.end());
  return out;
}

} // namespace

std::vector<std::vector<std::int64_t>>
rank_groups(const topo::Network& net, const topo::Faults& faults, const std::string& spec,
            const std::string& where, std::vector<std::int64_t>& left) {
  const std::vector<std::int64_t> order = packaging_order(net);
  std::vector<std::vector<std::int64_t>> groups;
  if (spec == "all") {
    groups.push_back(order);
  } else if (spec == "board" || spec == "rack" || spec == "pod") {
    std::map<std::int64_t, std::size_t> at; // level id -> group
    for (std::int64_t c : order) {
      const topo::Node& n = net.nodes[static_cast<std::size_t>(c)];
      const std::int64_t id = spec == "board" ? n.board : spec == "rack" ? n.rack : n.pod;
      auto [it, fresh] = at.emplace(id, groups.size());
      if (fresh) groups.emplace_back();
      groups[it->second].push_back(c);
    }
  } else if (spec.rfind("stride:", 0) == 0) {
    const std::string k = spec.substr(7);
    std::int64_t K = 0;
    if (k.empty() || k.size() > 9 || k.find_first_not_of("0123456789") != std::string::npos ||
        (K = std::stoll(k)) < 1)
      fail_usage(where, "stride:K takes a whole number K >= 1, not '" + k + "'");
    if (K > net.n_chip)
      fail_usage(where, "stride:" + k + " is more groups than the " + std::to_string(net.n_chip) +
                            " chips");
    groups.resize(static_cast<std::size_t>(K));
    for (std::size_t p = 0; p < order.size(); ++p)
      groups[p % static_cast<std::size_t>(K)].push_back(order[p]);
  } else {
    fail_usage(where,
               "'" + spec + "' is not a grouping (all, board, rack, pod, stride:K, list:FILE)");
  }
  return drop_failed(std::move(groups), faults.down_chips(net), left);
}

std::vector<std::vector<std::int64_t>>
rank_groups(const topo::Network& net, const topo::Faults& faults,
            const std::vector<std::vector<std::int64_t>>& lists, const std::string& where,
            std::vector<std::int64_t>& left) {
  std::vector<char> seen(static_cast<std::size_t>(net.n_chip), 0);
  for (std::size_t g = 0; g < lists.size(); ++g) {
    if (lists[g].empty()) fail_input(where, "group " + std::to_string(g + 1) + " is empty");
    for (std::int64_t c : lists[g]) {
      if (c < 0 || c >= net.n_chip)
        fail_input(where, "group " + std::to_string(g + 1) + ": chip " + std::to_string(c) +
                              " does not exist (the network has " + std::to_string(net.n_chip) +
                              ")");
      if (seen[static_cast<std::size_t>(c)]++)
        fail_input(where, "chip " + std::to_string(c) + " is in two groups");
    }
  }
  return drop_failed(lists, faults.down_chips(net), left);
}

std::vector<std::int64_t> rank_order(const topo::Network& net, const topo::Faults& faults) {
  const std::vector<char> down = faults.down_chips(net);
  std::vector<std::int64_t> chips;
  for (std::int64_t c : packaging_order(net))
    if (!down[static_cast<std::size_t>(c)]) chips.push_back(c);
  return chips;
}

} // namespace icnkit::coll
