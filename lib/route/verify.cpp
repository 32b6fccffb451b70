#include "route/verify.hpp"

#include "core/progress.hpp"
#include "route/cdg.hpp"
#include "route/step.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <tuple>

namespace icnkit::route {

std::int64_t default_hop_limit(const topo::Network& n) {
  return 4 * std::max<std::int64_t>(n.metrics.diameter, 1) + 16;
}

namespace {

// Counts and statistics as pairs come in, in any order; keeps the first unreachable pairs.
class Tally {
public:
  void delivered(std::int64_t hops) {
    if (static_cast<std::size_t>(hops) >= histogram_.size())
      histogram_.resize(static_cast<std::size_t>(hops) + 1, 0);
    ++histogram_[static_cast<std::size_t>(hops)];
    ++delivered_;
    total_hops_ += hops;
  }
  void unreachable(std::int64_t src, std::int64_t dst, const std::string& reason) {
    ++unreachable_;
    // Pairs arrive grouped by destination, not in (src, dst) order: keep a bounded pool and cut
    // it back to the first kMaxListedUnreachable whenever it grows.
    if (listed_.size() >= kMaxListedUnreachable &&
        std::tie(src, dst) > std::tie(listed_.back().src, listed_.back().dst) && sorted_)
      return;
    listed_.push_back({src, dst, reason});
    sorted_ = false;
    if (listed_.size() >= 8 * kMaxListedUnreachable) trim();
  }
  Reachability result(std::int64_t pairs) {
    trim();
    Reachability r;
    r.pairs = pairs;
    r.unreachable_pairs = unreachable_;
    r.unreachable = listed_;
    r.hops.histogram = histogram_;
    r.hops.max = histogram_.empty() ? 0 : static_cast<std::int64_t>(histogram_.size()) - 1;
    r.hops.mean =
        delivered_ ? static_cast<double>(total_hops_) / static_cast<double>(delivered_) : 0.0;
    return r;
  }

  void absorb(const Tally& o) {
    if (histogram_.size() < o.histogram_.size()) histogram_.resize(o.histogram_.size(), 0);
    for (std::size_t h = 0; h < o.histogram_.size(); ++h) histogram_[h] += o.histogram_[h];
    delivered_ += o.delivered_;
    total_hops_ += o.total_hops_;
    unreachable_ += o.unreachable_;
    listed_.insert(listed_.end(), o.listed_.begin(), o.listed_.end());
    sorted_ = false;
    trim();
  }

private:
  void trim() {
    std::sort(listed_.begin(), listed_.end(),
              [](const UnreachablePair& a, const UnreachablePair& b) {
                return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
              });
    if (listed_.size() > kMaxListedUnreachable) listed_.resize(kMaxListedUnreachable);
    sorted_ = true;
  }

  std::vector<std::int64_t> histogram_;
  std::int64_t delivered_ = 0, total_hops_ = 0, unreachable_ = 0;
  std::vector<UnreachablePair> listed_;
  bool sorted_ = true;
};

// Per destination, remembers for each state (channel, vc) with flags 0 how many hops remain to
// the destination or why it is never reached. Valid because a source-independent deterministic
// pick makes the rest of the walk a function of the state alone.
class Memo {
public:
  Memo(const RoutingFunction& fn, const topo::Network& n, const std::vector<char>& down_links,
       const std::vector<char>& down_chips, std::int64_t hop_limit)
      : fn_(fn), n_(n), down_links_(down_links), down_chips_(down_chips), vcs_(fn.vc_count()),
        hop_limit_(hop_limit), stamp_(static_cast<std::size_t>(n.channel_count() * vcs_), 0),
        value_(stamp_.size(), 0) {}

  void begin(std::uint32_t k) {
    on_path_ = 2 * k + 1;
    done_ = 2 * k + 2;
    reasons_.clear();
  }

  // Hops from src to dst (>= 0), or -1 with *reason.
  std::int64_t walk(std::int64_t src, std::int64_t dst, std::string* reason) {
    path_.clear();
    PacketState p{src, -1, 0, src, dst, 0};
    std::int64_t hops = 0;
    std::int64_t rem = 0;    // remaining hops after the last one taken, when delivered
    std::int64_t failed = 0; // 0 = delivered; else -(reason index + 1)
    bool memoize = true;
    while (p.node != dst) {
      if (hops >= hop_limit_) {
        // Only walks through flagged states get here (a repeated flag-0 state is caught below);
        // their remaining hops are not known exactly, so nothing is remembered.
        failed = add_reason(detail::loop_reason(hop_limit_));
        memoize = false;
        break;
      }
      fn_.route_into(p, buf_);
      std::string why;
      int i = detail::pick(buf_, n_, down_links_, down_chips_, p.node, &why);
      if (i < 0) {
        failed = add_reason(why);
        break;
      }
      const Choice& c = buf_[static_cast<std::size_t>(i)];
      ++hops;
      if (c.flags == 0) {
        const std::int64_t id = c.channel * vcs_ + c.vc;
        auto& st = stamp_[static_cast<std::size_t>(id)];
        if (st == done_) {
          const std::int64_t v = value_[static_cast<std::size_t>(id)];
          if (v >= 0)
            rem = v;
          else
            failed = v;
          break;
        }
        if (st == on_path_) { // the same state twice: a deterministic loop
          failed = add_reason(detail::loop_reason(hop_limit_));
          break;
        }
        st = on_path_;
        path_.push_back(id);
      } else {
        path_.push_back(-1);
      }
      p = {n_.channel_dst(c.channel), c.channel, c.vc, src, dst, c.flags};
    }
    // path_[i] is the state after hop i+1.
    const std::int64_t total = hops + rem;
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const std::int64_t id = path_[i];
      if (id < 0) continue;
      stamp_[static_cast<std::size_t>(id)] = memoize ? done_ : 0;
      value_[static_cast<std::size_t>(id)] =
          failed ? failed : total - static_cast<std::int64_t>(i) - 1;
    }
    if (failed) {
      *reason = reasons_[static_cast<std::size_t>(-failed - 1)];
      return -1;
    }
    return total;
  }

private:
  std::int64_t add_reason(const std::string& r) {
    reasons_.push_back(r);
    return -static_cast<std::int64_t>(reasons_.size());
  }

  const RoutingFunction& fn_;
  const topo::Network& n_;
  const std::vector<char>& down_links_;
  const std::vector<char>& down_chips_;
  int vcs_;
  std::int64_t hop_limit_;
  std::vector<std::uint32_t>
      stamp_; // 2k+1: on the current walk, 2k+2: value_ final (destination k)
  std::vector<std::int64_t> value_;
  std::uint32_t on_path_ = 1, done_ = 2;
  std::vector<std::string> reasons_; // of the current destination
  std::vector<std::int64_t> path_;
  std::vector<Choice> buf_;
};

} // namespace

Reachability check_reachability(const RoutingFunction& fn, const topo::Network& n,
                                const topo::Faults& f, std::int64_t hop_limit) {
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  std::vector<std::int64_t> live;
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    if (!down_chips[static_cast<std::size_t>(c)]) live.push_back(c);
  const auto L = static_cast<std::int64_t>(live.size());
  const std::int64_t pairs = L * (L - 1);

  Tally tally;
  Progress progress("reachability", live.size());
  if (fn.source_independent()) {
    Memo memo(fn, n, down_links, down_chips, hop_limit);
    std::string reason;
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::int64_t dst = live[k];
      memo.begin(static_cast<std::uint32_t>(k));
      for (std::int64_t src : live) {
        if (src == dst) continue;
        std::int64_t h = memo.walk(src, dst, &reason);
        if (h >= 0)
          tally.delivered(h);
        else
          tally.unreachable(src, dst, reason);
      }
      progress.update(k + 1);
    }
  } else {
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::int64_t src = live[k];
      for (std::int64_t dst : live) {
        if (src == dst) continue;
        Path p = trace(fn, n, down_links, down_chips, src, dst, hop_limit);
        if (p.delivered)
          tally.delivered(static_cast<std::int64_t>(p.hops.size()));
        else
          tally.unreachable(src, dst, p.reason);
      }
      progress.update(k + 1);
    }
  }
  progress.finish();
  return tally.result(pairs);
}

namespace {

// Hops from the explorer's remembered choices (no routing calls): per destination, a state's
// remaining hops are memoised; -1 asks the caller to trace the pair itself.
class ChainWalk {
public:
  ChainWalk(const CdgExplorer& x, std::size_t vertices)
      : x_(x), stamp_(vertices, 0), value_(vertices, 0) {}

  void begin(std::uint32_t k) {
    on_path_ = 2 * k + 1;
    done_ = 2 * k + 2;
  }

  // >= 0: delivered in that many hops; -1: trace this pair; <= -3: unreachable, x.reason(code).
  std::int64_t hops(std::int64_t src, std::int64_t dst, std::int64_t hop_limit,
                    std::int64_t* code) {
    const CdgExplorer::Tables t = x_.tables();
    std::int64_t e = x_.injection_next(src);
    if (e == CdgExplorer::kFlagged || e == CdgExplorer::kUnknown) return -1;
    if (e <= -3) {
      *code = e;
      return -2;
    }
    path_.clear();
    std::int64_t rem = 0, failed = 0;
    bool unknown = false;
    for (std::int64_t v = e;;) {
      if (t.node_of(v) == dst) break;
      auto& st = stamp_[static_cast<std::size_t>(v)];
      if (st == done_) {
        const std::int64_t val = value_[static_cast<std::size_t>(v)];
        if (val >= 0)
          rem = val;
        else
          failed = val;
        break;
      }
      if (st == on_path_ || static_cast<std::int64_t>(path_.size()) >= hop_limit) {
        unknown = true; // a loop: trace() states it with its own reason
        break;
      }
      st = on_path_;
      path_.push_back(v);
      const std::int64_t nx = t.next_of(v);
      if (nx == CdgExplorer::kFlagged || nx == CdgExplorer::kUnknown) {
        unknown = true;
        break;
      }
      if (nx <= -3) {
        failed = nx;
        break;
      }
      v = nx;
    }
    // path_[i] is the state after hop i+1; the chain ends one hop after the last one in path_.
    const std::int64_t total = static_cast<std::int64_t>(path_.size()) + 1 + rem;
    for (std::size_t i = 0; i < path_.size(); ++i) {
      const auto v = static_cast<std::size_t>(path_[i]);
      stamp_[v] = unknown ? 0 : done_;
      value_[v] = failed ? failed : total - static_cast<std::int64_t>(i) - 1;
    }
    if (unknown) return -1;
    if (failed) {
      *code = failed;
      return -2;
    }
    return total;
  }

private:
  const CdgExplorer& x_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::int64_t> value_;
  std::uint32_t on_path_ = 1, done_ = 2;
  std::vector<std::int64_t> path_;
};

} // namespace

Verification verify_routing(const RoutingFunction& fn, const topo::Network& n,
                            const topo::Faults& f) {
  Verification v;
  v.hop_limit = default_hop_limit(n);
  if (!fn.source_independent()) {
    v.cdg = check_deadlock(fn, n, f, v.hop_limit);
    Reachability r = check_reachability(fn, n, f, v.hop_limit);
    v.pairs = r.pairs;
    v.unreachable_pairs = r.unreachable_pairs;
    v.unreachable = std::move(r.unreachable);
    v.hops = std::move(r.hops);
  } else {
    // One pass per destination: the deadlock walks, then every source's hops from what they
    // remembered. Same results as check_deadlock() + check_reachability(), half the work.
    // Destinations are independent, so they are dealt round-robin to one worker per core, each
    // with its own explorer and tally; merging them is order-independent (a set union of
    // dependencies, sums, and the first unreachable pairs by (src, dst)), so the result does
    // not depend on the number of workers.
    const auto down_links = f.down_links(n);
    const auto down_chips = f.down_chips(n);
    std::vector<std::int64_t> live;
    for (std::int64_t c = 0; c < n.n_chip; ++c)
      if (!down_chips[static_cast<std::size_t>(c)]) live.push_back(c);
    const std::size_t workers = std::clamp<std::size_t>(
        std::thread::hardware_concurrency(), 1,
        std::min<std::size_t>(8, std::max<std::size_t>(live.size() / 64, 1)));
    struct Worker {
      std::unique_ptr<CdgExplorer> x;
      Tally tally;
      std::exception_ptr error;
    };
    std::vector<Worker> ws(workers);
    for (auto& w : ws) w.x = std::make_unique<CdgExplorer>(fn, n, f, v.hop_limit);
    Progress progress("verification", live.size());
    auto run = [&](std::size_t id) {
      Worker& w = ws[id];
      try {
        CdgExplorer& x = *w.x;
        ChainWalk chains(x, static_cast<std::size_t>(n.channel_count() * x.vcs()));
        for (std::size_t k = id; k < live.size(); k += workers) {
          const std::int64_t dst = live[k];
          x.begin_scope();
          for (std::int64_t src : live)
            if (src != dst) x.walk(src, dst);
          chains.begin(static_cast<std::uint32_t>(k));
          for (std::int64_t src : live) {
            if (src == dst) continue;
            std::int64_t code = 0;
            std::int64_t h = chains.hops(src, dst, v.hop_limit, &code);
            if (h >= 0) {
              w.tally.delivered(h);
            } else if (h == -2) {
              w.tally.unreachable(src, dst, x.reason(code));
            } else {
              Path p = trace(fn, n, down_links, down_chips, src, dst, v.hop_limit);
              if (p.delivered)
                w.tally.delivered(static_cast<std::int64_t>(p.hops.size()));
              else
                w.tally.unreachable(src, dst, p.reason);
            }
          }
          if (id == 0) progress.update(k + 1); // Progress is not shared between threads
        }
      } catch (...) {
        w.error = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t id = 1; id < workers; ++id) threads.emplace_back(run, id);
    run(0);
    for (auto& t : threads) t.join();
    progress.finish();
    for (auto& w : ws)
      if (w.error) std::rethrow_exception(w.error);
    CdgExplorer& x = *ws[0].x;
    Tally& tally = ws[0].tally;
    for (std::size_t id = 1; id < workers; ++id) {
      x.absorb(*ws[id].x);
      tally.absorb(ws[id].tally);
    }
    v.cdg = x.summary();
    const auto L = static_cast<std::int64_t>(live.size());
    Reachability r = tally.result(L * (L - 1));
    v.pairs = r.pairs;
    v.unreachable_pairs = r.unreachable_pairs;
    v.unreachable = std::move(r.unreachable);
    v.hops = std::move(r.hops);
  }
  v.deadlock_free = !v.cdg.cycle.has_value();
  return v;
}

} // namespace icnkit::route
