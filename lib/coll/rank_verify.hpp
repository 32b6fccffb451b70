// What every rank ends with under a schedule between ranks (rank_schedule.hpp), proven by
// simulating the buffers symbolically rather than trusting the generator.
//
// The state, per rank and block:
//  - reductions (all-reduce, reduce-scatter, all-gather, broadcast, reduce): the set of ranks
//    whose contribution the rank's copy of the block holds, as an n-bit set. All-reduce,
//    reduce-scatter and reduce start with {i} in every block of rank i, all-gather with rank i's
//    block i complete (all n ranks) and nothing else, broadcast with the root's block complete.
//    A reduce needs a non-empty partial sum whose ranks the receiver does not hold yet (else a
//    contribution would be counted twice) and gives the receiver the union; several reduces
//    into one block in a step must be pairwise disjoint too. A copy needs the sender's block
//    complete and makes the receiver's complete. "Complete" is exact: every rank once.
//  - all-to-all: the n x n items (origin, destination); rank o starts with every (o, d). A
//    transfer moves every item the sender holds that its rule selects (by destination) to the
//    peer; selecting nothing is an error, and so is one step selecting the same items twice
//    (they would be duplicated).
// Steps must form a chain (step k waits for step k-1) and run store-and-forward: every transfer
// of a step reads the state before the step. At the end every rank must hold every block
// complete (all-reduce, all-gather, broadcast), rank b its block b (reduce-scatter), the root
// its buffer (reduce), or every item must sit at its destination, once (all-to-all).
//
// Two ways of simulating it, the verdict being the same (tests/unit/coll/test_rank_verify.cpp):
//  - General: every rank's state, n x blocks x n bits for reductions, in batches of blocks of
//    32 MB (blocks never mix; n <= 16,384 and n x blocks x n <= 2^36 bits in all) and n x n item
//    counts for all-to-all (n <= 4096).
//  - Symmetric, whatever n: when every transfer sends from every rank to a shift peer with an
//    offset, all or bit rule (or to an xor peer with a mask or all rule, n a power of two), and
//    the collective has no root and one block per rank, relabelling rank r as r + c (or r XOR c)
//    maps the schedule and its initial and final states onto themselves. Every rank's state is then
//    rank 0's, relabelled: state[i][b] = state[0][b - i] + i (resp. state[0][b ^ i] ^ i), and a
//    violation anywhere is a violation at rank 0. Only rank 0 is simulated, receiving from rank -k
//    (resp. k), so a 16,384-rank ring all-reduce costs n blocks of n bits (32 MB), not n^3 bits.
//    All-to-all tracks rank 0's items only, by remaining distance d - holder (resp. d ^ holder),
//    since every rule selects by it.
// Counts (steps, transfers, pieces) are those of the whole schedule whichever way it was proven.
#pragma once
#include "coll/rank_schedule.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <string>

namespace icnkit::coll {

struct RankCheck {
  std::int64_t steps_checked = 0;
  std::int64_t transfers_checked = 0; // (sender, peer) pairs over all steps
  std::int64_t pieces_checked = 0;    // (rank, block) states, or all-to-all items
  std::string method;
};

// Automatic uses a symmetric simulation whenever one applies; General forces the full one (for
// tests comparing the two).
enum class RankSimulation { Automatic, General };

// Proves that every rank ends with exactly what `collective` defines (see above). Throws
// Error(on_failure, where + "/steps/<id>[/transfers/<k>]", one line) at the first violation,
// where + "/blocks" or "/root" for a header that does not fit the collective, and `where` itself
// when the final state is wrong or the schedule is too large for the general simulation.
RankCheck verify_rank_semantics(const RankSchedule& r, const std::string& collective,
                                ErrorKind on_failure, const std::string& where,
                                RankSimulation how = RankSimulation::Automatic);

} // namespace icnkit::coll
