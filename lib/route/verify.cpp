#include "route/verify.hpp"

#include "core/progress.hpp"
#include "core/threads.hpp"
#include "route/cdg.hpp"
#include "route/hop_tally.hpp"
#include "route/minimal.hpp"
#include "route/symmetric.hpp"
#include "topo/mesh.hpp"
#include "topo/torus_geometry.hpp"

#include "core/error.hpp"

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

// Fault-free shortest hops to one destination at a time, for the path stretch (0: unknown): closed
// forms on regular tori and meshes (sum over dimensions of the ring or line distance), a BFS
// otherwise.
class Shortest {
public:
  Shortest(const topo::Network& n, const Adjacency& adj) : n_(n), adj_(adj) {
    if (n.family == "torus" && !topo::TorusGeometry::twisted(n)) {
      sizes_ = topo::TorusGeometry::shape_of(n, "stretch").sizes();
      wrap_ = true;
    } else if (n.family == "mesh") {
      sizes_ = topo::MeshGeometry::of(n, "stretch").sizes();
    }
  }
  void begin(std::int64_t dst) {
    dst_ = dst;
    if (sizes_.empty()) distances_to(n_, adj_, dst, {}, {}, dist_);
  }
  std::int64_t hops(std::int64_t src) const {
    // Unknown (0: left out of the stretch) where only chips as transit connect the pair: a
    // rail-only network's rails meet in the scale-up domain, which the BFS, like minimal
    // routing, does not cross.
    if (sizes_.empty()) return std::max<std::int64_t>(0, dist_[static_cast<std::size_t>(src)]);
    std::int64_t h = 0, a = src, b = dst_;
    for (int s : sizes_) {
      const std::int64_t x = a % s, y = b % s;
      const std::int64_t d = x > y ? x - y : y - x;
      h += wrap_ ? std::min(d, s - d) : d;
      a /= s;
      b /= s;
    }
    return h;
  }

private:
  const topo::Network& n_;
  const Adjacency& adj_;
  std::vector<int> sizes_;
  bool wrap_ = false;
  std::int64_t dst_ = 0;
  std::vector<std::int32_t> dist_;
};

// Counts and statistics as pairs come in, in any order; keeps the first unreachable pairs.
class Tally {
public:
  // `shortest`: the fault-free shortest path's hops (for the stretch), 0 when unknown.
  void delivered(std::int64_t hops, std::int64_t shortest) { hops_.add(hops, shortest); }
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
    r.hops = hops_.stats();
    return r;
  }

  void absorb(const Tally& o) {
    hops_.absorb(o.hops_);
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

  HopTally hops_;
  std::int64_t unreachable_ = 0;
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
  const Adjacency adj(n);
  Shortest shortest(n, adj);
  Progress progress("reachability", live.size());
  if (fn.source_independent()) {
    Memo memo(fn, n, down_links, down_chips, hop_limit);
    std::string reason;
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::int64_t dst = live[k];
      memo.begin(static_cast<std::uint32_t>(k));
      shortest.begin(dst);
      for (std::int64_t src : live) {
        if (src == dst) continue;
        std::int64_t h = memo.walk(src, dst, &reason);
        if (h >= 0)
          tally.delivered(h, shortest.hops(src));
        else
          tally.unreachable(src, dst, reason);
      }
      progress.update(k + 1);
    }
  } else {
    for (std::size_t k = 0; k < live.size(); ++k) {
      const std::int64_t src = live[k];
      shortest.begin(src); // symmetric: the same hops back
      for (std::int64_t dst : live) {
        if (src == dst) continue;
        Path p = trace(fn, n, down_links, down_chips, src, dst, hop_limit);
        if (p.delivered)
          tally.delivered(static_cast<std::int64_t>(p.hops.size()), shortest.hops(dst));
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

void require_connected(const topo::Network& n, const topo::Faults& f) {
  const auto down_links = f.down_links(n);
  const auto down_chips = f.down_chips(n);
  const Adjacency adj(n);
  std::vector<std::int64_t> part(n.nodes.size(), -1);
  std::vector<std::vector<std::int64_t>> parts; // live chips of each part
  std::vector<std::int64_t> queue;
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    if (down_chips[static_cast<std::size_t>(c)] || part[static_cast<std::size_t>(c)] >= 0) continue;
    const auto id = static_cast<std::int64_t>(parts.size());
    parts.emplace_back();
    queue.assign(1, c);
    part[static_cast<std::size_t>(c)] = id;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const std::int64_t u = queue[h];
      if (u < n.n_chip) parts.back().push_back(u);
      for (const std::int64_t* ch = adj.begin(u); ch != adj.end(u); ++ch) {
        if (down_links[static_cast<std::size_t>(topo::link_of_channel(*ch))]) continue;
        const std::int64_t v = n.channel_dst(*ch);
        if (part[static_cast<std::size_t>(v)] >= 0 ||
            (v < n.n_chip && down_chips[static_cast<std::size_t>(v)]))
          continue;
        part[static_cast<std::size_t>(v)] = id;
        queue.push_back(v);
      }
    }
  }
  if (parts.size() <= 1) return;
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  std::string what =
      "the faults split the network into " + std::to_string(parts.size()) + " parts:";
  for (std::size_t i = 0; i < parts.size() && i < 4; ++i) {
    auto& p = parts[i];
    std::sort(p.begin(), p.end());
    what += std::string(i ? ";" : "") + " " + std::to_string(p.size()) +
            (p.size() == 1 ? " chip (" : " chips (");
    for (std::size_t j = 0; j < p.size() && j < 3; ++j)
      what += (j ? ", " : "") + std::to_string(p[j]);
    what += p.size() > 3 ? ", ...)" : ")";
  }
  if (parts.size() > 4) what += "; ...";
  fail_infeasible("/faults", what + ": no routing connects them");
}

Verification verify_routing(const RoutingFunction& fn, const topo::Network& n,
                            const topo::Faults& f, int threads) {
  if (const auto analysis = fn.symmetric_analysis())
    if (auto v = analysis->verify(n, f)) return std::move(*v);
  return verify_routing_all_pairs(fn, n, f, threads);
}

Verification verify_routing_all_pairs(const RoutingFunction& fn, const topo::Network& n,
                                      const topo::Faults& f, int threads) {
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
    // Destinations are independent, so they are dealt round-robin to the workers, each with
    // its own explorer and tally; merging them is order-independent (a set union of
    // dependencies, integer counts (hop_tally.hpp), and the first unreachable pairs by
    // (src, dst)), so the result does not depend on the number of workers.
    const auto down_links = f.down_links(n);
    const auto down_chips = f.down_chips(n);
    std::vector<std::int64_t> live;
    for (std::int64_t c = 0; c < n.n_chip; ++c)
      if (!down_chips[static_cast<std::size_t>(c)]) live.push_back(c);
    // By default one worker per core, at most 8 and one per 64 destinations (each holds an
    // explorer of the whole channel-dependency graph); a count asked for is taken as it is.
    const std::size_t workers =
        threads > 0 ? std::clamp<std::size_t>(static_cast<std::size_t>(threads), 1,
                                              std::max<std::size_t>(live.size(), 1))
                    : std::clamp<std::size_t>(
                          static_cast<std::size_t>(default_threads()), 1,
                          std::min<std::size_t>(8, std::max<std::size_t>(live.size() / 64, 1)));
    struct Worker {
      std::unique_ptr<CdgExplorer> x;
      Tally tally;
      std::exception_ptr error;
    };
    std::vector<Worker> ws(workers);
    const Adjacency adj(n);
    for (auto& w : ws) w.x = std::make_unique<CdgExplorer>(fn, n, f, v.hop_limit);
    Progress progress("verification", live.size());
    auto run = [&](std::size_t id) {
      Worker& w = ws[id];
      try {
        CdgExplorer& x = *w.x;
        ChainWalk chains(x, static_cast<std::size_t>(n.channel_count() * x.vcs()));
        Shortest shortest(n, adj);
        for (std::size_t k = id; k < live.size(); k += workers) {
          const std::int64_t dst = live[k];
          shortest.begin(dst);
          x.begin_scope();
          for (std::int64_t src : live)
            if (src != dst) x.walk(src, dst);
          chains.begin(static_cast<std::uint32_t>(k));
          for (std::int64_t src : live) {
            if (src == dst) continue;
            std::int64_t code = 0;
            std::int64_t h = chains.hops(src, dst, v.hop_limit, &code);
            const std::int64_t sh = shortest.hops(src);
            if (h >= 0) {
              w.tally.delivered(h, sh);
            } else if (h == -2) {
              w.tally.unreachable(src, dst, x.reason(code));
            } else {
              Path p = trace(fn, n, down_links, down_chips, src, dst, v.hop_limit);
              if (p.delivered)
                w.tally.delivered(static_cast<std::int64_t>(p.hops.size()), sh);
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
    std::vector<std::thread> pool;
    for (std::size_t id = 1; id < workers; ++id) pool.emplace_back(run, id);
    run(0);
    for (auto& t : pool) t.join();
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
