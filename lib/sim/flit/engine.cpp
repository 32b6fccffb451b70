// The engine's state, the packets offered to it, and what it reports (engine.hpp); the
// router pipeline is in router.cpp, the threads and the cycle loop in parallel.cpp.
#include "sim/flit/engine.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <limits>

namespace icnkit::sim::flit {

namespace {

// Reachability per ordered pair in 2 bits (32 pairs a word) up to this many chips (64 MiB at
// 16,384 chips); above, in a hash map of the pairs seen (a uniform load of a large network
// meets most pairs, and the map's ~50 bytes a pair outgrew the table well below this size).
constexpr std::int64_t kDenseReach = 23170; // 23,170^2 / 4 bytes <= 128 MiB

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

} // namespace

Engine::Engine(const Fabric& f, int threads, std::uint64_t seed)
    : F_(f), V_(f.p_.vcs), B_(f.p_.buffer_flits), per_unit_(static_cast<std::uint32_t>(f.p_.vcs)) {
  if (f.fn_.random_choice()) {
    SplitMix64 streams(seed ^ 0x63686f6963657321ULL); // "choices!"
    choice_rng_.reserve(f.net_.nodes.size());
    for (std::size_t v = 0; v < f.net_.nodes.size(); ++v) choice_rng_.emplace_back(streams.next());
  }
  const std::size_t IV = f.in_router_.size() * z(V_), OV = f.out_down_.size() * z(V_);
  buf_.assign(IV * z(B_), 0);
  meta_.assign(IV * z(B_), Meta{});
  iv_.assign(IV, InVc{});
  opts_.resize(IV);
  ov_.assign(OV, OutVc{B_, -1});
  tail_sent_.assign(OV, 0);
  va_gptr_.assign(OV, 0);
  va_aptr_.assign(IV, 0);
  sa_gptr_.assign(f.out_down_.size(), 0);
  sa_aptr_.assign(f.in_router_.size(), 0);
  sw_rr_.assign(f.in_router_.size(), 0);
  out_flits_.assign(f.out_down_.size(), 0);
  if (f.paced_) out_next_.assign(f.out_down_.size(), -std::numeric_limits<double>::infinity());
  router_flits_.assign(z(f.routers()), 0);
  router_va_.assign(z(f.routers()), 0);
  va_begin_.assign(z(f.routers()) + 1, 0);
  for (std::int64_t r = 0; r < f.routers(); ++r)
    va_begin_[z(r) + 1] =
        va_begin_[z(r)] + ((f.in_begin_[z(r) + 1] - f.in_begin_[z(r)]) * V_ + 63) / 64;
  va_mask_.assign(z(va_begin_.back()), 0);
  port_mask_.assign(f.in_router_.size(), 0);
  rp_begin_.assign(z(f.routers()) + 1, 0);
  for (std::int64_t r = 0; r < f.routers(); ++r)
    rp_begin_[z(r) + 1] = rp_begin_[z(r)] + (f.in_begin_[z(r) + 1] - f.in_begin_[z(r)] + 63) / 64;
  router_ports_.assign(z(rp_begin_.back()), 0);
  router_active_.assign(z(f.routers()), 0);
  const std::size_t NC = z(f.net_.n_chip), NS = z(f.slot_begin_.back());
  queue_.resize(NS);
  queue_head_.assign(NS, 0);
  cur_pkt_.assign(NS, -1);
  cur_ovc_.assign(NS, -1);
  cur_flit_.assign(NS, 0);
  cur_flags_.assign(NS, 0);
  last_vc_.assign(NS, V_ - 1);
  ni_opts_.resize(NS);
  ni_active_.assign(NC, 0);
  every_pair_ = f.fn_.delivers_every_pair_fault_free() &&
                std::none_of(f.down_link_.begin(), f.down_link_.end(), [](char d) { return d; }) &&
                std::none_of(f.down_chip_.begin(), f.down_chip_.end(), [](char d) { return d; });
  if (!every_pair_ && f.net_.n_chip <= kDenseReach) reach_.assign((NC * NC + 31) / 32, 0);

  make_parts(threads);
}

bool Engine::reachable(std::int64_t src, std::int64_t dst) {
  const topo::Network& n = F_.net_;
  if (src == dst) // a chip that does not route sends its own packets through its switch
    return F_.chips_route_ || F_.ni_begin_[z(src)] < F_.ni_begin_[z(src) + 1];
  if (every_pair_) return true;
  auto compute = [&] {
    const route::Path p = route::trace(F_.fn_, n, F_.down_link_, F_.down_chip_, src, dst,
                                       2 * static_cast<std::int64_t>(n.nodes.size()) + 8);
    return p.delivered;
  };
  if (!reach_.empty()) {
    const std::size_t pair = z(src) * z(n.n_chip) + z(dst);
    std::uint64_t& w = reach_[pair / 32];
    const unsigned shift = 2 * (pair % 32);
    std::uint64_t r = w >> shift & 3;
    if (r == 0) {
      r = compute() ? 1 : 2;
      w |= r << shift;
    }
    return r == 1;
  }
  const std::uint64_t key = static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint64_t>(dst);
  auto it = reach_map_.find(key);
  if (it == reach_map_.end()) it = reach_map_.emplace(key, compute()).first;
  return it->second;
}

std::uint32_t Engine::new_packet() {
  if (!free_packets_.empty()) {
    const std::uint32_t id = free_packets_.back();
    free_packets_.pop_back();
    return id;
  }
  if (packets_.size() >= (std::size_t{1} << 30))
    fail_infeasible("flit", "more than 2^30 packets in the network and the source queues");
  packets_.push_back({});
  return static_cast<std::uint32_t>(packets_.size() - 1);
}

bool Engine::offer(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag) {
  if (!F_.chip_live(src) || !F_.chip_live(dst) || !reachable(src, dst)) return false;
  enqueue(src, dst, flits, tag, 0, F_.slot_begin_[z(src)]);
  return true;
}

void Engine::offer_routed(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag,
                          std::uint32_t flags, int port) {
  if (!F_.chip_live(src) || !F_.chip_live(dst) || port < 0 || port >= F_.injection_ports(src))
    fail_runtime("flit", "offer_routed: chip " + std::to_string(src) + " -> " +
                             std::to_string(dst) + " is down or has no injection port " +
                             std::to_string(port));
  enqueue(src, dst, flits, tag, flags, F_.slot_begin_[z(src)] + port);
}

void Engine::enqueue(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag,
                     std::uint32_t flags, std::int32_t slot) {
  const std::uint32_t id = new_packet();
  packets_[id] = Packet{tag,
                        now_,
                        -1,
                        static_cast<std::int32_t>(src),
                        static_cast<std::int32_t>(dst),
                        static_cast<std::uint16_t>(flits),
                        0,
                        flags};
  queue_[z(slot)].push_back(id);
  ++queued_;
  if (!ni_active_[z(src)])
    ni_active_[z(src)] = 1, parts_[chip_part_[z(src)]].active_ni.push_back(src);
}

std::vector<std::int64_t> Engine::channel_flits() const {
  std::vector<std::int64_t> out(z(F_.net_.channel_count()), 0);
  for (std::size_t o = 0; o < F_.out_channel_.size(); ++o)
    if (F_.out_channel_[o] >= 0) out[z(F_.out_channel_[o])] = out_flits_[o];
  return out;
}

std::vector<WaitHop> Engine::waiting_cycle() const {
  // Wait-for graph over the input VCs that hold flits, each the buffer of one (channel, VC): an
  // active VC without credits waits for the downstream buffer it feeds; a head waiting for an
  // output VC waits for the downstream buffers of the VCs it asked for (held by other packets).
  // A cycle is then a closed chain of channels, as topo-route prints a dependency cycle.
  const std::size_t IV = iv_.size();
  auto succ = [&](std::size_t iv, std::vector<std::int32_t>& out) {
    out.clear();
    if (iv_[iv].count == 0) return;
    if (iv_[iv].state == kActive) {
      const std::int32_t ovc = iv_[iv].out_vc;
      const std::int32_t down = F_.out_down_[z(ovc / V_)];
      if (down >= 0 && ov_[z(ovc)].credits <= 0) out.push_back(down * V_ + ovc % V_);
    } else if (iv_[iv].state == kVcAlloc) {
      for (const Opt& o : opts_[iv]) {
        const std::int32_t down = F_.out_down_[z(o.out)];
        if (down < 0) continue;
        for (int v = o.vb; v < o.ve; ++v)
          if (ov_[z(o.out) * z(V_) + z(v)].owner != -1) out.push_back(down * V_ + v);
      }
    }
  };
  std::vector<std::uint8_t> color(IV, 0); // 0 new, 1 on the stack, 2 done
  std::vector<std::int32_t> parent(IV, -1), next;
  std::vector<std::pair<std::int32_t, std::vector<std::int32_t>>> stack;
  for (std::size_t s = 0; s < IV; ++s) {
    if (color[s] != 0 || iv_[s].count == 0) continue;
    stack.clear();
    succ(s, next);
    stack.push_back({static_cast<std::int32_t>(s), next});
    color[s] = 1;
    while (!stack.empty()) {
      auto& [v, rest] = stack.back();
      if (rest.empty()) {
        color[z(v)] = 2;
        stack.pop_back();
        continue;
      }
      const std::int32_t w = rest.back();
      rest.pop_back();
      if (color[z(w)] == 1) { // a cycle: w ... v on the stack
        std::vector<WaitHop> cyc;
        bool on = false;
        for (const auto& fr : stack) {
          if (fr.first == w) on = true;
          if (!on) continue;
          const std::int64_t ch = F_.in_channel_[z(fr.first / V_)];
          if (ch < 0) continue;
          cyc.push_back({F_.net_.channel_src(ch), F_.net_.channel_dst(ch),
                         topo::link_of_channel(ch), fr.first % V_});
        }
        return cyc;
      }
      if (color[z(w)] == 0) {
        color[z(w)] = 1;
        succ(z(w), next);
        const std::int32_t ww = w;
        stack.push_back({ww, next});
      }
    }
  }
  return {};
}

} // namespace icnkit::sim::flit
