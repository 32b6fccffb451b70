#include "coll/rank_schedule.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <bit>

namespace icnkit::coll {

bool blocks_are_ranks(const std::string& c) {
  return c == "reduce-scatter" || c == "all-gather" || c == "all-to-all";
}

bool sends(const RankTransfer& t, std::int64_t i) {
  return !t.from || std::binary_search(t.from->begin(), t.from->end(), i);
}

bool uses_switch(const RankSchedule& r) {
  for (const RankStep& s : r.steps)
    for (const RankTransfer& t : s.transfers)
      if (t.peer == RankTransfer::Peer::Switch) return true;
  return false;
}

std::int64_t transfer_peer(const RankSchedule& r, const RankTransfer& t, std::int64_t i) {
  const std::int64_t n = r.ranks();
  if (t.peer == RankTransfer::Peer::Switch) return -1;
  if (t.peer == RankTransfer::Peer::Shift) return rank_mod(i + t.k, n);
  const std::int64_t q = i ^ t.k;
  return q < n ? q : -1;
}

void transfer_blocks(const RankSchedule& r, const RankTransfer& t, std::int64_t i,
                     std::vector<std::int64_t>& out) {
  out.clear();
  const std::int64_t nb = r.blocks, n = r.ranks();
  switch (t.blocks) {
  case RankTransfer::Blocks::All:
    for (std::int64_t b = 0; b < nb; ++b) out.push_back(b);
    break;
  case RankTransfer::Blocks::Offset:
    for (std::int64_t j = 0; j < t.count; ++j)
      out.push_back(t.start + t.stride * rank_mod(i + t.offset + j, nb / t.stride));
    std::sort(out.begin(), out.end());
    break;
  case RankTransfer::Blocks::Range:
    for (std::int64_t j = 0; j < t.count; ++j) out.push_back(t.offset + j);
    break;
  case RankTransfer::Blocks::Mask: {
    // The fixed bits plus every subset of the free ones, in increasing order: testing every
    // block would make a pairwise exchange cost n^3 rather than n^2.
    const auto unb = static_cast<std::uint64_t>(nb);
    const std::uint64_t span = std::bit_ceil(unb) - 1; // every bit some block number has
    const auto mask = static_cast<std::uint64_t>(t.mask);
    const std::uint64_t fixed =
        static_cast<std::uint64_t>(t.match_peer ? transfer_peer(r, t, i) : i) & mask;
    const std::uint64_t free = span & ~mask;
    if (fixed & ~span) break; // a bit no block number has
    std::uint64_t sub = 0;
    do {
      const std::uint64_t b = fixed | sub;
      if (b >= unb) break;
      out.push_back(static_cast<std::int64_t>(b));
      sub = (sub - free) & free;
    } while (sub != 0);
    break;
  }
  case RankTransfer::Blocks::Bit:
    for (std::int64_t d = 0; d < n; ++d)
      if ((rank_mod(d - i, n) >> t.bit) & 1) out.push_back(d);
    break;
  }
}

} // namespace icnkit::coll
