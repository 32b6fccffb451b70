#include "coll/rank_program.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <bit>

namespace icnkit::coll {

namespace {
// Spreads kept at once, in channel entries (about 16 B each).
constexpr std::int64_t kCacheChannels = std::int64_t{1} << 24;
} // namespace

std::int64_t RankProgram::block_count(const RankSchedule& r, const RankTransfer& t,
                                      std::int64_t i) {
  switch (t.blocks) {
  case RankTransfer::Blocks::All:
    return r.blocks;
  case RankTransfer::Blocks::Offset:
    return t.count;
  case RankTransfer::Blocks::Bit: {
    std::int64_t c = 0; // destinations an odd multiple of 2^bit ahead: residues with the bit set
    const std::int64_t n = r.ranks(), p = std::int64_t{1} << t.bit;
    c = (n / (2 * p)) * p + std::max<std::int64_t>(0, n % (2 * p) - p);
    return c;
  }
  case RankTransfer::Blocks::Mask: {
    const auto nb = static_cast<std::uint64_t>(r.blocks);
    if (std::has_single_bit(nb))
      return r.blocks >> std::popcount(static_cast<std::uint64_t>(t.mask) & (nb - 1));
    std::vector<std::int64_t> b;
    transfer_blocks(r, t, i, b);
    return static_cast<std::int64_t>(b.size());
  }
  }
  return 0;
}

RankProgram::RankProgram(const Schedule& s, const topo::Network& net, const topo::Faults& faults,
                         const route::RoutingFunction& fn, route::Ecmp ecmp, std::uint64_t seed)
    : sched_(s), net_(net), spreader_(fn, net, faults, ecmp, seed) {
  if (!s.ranks) fail_runtime("rank program", "the schedule is not between ranks");
  const RankSchedule& r = *sched_.ranks;
  phases_ = r.phases;
  block_bytes_ = static_cast<double>(s.bytes_per_node) / static_cast<double>(r.blocks);
  std::map<std::string, std::int64_t> first; // a step's flows, as text -> the first such step
  for (const RankStep& st : r.steps) {
    sim::StepInfo info;
    info.after = st.after;
    info.phase = st.phase;
    steps_.push_back(std::move(info));
    std::string key;
    bool keyed = true;
    for (const RankTransfer& t : st.transfers) {
      const bool uniform = t.blocks != RankTransfer::Blocks::Mask ||
                           std::has_single_bit(static_cast<std::uint64_t>(r.blocks));
      keyed = keyed && uniform && !t.from;
      key += std::to_string(static_cast<int>(t.peer)) + ":" + std::to_string(t.k) + ":" +
             std::to_string(block_count(r, t, 0)) + ";";
    }
    std::int64_t rep = -1;
    if (keyed) {
      auto [it, fresh] = first.emplace(key, st.id);
      if (!fresh) rep = it->second;
    }
    repeats_.push_back(rep);
  }
}

const std::vector<route::Spread>& RankProgram::spreads(const RankTransfer& t) const {
  const std::pair<int, std::int64_t> key{static_cast<int>(t.peer), t.k};
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  if (cached_channels_ > kCacheChannels) {
    cache_.clear();
    cached_channels_ = 0;
  }
  const RankSchedule& r = *sched_.ranks;
  RankTransfer every = t;
  every.from.reset();
  std::vector<route::Spread> v(static_cast<std::size_t>(r.ranks()));
  for (std::int64_t i = 0; i < r.ranks(); ++i) {
    const std::int64_t q = transfer_peer(r, every, i);
    if (q < 0 || q == i) continue;
    route::Spread& sp = v[static_cast<std::size_t>(i)];
    spreader_.spread(r.chips[static_cast<std::size_t>(i)], r.chips[static_cast<std::size_t>(q)],
                     sp);
    if (!sp.delivered)
      fail_input("schedule", "the routing cannot deliver from chip " +
                                 std::to_string(r.chips[static_cast<std::size_t>(i)]) +
                                 " to chip " +
                                 std::to_string(r.chips[static_cast<std::size_t>(q)]) +
                                 (sp.reason.empty() ? "" : " (" + sp.reason + ")"));
    cached_channels_ += static_cast<std::int64_t>(sp.channels.size());
  }
  return cache_.emplace(key, std::move(v)).first->second;
}

void RankProgram::flows(std::size_t step, sim::StepFlows& out) const {
  out.clear();
  const RankSchedule& r = *sched_.ranks;
  const RankStep& st = r.steps.at(step);
  for (const RankTransfer& t : st.transfers) {
    const std::vector<route::Spread>& sp = spreads(t);
    auto emit = [&](std::int64_t i) {
      const std::int64_t q = transfer_peer(r, t, i);
      if (q < 0 || q == i) return;
      const route::Spread& p = sp[static_cast<std::size_t>(i)];
      const double bytes = static_cast<double>(block_count(r, t, i)) * block_bytes_;
      out.add_split(r.chips[static_cast<std::size_t>(i)], r.chips[static_cast<std::size_t>(q)],
                    bytes, p.channels, p.shares);
    };
    if (t.from)
      for (std::int64_t i : *t.from) emit(i);
    else
      for (std::int64_t i = 0; i < r.ranks(); ++i) emit(i);
  }
}

std::int64_t check_rank_paths(const RankSchedule& r, const topo::Network& net,
                              const topo::Faults& faults, const route::RoutingFunction& fn,
                              const std::string& where) {
  const std::vector<char> down = faults.down_chips(net);
  for (std::size_t k = 0; k < r.chips.size(); ++k) {
    const std::int64_t c = r.chips[k];
    if (c < 0 || c >= net.n_chip)
      fail_input(where + "/ranks/chips/" + std::to_string(k),
                 "chip " + std::to_string(c) + " does not exist");
    if (down[static_cast<std::size_t>(c)])
      fail_input(where + "/ranks/chips/" + std::to_string(k),
                 "chip " + std::to_string(c) + " has failed; it cannot be a rank");
  }
  route::Spreader sp(fn, net, faults, route::Ecmp::Split);
  route::Spread p;
  std::vector<std::pair<int, std::int64_t>> seen;
  std::int64_t pairs = 0;
  for (std::size_t s = 0; s < r.steps.size(); ++s)
    for (std::size_t k = 0; k < r.steps[s].transfers.size(); ++k) {
      const RankTransfer& t = r.steps[s].transfers[k];
      const std::pair<int, std::int64_t> key{static_cast<int>(t.peer), t.k};
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(key);
      for (std::int64_t i = 0; i < r.ranks(); ++i) {
        const std::int64_t q = transfer_peer(r, t, i);
        if (q < 0) continue;
        if (q == i)
          fail_input(where + "/ranks/steps/" + std::to_string(s) + "/transfers/" +
                         std::to_string(k),
                     "rank " + std::to_string(i) + " would send to itself");
        const std::int64_t a = r.chips[static_cast<std::size_t>(i)],
                           b = r.chips[static_cast<std::size_t>(q)];
        sp.spread(a, b, p);
        ++pairs;
        if (!p.delivered)
          fail_infeasible(
              where + "/ranks/steps/" + std::to_string(s) + "/transfers/" + std::to_string(k),
              "the routing cannot deliver from chip " + std::to_string(a) + " to chip " +
                  std::to_string(b) + (p.reason.empty() ? "" : " (" + p.reason + ")"));
      }
    }
  return pairs;
}

} // namespace icnkit::coll
