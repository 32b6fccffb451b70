// The engine's parts and threads (engine.hpp): the routers split among parts, one thread per
// part meeting every cycle at a barrier, and the cycle that merges their results (step).
#include "sim/flit/engine.hpp"

#include <algorithm>

namespace icnkit::sim::flit {

namespace {

constexpr std::int64_t kMaxParts = 64;
// Routers per part below which a second thread costs more than it gains: measured on 2 cores,
// an 8x8 mesh ran 1.4x slower on two, a 16x16 mesh 1.07x faster, 32x16 1.3x and 16x16x16 1.9x.
constexpr std::int64_t kRoutersPerPart = 256;

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

// Waits until pred() holds: spinning first (a part's cycle takes microseconds, a system call
// about as long here), then sleeping on the atomic, counted in `sleepers` so that the side that
// changes it calls the kernel only when someone sleeps (see wake()).
template <class A, class Pred> void await(A& atom, std::atomic<std::int32_t>& sleepers, Pred pred) {
  for (int k = 0; k < 100000; ++k)
    if (pred(atom.load(std::memory_order_acquire))) return;
  for (;;) {
    sleepers.fetch_add(1); // seq_cst, as the changes and the check in wake()
    const auto v = atom.load();
    if (pred(v)) {
      sleepers.fetch_sub(1);
      return;
    }
    atom.wait(v);
    sleepers.fetch_sub(1);
  }
}

template <class A> void wake(A& atom, const std::atomic<std::int32_t>& sleepers) {
  if (sleepers.load() > 0) atom.notify_all();
}

} // namespace

Engine::Part::Part(int id_, int parts, int wheel, int iterations, int max_ports)
    : id(id_), flits_in(z(parts), std::vector<Arrivals>(z(wheel))),
      credits_in(z(parts), std::vector<std::vector<std::int32_t>>(z(wheel))),
      alloc(iterations, max_ports) {}

void Engine::make_parts(int threads) {
  const Fabric& f = F_;
  const std::size_t NC = z(f.net_.n_chip);
  // The parts: routers in blocks of about equal port counts, chips with their router (or, when
  // chips do not route, with the switch their first link feeds, so that injection stays inside
  // a part; in blocks of chip ids when a chip has no live link); never more parts than routers
  // or 64.
  const std::int64_t R = f.routers();
  const int T = static_cast<int>(std::clamp<std::int64_t>(
      threads, 1, std::min<std::int64_t>(std::max<std::int64_t>(R, 1), kMaxParts)));
  const std::int64_t ports = std::max<std::int64_t>(f.in_begin_[z(R)], 1);
  router_part_.assign(z(R), 0);
  for (std::int64_t r = 0; r < R; ++r)
    router_part_[z(r)] = static_cast<std::uint8_t>(std::int64_t{f.in_begin_[z(r)]} * T / ports);
  chip_part_.assign(NC, 0);
  for (std::size_t c = 0; c < NC; ++c) {
    std::int32_t r = f.node_router_[c];
    if (r < 0 && f.ni_begin_[c] < f.ni_begin_[c + 1] && f.out_down_[z(f.ni_begin_[c])] >= 0)
      r = f.in_router_[z(f.out_down_[z(f.ni_begin_[c])])];
    chip_part_[c] = r >= 0 ? router_part_[z(r)]
                           : static_cast<std::uint8_t>(static_cast<std::int64_t>(c) * T /
                                                       static_cast<std::int64_t>(NC));
  }
  // Out units: routers' (by router), then sources (by chip); their flits go to the part of the
  // in unit they feed, or of the chip whose sink they feed.
  flit_part_.assign(f.out_down_.size(), 0);
  std::vector<std::uint8_t> out_owner(f.out_down_.size(), 0);
  for (std::int64_t r = 0; r < R; ++r)
    for (std::int32_t o = f.out_begin_[z(r)]; o < f.out_begin_[z(r) + 1]; ++o)
      out_owner[z(o)] = router_part_[z(r)];
  for (std::size_t c = 0; c < NC; ++c)
    for (std::int32_t o = f.ni_begin_[c]; o < f.ni_begin_[c + 1]; ++o)
      out_owner[z(o)] = chip_part_[c];
  for (std::size_t o = 0; o < f.out_down_.size(); ++o)
    flit_part_[o] = f.out_down_[o] >= 0 ? router_part_[z(f.in_router_[z(f.out_down_[o])])]
                                        : chip_part_[z(std::max(f.out_sink_[o], 0))];
  credit_part_.assign(f.in_router_.size(), 0);
  for (std::size_t u = 0; u < f.in_router_.size(); ++u) credit_part_[u] = out_owner[z(f.in_up_[u])];

  const int max_ports = (std::max(f.max_in_, f.max_out_) + 1) * V_;
  parts_.reserve(z(T));
  for (int k = 0; k < T; ++k) parts_.emplace_back(k, T, f.wheel_, f.p_.alloc_iters, max_ports);
  for (int k = 1; k < T; ++k) workers_.emplace_back(&Engine::worker, this, z(k));
}

int engine_parts(const Fabric& f, int threads) {
  return static_cast<int>(std::clamp<std::int64_t>(
      std::min<std::int64_t>(threads, f.routers() / kRoutersPerPart), 1, kMaxParts));
}

Engine::~Engine() {
  stop_.store(true);
  go_.fetch_add(1);
  go_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void Engine::worker(std::size_t k) {
  std::uint32_t seen = 0;
  for (;;) {
    await(go_, go_sleepers_, [&](std::uint32_t g) { return g != seen; });
    seen = go_.load(std::memory_order_acquire);
    if (stop_.load()) return;
    run_part(parts_[k]);
    if (pending_.fetch_sub(1) == 1) wake(pending_, pending_sleepers_);
  }
}

void Engine::step() {
  if (parts_.size() == 1) {
    run_part(parts_[0]);
  } else {
    pending_.store(static_cast<std::int32_t>(parts_.size()) - 1, std::memory_order_relaxed);
    go_.fetch_add(1);
    wake(go_, go_sleepers_);
    run_part(parts_[0]);
    await(pending_, pending_sleepers_, [](std::int32_t p) { return p == 0; });
  }
  // The parts' results, in part order (so that the same cycle gives the same lists whatever the
  // threads' timing).
  bool moved = false;
  for (Part& W : parts_) {
    if (W.error) std::rethrow_exception(W.error);
    moved |= W.moved;
    W.moved = false;
    flits_in_network_ += W.flits_delta;
    queued_ += W.queued_delta;
    W.flits_delta = W.queued_delta = 0;
    if (delivered_.empty())
      delivered_.swap(W.delivered);
    else
      delivered_.insert(delivered_.end(), W.delivered.begin(), W.delivered.end());
    W.delivered.clear();
    free_packets_.insert(free_packets_.end(), W.freed.begin(), W.freed.end());
    W.freed.clear();
  }
  idle_ = moved ? 0 : idle_ + 1;
  ++now_;
}

} // namespace icnkit::sim::flit
