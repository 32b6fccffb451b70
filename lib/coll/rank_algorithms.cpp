#include "coll/rank_algorithms.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <bit>
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
  Builder(const std::string& collective, std::int64_t n, std::int64_t root,
          std::int64_t blocks = 0) {
    s.groups.assign(1, std::vector<std::int64_t>(static_cast<std::size_t>(n), 0));
    s.blocks = blocks > 0 ? blocks : whole_buffer(collective) ? 1 : n;
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
                   std::int64_t count = 1, std::int64_t stride = 1, std::int64_t start = 0) {
  RankTransfer t;
  t.stride = stride;
  t.start = start;
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

bool pow2(std::int64_t n) {
  return (n & (n - 1)) == 0;
}
} // namespace

namespace ranks {

std::string any_n(const std::string&, std::int64_t) {
  return "";
}
// Halving-doubling: all-reduce folds the ranks beyond a power of two; the others need one.
std::string pow2_unless_all_reduce(const std::string& c, std::int64_t n) {
  return c == "all-reduce" || pow2(n) ? "" : "needs a power-of-two number of ranks for " + c;
}

// Ring: n-1 steps of reduce-scatter, rank i passing its partial sum of block i-s-1 to i+1, then
// n-1 of all-gather passing the complete block i-s on: every rank sends and receives S/n per step.
RankSchedule ring(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t) {
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

// Bidirectional ring: the buffer in 2n blocks, the even ones on a ring clockwise (rank i to
// i+1) and the odd ones on a ring anticlockwise (i to i-1), each as the ring above with half
// the bytes; rank r's share is blocks 2r and 2r+1. Every step moves S/2n each way per rank, so
// where a rank has a link each way (a torus's or a ring's ranks) both carry half: the torus's
// Ring dimension by dimension (hierarchical --hierarchy dims).
RankSchedule bidirectional_ring(const std::string& c, std::int64_t n, std::int64_t root,
                                std::int64_t) {
  Builder b(c, n, root, 2 * n);
  if (reduces(c))
    for (std::int64_t s = 0; s + 1 < n; ++s) {
      RankStep& st = b.step("reduce-scatter");
      st.transfers.push_back(shift(1, true, Blocks::Offset, rank_mod(-(s + 1), n), 1, 2, 0));
      st.transfers.push_back(shift(n - 1, true, Blocks::Offset, rank_mod(s + 1, n), 1, 2, 1));
    }
  if (gathers(c))
    for (std::int64_t s = 0; s + 1 < n; ++s) {
      RankStep& st = b.step("all-gather");
      st.transfers.push_back(shift(1, false, Blocks::Offset, rank_mod(-s, n), 1, 2, 0));
      st.transfers.push_back(shift(n - 1, false, Blocks::Offset, rank_mod(s, n), 1, 2, 1));
    }
  return b.done();
}

// Direct: one step in which every rank sends every other rank its block (reduce-scatter: the
// partial sum of the peer's block; all-gather: its own block; all-to-all: the peer's item).
RankSchedule direct(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t) {
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
// the peer keeps (the blocks agreeing with the peer on every bit from d up). An all-reduce on n
// ranks that is not a power of two p folds as MPICH does: the r = n - p ranks beyond p first
// reduce their whole buffer into ranks 0..r-1, ranks 0..p-1 run the algorithm on p blocks, and
// ranks 0..r-1 then copy the result back out.
RankSchedule halving_doubling(const std::string& c, std::int64_t n, std::int64_t root,
                              std::int64_t) {
  const std::int64_t p = std::bit_floor(static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1)));
  const std::int64_t r = n - p;
  Builder b(c, n, root, p);
  auto listed = [](std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> f;
    for (std::int64_t i = lo; i < hi; ++i) f.push_back(i);
    return f;
  };
  auto among_p = [&](RankTransfer t) {
    if (r > 0) t.from = listed(0, p);
    return t;
  };
  if (r > 0) {
    RankTransfer t = shift(r, true, Blocks::All); // rank p + j -> j
    t.from = listed(p, n);
    b.step("fold").transfers.push_back(t);
  }
  if (reduces(c))
    for (std::int64_t d = p / 2; d >= 1; d /= 2)
      b.step("reduce-scatter")
          .transfers.push_back(among_p(xor_mask(d, true, (p - 1) & ~(d - 1), true)));
  if (gathers(c))
    for (std::int64_t d = 1; d < p; d *= 2)
      b.step("all-gather")
          .transfers.push_back(among_p(xor_mask(d, false, (p - 1) & ~(d - 1), false)));
  if (r > 0) {
    RankTransfer t = shift(p, false, Blocks::All); // rank j -> p + j
    t.from = listed(0, r);
    b.step("unfold").transfers.push_back(t);
  }
  return b.done();
}

// Bruck: all-gather in ceil(log2 n) steps, rank i sending the blocks i .. i+c-1 it holds to
// rank i-d (d = 1, 2, 4 ...; c = min(d, n-d)); reduce-scatter is its reverse (d descending, rank
// i reducing blocks i+d .. i+d+c-1 into rank i+d); all-to-all sends at distance 2^t the items
// whose destination lies an odd multiple of 2^t ahead (bit t of the remaining distance).
RankSchedule bruck(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t) {
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
RankSchedule pairwise(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t) {
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
RankSchedule binomial(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t) {
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

namespace {

// ---- Pipelines: the buffer in chunks that follow one another down a chain or two trees, one
// chunk per link per step. Each step is a store-and-forward round in which every sender passes on
// the chunk it received the step before; the transfers of a step are grouped by (peer shift,
// chunk, op), each with its senders listed.

// One rank's send in a step: `block` is the chunk (relative: the offset from the sender's rank,
// mod the chunks, that an offset rule takes).
struct PipeSend {
  std::int64_t step, shift, block;
  bool reduce, relative;
  std::int64_t from;
  auto key() const { return std::make_tuple(step, reduce, relative, block, shift, from); }
  bool same_transfer(const PipeSend& o) const {
    return step == o.step && reduce == o.reduce && relative == o.relative && block == o.block &&
           shift == o.shift;
  }
};

// Steps from the sends, which need not come in any order.
RankSchedule pipeline(Builder& b, std::vector<PipeSend> sends, const std::string& phase) {
  std::sort(sends.begin(), sends.end(),
            [](const PipeSend& x, const PipeSend& y) { return x.key() < y.key(); });
  std::int64_t steps = 0;
  for (const PipeSend& p : sends) steps = std::max(steps, p.step + 1);
  for (std::int64_t t = 0; t < steps; ++t) b.step(phase);
  for (std::size_t k = 0; k < sends.size();) {
    const PipeSend& p = sends[k];
    RankTransfer t = shift(p.shift, p.reduce, p.relative ? Blocks::Offset : Blocks::Range, p.block);
    t.from.emplace();
    for (; k < sends.size() && sends[k].same_transfer(p); ++k) t.from->push_back(sends[k].from);
    b.s.steps[static_cast<std::size_t>(p.step)].transfers.push_back(std::move(t));
  }
  return b.done();
}

// The in-order binary tree on m positions (labels x = position + 1): a node's children are the
// labels x -+ 2^(h-1), h its lowest set bit; the root is the largest power of two <= m. Labels
// beyond m are left out, a node then hanging from its nearest ancestor within m (at most two
// children still). `height`: the longest way down to a leaf; `depth`: from the root.
struct BinaryTree {
  std::vector<std::int64_t> parent; // -1: the root
  std::vector<std::vector<std::int64_t>> children;
  std::vector<std::int64_t> height, depth;
  std::int64_t root = 0;
};

BinaryTree in_order_tree(std::int64_t m) {
  BinaryTree t;
  const auto M = static_cast<std::size_t>(m);
  t.parent.assign(M, -1);
  t.children.assign(M, {});
  t.height.assign(M, 0);
  t.depth.assign(M, 0);
  const std::int64_t top = static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(m)));
  t.root = top - 1;
  for (std::int64_t x = 1; x <= m; ++x) {
    if (x == top) continue;
    for (int h = std::countr_zero(static_cast<std::uint64_t>(x)) + 1;; ++h) {
      const std::int64_t a = ((x >> (h + 1)) << (h + 1)) | (std::int64_t{1} << h);
      if (a <= m) {
        t.parent[static_cast<std::size_t>(x - 1)] = a - 1;
        t.children[static_cast<std::size_t>(a - 1)].push_back(x - 1);
        break;
      }
    }
  }
  // Labels ascend, so a parent's depth is known before its child's only from the root down:
  // walk the tree from the root.
  std::vector<std::int64_t> order{t.root};
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::int64_t c : t.children[static_cast<std::size_t>(order[k])]) {
      t.depth[static_cast<std::size_t>(c)] = t.depth[static_cast<std::size_t>(order[k])] + 1;
      order.push_back(c);
    }
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (t.parent[static_cast<std::size_t>(*it)] >= 0) {
      auto& h = t.height[static_cast<std::size_t>(t.parent[static_cast<std::size_t>(*it)])];
      h = std::max(h, t.height[static_cast<std::size_t>(*it)] + 1);
    }
  return t;
}

} // namespace

// Double binary tree (NCCL's): two in-order binary trees over the same positions, the second
// mirrored (m even) or shifted by one (m odd), so that a leaf of one is an inner node of the
// other; each carries half the buffer in `chunks` pipelined chunks. All-reduce: every rank's
// chunks reduce up both trees to their roots and come back down complete. Broadcast and reduce
// build the trees over the other n-1 ranks, the root above both tree roots.
RankSchedule double_binary_tree(const std::string& c, std::int64_t n, std::int64_t root,
                                std::int64_t chunks) {
  const bool all = c == "all-reduce";
  const std::int64_t m = all ? n : n - 1;
  const BinaryTree tree = in_order_tree(std::max<std::int64_t>(m, 1));
  const std::int64_t L = tree.height[static_cast<std::size_t>(tree.root)];
  const std::int64_t P = chunks > 0 ? chunks : std::min<std::int64_t>(8 * (L + 1), 256);
  Builder b(c, n, root, 2 * P);
  if (n < 2) return b.done();
  // Rank of tree T's node at position p.
  auto rank = [&](int T, std::int64_t p) {
    const std::int64_t q = T == 0 ? p : (m % 2 == 0 ? m - 1 - p : (p + 1) % m);
    return all ? q : rank_mod(root + 1 + q, n);
  };
  std::vector<PipeSend> sends;
  auto send = [&](std::int64_t step, std::int64_t from, std::int64_t to, std::int64_t block,
                  bool reduce) {
    sends.push_back({step, rank_mod(to - from, n), block, reduce, false, from});
  };
  for (int T = 0; T < 2; ++T)
    for (std::int64_t k = 0; k < P; ++k) {
      const std::int64_t block = T * P + k;
      for (std::int64_t p = 0; p < m; ++p) {
        const auto P_ = static_cast<std::size_t>(p);
        if (c != "broadcast") { // up: a node passes on its subtree's sum once its children have
          const std::int64_t up = k + tree.height[P_];
          if (tree.parent[P_] >= 0)
            send(up, rank(T, p), rank(T, tree.parent[P_]), block, true);
          else if (!all)
            send(up, rank(T, p), root, block, true);
        }
        if (c != "reduce") { // down: the complete chunk, from the root (all-reduce: a tree root)
          const std::int64_t down = k + tree.depth[P_] + (all ? L : 1);
          for (std::int64_t ch : tree.children[P_])
            send(down, rank(T, p), rank(T, ch), block, false);
          if (!all && p == tree.root) send(k, root, rank(T, p), block, false);
        }
      }
    }
  return pipeline(b, std::move(sends), "pipeline");
}

// Pipelined chain: the buffer in `chunks` chunks passed along the ranks from the root, chunk k
// leaving the j-th rank of the chain in step k + j (broadcast); reduce runs it towards the
// root, each rank adding its own part. Broadcast's chain runs down the ranks (root, root-1, ...)
// and reduce's up them, so that in a step the chunk is the sender's rank plus a constant (an
// offset rule): one transfer for the senders before the wrap-around and one for those after.
RankSchedule chain(const std::string& c, std::int64_t n, std::int64_t root, std::int64_t chunks) {
  const std::int64_t P = chunks > 0 ? chunks : std::clamp<std::int64_t>(4 * n, 8, 256);
  Builder b(c, n, root, P);
  if (n < 2) return b.done();
  const bool bcast = c == "broadcast";
  std::vector<PipeSend> sends;
  for (std::int64_t i = 0; i < n; ++i) {
    // Place along the chain: broadcast from the root (0) to its last rank (n-1); reduce from
    // its first rank (place n-1) to the root.
    const std::int64_t place = bcast ? rank_mod(root - i, n) : rank_mod(i - root, n);
    if (bcast ? place == n - 1 : place == 0) continue; // the chain's end sends nothing
    for (std::int64_t k = 0; k < P; ++k) {
      const std::int64_t step = bcast ? k + place : k + (n - 1 - place);
      sends.push_back({step, n - 1, rank_mod(k - i, P), !bcast, true, i}); // to rank i-1
    }
  }
  return pipeline(b, std::move(sends), bcast ? "broadcast" : "reduce");
}

RankTransfer via_switch(bool reduce, Blocks b, std::int64_t offset, std::int64_t count) {
  RankTransfer t;
  t.peer = Peer::Switch;
  t.k = 0;
  t.reduce = reduce;
  t.blocks = b;
  t.offset = offset;
  t.count = count;
  return t;
}

// In-network (NVLS-like), every rank on one switch: all-reduce cuts the buffer into P chunks of
// n blocks, rank i owning block i of each; in step t the switch reduces chunk t (every rank sends
// the chunk up, the switch adds and returns each owner its block: NVLS's multimem load-reduce)
// while each owner multicasts its reduced block of chunk t-1 (one block up, the switch writes it
// to every rank), so each rank sends and receives (n+1)/n of a chunk per step, and the bus
// bandwidth approaches 2(n-1)/(n+1) of a link's. Reduce-scatter is one reduce, all-gather one
// multicast.
RankSchedule in_network(const std::string& c, std::int64_t n, std::int64_t root,
                        std::int64_t chunks) {
  if (c != "all-reduce") {
    Builder b(c, n, root);
    if (n < 2) return b.done();
    if (c == "reduce-scatter")
      b.step("reduce").transfers.push_back(via_switch(true, Blocks::All, 0, n));
    else
      b.step("multicast").transfers.push_back(via_switch(false, Blocks::Offset, 0, 1));
    return b.done();
  }
  // Default: 32 chunks (within 3% of the pipeline's limit at large sizes), fewer where n x P
  // blocks would pass 2^20.
  const std::int64_t P =
      chunks > 0 ? chunks : std::clamp<std::int64_t>((std::int64_t{1} << 20) / n, 1, 32);
  Builder b(c, n, root, n * P);
  if (n < 2) return b.done();
  for (std::int64_t t = 0; t <= P; ++t) {
    RankStep& st = b.step(t == 0 ? "reduce" : t == P ? "multicast" : "reduce+multicast");
    if (t < P) st.transfers.push_back(via_switch(true, Blocks::Range, t * n, n));
    if (t > 0) st.transfers.push_back(via_switch(false, Blocks::Offset, (t - 1) * n, 1));
  }
  return b.done();
}

} // namespace ranks

// Two-level all-to-all on n ranks in levels of b (boards), both powers of two: b-1 exchanges
// inside the level (XOR x < b), each passing the peer every item bound for the peer's position
// in any level (n/b items), then n/b-1 exchanges across levels between the chips of one
// position (XOR a multiple of b), each passing every item bound for the peer's level (b items).
RankSchedule hierarchical_all_to_all(std::int64_t n, std::int64_t b) {
  Builder bl("all-to-all", n, 0);
  for (std::int64_t x = 1; x < b; ++x)
    bl.step("inside").transfers.push_back(xor_mask(x, false, b - 1, true));
  for (std::int64_t y = b; y < n; y += b)
    bl.step("across").transfers.push_back(xor_mask(y, false, (n - 1) & ~(b - 1), true));
  return bl.done();
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
