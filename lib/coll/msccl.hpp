// Export of a verified schedule as MSCCL-IR, the XML that msccl-tools, TACCL and ForestColl
// produce and the MSCCL executor of NCCL / RCCL runs: an <algo> of <gpu>s, each of threadblocks
// (<tb>, at most one send peer and one receive peer each) running <step>s in order, with one
// cross-threadblock dependency per step (depid / deps; further ones as nop steps before it).
//
// How the schedule maps (msccl.cpp has the details):
//  - GPUs are the ranks' chips numbered by ascending chip id (a torus: every chip, its id).
//  - The buffer is cut into nchunksperloop chunks, fine enough that every piece the schedule moves
//    is a whole run of chunks: all-reduce, reduce-scatter, all-gather: n per rank (a rule block
//    is the chunk of the GPU it belongs to), or for a torus ring-form or hierarchical all-reduce
//    the common refinement of every phase's (stage's) blocks and slices; all-to-all: n x U, GPU
//    d's part of the input being chunks d*U .. d*U+U-1, U = 1 between ranks, or for ring
//    transfers the schedule's chunks x the least common denominator of the fractions (a piece
//    of fraction a/b of a block is a/b of the units of its items; which ones each direction
//    takes is decided by holding order, consistently hop after hop).
//  - Threadblocks: each peer's connection, per direction, in one threadblock; a threadblock
//    takes one send and one receive peer (the same peer's first: an exchange; a ring's two
//    neighbours share one); local copies in a threadblock of their own. One channel.
//  - Reductions work in the output buffer (reduce-scatter: the scratch buffer) after one local
//    copy of the input; all-to-all items stay in the input until they leave, wait in the scratch
//    buffer at intermediate GPUs (Bruck, torus dimensions) and land in the output at their
//    destination.
//  - Every transfer of a step is a send at the sender and a receive (copy) or receive-reduce-copy
//    at the receiver, per run of chunks contiguous on both sides. Dependencies are derived from
//    the buffers: an operation waits for the last write of every chunk it reads or writes, and
//    a write for every read since, so the XML runs the steps' store-and-forward semantics in any
//    order the executor picks; sends of a step come before its receives, every dependency points
//    to an earlier operation, so it cannot deadlock (sends are buffered, as a loop's chunks fit
//    the connection's buffer).
#pragma once
#include "coll/schedule.hpp"

#include <string>

namespace icnkit::coll {

// MSCCL-IR of `s` named `name` (XML-escaped). Exported: single-group schedules between ranks of
// all-reduce, reduce-scatter, all-gather and all-to-all; the hierarchical all-reduce's stages as
// one all-reduce; torus ring-form all-reduce and all-to-all (any dimension scheduling) without
// faults to avoid (no folds, no hops via another ring, one lane per chunk). Refused with
// Error(Infeasible) and a one-line reason: several groups at once (MSCCL-IR is one collective
// over all its GPUs), broadcast and reduce, and the torus's ring reduce-scatter / all-gather
// (they leave a chip a part of the buffer other than its GPU's), and programs beyond the MSCCL
// executor's limits (256 steps per threadblock, 32 threadblocks per channel), which it would
// not load.
std::string to_msccl_xml(const Schedule& s, const std::string& name);

} // namespace icnkit::coll
