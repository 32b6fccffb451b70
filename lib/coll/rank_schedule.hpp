// A collective on any network: steps of transfers between ranks (chips), each moving named
// blocks of the buffer, described by rule so that a 16,384-rank ring all-reduce is 32,766 steps
// of one rule each rather than half a billion explicit transfers. The flows a transfer makes
// follow the network's routing (route/spread.hpp), so one schedule runs on a fat-tree, a
// dragonfly, a HyperX or a torus alike. The torus ring schedules (schedule.hpp) are the other
// form of the `schedule` section; a schedule is one or the other (Schedule::ranks).
//
// A RankSchedule is the steps every one of its groups runs at once (the groups share the network,
// as the groups of a training job do): ranks 0..n-1 of a group are its chips in order
// (rank_order(): packaging order, so a ring's neighbours share a board, then a rack, then a pod
// where they can). Every rank's buffer of S bytes (the stage's share of bytes_per_node) is cut
// into `blocks` equal blocks:
//  - reduce-scatter, all-gather: k n blocks (k >= 1, 1 but for a bidirectional ring's halves);
//    block b is the b-th of them in the buffer and rank b / k's (reduce-scatter leaves it reduced
//    there; all-gather starts with it there);
//  - all-to-all: n blocks; block d of rank o is o's data for rank d, an "item" (o, d);
//  - all-reduce: any number of equal blocks (n for the ring, halving-doubling and direct; the
//    pipeline's chunks for the trees), every one reduced everywhere at the end;
//  - broadcast, reduce: any number of equal blocks (1 unless pipelined), root = rank `root`.
//
// A transfer rule, applied by every sender rank i (every rank, or the ranks in `from`):
//  - peer q: shift k: q = (i + k) mod n; xor k: q = i XOR k (for every sender q < n);
//    or via the group's switch (in-network reduction, NVLS/SHARP-like: an assumption that the
//    switch can add and multicast), `switches` naming it per group, a switch every rank of the
//    group has a link to. A reduce through the switch sends every sender's partial sums of its
//    blocks up; the switch adds them and delivers block b's sum to its owner, rank b mod n
//    (what the owner had plus every other sender's partial sum). A copy through the switch sends
//    every sender's complete blocks up and the switch writes them to every rank of the group.
//    Traffic: each sender's blocks go up its links to the switch; a reduce sends each owner
//    its blocks' bytes down, a copy every sender's blocks down to every rank, the sender
//    included (NVLS's multimem load-reduce and multicast store, which read and write every
//    rank's memory through the switch). Blocks by offset, range or all.
//  - blocks (b ranges over 0..blocks-1):
//      offset o, count c: blocks (i + o + j) mod blocks, j = 0..c-1 (relative to the sender);
//        with stride s and start a (s divides blocks, a < s): blocks a + s ((i + o + j) mod
//        (blocks / s)), one of s interleaved rings of blocks (a bidirectional ring's halves);
//      first f, count c: blocks f .. f+c-1 whatever the sender (a pipeline's chunk);
//      mask M, ref peer|self: the blocks b with b & M == ref & M (ref = q or i);
//      bit t (all-to-all only): the items the sender holds whose (destination - i) mod n has
//        bit t set (Bruck's exchange);
//      all: every block.
//    For all-to-all, offset/mask select the items the sender holds by destination.
//  - op: copy (the receiver gets the sender's complete block; all-to-all items move: the sender
//    no longer holds them) or reduce (the receiver adds the sender's partial sum of the block to
//    its own).
// Steps run store-and-forward: a step's transfers read the state before the step, and a step
// starts when the steps in its `after` list have finished. Each transfer of a step is one flow
// per (sender, peer) of all its blocks' bytes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::coll {

// Whether `collective` ties its blocks to ranks (reduce-scatter, all-gather: k blocks a rank,
// block b rank b / k's; all-to-all: one item per destination) rather than leaving their number
// to the algorithm.
bool blocks_are_ranks(const std::string& collective);
// Blocks per rank of such a collective: blocks / n.
inline std::int64_t blocks_per_rank(std::int64_t blocks, std::int64_t n) {
  return n > 0 ? blocks / n : 1;
}

struct RankTransfer {
  enum class Peer { Shift, Xor, Switch };
  enum class Blocks { Offset, Mask, Bit, All, Range };
  Peer peer = Peer::Shift;
  std::int64_t k = 1; // shift (0 < k < n) or xor (0 < k) amount; 0 via the switch
  bool reduce = false;
  std::optional<std::vector<std::int64_t>> from; // sender ranks, ascending; nullopt: every rank
  Blocks blocks = Blocks::Offset;
  std::int64_t offset = 0, count = 1; // Offset; Range: offset is the first block
  std::int64_t stride = 1, start = 0; // Offset: every stride-th block from start
  std::int64_t mask = 0;              // Mask
  bool match_peer = true;             // Mask: ref = the peer (true) or the sender (false)
  int bit = 0;                        // Bit
  friend bool operator==(const RankTransfer&, const RankTransfer&) = default;
};

struct RankStep {
  std::int64_t id = 0;
  std::vector<std::int64_t> after; // ascending, each < id
  int phase = 0;                   // index into RankSchedule::phases
  std::vector<RankTransfer> transfers;
  friend bool operator==(const RankStep&, const RankStep&) = default;
};

struct RankSchedule {
  // Groups of n chips each (n >= 1), rank -> chip id; no chip in two groups.
  std::vector<std::vector<std::int64_t>> groups;
  // Per group, the switch node its transfers via the switch go through; empty when none does.
  std::vector<std::int64_t> switches;
  std::int64_t blocks = 1;
  std::int64_t root = 0;           // broadcast / reduce
  std::vector<std::string> phases; // names, e.g. "reduce-scatter", "all-gather"
  std::vector<RankStep> steps;     // ids 0..S-1 in order
  friend bool operator==(const RankSchedule&, const RankSchedule&) = default;

  std::int64_t ranks() const {
    return groups.empty() ? 0 : static_cast<std::int64_t>(groups.front().size());
  }
};

// a mod n in [0, n) for any a (ranks and blocks wrap around).
inline std::int64_t rank_mod(std::int64_t a, std::int64_t n) {
  const std::int64_t r = a % n;
  return r < 0 ? r + n : r;
}

// The blocks one transfer moves from sender i (ascending, each once), under the schedule's
// collective. For Blocks::Bit, which depends on what the sender holds, the candidates: every
// block d whose (d - i) mod n has the bit (all-to-all item destinations).
void transfer_blocks(const RankSchedule& r, const RankTransfer& t, std::int64_t i,
                     std::vector<std::int64_t>& out);
// Whether any transfer goes through the group's switch (in-network reduction).
bool uses_switch(const RankSchedule& r);
// What such a schedule assumes of the hardware (the document's `assumes`).
inline constexpr const char* kSwitchReduction =
    "switches that add and multicast (NVLink SHARP, InfiniBand SHARP)";
// The peer of sender i, or -1 when it has none (xor beyond n) or the transfer goes through the
// switch.
std::int64_t transfer_peer(const RankSchedule& r, const RankTransfer& t, std::int64_t i);
// Whether rank i sends in this transfer (every rank, or one listed in `from`).
bool sends(const RankTransfer& t, std::int64_t i);

} // namespace icnkit::coll
