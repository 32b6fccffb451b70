#include "route/spread.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <tuple>

namespace icnkit::route {

Ecmp parse_ecmp(const std::string& text, const std::string& where) {
  if (text == "split") return Ecmp::Split;
  if (text == "hash") return Ecmp::Hash;
  fail_usage(where, "'" + text + "' is not an ECMP mode (split, hash)");
}

std::string to_string(Ecmp e) {
  return e == Ecmp::Split ? "split" : "hash";
}

namespace {

// SplitMix64's finaliser: a well-mixed hash of a 64-bit value.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace

Spreader::Spreader(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                   Ecmp mode, std::uint64_t seed, std::int64_t max_hops)
    : fn_(fn), n_(n), down_links_(f.down_links(n)), down_chips_(f.down_chips(n)), mode_(mode),
      seed_(seed),
      max_hops_(max_hops > 0 ? max_hops : 2 * static_cast<std::int64_t>(n.nodes.size()) + 8),
      vcs_(fn.vc_count()) {
  const auto C = static_cast<std::size_t>(n.channel_count());
  blocked_.assign(C, 0);
  for (std::size_t ch = 0; ch < C; ++ch) {
    const auto c = static_cast<std::int64_t>(ch);
    blocked_[ch] = down_links_[static_cast<std::size_t>(topo::link_of_channel(c))] ||
                   down_chips_[static_cast<std::size_t>(n.channel_dst(c))];
  }
  slot_.assign(C, -1);
  // Middles: a routing by attachment (minimal routing between switches), split, nothing down.
  const bool none_down =
      std::find(down_links_.begin(), down_links_.end(), 1) == down_links_.end() &&
      std::find(down_chips_.begin(), down_chips_.end(), 1) == down_chips_.end();
  if (mode == Ecmp::Split && fn.routes_by_attachment() && !fn.random_choice() && none_down) {
    const auto N = static_cast<std::size_t>(n.n_chip);
    std::vector<int> links(N, 0);
    up_.assign(N, -1);
    down_.assign(N, -1);
    for (const topo::Link& l : n.links)
      for (const auto& [c, w, fwd] : {std::tuple{l.a, l.b, true}, std::tuple{l.b, l.a, false}}) {
        if (c >= n.n_chip) continue;
        const auto k = static_cast<std::size_t>(c);
        ++links[k];
        if (w >= n.n_chip) {
          up_[k] = topo::channel_of(l.id, fwd);
          down_[k] = topo::channel_of(l.id, !fwd);
        }
      }
    for (std::size_t k = 0; k < N; ++k)
      if (links[k] != 1) up_[k] = down_[k] = -1;
    by_attachment_ = true;
  }
}

void Spreader::spread(std::int64_t src, std::int64_t dst, Spread& out) {
  out.channels.clear();
  out.shares.clear();
  out.delivered = false;
  out.split_exact = true;
  out.reason.clear();
  if (src == dst) {
    out.delivered = true;
    return;
  }
  if (mode_ == Ecmp::Hash) return follow(src, dst, true, out);
  const std::int64_t first = by_attachment_ ? up_[static_cast<std::size_t>(src)] : -1;
  const std::int64_t last = by_attachment_ ? down_[static_cast<std::size_t>(dst)] : -1;
  if (first < 0 || last < 0) return fresh(src, dst, out);
  const auto key = static_cast<std::uint64_t>(n_.channel_dst(first)) << 32 |
                   static_cast<std::uint32_t>(fn_.attachment(dst));
  if (auto it = middles_.find(key); it != middles_.end()) {
    out.channels.push_back(first);
    out.shares.push_back(1.0);
    out.channels.insert(out.channels.end(), it->second.channels.begin(), it->second.channels.end());
    out.shares.insert(out.shares.end(), it->second.shares.begin(), it->second.shares.end());
    out.channels.push_back(last);
    out.shares.push_back(1.0);
    out.delivered = true;
    return;
  }
  fresh(src, dst, out);
  // Kept when it has the shape argued above (every path from the one first link to the one last).
  const std::size_t k = out.channels.size();
  if (!out.delivered || !out.split_exact || k < 2 || out.channels.front() != first ||
      out.channels.back() != last || out.shares.front() != 1.0 || out.shares.back() != 1.0 ||
      std::count(out.channels.begin(), out.channels.end(), first) != 1 ||
      std::count(out.channels.begin(), out.channels.end(), last) != 1)
    return;
  if (middle_channels_ > (std::int64_t{1} << 24)) {
    middles_.clear();
    middle_channels_ = 0;
  }
  Middle& mid = middles_[key];
  mid.channels.assign(out.channels.begin() + 1, out.channels.end() - 1);
  mid.shares.assign(out.shares.begin() + 1, out.shares.end() - 1);
  middle_channels_ += static_cast<std::int64_t>(k);
}

void Spreader::fresh(std::int64_t src, std::int64_t dst, Spread& out) {
  if (single(src, dst, out) || split(src, dst, out)) return;
  out.channels.clear();
  out.shares.clear();
  out.split_exact = false;
  follow(src, dst, false, out);
}

void Spreader::follow(std::int64_t src, std::int64_t dst, bool hashed, Spread& out) {
  PacketState p{src, -1, 0, src, dst, 0};
  std::int64_t hops = 0;
  while (p.node != dst) {
    if (hops++ >= max_hops_) {
      out.reason = detail::loop_reason(max_hops_);
      return;
    }
    fn_.route_into(p, buf_);
    int i = -1;
    if (hashed) {
      // The live choices, one of them by the hash (a switch hashes over its up ports).
      choice_states_.clear();
      for (std::size_t k = 0; k < buf_.size(); ++k)
        if (!blocked_[static_cast<std::size_t>(buf_[k].channel)])
          choice_states_.push_back(static_cast<std::int64_t>(k));
      if (!choice_states_.empty()) {
        const std::uint64_t h = mix(seed_ ^ mix(static_cast<std::uint64_t>(src) ^
                                                mix(static_cast<std::uint64_t>(dst) ^
                                                    mix(static_cast<std::uint64_t>(p.node)))));
        i = static_cast<int>(choice_states_[h % choice_states_.size()]);
      }
    }
    if (i < 0) i = detail::pick(buf_, n_, down_links_, down_chips_, p.node, &out.reason);
    if (i < 0) return;
    const Choice& c = buf_[static_cast<std::size_t>(i)];
    out.channels.push_back(c.channel);
    out.shares.push_back(1.0);
    p.node = n_.channel_dst(c.channel);
    p.in_channel = c.channel;
    p.vc = c.vc;
    p.flags = c.flags;
  }
  // A path may cross a channel twice (an adaptive detour): keep each crossing, share 1 each.
  out.delivered = true;
}

void Spreader::live_choices(const PacketState& p, bool& flagged) {
  fn_.route_into(p, buf_);
  choice_states_.clear();
  flagged = false;
  for (const Choice& c : buf_) {
    if (blocked_[static_cast<std::size_t>(c.channel)]) continue;
    if (c.flags != 0) flagged = true;
    choice_states_.push_back(c.channel * vcs_ + c.vc);
  }
}

// Where every hop has exactly one live choice (a deterministic routing: DOR, D-mod-k) the split
// is that one path with share 1 on each hop, found without split()'s exploration of the states.
// Anything else (a choice of two, a flag, a dead end, a loop) is left to split().
bool Spreader::single(std::int64_t src, std::int64_t dst, Spread& out) {
  PacketState p{src, -1, 0, src, dst, 0};
  for (std::int64_t hops = 0; p.node != dst; ++hops) {
    if (hops >= max_hops_) break;
    fn_.route_into(p, buf_);
    const Choice* one = nullptr;
    for (const Choice& c : buf_) {
      if (blocked_[static_cast<std::size_t>(c.channel)]) continue;
      if (one || c.flags != 0) {
        one = nullptr;
        break;
      }
      one = &c;
    }
    if (!one) break;
    out.channels.push_back(one->channel);
    out.shares.push_back(1.0);
    p.node = n_.channel_dst(one->channel);
    p.in_channel = one->channel;
    p.vc = one->vc;
  }
  if (p.node == dst) {
    // split() lists a channel once, with the sum of its crossings: leave a path that crosses
    // one twice (on another VC) to it.
    if (!crosses_twice(out.channels)) {
      out.delivered = true;
      return true;
    }
  }
  out.channels.clear();
  out.shares.clear();
  return false;
}

bool Spreader::crosses_twice(const std::vector<std::int64_t>& path) {
  // A short path (most are) by pairs; a long one (a big ring's) by a stamp per channel.
  constexpr std::size_t kPairs = 32;
  if (path.size() <= kPairs) {
    for (std::size_t i = 1; i < path.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (path[i] == path[j]) return true;
    return false;
  }
  if (seen_.size() != static_cast<std::size_t>(n_.channel_count())) {
    seen_.assign(static_cast<std::size_t>(n_.channel_count()), 0);
    seen_epoch_ = 0;
  }
  if (++seen_epoch_ == 0) { // wrapped: forget every stamp
    std::fill(seen_.begin(), seen_.end(), 0);
    seen_epoch_ = 1;
  }
  for (std::int64_t ch : path) {
    std::uint32_t& st = seen_[static_cast<std::size_t>(ch)];
    if (st == seen_epoch_) return true;
    st = seen_epoch_;
  }
  return false;
}

bool Spreader::split(std::int64_t src, std::int64_t dst, Spread& out) {
  const auto V = static_cast<std::size_t>(n_.channel_count()) * static_cast<std::size_t>(vcs_);
  if (stamp_.size() != V) {
    stamp_.assign(V, 0);
    succ_head_.assign(V, 0);
    epoch_ = 0;
  }
  if (++epoch_ == 0) { // wrapped: forget every stamp
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
  // Explore the states reachable from src; each state's live successors are stored once, in
  // visiting order (order_[k]'s successors are succ_[succ_head_[k] .. succ_head_[k + 1])).
  order_.clear();
  stack_.clear();
  succ_.clear();
  std::vector<std::int64_t>& ends = ends_; // per visited state: the end of its successors
  ends.clear();
  bool flagged = false;
  live_choices({src, -1, 0, src, dst, 0}, flagged);
  if (flagged || choice_states_.empty()) return false;
  const std::vector<std::int64_t> inj = choice_states_;
  auto visit = [&](std::int64_t v) {
    if (stamp_[static_cast<std::size_t>(v)] == epoch_) return;
    stamp_[static_cast<std::size_t>(v)] = epoch_;
    stack_.push_back(v);
  };
  for (auto v : inj) visit(v);
  while (!stack_.empty()) {
    const std::int64_t v = stack_.back();
    stack_.pop_back();
    // Local index of v: its position in order_.
    succ_head_[static_cast<std::size_t>(v)] = static_cast<std::int64_t>(order_.size());
    order_.push_back(v);
    const std::int64_t ch = v / vcs_;
    const std::int64_t node = n_.channel_dst(ch);
    if (node != dst) {
      live_choices({node, ch, static_cast<int>(v % vcs_), src, dst, 0}, flagged);
      if (flagged || choice_states_.empty()) return false; // flags, or a dead end
      if (static_cast<std::int64_t>(order_.size()) > max_hops_ * 64) return false;
      succ_.insert(succ_.end(), choice_states_.begin(), choice_states_.end());
      for (auto w : choice_states_) visit(w);
    }
    ends.push_back(static_cast<std::int64_t>(succ_.size()));
  }
  const std::size_t m = order_.size();
  indeg_.assign(m, 0);
  inflow_.assign(m, 0.0);
  auto local = [&](std::int64_t v) {
    return static_cast<std::size_t>(succ_head_[static_cast<std::size_t>(v)]);
  };
  auto begin_of = [&](std::size_t k) {
    return k == 0 ? std::size_t{0} : static_cast<std::size_t>(ends[k - 1]);
  };
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t e = begin_of(k); e < static_cast<std::size_t>(ends[k]); ++e)
      ++indeg_[local(succ_[e])];
  for (auto v : inj) inflow_[local(v)] += 1.0 / static_cast<double>(inj.size());
  // Kahn: a state passes its inflow on, evenly, once every predecessor has passed it theirs.
  queue_.clear();
  for (std::size_t k = 0; k < m; ++k)
    if (indeg_[k] == 0) queue_.push_back(static_cast<std::int64_t>(k));
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const auto k = static_cast<std::size_t>(queue_[head]);
    const double x = inflow_[k];
    const std::size_t b = begin_of(k), e = static_cast<std::size_t>(ends[k]);
    for (std::size_t i = b; i < e; ++i) {
      const std::size_t w = local(succ_[i]);
      inflow_[w] += x / static_cast<double>(e - b);
      if (--indeg_[w] == 0) queue_.push_back(static_cast<std::int64_t>(w));
    }
  }
  if (queue_.size() != m) return false; // the states loop
  for (std::size_t head = 0; head < m; ++head) {
    const auto k = static_cast<std::size_t>(queue_[head]);
    const std::int64_t ch = order_[k] / vcs_;
    std::int64_t& s = slot_[static_cast<std::size_t>(ch)];
    if (s < 0) {
      s = static_cast<std::int64_t>(out.channels.size());
      out.channels.push_back(ch);
      out.shares.push_back(0.0);
    }
    out.shares[static_cast<std::size_t>(s)] += inflow_[k];
  }
  for (std::int64_t ch : out.channels) slot_[static_cast<std::size_t>(ch)] = -1;
  // A channel reached on several VCs sums the fractions that reach it on each, which rounding
  // can take a hair past 1 (1/3 + 2/3): the flow crosses it once.
  for (double& x : out.shares)
    if (x > 1 && x < 1 + 1e-9) x = 1;
  out.delivered = true;
  return true;
}

} // namespace icnkit::route
