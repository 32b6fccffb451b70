// The `schedule` section: a collective as phases of store-and-forward steps of *ring transfers*.
//
// Why ring transfers and not explicit (src, dst, link) transfers: every algorithm of the family
// (Ring, HalfRing, FoldedRing, Pipeline, DimRotation, MATE) moves, in one step, the same kind of
// piece from every position of a ring to its neighbour, in every ring of a dimension at once. One
// ring transfer therefore stands for ring_count x ring_size one-hop transfers: Ring all-to-all on
// 16x16x16 is 720 ring transfers instead of 2.9 million explicit ones.
//
// Meaning of a ring transfer in a phase along dimension d with ring size N: in every ring of
// dimension d (or only in the listed rings) every chip at ring position i sends to the chip at
// position i + direction (one hop, its own link) the piece of data whose origin is the chip at
// position i + origin_offset and whose destination is the chip at position i + dest_offset (all
// mod N), of size `fraction` x block, where block = phase.block_bytes
// (= bytes_per_node / chunks / ring_size for all-to-all). Offsets are written normalised to [0, N).
//
// Rings of dimension d: the chips that share every coordinate but d. Ring id = the id of its
// position-0 chip with coordinate d removed, i.e. rings are numbered row-major over the other
// dimensions (lower dimension fastest), like chip ids. Position = coordinate d. See rings.hpp.
//
// Steps: ids are global, dense (0..S-1, each in exactly one phase) and `after` lists the steps
// that must finish before this one starts; every id in `after` is smaller than the step's own id,
// so ids are a topological order and the dependency graph cannot have a cycle. Within one chunk
// the steps must be totally ordered by `after` (transitively), since they move the same data.
// `shared_links` says the step deliberately puts more than one transfer on a directed link
// (their bytes then share its bandwidth); verification rejects it otherwise.
//
// How a logical hop is carried (hops.hpp): by default over the ring's own link in `direction`.
// FoldedRing sets fold_at = p: the hop from position p to p + direction (whose link has failed)
// goes the other way round, N-1 hops over the opposite-direction links. MATE sets via: every
// hop goes through the neighbouring ring on side `side` of dimension `dimension` (one hop there,
// one hop along the ring's dimension on that ring, one hop back): a logical link of 3 hops.
//
// Lanes: steps of one chunk that move disjoint parts of the data may run concurrently (MATEe's
// folded faulty ring beside the healthy rings' HalfRing; MATE's acceleration planes). A step's
// lane names its chain: the steps of one (chunk, lane) are totally ordered by `after`, different
// lanes need not be. Verification proves that no interleaving of the lanes can send data a node
// does not hold (verify.hpp).
#pragma once
#include "coll/rank_schedule.hpp"
#include "coll/skew.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::coll {

// An exact fraction of a block, num/den in lowest terms, 0 < num/den <= 1.
struct Fraction {
  std::int64_t num = 1, den = 1;
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  friend bool operator==(const Fraction&, const Fraction&) = default;
};
// "1", "1/2", "3/7"; throws Error(Input) naming `where` unless 0 < value <= 1 and den <= 2^31.
Fraction parse_fraction(const std::string& text, const std::string& where);
std::string to_string(const Fraction& f);
Fraction make_fraction(std::int64_t num, std::int64_t den); // reduces; same checks (Runtime)

// Reductions (phase op reduce-scatter / all-gather;
// docs/algorithms.md §Torus reductions on the ring and the folded ring): a block is one of the
// ring_size shards of the data a node holds in the phase, and `part` k of `fraction` 1/P is its
// k-th of P equal slices. A reduce-scatter transfer sends the sender's partial sum of slice k of
// block (i + origin_offset), which the receiver adds to its own; an all-gather transfer sends a
// copy of that slice (which the sender must hold complete). dest_offset is 0 for both.
struct RingTransfer {
  int direction = 1;     // +1 (clockwise, + direction of the dimension) or -1
  int origin_offset = 0; // the piece's origin is position i + origin_offset
  int dest_offset = 0;   // its destination is position i + dest_offset
  Fraction fraction;     // of a block
  std::optional<std::vector<std::int64_t>> rings; // nullopt = every ring; else sorted, unique
  int fold_at = -1; // >= 0: the hop leaving this position goes the other way round (FoldedRing)
  int via_dim = -1; // >= 0: every hop goes through the neighbouring ring in this dimension (MATE)
  int via_side = 0; // +1 / -1: which neighbouring ring (with via_dim)
  int part = 0;     // reductions: the slice of the block (fraction = 1/P, part < P)
  friend bool operator==(const RingTransfer&, const RingTransfer&) = default;
};

// A stage of a schedule between ranks: every group of every part runs `collective` (with the
// part's steps) at once on `share` of each chip's bytes_per_node; stages run one after another.
// One stage with share 1 runs the schedule's collective in every group (coll-sched --group);
// hierarchical all-reduce is reduce-scatter inside boards, all-reduce of each shard across them
// and all-gather back (rank_algorithms.hpp). Parts hold groups of different sizes (failed chips
// leave their groups), each with its own steps.
struct RankStage {
  std::string collective;
  std::string algorithm;
  Fraction share;
  std::vector<RankSchedule> parts;
  friend bool operator==(const RankStage&, const RankStage&) = default;
};

struct Step {
  std::int64_t id = 0;
  std::vector<std::int64_t> after; // sorted, unique, each < id
  bool shared_links = false;
  int lane = 0; // the chain of its chunk it belongs to (see above)
  std::vector<RingTransfer> transfers;
  friend bool operator==(const Step&, const Step&) = default;
};

// What a phase does inside each ring: an all-to-all exchange of blocks, a reduce-scatter (node at
// position j ends with block j reduced over the ring) or an all-gather (every node ends with
// every position's block j, which position j held complete).
enum class PhaseOp { AllToAll, ReduceScatter, AllGather };
std::string to_string(PhaseOp op);

struct Phase {
  std::string name; // unique; "dim0", or "chunk0/dim0" when there are several chunks
  PhaseOp op = PhaseOp::AllToAll;
  int chunk = 0;
  int dimension = 0;
  int ring_size = 0;
  // all-to-all: bytes_per_node / chunks / ring_size. Reductions: the chunk's share before the
  // phase (bytes_per_node / chunks, divided by the ring size of every reduce-scatter so far,
  // multiplied by that of every all-gather so far) / ring_size for reduce-scatter, the share
  // itself for all-gather (verify.hpp).
  double block_bytes = 0;
  std::vector<Step> steps; // ascending ids
  friend bool operator==(const Phase&, const Phase&) = default;
};

// What the library's verification established (see verify.hpp).
struct Verification {
  bool delivered = false;
  std::string method;
  std::int64_t phases_checked = 0;
  std::int64_t steps_checked = 0;
  std::int64_t rings_checked = 0;         // (phase, ring) pairs simulated
  std::int64_t pieces_checked = 0;        // (ring, origin, destination) blocks tracked
  std::int64_t hop_transfers_checked = 0; // one-hop transfers checked against faults and contention
  std::int64_t failed_links_avoided = 0;  // down links (failed, or of a failed chip) in the network
  friend bool operator==(const Verification&, const Verification&) = default;
};

// How --algorithm auto chose the schedule (auto.hpp): every applicable algorithm's simulated
// time at the schedule's size (a pipelined one at several chunk counts), the chosen one fastest.
struct Candidate {
  std::string algorithm;
  std::int64_t chunks = 0; // a pipelined algorithm's --chunks; 0: its default, or none
  double time_s = 0;       // analytic
  friend bool operator==(const Candidate&, const Candidate&) = default;
};
struct Selection {
  std::string by = "auto";
  std::vector<Candidate> candidates;
  friend bool operator==(const Selection&, const Selection&) = default;
};

struct Schedule {
  std::string collective;     // "all-to-all"
  std::string algorithm;      // registry name, "ring"
  std::string dim_scheduling; // registry name, "sequential"
  std::string fault_handling; // "none"
  std::int64_t bytes_per_node = 0;
  int chunks = 1;
  int lanes = 1; // lanes per chunk: every step's lane is < lanes
  std::vector<Phase> phases;
  // The other form (rank_schedule.hpp): a schedule between ranks over the routing, on any
  // network, as stages; phases is then empty, dim_scheduling "none", fault_handling "routing".
  std::optional<std::vector<RankStage>> stages;
  // Chips that would have been ranks but have failed: they left their groups.
  std::vector<std::int64_t> left;
  std::optional<Verification> verification;
  std::optional<Selection> selection; // when --algorithm auto chose it
  // All-to-all-v between ranks (skew.hpp): the items' sizes; absent, every item is S / n.
  std::optional<Skew> skew;
  std::string network_fingerprint;
  // The digest of the content verify() passed (digest.hpp), "" when none is recorded.
  std::string verified_digest;
  friend bool operator==(const Schedule&, const Schedule&) = default;

  std::int64_t step_count() const;
};

// Bytes of one transfer's piece: fraction x block.
inline double transfer_bytes(const Phase& p, const RingTransfer& t) {
  return p.block_bytes * static_cast<double>(t.fraction.num) / static_cast<double>(t.fraction.den);
}

// The same schedule for `bytes` per node: every block scales with bytes_per_node (schedule.hpp,
// block_bytes), nothing else changes, so what verify() established still holds. net-sim --sizes
// simulates one schedule at many sizes with it. The copy carries no verified_digest (its content
// differs from what was digested).
Schedule with_bytes(const Schedule& s, std::int64_t bytes);

// Whether a transfer of a schedule between ranks goes through a switch (in-network
// reduction, rank_schedule.hpp): the document then says what it assumes.
bool uses_switch(const Schedule& s);

} // namespace icnkit::coll
