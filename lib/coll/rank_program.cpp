#include "coll/rank_program.hpp"

#include "coll/in_network.hpp"
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
  case RankTransfer::Blocks::Range:
    return t.count;
  case RankTransfer::Blocks::Bit: {
    // Destinations an odd multiple of 2^bit ahead: the residues below n with the bit set.
    const std::int64_t n = r.ranks(), p = std::int64_t{1} << t.bit;
    return (n / (2 * p)) * p + std::max<std::int64_t>(0, n % (2 * p) - p);
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
                         const route::RoutingFunction& fn, route::Ecmp ecmp, std::uint64_t seed,
                         bool symmetry)
    : sched_(s), spreader_(fn, net, faults, ecmp, seed) {
  if (!s.stages) fail_runtime("rank program", "the schedule is not between ranks");
  const auto& stages = *sched_.stages;
  const bool prefix = stages.size() > 1;
  std::vector<std::int64_t> prev_ends;       // the last step of every part of the stage before
  std::map<std::string, std::int64_t> first; // a step's flows, as text -> the first such step
  for (std::size_t g = 0; g < stages.size(); ++g) {
    const RankStage& st = stages[g];
    block_bytes_.push_back(static_cast<double>(s.bytes_per_node) * st.share.value());
    std::vector<std::int64_t> ends;
    for (std::size_t p = 0; p < st.parts.size(); ++p) {
      const RankSchedule& r = st.parts[p];
      const auto base = static_cast<std::int64_t>(steps_.size());
      // Through a switch, a step's flows all take the latency of a chip's way up and down.
      double switch_latency = 0;
      if (uses_switch(r)) {
        const auto links = switch_links(net, faults.down_links(net), r.groups, r.switches);
        auto& ports = ports_[{g, p}];
        ports.resize(r.groups.size());
        for (std::size_t gi = 0; gi < r.groups.size(); ++gi)
          for (std::size_t i = 0; i < links[gi].size(); ++i) {
            const std::vector<std::int64_t>& ls = links[gi][i];
            if (ls.empty())
              fail_input("schedule", "chip " + std::to_string(r.groups[gi][i]) +
                                         " has no live link to switch " +
                                         std::to_string(r.switches[gi]));
            SwitchPort& port = ports[gi].emplace_back();
            double lat = 0;
            for (std::int64_t l : ls) {
              const topo::Link& k = net.links[static_cast<std::size_t>(l)];
              const bool fwd = k.a == r.groups[gi][i];
              port.up.push_back(topo::channel_of(l, fwd));
              port.down.push_back(topo::channel_of(l, !fwd));
              port.shares.push_back(1.0 / static_cast<double>(ls.size()));
              lat = std::max(lat, k.latency_s);
            }
            switch_latency = std::max(switch_latency, 2 * lat);
          }
      }
      for (std::size_t j = 0; j < r.steps.size(); ++j) {
        const RankStep& rs = r.steps[j];
        sim::StepInfo info;
        if (j == 0)
          info.after = prev_ends;
        else
          for (std::int64_t a : rs.after) info.after.push_back(base + a);
        const std::string name = (prefix ? "stage" + std::to_string(g) + "/" : std::string()) +
                                 r.phases[static_cast<std::size_t>(rs.phase)];
        auto it = std::find(phases_.begin(), phases_.end(), name);
        info.phase = static_cast<int>(it - phases_.begin());
        if (it == phases_.end()) phases_.push_back(name);
        if (!rs.transfers.empty() &&
            std::all_of(rs.transfers.begin(), rs.transfers.end(),
                        [](const RankTransfer& t) { return t.peer == RankTransfer::Peer::Switch; }))
          info.latency_s = switch_latency;
        steps_.push_back(std::move(info));
        where_.push_back({g, p, j});
        std::string key = std::to_string(g) + "/" + std::to_string(p) + ":";
        bool keyed = true;
        for (const RankTransfer& t : rs.transfers) {
          const bool uniform = t.blocks != RankTransfer::Blocks::Mask ||
                               std::has_single_bit(static_cast<std::uint64_t>(r.blocks));
          keyed = keyed && uniform && !t.from;
          key += std::to_string(static_cast<int>(t.peer)) + ":" + std::to_string(t.k) + ":" +
                 std::to_string(block_count(r, t, 0)) + ";";
        }
        std::int64_t rep = -1;
        if (keyed && !s.skew) { // all-to-all-v: every step's items differ in size
          auto [at, fresh] = first.emplace(key, static_cast<std::int64_t>(steps_.size()) - 1);
          if (!fresh) rep = at->second;
        }
        repeats_.push_back(rep);
        // A repeat that starts alone is not generated (its first occurrence's figures stand
        // for it): its peer rules count as used once, so a direct all-reduce's all-gather does
        // not make its reduce-scatter's million spreads be kept.
        if (rep < 0)
          for (const RankTransfer& t : rs.transfers)
            ++uses_[std::make_tuple(g, p, static_cast<int>(t.peer), t.k)];
      }
      if (!r.steps.empty()) ends.push_back(static_cast<std::int64_t>(steps_.size()) - 1);
    }
    if (!ends.empty()) prev_ends = std::move(ends);
  }
  if (phases_.empty()) phases_.push_back("none");
  if (s.skew) item_bytes();
  // All-to-all-v items differ in size and switch transfers leave the chips: no quotient.
  if (symmetry && !s.skew && !uses_switch(s))
    for (sim::ChipGroup& g : sim::chip_groups(net, faults, fn, ecmp))
      if (invariant(g, net.n_chip)) {
        in_domain_.assign(static_cast<std::size_t>(net.n_chip), 0);
        for (std::int64_t c : g.sources) in_domain_[static_cast<std::size_t>(c)] = 1;
        orbits_ =
            sim::FlowOrbits{std::move(g.channel_rep), g.order, std::move(g.channel_stabilizer)};
        break;
      }
}

namespace {
// The symmetry check keeps an n x n table of the step's pairs and visits every flow of the
// program once per generator: bounded to 4,096 chips and 2^26 flows.
constexpr std::int64_t kSymmetryChips = 4096;
constexpr std::int64_t kSymmetryFlows = std::int64_t{1} << 26;
} // namespace

bool RankProgram::invariant(const sim::ChipGroup& g, std::int64_t chips) const {
  if (chips > kSymmetryChips || g.generators.empty()) return false;
  std::int64_t total = 0;
  for (const Where& w : where_) {
    const RankSchedule& r = (*sched_.stages)[w.stage].parts[w.part];
    total += static_cast<std::int64_t>(r.steps[w.step].transfers.size()) * r.ranks() *
             static_cast<std::int64_t>(r.groups.size());
  }
  if (total > kSymmetryFlows) return false;
  const auto N = static_cast<std::size_t>(chips);
  // count + 1 of the step's flow from a to b at [a * N + b] (0: none).
  std::vector<std::int32_t> pair(N * N, 0);
  struct F {
    std::int64_t a, b;
    std::int32_t c;
  };
  std::vector<F> flows;
  for (const Where& w : where_) {
    const RankSchedule& r = (*sched_.stages)[w.stage].parts[w.part];
    flows.clear();
    bool ok = true;
    for (const RankTransfer& t : r.steps[w.step].transfers)
      for (const auto& grp : r.groups)
        for (std::int64_t i = 0; i < r.ranks() && ok; ++i) {
          if (!sends(t, i)) continue;
          const std::int64_t q = transfer_peer(r, t, i);
          if (q < 0 || q == i) continue;
          const std::int64_t a = grp[static_cast<std::size_t>(i)],
                             b = grp[static_cast<std::size_t>(q)];
          std::int32_t& cell = pair[static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b)];
          if (cell != 0) ok = false; // a pair twice in a step: not checked, no quotient
          cell = static_cast<std::int32_t>(block_count(r, t, i) + 1);
          flows.push_back({a, b, cell});
        }
    for (const std::vector<std::int64_t>& gen : g.generators)
      for (const F& f : flows) {
        if (!ok) break;
        ok = pair[static_cast<std::size_t>(gen[static_cast<std::size_t>(f.a)]) * N +
                  static_cast<std::size_t>(gen[static_cast<std::size_t>(f.b)])] == f.c;
      }
    for (const F& f : flows)
      pair[static_cast<std::size_t>(f.a) * N + static_cast<std::size_t>(f.b)] = 0;
    if (!ok) return false;
  }
  return true;
}

// All-to-all-v: the items each transfer moves, followed from their origins step by step. A
// holder's items for one destination always move together (every rule selects by destination),
// so held[i * n + d] sums them: the bytes rank i holds for rank d.
void RankProgram::item_bytes() {
  const RankStage& st = sched_.stages->front(); // one stage: the parser and generator refuse more
  for (const RankSchedule& r : st.parts) {
    const std::int64_t n = r.ranks();
    const auto N = static_cast<std::size_t>(n);
    std::vector<double> held = skew_bytes(*sched_.skew, n, block_bytes_.front(), "/schedule/skew");
    std::vector<double> change(N * N, 0.0);
    std::vector<std::int64_t> dests;
    for (const RankStep& rs : r.steps) {
      std::vector<double>& out = item_bytes_.emplace_back(rs.transfers.size() * N, 0.0);
      for (std::size_t k = 0; k < rs.transfers.size(); ++k) {
        const RankTransfer& t = rs.transfers[k];
        for (std::int64_t i = 0; i < n; ++i) {
          if (!sends(t, i)) continue;
          const std::int64_t q = transfer_peer(r, t, i);
          if (q < 0 || q == i) continue;
          transfer_blocks(r, t, i, dests);
          double sum = 0;
          for (std::int64_t d : dests) {
            const double b = held[static_cast<std::size_t>(i) * N + static_cast<std::size_t>(d)];
            sum += b;
            change[static_cast<std::size_t>(i) * N + static_cast<std::size_t>(d)] -= b;
            change[static_cast<std::size_t>(q) * N + static_cast<std::size_t>(d)] += b;
          }
          out[k * N + static_cast<std::size_t>(i)] = sum;
        }
      }
      for (std::size_t c = 0; c < held.size(); ++c) {
        held[c] += change[c];
        change[c] = 0;
      }
    }
  }
}

void RankProgram::spread(std::int64_t from, std::int64_t to, route::Spread& sp) const {
  spreader_.spread(from, to, sp);
  if (!sp.delivered)
    fail_input("schedule", "the routing cannot deliver from chip " + std::to_string(from) +
                               " to chip " + std::to_string(to) +
                               (sp.reason.empty() ? "" : " (" + sp.reason + ")"));
}

const std::vector<route::Spread>& RankProgram::spreads(std::size_t stage, std::size_t part,
                                                       const RankTransfer& t) const {
  const auto key = std::make_tuple(stage, part, static_cast<int>(t.peer), t.k);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  if (cached_channels_ > kCacheChannels) {
    cache_.clear();
    cached_channels_ = 0;
  }
  const RankSchedule& r = (*sched_.stages)[stage].parts[part];
  RankTransfer every = t;
  every.from.reset();
  const std::int64_t n = r.ranks();
  std::vector<route::Spread> v(r.groups.size() * static_cast<std::size_t>(n));
  for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
    const std::vector<std::int64_t>& chips = r.groups[gi];
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t q = transfer_peer(r, every, i);
      if (q < 0 || q == i) continue;
      route::Spread& sp = v[gi * static_cast<std::size_t>(n) + static_cast<std::size_t>(i)];
      spread(chips[static_cast<std::size_t>(i)], chips[static_cast<std::size_t>(q)], sp);
      cached_channels_ += static_cast<std::int64_t>(sp.channels.size());
    }
  }
  return cache_.emplace(key, std::move(v)).first->second;
}

void RankProgram::flows(std::size_t step, sim::StepFlows& out) const {
  out.clear();
  const Where w = where_.at(step);
  const RankSchedule& r = (*sched_.stages)[w.stage].parts[w.part];
  const RankStep& st = r.steps[w.step];
  const std::int64_t n = r.ranks();
  const double block_bytes = block_bytes_[w.stage] / static_cast<double>(r.blocks);
  for (const RankTransfer& t : st.transfers) {
    if (t.peer == RankTransfer::Peer::Switch) {
      switch_flows(w, t, block_bytes, out);
      continue;
    }
    // A peer rule used by one transfer only (a direct all-to-all's n-1 shifts) is spread as it
    // goes: keeping its n spreads would only cost memory. So is every flow of a quotient,
    // whose few senders would not use the rule's other spreads.
    const bool once =
        orbits_ || uses_.at(std::make_tuple(w.stage, w.part, static_cast<int>(t.peer), t.k)) == 1;
    const std::vector<route::Spread>* sp = once ? nullptr : &spreads(w.stage, w.part, t);
    for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
      const std::vector<std::int64_t>& chips = r.groups[gi];
      auto emit = [&](std::int64_t i) {
        const std::int64_t q = transfer_peer(r, t, i);
        if (q < 0 || q == i) return;
        if (orbits_ && !in_domain_[static_cast<std::size_t>(chips[static_cast<std::size_t>(i)])])
          return; // its orbit's representative stands for it
        if (once)
          spread(chips[static_cast<std::size_t>(i)], chips[static_cast<std::size_t>(q)], scratch_);
        const route::Spread& p =
            once ? scratch_ : (*sp)[gi * static_cast<std::size_t>(n) + static_cast<std::size_t>(i)];
        const double bytes =
            sched_.skew ? item_bytes_[step][static_cast<std::size_t>(&t - st.transfers.data()) *
                                                static_cast<std::size_t>(n) +
                                            static_cast<std::size_t>(i)]
                        : static_cast<double>(block_count(r, t, i)) * block_bytes;
        if (orbits_) {
          rep_channels_.clear();
          for (std::int64_t ch : p.channels)
            rep_channels_.push_back(orbits_->channel_rep[static_cast<std::size_t>(ch)]);
        }
        out.add_split(chips[static_cast<std::size_t>(i)], chips[static_cast<std::size_t>(q)], bytes,
                      orbits_ ? rep_channels_ : p.channels, p.shares);
      };
      if (t.from)
        for (std::int64_t i : *t.from) emit(i);
      else
        for (std::int64_t i = 0; i < n; ++i) emit(i);
    }
  }
}

void RankProgram::switch_flows(const Where& w, const RankTransfer& t, double block_bytes,
                               sim::StepFlows& out) const {
  const RankSchedule& r = (*sched_.stages)[w.stage].parts[w.part];
  const auto& ports = ports_.at({w.stage, w.part});
  const std::int64_t n = r.ranks();
  block_seen_.assign(static_cast<std::size_t>(r.blocks), 0);
  for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
    const std::vector<std::int64_t>& chips = r.groups[gi];
    const std::int64_t sw = r.switches[gi];
    owner_bytes_.assign(static_cast<std::size_t>(n), 0.0);
    double multicast = 0;
    auto up = [&](std::int64_t i) {
      transfer_blocks(r, t, i, blocks_);
      const double bytes = static_cast<double>(blocks_.size()) * block_bytes;
      const SwitchPort& p = ports[gi][static_cast<std::size_t>(i)];
      out.add_split(chips[static_cast<std::size_t>(i)], sw, bytes, p.up, p.shares);
      if (!t.reduce) {
        multicast += bytes;
        return;
      }
      // The switch sums every sender's partials of a block into one, for the block's owner.
      for (std::int64_t b : blocks_)
        if (!block_seen_[static_cast<std::size_t>(b)]) {
          block_seen_[static_cast<std::size_t>(b)] = 1;
          owner_bytes_[static_cast<std::size_t>(b % n)] += block_bytes;
        }
    };
    if (t.from)
      for (std::int64_t i : *t.from) up(i);
    else
      for (std::int64_t i = 0; i < n; ++i) up(i);
    for (std::int64_t o = 0; o < n; ++o) {
      const double bytes = t.reduce ? owner_bytes_[static_cast<std::size_t>(o)] : multicast;
      if (bytes <= 0) continue;
      const SwitchPort& p = ports[gi][static_cast<std::size_t>(o)];
      out.add_split(sw, chips[static_cast<std::size_t>(o)], bytes, p.down, p.shares);
    }
    if (t.reduce) std::fill(block_seen_.begin(), block_seen_.end(), char{0});
  }
}

std::vector<std::int64_t> participants(const Schedule& s) {
  std::vector<std::int64_t> all;
  for (const RankSchedule& r : s.stages->front().parts)
    for (const auto& g : r.groups) all.insert(all.end(), g.begin(), g.end());
  std::sort(all.begin(), all.end());
  return all;
}

std::int64_t group_size(const Schedule& s) {
  if (s.stages->size() > 1) return static_cast<std::int64_t>(participants(s).size());
  std::int64_t n = 0;
  for (const RankSchedule& r : s.stages->front().parts) n = std::max(n, r.ranks());
  return n;
}

namespace {
// Above this many chips the pairs' table (one bit per ordered pair) is not kept.
constexpr std::int64_t kSymmetricPathChips = 8192;
} // namespace

std::int64_t check_rank_paths(const Schedule& s, const topo::Network& net,
                              const topo::Faults& faults, const route::RoutingFunction& fn,
                              const std::string& where, std::int64_t& by_symmetry) {
  const std::vector<char> down = faults.down_chips(net);
  const std::vector<char> down_links = faults.down_links(net);
  // Delivery along trace()'s path decides it for every spread too: a split that succeeds only
  // follows permitted live choices to the destination (trace takes one of them), and a split
  // that cannot falls back to that very path (route/spread.hpp). One path per pair is cheap.
  const std::int64_t max_hops = 2 * static_cast<std::int64_t>(net.nodes.size()) + 8;
  std::int64_t pairs = 0;
  // A symmetry g of the network that the routing respects (sim/chip_group.hpp: found on
  // fault-free networks only) maps the spread from a to b onto the spread from g(a) to g(b), so
  // the one delivers exactly when the other does: one trace per orbit of pairs decides them all
  // (a 1,024-chip ring's direct all-reduce: 1,023 traces instead of 1,047,552).
  std::vector<const std::vector<std::int64_t>*> gens;
  std::vector<sim::ChipGroup> groups;
  if (net.n_chip <= kSymmetricPathChips) {
    groups = sim::chip_groups(net, faults, fn, route::Ecmp::Split);
    for (const sim::ChipGroup& cg : groups)
      for (const auto& g : cg.generators) gens.push_back(&g);
  }
  const auto N = static_cast<std::size_t>(net.n_chip);
  std::vector<bool> decided(gens.empty() ? 0 : N * N, false);
  std::vector<std::pair<std::int64_t, std::int64_t>> orbit;
  by_symmetry = 0;
  const auto decide = [&](std::int64_t a, std::int64_t b) {
    if (gens.empty()) return false;
    const std::size_t at = static_cast<std::size_t>(a) * N + static_cast<std::size_t>(b);
    if (decided[at]) return true;
    decided[at] = true;
    orbit.assign(1, {a, b});
    while (!orbit.empty()) {
      const auto [x, y] = orbit.back();
      orbit.pop_back();
      for (const auto* g : gens) {
        const std::int64_t gx = (*g)[static_cast<std::size_t>(x)],
                           gy = (*g)[static_cast<std::size_t>(y)];
        const std::size_t k = static_cast<std::size_t>(gx) * N + static_cast<std::size_t>(gy);
        if (!decided[k]) {
          decided[k] = true;
          orbit.push_back({gx, gy});
        }
      }
    }
    return false;
  };
  for (std::size_t g = 0; g < s.stages->size(); ++g) {
    const RankStage& stage = (*s.stages)[g];
    for (std::size_t pi = 0; pi < stage.parts.size(); ++pi) {
      const RankSchedule& r = stage.parts[pi];
      const std::string at =
          where + "/stages/" + std::to_string(g) + "/parts/" + std::to_string(pi);
      const bool via = uses_switch(r);
      if (via ? r.switches.size() != r.groups.size() : !r.switches.empty())
        fail_input(at + "/switches", via ? "names one switch per group (" +
                                               std::to_string(r.groups.size()) + " groups)"
                                         : "names switches, but no transfer goes via one");
      for (std::int64_t sw : r.switches)
        if (sw < net.n_chip || sw >= static_cast<std::int64_t>(net.nodes.size()))
          fail_input(at + "/switches", "node " + std::to_string(sw) + " is not a switch");
      const auto links = via ? switch_links(net, down_links, r.groups, r.switches)
                             : std::vector<std::vector<std::vector<std::int64_t>>>();
      for (std::size_t gi = 0; gi < r.groups.size(); ++gi) {
        const std::vector<std::int64_t>& chips = r.groups[gi];
        for (std::size_t k = 0; k < chips.size(); ++k) {
          const std::int64_t c = chips[k];
          if (c < 0 || c >= net.n_chip)
            fail_input(at + "/groups/" + std::to_string(gi),
                       "chip " + std::to_string(c) + " does not exist");
          if (down[static_cast<std::size_t>(c)])
            fail_input(at + "/groups/" + std::to_string(gi),
                       "chip " + std::to_string(c) + " has failed; it cannot be a rank");
        }
        // Through the switch: every chip of the group reaches it over a live link.
        if (via)
          for (std::size_t k = 0; k < chips.size(); ++k) {
            ++pairs;
            if (links[gi][k].empty())
              fail_infeasible(at + "/groups/" + std::to_string(gi),
                              "group " + std::to_string(gi) + " of stage " + std::to_string(g) +
                                  " reduces in switch " + std::to_string(r.switches[gi]) +
                                  ", which chip " + std::to_string(chips[k]) +
                                  " has no live link to");
          }
        std::vector<std::pair<int, std::int64_t>> seen;
        for (std::size_t j = 0; j < r.steps.size(); ++j)
          for (std::size_t k = 0; k < r.steps[j].transfers.size(); ++k) {
            const RankTransfer& t = r.steps[j].transfers[k];
            const std::pair<int, std::int64_t> key{static_cast<int>(t.peer), t.k};
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
            seen.push_back(key);
            for (std::int64_t i = 0; i < r.ranks(); ++i) {
              const std::int64_t q = transfer_peer(r, t, i);
              if (q < 0) continue;
              if (q == i)
                fail_input(at + "/steps/" + std::to_string(j) + "/transfers/" + std::to_string(k),
                           "rank " + std::to_string(i) + " would send to itself");
              const std::int64_t a = chips[static_cast<std::size_t>(i)],
                                 b = chips[static_cast<std::size_t>(q)];
              ++pairs;
              if (decide(a, b)) { // a pair of its orbit was traced
                ++by_symmetry;
                continue;
              }
              const route::Path p = route::trace(fn, net, down_links, down, a, b, max_hops);
              if (!p.delivered)
                fail_infeasible(at + "/groups/" + std::to_string(gi),
                                "group " + std::to_string(gi) + " of stage " + std::to_string(g) +
                                    " is split: the routing cannot deliver from chip " +
                                    std::to_string(a) + " to chip " + std::to_string(b) +
                                    (p.reason.empty() ? "" : " (" + p.reason + ")"));
            }
          }
      }
    }
  }
  return pairs;
}

} // namespace icnkit::coll
