// Delivery verification of an all-to-all schedule on a torus, exact and explicit.
//
// What is checked:
//  1. Structure: every phase's dimension exists, its ring_size is that dimension's size, its
//     block is bytes_per_node / chunks / ring_size; transfers name existing rings; fold_at is a
//     position, via names another dimension of at least 3 chips.
//  2. Order: the steps of one (chunk, lane) are totally ordered by `after` (transitively); a
//     chunk's steps along one dimension (its "dimension group": the normal phase and any
//     acceleration phases) are contiguous in id order, every step of a group waits for every
//     lane of the chunk's previous group, and each chunk has exactly one group per dimension of
//     size > 1.
//  3. Pieces, ring by ring: for every dimension group and every ring of its dimension, the amount
//     of every (holder, origin, destination) piece is tracked in integer units of 1/L block
//     (L = lcm of the group's fraction denominators, so no rounding anywhere). Initially every
//     position holds one whole block for every destination position (its own included). Steps
//     run in id order, which is a topological order; a step's transfers all read the state
//     before the step (store-and-forward: what arrives in a step can only leave in a later step),
//     and each must take an amount the sender holds in every interleaving of the group's lanes
//     (verify_pieces.cpp: per lane the running change and its minimum; the initial amount plus
//     the sum of the lanes' minima must stay >= 0). At the end every position must hold exactly
//     one whole block from every origin, destined to itself, and nothing else.
//  4. Links: no physical hop of any logical hop (one link; N-1 links at a fold; 3 links through
//     a neighbouring ring) uses a failed link or touches a failed chip, and, unless the step
//     says shared_links, no two hops of a step, over all rings, use the same directed link.
//     Two lanes of one chunk's dimension group that share a directed link must be ordered (one
//     entirely after the other): MATE's planes and the folded ring beside the healthy rings are
//     proven conflict-free. Steps of different chunks may share links: the simulator shares
//     their bandwidth (MATE's slot barriers keep its borrowed links apart, dims.hpp;
//     FoldedRing + DimRotation chunks can meet in the slow faulty dimension).
//
// Why 3 (per ring, per dimension group) proves that every (source, destination) block of the whole
// torus reaches its destination exactly once. Take one chunk, whose phases run one after the other
// (check 2), along dimensions d1, d2, ... each once. Induction over the groups: before the group
// along d, every node holds its chunk's data grouped by the destination's coordinate d, the same
// amount (one block) for every value of that coordinate, whatever the coordinates fixed so far:
// for an all-to-all every node starts with S/C spread evenly over all destinations, and a phase
// permutes whole blocks, so this stays true. A phase only moves data along d inside rings, so it
// never changes a piece's other coordinates. Check 3 shows that inside each ring the block that
// position i holds for destination position j ends, whole and undivided in total, at position j,
// and that nothing is created, lost or duplicated (amounts are conserved and end exactly at
// their destination). Hence after the phase along d every piece sits at the node whose
// coordinate d equals its destination's, with every earlier-fixed coordinate still right. After
// the last dimension all coordinates agree: every byte of every (source, destination) block is at
// its destination, exactly once. Chunks carry disjoint data, so they compose independently.
#pragma once
#include "coll/schedule.hpp"
#include "core/error.hpp"
#include "topo/network.hpp"

#include <string>

namespace icnkit::coll {

// Verifies `s` on `net` with `faults`; on success returns the statistics (delivered = true).
// On failure throws Error(on_failure, WHERE, WHAT): Runtime for a schedule our own generator
// just made (a bug), Input for a schedule read from a document. WHERE is `where` plus the JSON
// pointer of the offending phase / step / transfer (e.g. "stdin:/schedule/phases/0/steps/3").
// Rings that the same transfers serve are simulated once (their check 3 cannot differ), and
// the hops are walked once for checks 4 on tabulated neighbours; verdict, message and
// statistics are verify_all_rings()'s.
Verification verify(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                    ErrorKind on_failure, const std::string& where = "/schedule");
// The straightforward computation: every ring simulated, every hop followed through
// TorusGeometry, each multi-lane group's channels collected and intersected. The reference
// verify() is tested against.
Verification verify_all_rings(const Schedule& s, const topo::Network& net,
                              const topo::Faults& faults, ErrorKind on_failure,
                              const std::string& where = "/schedule");

} // namespace icnkit::coll
