#include "sim/analytic.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace icnkit::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A flow with less than this fraction of its bytes left at an event has drained: it absorbs the
// rounding of remaining -= rate * dt without ever mattering to a figure we report.
constexpr double kDrainedFraction = 1e-9;
// Channels whose fair share is within this factor of the minimum freeze at the minimum, so flows
// that are symmetric up to rounding get exactly the same rate (and drain at the same instant).
constexpr double kShareTie = 1e-12;

constexpr const char* kWhere = "schedule";

// The whole simulation state. Flows live in flat arrays (structure of arrays) and their
// channels in one pool, so a step of thousands of flows costs no allocation per flow.
class Engine {
public:
  Engine(const Program& p, const topo::Network& n, const AnalyticOptions& o)
      : prog_(p), net_(n), opt_(o) {}

  AnalyticResult run();

private:
  void setup_channels();
  void setup_steps();
  void start_step(std::size_t s, double t);
  void compute_rates(double t);
  void drain(double t);
  void finish_step(std::size_t s, double t);
  void compact();

  const Program& prog_;
  const topo::Network& net_;
  const AnalyticOptions& opt_;
  AnalyticResult res_;

  // Per directed channel.
  std::vector<double> bw_, lat_;
  std::vector<double> share_bw_; // what the flows share: bw_, over the stabilizer in a quotient
  std::vector<char> down_;
  std::vector<std::uint32_t> cnt_;     // scratch: unfrozen flows on the channel
  std::vector<double> wsum_;           // scratch: their shares' sum (weighted_ only)
  std::vector<double> cap_;            // scratch: capacity not yet handed out
  std::vector<std::uint32_t> head_;    // scratch: CSR start of the channel's flows
  std::vector<std::uint32_t> run_;     // scratch: CSR length of the channel's flows
  std::vector<std::uint32_t> level_;   // scratch: channels frozen at the current level
  std::vector<std::uint32_t> touch_;   // scratch: channels used by active flows
  std::vector<std::uint32_t> csr_;     // scratch: flow ids by channel
  std::vector<std::uint32_t> order_;   // scratch: the channel's index in touch_
  std::vector<std::uint32_t> version_; // scratch: bumped whenever its fair share changes
  std::vector<char> changed_mark_;     // scratch: in changed_
  std::vector<std::uint32_t> changed_; // scratch: channels whose share changed this level
  struct HeapEntry {
    double share;
    std::uint32_t channel, version;
  };
  std::vector<HeapEntry> heap_;    // scratch: live channels by fair share (min-heap)
  std::vector<double> load_;       // per channel: sum of rate x share over the active flows
  std::vector<double> base_;       // scratch: the re-rated flows' part of it
  std::vector<std::uint32_t> sub_; // scratch: the flows a computation rates
  bool full_ = true;               // flows started since the last computation
  double r_star_ = kInf;           // the lowest rate among flows drained since then

  // Per step.
  std::vector<std::uint32_t> deps_left_;
  std::vector<std::size_t> dep_head_; // CSR of dependents
  std::vector<std::uint32_t> dependents_;
  std::vector<std::uint32_t> pending_; // flows not yet drained
  std::vector<double> last_done_;      // latest completion among its drained flows
  std::vector<char> started_;
  std::int64_t finished_ = 0;
  // Repeated steps (Program::repeats): a step that ran alone (no other step started or running
  // while it ran, the network idle at its start) is remembered by its duration, flow count and
  // channel bytes; a later repeat that also starts alone takes that duration without being
  // simulated, and its bytes are added at the end (count_ times the remembered ones).
  struct Memo {
    bool alone = false; // the step ran alone: its figures stand for its repeats
    double duration = 0;
    std::int64_t flows = 0;
    std::vector<double> channel_bytes;
    std::int64_t repeats_run = 0;
  };
  std::vector<std::int64_t> memo_of_; // per step: index into memos_, or -1
  std::vector<Memo> memos_;
  std::int64_t running_ = 0;             // steps started and not finished
  std::int64_t starts_ = 0;              // steps started so far
  std::vector<std::int64_t> start_mark_; // per remembered step: starts_ when it started
  std::vector<char> memo_recording_;     // per remembered step: recording now
  using Fin = std::pair<double, std::uint32_t>;
  std::priority_queue<Fin, std::vector<Fin>, std::greater<Fin>> fin_;

  // Active flows (structure of arrays) and their channels.
  std::vector<double> rem_, rate_, t0_, bytes_, flat_, drain_at_, new_rate_;
  std::vector<std::uint32_t> step_, first_, count_;
  std::vector<std::uint32_t> pool_;
  // The share of each pool entry (program.hpp), kept only once a flow with a share below 1 has
  // started (weighted_): until then every share is 1 and the arithmetic is the unweighted one.
  std::vector<double> wpool_;
  bool weighted_ = false;
  std::vector<char> frozen_;
  std::vector<char> dead_; // drained, awaiting compaction (drain())
  // The drain instants (incremental mode): by_drain_ keyed by drain_at_ (the next event), and
  // by_ready_ keyed by the instant from which the flow may count as drained (drain_at_ less
  // twice kDrainedFraction of its duration: below it, the rounding allowance cannot apply).
  // Entries are lazy: current while the flow is alive and its drain_at_ is the one recorded.
  struct HeapFlow {
    double key, at;
    std::uint32_t flow;
  };
  struct Later { // min-heap order
    bool operator()(const HeapFlow& a, const HeapFlow& b) const { return a.key > b.key; }
  };
  struct Lower { // max-heap order
    bool operator()(const HeapFlow& a, const HeapFlow& b) const { return a.key < b.key; }
  };
  // A lazy min-queue of flows by key: a run sorted once (at a rebuild, when every live flow is
  // entered) read front to back, and a heap of the entries pushed since. A big step's million
  // flows then leave through a sequential read of the run instead of a million heap pops over
  // scattered memory; what a computation re-rates goes to the heap.
  class MinQueue {
  public:
    void clear() {
      run_.clear();
      head_ = 0;
      heap_.clear();
    }
    void add_to_run(const HeapFlow& e) { run_.push_back(e); }
    void sort_run() {
      std::sort(run_.begin(), run_.end(),
                [](const HeapFlow& a, const HeapFlow& b) { return a.key < b.key; });
    }
    void push(const HeapFlow& e) {
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), Later{});
    }
    bool empty() const { return head_ == run_.size() && heap_.empty(); }
    const HeapFlow& front() const { return from_run() ? run_[head_] : heap_.front(); }
    void pop() {
      if (from_run()) {
        ++head_;
        return;
      }
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      heap_.pop_back();
    }

  private:
    bool from_run() const {
      return head_ < run_.size() && (heap_.empty() || run_[head_].key <= heap_.front().key);
    }
    std::vector<HeapFlow> run_;
    std::size_t head_ = 0;
    std::vector<HeapFlow> heap_;
  };
  bool live_entry(const HeapFlow& e) const { return !dead_[e.flow] && drain_at_[e.flow] == e.at; }
  void push_drain(std::uint32_t f) {
    const double at = drain_at_[f];
    by_drain_.push({at, at, f});
    by_ready_.push({at - 2 * kDrainedFraction * bytes_[f] / rate_[f], at, f});
  }
  void rebuild_drain_heaps() {
    by_drain_.clear();
    by_ready_.clear();
    by_rate_.clear();
    if (!opt_.incremental) return;
    for (std::uint32_t f = 0; f < rem_.size(); ++f) {
      if (dead_[f] || !(rate_[f] > 0)) continue;
      const double at = drain_at_[f];
      by_drain_.add_to_run({at, at, f});
      by_ready_.add_to_run({at - 2 * kDrainedFraction * bytes_[f] / rate_[f], at, f});
      by_rate_.push_back({rate_[f], rate_[f], f});
    }
    by_drain_.sort_run();
    by_ready_.sort_run();
    std::make_heap(by_rate_.begin(), by_rate_.end(), Lower{});
  }
  // by_drain_, by_ready_ (above) and by_rate_: the flows by rate, highest first, so that an
  // incremental computation finds the flows at or above r* without a pass over every flow
  // (an entry is current while the flow is alive at the rate recorded).
  MinQueue by_drain_, by_ready_;
  std::vector<HeapFlow> by_rate_;
  std::vector<double> old_drain_;      // scratch: drain_at_ before a computation
  std::vector<std::uint32_t> retired_; // scratch: the flows a drain retires
  std::size_t dead_flows_ = 0, dead_pool_ = 0;
  std::size_t live_flows() const { return rem_.size() - dead_flows_; }
  double min_drain_ = kInf;
  bool dirty_ = false;
  StepFlows buf_;
};

void Engine::setup_channels() {
  std::size_t c = static_cast<std::size_t>(net_.channel_count());
  if (c >= std::numeric_limits<std::uint32_t>::max())
    fail_runtime("network", "too many channels for the analytic engine");
  bw_.resize(c);
  lat_.resize(c);
  down_.assign(c, 0);
  for (std::size_t l = 0; l < net_.links.size(); ++l) {
    const topo::Link& k = net_.links[l];
    bw_[2 * l] = bw_[2 * l + 1] = k.bandwidth_bytes_per_s;
    lat_[2 * l] = lat_[2 * l + 1] = k.latency_s;
    if (!(k.bandwidth_bytes_per_s > 0) || !std::isfinite(k.bandwidth_bytes_per_s))
      fail_input("network/links/" + std::to_string(l), "bandwidth must be positive");
    if (opt_.down_links && l < opt_.down_links->size() && (*opt_.down_links)[l])
      down_[2 * l] = down_[2 * l + 1] = 1;
  }
  share_bw_ = bw_;
  if (const FlowOrbits* o = prog_.orbits(); o && !o->stabilizer.empty()) {
    if (o->stabilizer.size() != c)
      fail_runtime("analytic engine", "channel stabilizers do not match the network");
    for (std::size_t k = 0; k < c; ++k) share_bw_[k] /= o->stabilizer[k];
  }
  cnt_.assign(c, 0);
  wsum_.assign(c, 0);
  cap_.assign(c, 0);
  head_.assign(c, 0);
  run_.assign(c, 0);
  order_.assign(c, 0);
  version_.assign(c, 0);
  load_.assign(c, 0);
  base_.assign(c, 0);
  changed_mark_.assign(c, 0);
  res_.channel_bytes.assign(c, 0);
}

void Engine::setup_steps() {
  const auto& steps = prog_.steps();
  const auto& phases = prog_.phases();
  std::size_t ns = steps.size();
  if (ns >= std::numeric_limits<std::uint32_t>::max()) fail_input(kWhere, "too many steps");
  deps_left_.assign(ns, 0);
  dep_head_.assign(ns + 1, 0);
  for (std::size_t s = 0; s < ns; ++s) {
    if (steps[s].phase < 0 || static_cast<std::size_t>(steps[s].phase) >= phases.size())
      fail_input(kWhere, "step " + std::to_string(s) + " names phase " +
                             std::to_string(steps[s].phase) + ", but there are " +
                             std::to_string(phases.size()));
    for (std::int64_t a : steps[s].after) {
      if (a < 0 || static_cast<std::size_t>(a) >= ns || static_cast<std::size_t>(a) == s)
        fail_input(kWhere, "step " + std::to_string(s) + " depends on step " + std::to_string(a) +
                               ", which does not exist or is itself");
      ++dep_head_[static_cast<std::size_t>(a) + 1];
    }
    deps_left_[s] = static_cast<std::uint32_t>(steps[s].after.size());
  }
  for (std::size_t s = 0; s < ns; ++s) dep_head_[s + 1] += dep_head_[s];
  dependents_.resize(dep_head_[ns]);
  std::vector<std::size_t> fill(dep_head_.begin(), dep_head_.end() - 1);
  for (std::size_t s = 0; s < ns; ++s)
    for (std::int64_t a : steps[s].after)
      dependents_[fill[static_cast<std::size_t>(a)]++] = static_cast<std::uint32_t>(s);
  pending_.assign(ns, 0);
  last_done_.assign(ns, 0);
  memo_of_.assign(ns, -1);
  for (std::size_t s = 0; s < ns; ++s) {
    const std::int64_t j = prog_.repeats(s);
    if (j < 0) continue;
    if (static_cast<std::size_t>(j) >= s)
      fail_runtime(kWhere, "step " + std::to_string(s) + " repeats a later step");
    if (memo_of_[static_cast<std::size_t>(j)] < 0) {
      memo_of_[static_cast<std::size_t>(j)] = static_cast<std::int64_t>(memos_.size());
      memos_.emplace_back();
    }
  }
  start_mark_.assign(memos_.size(), 0);
  memo_recording_.assign(memos_.size(), 0);
  started_.assign(ns, 0);
  res_.step_start_s.assign(ns, 0);
  res_.step_end_s.assign(ns, 0);
  res_.steps = static_cast<std::int64_t>(ns);
}

void Engine::start_step(std::size_t s, double t) {
  started_[s] = 1;
  res_.step_start_s[s] = t;
  last_done_[s] = t;
  const bool idle = running_ == 0 && live_flows() == 0;
  ++running_;
  ++starts_;
  if (const std::int64_t j = prog_.repeats(s); j >= 0 && idle) {
    const std::int64_t m = memo_of_[static_cast<std::size_t>(j)];
    if (m >= 0 && memos_[static_cast<std::size_t>(m)].alone) {
      Memo& memo = memos_[static_cast<std::size_t>(m)];
      ++memo.repeats_run;
      res_.flows += memo.flows;
      pending_[s] = 0;
      fin_.push({t + memo.duration, static_cast<std::uint32_t>(s)});
      return;
    }
  }
  prog_.flows(s, buf_);
  // A step later steps repeat: remember it, if it runs alone.
  Memo* rec = nullptr;
  if (const std::int64_t m = memo_of_[s]; m >= 0 && idle) {
    rec = &memos_[static_cast<std::size_t>(m)];
    rec->channel_bytes.assign(bw_.size(), 0.0);
    rec->flows = static_cast<std::int64_t>(buf_.flows.size());
    start_mark_[static_cast<std::size_t>(m)] = starts_;
    memo_recording_[static_cast<std::size_t>(m)] = 1;
  }
  const double step_latency = prog_.steps()[s].latency_s;
  const std::size_t nch = bw_.size();
  std::uint32_t pending = 0;
  const std::size_t grow = rem_.size() + buf_.flows.size();
  for (auto* v : {&rem_, &rate_, &t0_, &bytes_, &flat_, &drain_at_}) v->reserve(grow);
  for (auto* v : {&step_, &first_, &count_}) v->reserve(grow);
  pool_.reserve(pool_.size() + buf_.channels.size());
  if (!buf_.shares.empty() && !weighted_) {
    weighted_ = true;
    wpool_.assign(pool_.size(), 1.0);
  }
  if (weighted_) wpool_.reserve(pool_.size() + buf_.channels.size());
  for (const Flow& f : buf_.flows) {
    if (!(f.bytes >= 0) || !std::isfinite(f.bytes))
      fail_input(kWhere, "step " + std::to_string(s) + ": a flow from " + std::to_string(f.src) +
                             " to " + std::to_string(f.dst) + " has invalid bytes");
    if (static_cast<std::size_t>(f.first) + f.count > buf_.channels.size())
      fail_runtime(kWhere, "step " + std::to_string(s) + ": flow channels out of the pool");
    double lat = 0;
    for (std::uint32_t i = 0; i < f.count; ++i) {
      std::int64_t ch = buf_.channels[f.first + i];
      if (ch < 0 || static_cast<std::size_t>(ch) >= nch)
        fail_input(kWhere, "step " + std::to_string(s) + ": a flow from " + std::to_string(f.src) +
                               " to " + std::to_string(f.dst) + " uses channel " +
                               std::to_string(ch) + ", which does not exist");
      if (down_[static_cast<std::size_t>(ch)])
        fail_input(kWhere, "step " + std::to_string(s) + ": a flow from " + std::to_string(f.src) +
                               " to " + std::to_string(f.dst) + " uses failed link " +
                               std::to_string(topo::link_of_channel(ch)));
      const double w = buf_.share(f.first + i);
      if (!(w > 0 && w <= 1))
        fail_runtime(kWhere, "step " + std::to_string(s) + ": a flow's share of channel " +
                                 std::to_string(ch) + " is not in (0, 1]");
      if (buf_.shares.empty()) {
        lat += lat_[static_cast<std::size_t>(ch)];
        res_.channel_bytes[static_cast<std::size_t>(ch)] += f.bytes;
        if (rec) rec->channel_bytes[static_cast<std::size_t>(ch)] += f.bytes;
      } else {
        lat += w * lat_[static_cast<std::size_t>(ch)];
        res_.channel_bytes[static_cast<std::size_t>(ch)] += w * f.bytes;
        if (rec) rec->channel_bytes[static_cast<std::size_t>(ch)] += w * f.bytes;
      }
    }
    if (step_latency >= 0) lat = step_latency;
    ++res_.flows;
    if (f.count == 0 || f.bytes == 0) {
      // Nothing to share: the flow completes after its latency alone.
      last_done_[s] = std::max(last_done_[s], t + lat);
      continue;
    }
    ++pending;
    rem_.push_back(f.bytes);
    rate_.push_back(0);
    t0_.push_back(t);
    bytes_.push_back(f.bytes);
    flat_.push_back(lat);
    drain_at_.push_back(kInf);
    step_.push_back(static_cast<std::uint32_t>(s));
    dead_.push_back(0);
    if (pool_.size() + f.count >= std::numeric_limits<std::uint32_t>::max())
      fail_infeasible(kWhere, "too many concurrent flow hops for the analytic engine");
    first_.push_back(static_cast<std::uint32_t>(pool_.size()));
    count_.push_back(f.count);
    for (std::uint32_t i = 0; i < f.count; ++i) {
      pool_.push_back(static_cast<std::uint32_t>(buf_.channels[f.first + i]));
      if (weighted_) wpool_.push_back(buf_.share(f.first + i));
    }
  }
  // A huge step (the all-to-all baseline: millions of flows) would otherwise keep its buffer
  // alive beside the engine's own copy for the whole run.
  if (buf_.channels.capacity() > (std::size_t{1} << 20)) buf_ = StepFlows();
  pending_[s] = pending;
  if (pending == 0) {
    fin_.push({last_done_[s], static_cast<std::uint32_t>(s)});
  } else {
    dirty_ = true;
    full_ = true; // new flows may lower any rate
  }
}

// Max-min fair rates by progressive filling. All channels whose fair share equals the current
// minimum are frozen in one pass, so a step of N symmetric flows is one pass over its channels.
void Engine::compute_rates(double t) {
  ++res_.rate_computations;
  const std::size_t nf = rem_.size();
  // Which flows to (re)rate. After flows started, all of them. After flows drained only (the
  // incremental case), the flows whose rate was at least the lowest rate among those that left
  // (r*): removing a flow frees capacity only on channels that saturate at its rate or above, so
  // every level below r* of the progressive filling is what it was, and the flows frozen there
  // keep their rates. The others are the max-min fair allocation of the capacity the kept flows
  // leave (the fair allocation is unique, and theirs satisfies the bottleneck condition there),
  // so progressive filling runs over them alone, from that residual capacity. Any superset of
  // them is as exact; the margin takes flows within rounding of r*.
  const bool full = full_ || !opt_.incremental;
  sub_.clear();
  if (full) {
    for (std::size_t f = 0; f < nf; ++f)
      if (!dead_[f]) sub_.push_back(static_cast<std::uint32_t>(f));
  } else {
    ++res_.incremental_computations;
    const double floor = r_star_ * (1 - 1e-9);
    while (!by_rate_.empty() && by_rate_.front().key >= floor) {
      const HeapFlow e = by_rate_.front();
      std::pop_heap(by_rate_.begin(), by_rate_.end(), Lower{});
      by_rate_.pop_back();
      if (!dead_[e.flow] && rate_[e.flow] == e.key) sub_.push_back(e.flow);
    }
    // In index order, as a pass over the flows would take them (the rates are then the same
    // doubles whichever way the set was found).
    std::sort(sub_.begin(), sub_.end());
  }
  full_ = false;
  r_star_ = kInf;
  touch_.clear();
  for (std::uint32_t f : sub_)
    for (std::uint32_t i = 0; i < count_[f]; ++i) {
      std::uint32_t c = pool_[first_[f] + i];
      if (cnt_[c]++ == 0) {
        touch_.push_back(c);
        base_[c] = 0;
      }
      const double w = weighted_ ? wpool_[first_[f] + i] : 1.0;
      if (weighted_) wsum_[c] += w;
      if (!full) base_[c] += rate_[f] * w; // what the flows re-rated use of it now
    }
  // CSR of flows by channel (a flow crossing a channel twice appears twice, and so uses twice
  // its rate there, which is what it does).
  std::uint32_t acc = 0;
  for (std::uint32_t c : touch_) {
    head_[c] = acc;
    run_[c] = cnt_[c];
    acc += cnt_[c];
    // The capacity left by the flows that keep their rates (load_ - base_: all flows' use of
    // the channel less the re-rated flows' use).
    cap_[c] = full ? share_bw_[c] : share_bw_[c] - (load_[c] - base_[c]);
  }
  csr_.resize(acc);
  for (std::uint32_t f : sub_)
    for (std::uint32_t i = 0; i < count_[f]; ++i) csr_[head_[pool_[first_[f] + i]]++] = f;
  for (std::uint32_t c : touch_) head_[c] -= run_[c]; // back to the start of each run

  // Only the flows rated here are read: every one of them gets frozen, with its new rate.
  frozen_.resize(nf);
  new_rate_.resize(nf);
  for (std::uint32_t f : sub_) frozen_[f] = 0;
  // Progressive filling with the channels in a heap keyed by their fair share: each level pops
  // the channels at the minimum (within the tie factor) instead of scanning every live channel,
  // so a computation costs O((channels + flow-channel entries) log) whatever the number of
  // levels. An entry is current while its channel's version is: every change to a channel's
  // capacity or count bumps the version and pushes the new key once per level, so the heap's
  // current entries are exactly the live channels' fair shares, the same doubles a scan reads.
  // A level's channels are frozen in touch_ order (the order a scan would find them), so the
  // capacities are reduced in the same order and every rate is the same double as a scan's.
  std::size_t unfrozen = sub_.size();
  // A channel's fair share: its capacity left over the flows (weighted: their shares) on it.
  auto fair = [&](std::uint32_t c) { return weighted_ ? cap_[c] / wsum_[c] : cap_[c] / cnt_[c]; };
  heap_.clear();
  for (std::uint32_t k = 0; k < touch_.size(); ++k) {
    const std::uint32_t c = touch_[k];
    order_[c] = k;
    ++version_[c];
    heap_.push_back({fair(c), c, version_[c]});
  }
  auto later = [](const HeapEntry& a, const HeapEntry& b) { return a.share > b.share; };
  std::make_heap(heap_.begin(), heap_.end(), later);
  auto current = [&](const HeapEntry& e) {
    return cnt_[e.channel] > 0 && version_[e.channel] == e.version;
  };
  while (unfrozen > 0) {
    while (!heap_.empty() && !current(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    if (heap_.empty()) fail_runtime("analytic engine", "flows left without a channel");
    const double share = heap_.front().share;
    if (!(share > 0) || !std::isfinite(share))
      fail_runtime("analytic engine", "max-min fair share is not positive");
    // Decide the whole level before freezing anything: freezing only raises other channels'
    // shares, but rounding could otherwise move a channel across the tie limit mid-pass.
    const double limit = share * (1 + kShareTie);
    level_.clear();
    while (!heap_.empty() && heap_.front().share <= limit) {
      if (current(heap_.front())) {
        level_.push_back(heap_.front().channel);
        ++version_[heap_.front().channel]; // taken: its other entries, if any, are stale
      }
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    std::sort(level_.begin(), level_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return order_[a] < order_[b]; });
    changed_.clear();
    for (std::uint32_t c : level_)
      for (std::uint32_t k = head_[c], e = head_[c] + run_[c]; k < e; ++k) {
        std::uint32_t f = csr_[k];
        if (frozen_[f]) continue;
        frozen_[f] = 1;
        new_rate_[f] = share;
        --unfrozen;
        for (std::uint32_t i = 0; i < count_[f]; ++i) {
          std::uint32_t c2 = pool_[first_[f] + i];
          if (weighted_) {
            const double w = wpool_[first_[f] + i];
            cap_[c2] -= share * w;
            // The last flow leaves the sum exactly 0, whatever the rounding on the way.
            wsum_[c2] = cnt_[c2] == 1 ? 0.0 : wsum_[c2] - w;
          } else {
            cap_[c2] -= share;
          }
          --cnt_[c2];
          if (changed_mark_[c2] == 0) {
            changed_mark_[c2] = 1;
            changed_.push_back(c2);
          }
        }
      }
    for (std::uint32_t c : changed_) {
      changed_mark_[c] = 0;
      ++version_[c];
      if (cnt_[c] == 0) continue;
      heap_.push_back({fair(c), c, version_[c]});
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  // Every cnt_ is back to 0 here: each flow decremented each of its channels once per crossing.

  // The new rates, and every channel's load: recomputed whole after a full computation (so any
  // rounding the incremental updates gathered goes), updated by the rate changes otherwise.
  if (full)
    for (std::uint32_t c : touch_) load_[c] = 0;
  if (opt_.incremental) old_drain_.resize(nf); // the heaps' bookkeeping (below)
  for (std::uint32_t f : sub_) {
    if (opt_.incremental) old_drain_[f] = drain_at_[f];
    const double old = full ? 0.0 : rate_[f];
    if (new_rate_[f] != rate_[f]) {
      if (rate_[f] > 0) rem_[f] = std::max(0.0, rem_[f] - rate_[f] * (t - t0_[f]));
      t0_[f] = t;
      rate_[f] = new_rate_[f];
      drain_at_[f] = t0_[f] + rem_[f] / rate_[f];
    }
    if (full || rate_[f] != old)
      for (std::uint32_t i = 0; i < count_[f]; ++i)
        load_[pool_[first_[f] + i]] += (rate_[f] - old) * (weighted_ ? wpool_[first_[f] + i] : 1.0);
  }
  if (!opt_.incremental) { // the reference: a pass over every flow
    min_drain_ = kInf;     // a dead flow's drain_at_ is infinite
    for (std::size_t f = 0; f < nf; ++f) min_drain_ = std::min(min_drain_, drain_at_[f]);
    return;
  }
  // The drain instants in two lazy heaps: rebuilt when most flows were rated, else the rated
  // flows' new instants pushed (their old entries no longer current).
  if (2 * sub_.size() > live_flows()) {
    rebuild_drain_heaps();
  } else {
    for (std::uint32_t f : sub_) {
      if (drain_at_[f] != old_drain_[f]) push_drain(f);
      by_rate_.push_back({rate_[f], rate_[f], f}); // taken out by the selection above
      std::push_heap(by_rate_.begin(), by_rate_.end(), Lower{});
    }
  }
  while (!by_drain_.empty() && !live_entry(by_drain_.front())) by_drain_.pop();
  min_drain_ = by_drain_.empty() ? kInf : by_drain_.front().key;
}

// Retires every flow whose data has drained by t (or all but a rounding error of it). A retired
// flow is marked dead and left in place; the arrays are compacted (stably, so the live flows keep
// their order) once the dead hold half the pool, so an event costs a pass over the flows, not a
// copy of every live flow's channels.
void Engine::drain(double t) {
  const std::size_t nf = rem_.size();
  auto drained = [&](std::size_t f) {
    return drain_at_[f] <= t || rem_[f] - rate_[f] * (t - t0_[f]) <= kDrainedFraction * bytes_[f];
  };
  retired_.clear();
  if (opt_.incremental) {
    // The candidates: flows whose retirement key (drain_at less twice the rounding allowance,
    // below which the condition cannot hold) has come; the others cannot have drained. One that
    // is not drained yet waits again under its drain instant.
    while (!by_ready_.empty() && by_ready_.front().key <= t) {
      const HeapFlow e = by_ready_.front();
      by_ready_.pop();
      if (!live_entry(e)) continue;
      if (drained(e.flow)) {
        retired_.push_back(e.flow);
      } else {
        by_ready_.push({e.at, e.at, e.flow});
      }
    }
    std::sort(retired_.begin(), retired_.end()); // the order a scan retires them in
  } else {
    for (std::size_t f = 0; f < nf; ++f)
      if (!dead_[f] && drained(f)) retired_.push_back(static_cast<std::uint32_t>(f));
  }
  for (std::uint32_t f : retired_) {
    r_star_ = std::min(r_star_, rate_[f]);
    for (std::uint32_t i = 0; i < count_[f]; ++i)
      load_[pool_[first_[f] + i]] -= rate_[f] * (weighted_ ? wpool_[first_[f] + i] : 1.0);
    std::uint32_t s = step_[f];
    last_done_[s] = std::max(last_done_[s], t + flat_[f]);
    if (--pending_[s] == 0) fin_.push({last_done_[s], s});
    dead_[f] = 1;
    drain_at_[f] = kInf;
    ++dead_flows_;
    dead_pool_ += count_[f];
  }
  if (dead_pool_ * 2 <= pool_.size() && dead_flows_ * 2 <= nf) return;
  // Stable compaction of the flow arrays and of the channel pool (flows appear in pool order,
  // so the pool compacts in place too).
  std::size_t w = 0;
  std::uint32_t pw = 0;
  for (std::size_t f = 0; f < nf; ++f) {
    if (dead_[f]) continue;
    std::uint32_t first = first_[f], count = count_[f];
    for (std::uint32_t i = 0; i < count; ++i) pool_[pw + i] = pool_[first + i];
    if (weighted_)
      for (std::uint32_t i = 0; i < count; ++i) wpool_[pw + i] = wpool_[first + i];
    rem_[w] = rem_[f];
    rate_[w] = rate_[f];
    t0_[w] = t0_[f];
    bytes_[w] = bytes_[f];
    flat_[w] = flat_[f];
    drain_at_[w] = drain_at_[f];
    step_[w] = step_[f];
    first_[w] = pw;
    count_[w] = count;
    pw += count;
    ++w;
  }
  for (auto* v : {&rem_, &rate_, &t0_, &bytes_, &flat_, &drain_at_}) v->resize(w);
  step_.resize(w);
  first_.resize(w);
  count_.resize(w);
  dead_.assign(w, 0);
  dead_flows_ = 0;
  dead_pool_ = 0;
  pool_.resize(pw);
  if (weighted_) wpool_.resize(pw);
  rebuild_drain_heaps(); // the flows have new indices
}

void Engine::finish_step(std::size_t s, double t) {
  res_.step_end_s[s] = t;
  ++finished_;
  --running_;
  if (const std::int64_t m = memo_of_[s]; m >= 0 && memo_recording_[static_cast<std::size_t>(m)]) {
    Memo& memo = memos_[static_cast<std::size_t>(m)];
    memo_recording_[static_cast<std::size_t>(m)] = 0;
    // Alone: nothing else started while it ran, and nothing else is running as it ends.
    memo.alone =
        starts_ == start_mark_[static_cast<std::size_t>(m)] && running_ == 0 && live_flows() == 0;
    memo.duration = t - res_.step_start_s[s];
    if (!memo.alone) memo.channel_bytes = {};
  }
  if (opt_.progress) opt_.progress->update(static_cast<std::uint64_t>(finished_));
  for (std::size_t k = dep_head_[s]; k < dep_head_[s + 1]; ++k) {
    std::uint32_t d = dependents_[k];
    if (--deps_left_[d] == 0) start_step(d, t);
  }
}

AnalyticResult Engine::run() {
  setup_channels();
  setup_steps();
  const std::size_t ns = deps_left_.size();
  for (std::size_t s = 0; s < ns; ++s)
    if (deps_left_[s] == 0) start_step(s, 0.0);
  double t = 0;
  for (;;) {
    if (dirty_) {
      dirty_ = false;
      if (live_flows() > 0) compute_rates(t);
    }
    const double td = live_flows() == 0 ? kInf : min_drain_;
    const double tf = fin_.empty() ? kInf : fin_.top().first;
    if (td == kInf && tf == kInf) break;
    ++res_.events;
    if (td <= tf) {
      t = td;
      drain(t);
      dirty_ = true;
    } else {
      t = tf;
      // Steps finishing now may start steps without flows that finish now too: drain them all.
      while (!fin_.empty() && fin_.top().first == t) {
        std::uint32_t s = fin_.top().second;
        fin_.pop();
        finish_step(s, t);
      }
    }
  }
  if (static_cast<std::size_t>(finished_) != ns) {
    std::size_t example = 0;
    while (example < ns && started_[example]) ++example;
    fail_input(kWhere, std::to_string(ns - static_cast<std::size_t>(finished_)) +
                           " steps never start: their dependencies form a cycle (e.g. step " +
                           std::to_string(example) + ")");
  }

  // The bytes of the repeats that were not simulated.
  for (Memo& m : memos_)
    if (m.repeats_run > 0)
      for (std::size_t c = 0; c < bw_.size(); ++c)
        res_.channel_bytes[c] += static_cast<double>(m.repeats_run) * m.channel_bytes[c];

  // Phases and totals.
  const auto& names = prog_.phases();
  const auto& steps = prog_.steps();
  res_.phases.resize(names.size());
  for (std::size_t p = 0; p < names.size(); ++p) res_.phases[p].name = names[p];
  for (std::size_t s = 0; s < ns; ++s) {
    PhaseResult& ph = res_.phases[static_cast<std::size_t>(steps[s].phase)];
    if (ph.steps == 0) {
      ph.start_s = res_.step_start_s[s];
      ph.end_s = res_.step_end_s[s];
    } else {
      ph.start_s = std::min(ph.start_s, res_.step_start_s[s]);
      ph.end_s = std::max(ph.end_s, res_.step_end_s[s]);
    }
    ++ph.steps;
    res_.time_s = std::max(res_.time_s, res_.step_end_s[s]);
  }

  // A quotient program's representatives stand for their orbits.
  if (const FlowOrbits* o = prog_.orbits()) {
    if (o->channel_rep.size() != bw_.size())
      fail_runtime("analytic engine", "channel orbits do not match the network");
    if (o->stabilizer.empty()) {
      for (std::size_t c = 0; c < bw_.size(); ++c)
        res_.channel_bytes[c] = res_.channel_bytes[o->channel_rep[c]];
    } else {
      const std::vector<double> rep = res_.channel_bytes;
      for (std::size_t c = 0; c < bw_.size(); ++c)
        res_.channel_bytes[c] = rep[o->channel_rep[c]] * o->stabilizer[o->channel_rep[c]];
    }
    res_.flows *= o->multiplicity;
  }

  // Utilisation per directed channel of every live link.
  double sum = 0, sum_busy = 0;
  res_.channel_utilisation.assign(bw_.size(), 0.0);
  for (std::size_t c = 0; c < bw_.size(); ++c) {
    if (down_[c]) continue;
    ++res_.live_channels;
    const double u = res_.time_s > 0 ? res_.channel_bytes[c] / (bw_[c] * res_.time_s) : 0.0;
    res_.channel_utilisation[c] = u;
    res_.max_utilisation = std::max(res_.max_utilisation, u);
    sum += u;
    if (res_.channel_bytes[c] > 0) {
      ++res_.busy_channels;
      sum_busy += u;
    }
  }
  if (res_.live_channels > 0) res_.mean_utilisation = sum / static_cast<double>(res_.live_channels);
  if (res_.busy_channels > 0)
    res_.mean_busy_utilisation = sum_busy / static_cast<double>(res_.busy_channels);
  return std::move(res_);
}

} // namespace

AnalyticResult simulate_analytic(const Program& program, const topo::Network& network,
                                 const AnalyticOptions& options) {
  Engine e(program, network, options);
  return e.run();
}

} // namespace icnkit::sim
