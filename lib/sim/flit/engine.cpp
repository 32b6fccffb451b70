#include "sim/flit/engine.hpp"

#include "core/error.hpp"
#include "route/minimal.hpp"
#include "sim/flit/clock.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace icnkit::sim::flit {

namespace {

constexpr std::int64_t kDenseReach = 4096; // chips; above, reachability lives in a hash map
constexpr std::int64_t kMaxParts = 64;
// The slowest link the engine paces, relative to the fastest (a flit every 1,024 cycles).
constexpr double kMaxLinkPeriod = 1024;
// Routers per part below which a second thread costs more than it gains: measured on 2 cores,
// an 8x8 mesh ran 1.4x slower on two, a 16x16 mesh 1.07x faster, 32x16 1.3x and 16x16x16 1.9x.
constexpr std::int64_t kRoutersPerPart = 256;

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Fabric

Fabric::Fabric(const topo::Network& n, const topo::Faults& f, const route::RoutingFunction& fn,
               const RouterParams& p, std::vector<int> link_latency)
    : net_(n), fn_(fn), p_(p) {
  validate(p_);
  classes_ = fn.vc_count();
  if (p_.vcs < classes_)
    fail_infeasible("--vcs", "the routing needs " + std::to_string(classes_) +
                                 " VC classes, but routers have " + std::to_string(p_.vcs) +
                                 " VCs per port");
  if (link_latency.size() != n.links.size())
    fail_runtime("flit", "link latencies do not match the network's links");
  for (int l : link_latency)
    if (l < 1) fail_usage("--link-latency-cycles", "link latencies must be at least 1 cycle");
  const int V = p_.vcs, C = classes_;
  class_begin_.resize(z(C) + 1);
  for (int k = 0; k <= C; ++k) class_begin_[z(k)] = static_cast<std::uint16_t>(k * V / C);
  class_of_vc_.resize(z(V));
  for (int k = 0; k < C; ++k)
    for (int v = class_begin_[z(k)]; v < class_begin_[z(k) + 1]; ++v)
      class_of_vc_[z(v)] = static_cast<std::uint8_t>(k);

  down_link_ = f.down_links(n);
  down_chip_ = f.down_chips(n); // by node
  for (std::int64_t c = 0; c < n.n_chip; ++c) live_chips_ += down_chip_[z(c)] ? 0 : 1;
  chips_route_ = route::chips_transit(n);

  const std::size_t N = n.nodes.size();
  auto node_down = [&](std::int64_t v) { return v < n.n_chip && down_chip_[z(v)]; };
  node_router_.assign(N, -1);
  for (std::size_t v = 0; v < N; ++v) {
    const bool chip = static_cast<std::int64_t>(v) < n.n_chip;
    if (node_down(static_cast<std::int64_t>(v)) || (chip && !chips_route_)) continue;
    node_router_[v] = static_cast<std::int32_t>(router_node_.size());
    router_node_.push_back(static_cast<std::int64_t>(v));
  }
  // Live channels by source and by destination node, in channel-id order.
  const std::int64_t CH = n.channel_count();
  std::vector<std::int32_t> out_count(N + 1, 0), in_count(N + 1, 0);
  auto live = [&](std::int64_t ch) {
    return !down_link_[z(topo::link_of_channel(ch))] && !node_down(n.channel_src(ch)) &&
           !node_down(n.channel_dst(ch));
  };
  for (std::int64_t ch = 0; ch < CH; ++ch)
    if (live(ch)) ++out_count[z(n.channel_src(ch)) + 1], ++in_count[z(n.channel_dst(ch)) + 1];
  for (std::size_t v = 0; v < N; ++v)
    out_count[v + 1] += out_count[v], in_count[v + 1] += in_count[v];
  std::vector<std::int64_t> by_src(z(out_count[N])), by_dst(z(in_count[N]));
  {
    std::vector<std::int32_t> fo(out_count.begin(), out_count.end() - 1),
        fi(in_count.begin(), in_count.end() - 1);
    for (std::int64_t ch = 0; ch < CH; ++ch)
      if (live(ch)) {
        by_src[z(fo[z(n.channel_src(ch))]++)] = ch;
        by_dst[z(fi[z(n.channel_dst(ch))]++)] = ch;
      }
  }
  // Out units of routers (network channels, then the ejection port of a chip), then the chips'
  // sources; in units of routers (network channels, then the injection port of a chip).
  channel_out_.assign(z(CH), -1);
  std::vector<std::int32_t> channel_in(z(CH), -1);
  eject_out_.assign(z(n.n_chip), -1);
  eject_n_.assign(z(n.n_chip), 0);
  const std::int64_t R = routers();
  in_begin_.assign(z(R) + 1, 0);
  out_begin_.assign(z(R) + 1, 0);
  std::vector<std::int32_t> inject_in(z(n.n_chip), -1);
  // Injection and ejection ports of a chip that routes.
  auto endpoint_ports = [&](std::int64_t v) {
    return p_.endpoint_ports > 0 ? p_.endpoint_ports
                                 : std::max(1, out_count[z(v) + 1] - out_count[z(v)]);
  };
  for (std::int64_t r = 0; r < R; ++r) {
    const std::int64_t v = router_node_[z(r)];
    const bool chip = v < n.n_chip;
    in_begin_[z(r)] = static_cast<std::int32_t>(in_router_.size());
    for (std::int32_t k = in_count[z(v)]; k < in_count[z(v) + 1]; ++k) {
      channel_in[z(by_dst[z(k)])] = static_cast<std::int32_t>(in_router_.size());
      in_router_.push_back(static_cast<std::int32_t>(r));
      in_channel_.push_back(by_dst[z(k)]);
    }
    if (chip) {
      inject_in[z(v)] = static_cast<std::int32_t>(in_router_.size());
      for (int k = endpoint_ports(v); k > 0; --k) {
        in_router_.push_back(static_cast<std::int32_t>(r));
        in_channel_.push_back(-1);
      }
    }
    out_begin_[z(r)] = static_cast<std::int32_t>(out_down_.size());
    for (std::int32_t k = out_count[z(v)]; k < out_count[z(v) + 1]; ++k) {
      channel_out_[z(by_src[z(k)])] = static_cast<std::int32_t>(out_down_.size());
      out_channel_.push_back(by_src[z(k)]);
      out_down_.push_back(-1);
      out_sink_.push_back(-1);
      out_latency_.push_back(link_latency[z(topo::link_of_channel(by_src[z(k)]))]);
    }
    if (chip) {
      eject_out_[z(v)] = static_cast<std::int32_t>(out_down_.size());
      eject_n_[z(v)] = endpoint_ports(v);
      for (int k = endpoint_ports(v); k > 0; --k) {
        out_channel_.push_back(-1);
        out_down_.push_back(-1);
        out_sink_.push_back(static_cast<std::int32_t>(v));
        out_latency_.push_back(p_.injection_latency);
      }
    }
    max_in_ = std::max(max_in_, static_cast<int>(in_router_.size()) - in_begin_[z(r)]);
    max_out_ = std::max(max_out_, static_cast<int>(out_down_.size()) - out_begin_[z(r)]);
  }
  in_begin_[z(R)] = static_cast<std::int32_t>(in_router_.size());
  out_begin_[z(R)] = static_cast<std::int32_t>(out_down_.size());
  ni_begin_.assign(z(n.n_chip) + 1, 0);
  slot_begin_.assign(z(n.n_chip) + 1, 0);
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    ni_begin_[z(c)] = static_cast<std::int32_t>(out_down_.size());
    slot_begin_[z(c) + 1] = slot_begin_[z(c)];
    if (down_chip_[z(c)]) continue;
    if (chips_route_) {
      for (int k = 0; k < endpoint_ports(c); ++k) {
        out_channel_.push_back(-1);
        out_down_.push_back(inject_in[z(c)] + k);
        out_sink_.push_back(-1);
        out_latency_.push_back(p_.injection_latency);
        ++slot_begin_[z(c) + 1];
      }
    } else {
      ++slot_begin_[z(c) + 1];
      for (std::int32_t k = out_count[z(c)]; k < out_count[z(c) + 1]; ++k) {
        channel_out_[z(by_src[z(k)])] = static_cast<std::int32_t>(out_down_.size());
        out_channel_.push_back(by_src[z(k)]);
        out_down_.push_back(-1);
        out_sink_.push_back(-1);
        out_latency_.push_back(link_latency[z(topo::link_of_channel(by_src[z(k)]))]);
      }
    }
  }
  ni_begin_[z(n.n_chip)] = static_cast<std::int32_t>(out_down_.size());
  // Where each network channel's flits go: a router's in unit, or a chip's sink.
  for (std::int64_t ch = 0; ch < CH; ++ch) {
    const std::int32_t o = channel_out_[z(ch)];
    if (o < 0) continue;
    out_down_[z(o)] = channel_in[z(ch)];
    if (channel_in[z(ch)] < 0) out_sink_[z(o)] = static_cast<std::int32_t>(n.channel_dst(ch));
  }
  // Which out unit feeds each in unit (its credits go back there).
  in_up_.assign(in_router_.size(), -1);
  for (std::size_t o = 0; o < out_down_.size(); ++o)
    if (out_down_[o] >= 0) in_up_[z(out_down_[o])] = static_cast<std::int32_t>(o);

  out_hot_.resize(out_down_.size());
  for (std::size_t o = 0; o < out_down_.size(); ++o)
    out_hot_[o] = {out_down_[o] >= 0 ? out_down_[o] * p_.vcs : -1 - out_sink_[o],
                   p_.sa_delay + p_.st_delay + out_latency_[o], out_channel_[o] >= 0 ? 1 : 0};
  in_hot_.resize(in_router_.size());
  for (std::size_t u = 0; u < in_router_.size(); ++u)
    in_hot_[u] = {in_router_[u], in_up_[u] * p_.vcs,
                  p_.st_delay + out_latency_[z(in_up_[u])] + p_.credit_delay - 1};

  // Pacing: links slower than the network's fastest (whose flit takes the cycle the tools
  // clock by) carry a flit every bmax / b cycles.
  const double bmax = fastest_link_bandwidth(n);
  out_period_.assign(out_down_.size(), 1.0);
  for (std::size_t o = 0; o < out_down_.size(); ++o) {
    if (out_channel_[o] < 0) continue;
    const topo::Link& l = n.links[z(topo::link_of_channel(out_channel_[o]))];
    if (down_link_[z(l.id)] || !(l.bandwidth_bytes_per_s > 0)) continue;
    const double period = bmax / l.bandwidth_bytes_per_s;
    if (period > kMaxLinkPeriod)
      fail_infeasible("flit", "link " + std::to_string(l.id) + " is " + std::to_string(period) +
                                  " times slower than the fastest; the flit engine paces links "
                                  "up to " +
                                  std::to_string(static_cast<int>(kMaxLinkPeriod)) +
                                  " times slower");
    if (period > 1) {
      out_period_[o] = period;
      paced_ = true;
      max_period_ = std::max(max_period_, period);
    }
  }
  int horizon = 2;
  for (int l : out_latency_) max_latency_ = std::max(max_latency_, l);
  for (int l : out_latency_)
    horizon = std::max({horizon, p_.sa_delay + p_.st_delay + l + 1, 1 + l + 1,
                        p_.st_delay + l + p_.credit_delay + 1});
  while (wheel_ < horizon) wheel_ *= 2;
}

int Fabric::out_port(std::int64_t channel) const {
  const std::int32_t o = channel_out_[z(channel)];
  const std::int32_t r = node_router_[z(net_.channel_src(channel))];
  return o < 0 || r < 0 ? 0 : o - out_begin_[z(r)];
}

std::int64_t Fabric::engine_bytes() const {
  const auto iv = static_cast<std::int64_t>(in_router_.size()) * p_.vcs;
  const auto ov = static_cast<std::int64_t>(out_down_.size()) * p_.vcs;
  // A buffer slot holds a flit (4 bytes) and its head's Meta (16); an input VC its state, its
  // route options and allocator pointers (~64); an output VC its credits, owner and pointers.
  return iv * p_.buffer_flits * 20 + iv * 64 + ov * 24 + static_cast<std::int64_t>(wheel_) * 64;
}

// ---------------------------------------------------------------------------------------------
// Engine

Engine::Part::Part(int id_, int parts, int wheel, int iterations, int max_ports)
    : id(id_), flits_in(z(parts), std::vector<std::vector<FlitEv>>(z(wheel))),
      credits_in(z(parts), std::vector<std::vector<std::int32_t>>(z(wheel))),
      alloc(iterations, max_ports) {}

Engine::Engine(const Fabric& f, int threads, std::uint64_t seed)
    : F_(f), V_(f.p_.vcs), B_(f.p_.buffer_flits) {
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
  if (f.net_.n_chip <= kDenseReach) reach_.assign(NC * NC, 0);

  // The parts: routers in blocks of about equal port counts, chips with their router (or, when
  // chips do not route, in blocks of chip ids); never more parts than routers or 64.
  const std::int64_t R = f.routers();
  const int T = static_cast<int>(std::clamp<std::int64_t>(
      threads, 1, std::min<std::int64_t>(std::max<std::int64_t>(R, 1), kMaxParts)));
  const std::int64_t ports = std::max<std::int64_t>(f.in_begin_[z(R)], 1);
  router_part_.assign(z(R), 0);
  for (std::int64_t r = 0; r < R; ++r)
    router_part_[z(r)] = static_cast<std::uint8_t>(std::int64_t{f.in_begin_[z(r)]} * T / ports);
  chip_part_.assign(NC, 0);
  for (std::size_t c = 0; c < NC; ++c) {
    const std::int32_t r = f.node_router_[c];
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

bool Engine::reachable(std::int64_t src, std::int64_t dst) {
  const topo::Network& n = F_.net_;
  auto compute = [&] {
    if (src == dst) // a chip that does not route sends its own packets through its switch
      return F_.chips_route_ || F_.ni_begin_[z(src)] < F_.ni_begin_[z(src) + 1];
    const route::Path p = route::trace(F_.fn_, n, F_.down_link_, F_.down_chip_, src, dst,
                                       2 * static_cast<std::int64_t>(n.nodes.size()) + 8);
    return p.delivered;
  };
  if (!reach_.empty()) {
    std::uint8_t& r = reach_[z(src) * z(n.n_chip) + z(dst)];
    if (r == 0) r = compute() ? 1 : 2;
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

void Engine::release_out_vc(std::int32_t ovc) {
  const std::int32_t o = ovc / V_;
  if (F_.p_.vc_release == VcRelease::Tail || F_.out_down_[z(o)] < 0 || ov_[z(ovc)].credits == B_) {
    ov_[z(ovc)].owner = -1;
    tail_sent_[z(ovc)] = 0;
  } else {
    tail_sent_[z(ovc)] = 1; // freed when the last credit comes back
  }
}

void Engine::deliver_flit(Part& W, std::int32_t target, std::uint32_t flit, Meta meta) {
  W.moved = true;
  if (target < 0) { // a sink
    if (flit & 2) packets_[flit >> 2].hops = static_cast<std::uint16_t>(meta.hops);
    if (flit & 1) {
      const std::uint32_t id = flit >> 2;
      Packet& p = packets_[id];
      W.delivered.push_back({p.tag, p.src, p.dst, p.created, p.injected, now_, p.hops, p.flits});
      W.freed.push_back(id);
    }
    --W.flits_delta;
    return;
  }
  const std::size_t iv = z(target);
  if (iv_[iv].count >= B_) fail_runtime("flit", "input buffer overflow (credit accounting broken)");
  const std::size_t slot = iv * z(B_) + (iv_[iv].head + iv_[iv].count) % z(B_);
  buf_[slot] = flit;
  meta_[slot] = meta;
  if (++iv_[iv].count == 1 && iv_[iv].state == kActive)
    set_candidate(static_cast<std::int32_t>(iv / z(V_)), static_cast<int>(iv % z(V_)));
  const std::int32_t r = F_.in_hot_[iv / z(V_)].router;
  if (iv_[iv].state == kIdle) {
    iv_[iv].state = kRouting;
    iv_[iv].ready = now_ + F_.p_.routing_delay;
    set_waiting(r, static_cast<std::int32_t>(iv), true);
  }
  if (router_flits_[z(r)]++ == 0 && !router_active_[z(r)]) {
    router_active_[z(r)] = 1;
    W.active_routers.push_back(r);
  }
}

// The permitted next hops of the head of input VC iv at router r, as out units and VC ranges.
void Engine::compute_route(Part& W, std::int32_t iv, std::int32_t r, std::int32_t unit, int vc) {
  const topo::Network& n = F_.net_;
  const std::size_t slot = z(iv) * z(B_) + iv_[z(iv)].head;
  const Meta& p = meta_[slot]; // the head's: the packet's ends and the routing's flags
  const std::uint32_t flags = p.flags;
  const std::int64_t node = F_.router_node_[z(r)];
  route::PacketState s{node, F_.in_channel_[z(unit)], F_.class_of_vc_[z(vc)], p.src, p.dst, flags};
  if (s.in_channel < 0) s.vc = 0;
  F_.fn_.route_into(s, W.choices);
  std::vector<Opt>& opts = opts_[z(iv)];
  opts.clear();
  for (const route::Choice& c : W.choices) {
    if (c.channel < 0 || c.channel >= n.channel_count() || n.channel_src(c.channel) != node)
      fail_runtime("flit", "the routing function chose channel " + std::to_string(c.channel) +
                               ", which does not leave node " + std::to_string(node));
    const std::int32_t o = F_.channel_out_[z(c.channel)];
    if (o < 0) continue; // down
    if (c.vc < 0 || c.vc >= F_.classes_)
      fail_runtime("flit", "the routing function chose VC class " + std::to_string(c.vc));
    opts.push_back({o, F_.class_begin_[z(c.vc)], F_.class_begin_[z(c.vc) + 1], c.flags});
  }
  choose_at_random(opts, node);
  if (opts.empty()) {
    if (node != p.dst || F_.eject_out_[z(node)] < 0)
      fail_runtime("flit", "the routing has no live next hop at node " + std::to_string(node) +
                               " for a packet from chip " + std::to_string(p.src) + " to chip " +
                               std::to_string(p.dst));
    // Several ejection ports: the one paired with the input port it arrived on.
    const std::int32_t k = (unit - F_.in_begin_[z(r)]) % F_.eject_n_[z(node)];
    opts.push_back({F_.eject_out_[z(node)] + k, 0, static_cast<std::uint16_t>(V_), flags});
  }
}

// Among several permitted outputs: the one with a free VC whose class has the most credits;
// ties in the routing's order. -1 when none has a free VC.
int Engine::pick_option(const std::vector<Opt>& opts) const {
  int best = -1;
  std::int64_t best_score = -1;
  for (std::size_t k = 0; k < opts.size(); ++k) {
    const Opt& o = opts[k];
    bool free_vc = false;
    std::int64_t score = 0;
    for (int v = o.vb; v < o.ve; ++v) {
      const std::size_t ovc = z(o.out) * z(V_) + z(v);
      if (ov_[ovc].owner == -1) free_vc = true;
      score += ov_[ovc].credits;
    }
    if (!free_vc) continue;
    if (opts.size() == 1) return 0;
    if (score > best_score) best = static_cast<int>(k), best_score = score;
  }
  return best;
}

void Engine::pace(std::int32_t o) {
  const double p = F_.out_period_[z(o)], t = static_cast<double>(now_);
  double& next = out_next_[z(o)];
  next = (next > t - p ? next : t) + p;
}

void Engine::send(Part& W, std::int32_t unit, int vc) {
  const std::size_t i = z(unit) * z(V_) + z(vc);
  InVc& in = iv_[i];
  const std::uint32_t flit = buf_[i * z(B_) + in.head];
  Meta meta = meta_[i * z(B_) + in.head];
  in.head = static_cast<std::uint16_t>(in.head + 1 == B_ ? 0 : in.head + 1);
  if (--in.count == 0 || (flit & 1)) clear_candidate(unit, vc);
  const Fabric::InHot& ih = F_.in_hot_[z(unit)];
  --router_flits_[z(ih.router)];
  const std::int32_t ovc = in.out_vc;
  const std::int32_t o = in.out_unit;
  const Fabric::OutHot& oh = F_.out_hot_[z(o)];
  meta.hops += (flit >> 1 & 1) & static_cast<std::uint32_t>(oh.link); // a head crossing a link
  if (F_.paced_) pace(o);
  if (oh.target >= 0) {
    --ov_[z(ovc)].credits;
    schedule_flit(W, flit_part_[z(o)], now_ + oh.lag, oh.target + (ovc - o * V_), flit, meta);
  } else {
    schedule_flit(W, flit_part_[z(o)], now_ + oh.lag, oh.target, flit, meta);
  }
  ++out_flits_[z(o)];
  // The buffer slot is free again upstream.
  schedule_credit(W, credit_part_[z(unit)], now_ + ih.credit_lag, ih.credit_ovc + vc);
  W.moved = true;
  if (flit & 1) { // the tail: the output VC is released, the input VC takes the next packet
    release_out_vc(ovc);
    in.out_vc = -1;
    in.out_unit = -1;
    if (in.count > 0) {
      in.state = kRouting;
      in.ready = now_ + 1 + F_.p_.routing_delay;
      set_waiting(ih.router, static_cast<std::int32_t>(i), true);
    } else {
      in.state = kIdle;
    }
  }
}

void Engine::router_step(Part& W, std::int32_t r) {
  const std::int32_t ib = F_.in_begin_[z(r)], ie = F_.in_begin_[z(r) + 1];
  const std::int32_t ob = F_.out_begin_[z(r)], oe = F_.out_begin_[z(r) + 1];
  const int n_in = ie - ib, n_out = oe - ob;
  // Routing and VC allocation, when some head waits for them.
  std::vector<Islip::Req>& reqs = W.alloc.requests();
  if (router_va_[z(r)] > 0) {
    reqs.clear();
    // In input-VC order, as a scan of the ports and their VCs would visit them.
    const std::int32_t v0 = va_begin_[z(r)], v1 = va_begin_[z(r) + 1];
    for (std::int32_t w = v0; w < v1; ++w)
      for (std::uint64_t bits = va_mask_[z(w)]; bits != 0; bits &= bits - 1) {
        const std::int32_t iv = ib * V_ + (w - v0) * 64 + std::countr_zero(bits);
        const std::int32_t u = iv / V_;
        const int v = iv - u * V_;
        InVc& in = iv_[z(iv)];
        if (in.state == kRouting && in.ready <= now_) {
          compute_route(W, iv, r, u, v);
          in.state = kVcAlloc;
        }
        if (in.state != kVcAlloc) continue;
        const std::vector<Opt>& opts = opts_[z(iv)];
        const int k = pick_option(opts);
        in.chosen = k;
        if (k < 0) continue;
        const Opt& o = opts[z(k)];
        const std::int32_t base = o.out * V_;
        for (int w = o.vb; w < o.ve; ++w)
          if (ov_[z(base + w)].owner == -1)
            reqs.push_back({static_cast<std::uint32_t>(iv - ib * V_),
                            static_cast<std::uint32_t>(base + w - ob * V_), 0});
      }
    if (!reqs.empty()) {
      for (const Islip::Req& m : W.alloc.match(
               static_cast<std::uint32_t>(n_in * V_), static_cast<std::uint32_t>(n_out * V_),
               va_gptr_.data() + z(ob) * z(V_), va_aptr_.data() + z(ib) * z(V_))) {
        const std::int32_t iv = ib * V_ + static_cast<std::int32_t>(m.in);
        const std::int32_t ovc = ob * V_ + static_cast<std::int32_t>(m.out);
        InVc& in = iv_[z(iv)];
        const Opt& o = opts_[z(iv)][z(in.chosen)];
        ov_[z(ovc)].owner = iv;
        in.out_vc = ovc;
        in.out_unit = o.out;
        in.state = kActive;
        in.ready = now_ + F_.p_.va_delay;
        set_waiting(r, iv, false);
        set_candidate(static_cast<std::int32_t>(iv / V_), static_cast<int>(iv % V_));
        meta_[z(iv) * z(B_) + in.head].flags = o.flags;
      }
    }
  }
  // Switch allocation: per input port, one VC per output port (round-robin from sw_rr_).
  reqs.clear();
  const std::int32_t w0 = rp_begin_[z(r)], w1 = rp_begin_[z(r) + 1];
  for (std::int32_t w = w0; w < w1; ++w)
    for (std::uint64_t ports = router_ports_[z(w)]; ports != 0; ports &= ports - 1) {
      const std::int32_t u = ib + (w - w0) * 64 + std::countr_zero(ports);
      const int rr = static_cast<int>(sw_rr_[z(u)]);
      const std::size_t first = reqs.size();
      std::uint64_t seen = 0; // outputs this port already asks for (when there are <= 64)
      // The VCs in round-robin order from rr: rotated right by rr, the VCs at or above rr come
      // first (bits 0 ..), those below it last (bits 64 - rr ..).
      for (std::uint64_t m = std::rotr(port_mask_[z(u)], rr); m != 0; m &= m - 1) {
        const int v = (std::countr_zero(m) + rr) & 63;
        const InVc& in = iv_[z(u) * z(V_) + z(v)];
        if (in.ready > now_) continue;
        const std::int32_t o = in.out_unit;
        if (ov_[z(in.out_vc)].credits <= 0 && F_.out_hot_[z(o)].target >= 0) continue;
        if (F_.paced_ && out_next_[z(o)] > static_cast<double>(now_)) continue; // still sending
        const auto lo_out = static_cast<std::uint32_t>(o - ob);
        if (n_out <= 64) {
          const std::uint64_t bit = std::uint64_t{1} << lo_out;
          if (seen & bit) continue;
          seen |= bit;
        } else {
          bool dup = false;
          for (std::size_t q = first; q < reqs.size(); ++q) dup |= reqs[q].out == lo_out;
          if (dup) continue;
        }
        reqs.push_back({static_cast<std::uint32_t>(u - ib), lo_out, v});
      }
    }
  if (!reqs.empty()) {
    for (const Islip::Req& m :
         W.alloc.match(static_cast<std::uint32_t>(n_in), static_cast<std::uint32_t>(n_out),
                       sa_gptr_.data() + ob, sa_aptr_.data() + ib)) {
      const std::int32_t u = ib + static_cast<std::int32_t>(m.in);
      const auto nx = static_cast<std::uint32_t>(m.label + 1);
      sw_rr_[z(u)] = nx * (nx != static_cast<std::uint32_t>(V_)); // no branch: unpredictable
      send(W, u, m.label);
    }
  }
}

void Engine::ni_step(Part& W, std::int64_t chip, std::int32_t slot) {
  const std::size_t c = z(slot);
  if (cur_pkt_[c] < 0) {
    std::vector<std::uint32_t>& q = queue_[c];
    if (queue_head_[c] == q.size()) return;
    const std::uint32_t id = q[queue_head_[c]];
    Packet& p = packets_[id];
    std::int32_t ovc = -1;
    std::uint32_t flags = p.flags;
    if (F_.chips_route_) { // the injection port: any VC, round-robin
      const std::int32_t o = F_.ni_begin_[z(chip)] + (slot - F_.slot_begin_[z(chip)]);
      for (int k = 1; k <= V_ && ovc < 0; ++k) {
        const int v = (last_vc_[c] + k) % V_;
        if (ov_[z(o) * z(V_) + z(v)].owner == -1 && ov_[z(o) * z(V_) + z(v)].credits > 0)
          ovc = o * V_ + v;
      }
    } else { // the routing picks the link to the switch
      std::vector<Opt>& opts = ni_opts_[c];
      if (opts.empty()) {
        route::PacketState s{chip, -1, 0, p.src, p.dst, p.flags};
        F_.fn_.route_into(s, W.choices);
        for (const route::Choice& ch : W.choices) {
          if (ch.channel < 0 || ch.channel >= F_.net_.channel_count() ||
              F_.net_.channel_src(ch.channel) != chip)
            fail_runtime("flit", "the routing function chose channel " +
                                     std::to_string(ch.channel) + ", which does not leave chip " +
                                     std::to_string(chip));
          const std::int32_t o = F_.channel_out_[z(ch.channel)];
          if (o >= 0 && ch.vc >= 0 && ch.vc < F_.classes_)
            opts.push_back({o, F_.class_begin_[z(ch.vc)], F_.class_begin_[z(ch.vc) + 1], ch.flags});
        }
        choose_at_random(opts, chip);
        if (opts.empty()) // its own packet: up to the first switch and back
          opts.push_back({F_.ni_begin_[z(chip)], F_.class_begin_[0], F_.class_begin_[1], p.flags});
      }
      const int k = pick_option(opts);
      if (k >= 0) {
        const Opt& o = opts[z(k)];
        const int span = o.ve - o.vb;
        for (int j = 1; j <= span && ovc < 0; ++j) {
          const int v = o.vb + ((last_vc_[c] - o.vb + j) % span + span) % span;
          if (ov_[z(o.out) * z(V_) + z(v)].owner == -1 && ov_[z(o.out) * z(V_) + z(v)].credits > 0)
            ovc = o.out * V_ + v;
        }
        flags = o.flags;
      }
    }
    if (ovc < 0) return;
    ni_opts_[c].clear();
    ov_[z(ovc)].owner = -2 - static_cast<std::int32_t>(chip);
    last_vc_[c] = ovc % V_;
    cur_pkt_[c] = id;
    cur_ovc_[c] = ovc;
    cur_flit_[c] = 0;
    p.injected = now_;
    cur_flags_[c] = flags;
    if (++queue_head_[c] == q.size())
      q.clear(), queue_head_[c] = 0;
    else if (queue_head_[c] >= 1024 && queue_head_[c] * 2 >= q.size()) {
      q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(queue_head_[c]));
      queue_head_[c] = 0;
    }
  }
  const std::int32_t ovc = cur_ovc_[c];
  const std::int32_t o = ovc / V_;
  const std::int32_t down = F_.out_down_[z(o)];
  if (down >= 0 && ov_[z(ovc)].credits <= 0) return;
  if (F_.paced_) {
    if (out_next_[z(o)] > static_cast<double>(now_)) return; // its link is still sending
    pace(o);
  }
  const std::uint32_t id = static_cast<std::uint32_t>(cur_pkt_[c]);
  Packet& p = packets_[id];
  const bool head = cur_flit_[c] == 0, tail = cur_flit_[c] + 1 == p.flits;
  const std::uint32_t flit = id << 2 | (head ? 2u : 0u) | (tail ? 1u : 0u);
  const std::int64_t arrive = now_ + 1 + F_.out_latency_[z(o)];
  const Meta meta{cur_flags_[c], head && F_.out_channel_[z(o)] >= 0 ? 1u : 0u, p.src, p.dst};
  if (down >= 0) {
    --ov_[z(ovc)].credits;
    schedule_flit(W, flit_part_[z(o)], arrive, down * V_ + ovc % V_, flit, meta);
  } else {
    schedule_flit(W, flit_part_[z(o)], arrive, -1 - F_.out_sink_[z(o)], flit, meta);
  }
  ++out_flits_[z(o)];
  ++W.flits_delta;
  W.moved = true;
  ++cur_flit_[c];
  if (tail) {
    release_out_vc(ovc);
    cur_pkt_[c] = -1;
    --W.queued_delta;
  }
}

void Engine::run_part(Part& W) {
  try {
    const std::size_t slot = z(now_ & (F_.wheel_ - 1));
    for (std::vector<std::vector<std::int32_t>>& from : W.credits_in) {
      for (std::int32_t ovc : from[slot]) {
        ++ov_[z(ovc)].credits;
        if (tail_sent_[z(ovc)] && ov_[z(ovc)].credits == B_) {
          ov_[z(ovc)].owner = -1;
          tail_sent_[z(ovc)] = 0;
        }
      }
      from[slot].clear();
    }
    for (std::vector<std::vector<FlitEv>>& from : W.flits_in) {
      for (const FlitEv& e : from[slot]) deliver_flit(W, e.target, e.flit, e.meta);
      from[slot].clear();
    }

    // Sources, then routers. Nothing one does in a cycle reaches another before the next cycle
    // (every delay is at least one cycle), so the order within a cycle does not matter, and
    // neither does which part a router is in.
    std::size_t keep = 0;
    for (std::size_t k = 0; k < W.active_ni.size(); ++k) {
      const std::int64_t c = W.active_ni[k];
      bool busy = false;
      for (std::int32_t s = F_.slot_begin_[z(c)]; s < F_.slot_begin_[z(c) + 1]; ++s) {
        ni_step(W, c, s);
        busy |= cur_pkt_[z(s)] >= 0 || queue_head_[z(s)] < queue_[z(s)].size();
      }
      if (busy)
        W.active_ni[keep++] = c;
      else
        ni_active_[z(c)] = 0;
    }
    W.active_ni.resize(keep);

    keep = 0;
    for (std::size_t k = 0; k < W.active_routers.size(); ++k) {
      const std::int32_t r = W.active_routers[k];
      router_step(W, r);
      if (router_flits_[z(r)] > 0)
        W.active_routers[keep++] = r;
      else
        router_active_[z(r)] = 0;
    }
    W.active_routers.resize(keep);
  } catch (...) {
    W.error = std::current_exception();
  }
}

namespace {

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
