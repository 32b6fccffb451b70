// The flit-level engine: input-queued virtual-channel routers with credit-based flow control and
// wormhole switching, cycle by cycle (timing in sim/flit/params.hpp).
//
// Every switch is a router. Chips are routers too where chips forward traffic (a switchless
// network: torus, mesh, hypercube, ring, full mesh); each such chip has a source on an injection
// port and a sink on an ejection port, as BookSim attaches its nodes. In a network with switches
// a chip is a network interface, as BookSim's nodes on a fat-tree are: its links to switches are
// its injection channels (the routing picks one) and the links into it its ejection channels.
//
// Routing comes from a route::RoutingFunction: the head flit of a packet asks it for the
// permitted outputs and their VC classes; the VCs of a port are split evenly among the classes
// (class k gets VCs [k V / C, (k + 1) V / C)). Among several permitted outputs (adaptive
// routings) the head takes the one whose class VCs have the most free credits, ties in the
// routing's order of priority; it is chosen again every cycle until a VC is won. Allocation:
// separable iSLIP (round-robin grant and accept pointers that move only on first-iteration
// matches) for the VC allocator (input VCs against output VCs) and the switch allocator (input
// ports against output ports; an input port's VCs take turns round-robin for each output).
//
// Failed links and chips carry nothing. Packets are offered to source queues of unbounded length
// (offered load stays honest); a packet whose pair the routing does not deliver (route::trace
// stops on a failed element) is refused by offer() and the caller counts it.
//
// The files: fabric.hpp/.cpp build the Fabric; engine.cpp the engine's state, offer() and what
// it reports; router.cpp the router pipeline, cycle by cycle (with engine_internal.hpp, the
// private helpers it inlines per flit); parallel.cpp the parts, their threads and step().
#pragma once
#include "core/divide.hpp"
#include "core/random.hpp"
#include "route/routing.hpp"
#include "sim/flit/fabric.hpp"
#include "sim/flit/islip.hpp"
#include "sim/flit/params.hpp"
#include "topo/network.hpp"

#include <atomic>
#include <cstdint>
#include <exception>
#include <thread>
#include <unordered_map>
#include <vector>

namespace icnkit::sim::flit {

struct Delivered {
  std::int64_t tag = 0;
  std::int64_t src = 0, dst = 0;
  std::int64_t created = 0, injected = 0, arrived = 0; // cycles: tail arrival
  int hops = 0;                                        // network channels crossed
  int flits = 0;
};

// One VC of a cycle of waiting VCs: a packet holds this (channel, VC) buffer and waits for the
// next one in the list (the last waits for the first). Chips or switches by node id.
struct WaitHop {
  std::int64_t from = 0, to = 0, link = 0;
  int vc = 0;
};

// How many parts (threads) an engine of this fabric should use given `threads`: one part per
// 256 routers at most, since below that the threads' synchronisation every cycle costs more
// than they gain.
int engine_parts(const Fabric& f, int threads);

class Engine {
public:
  // threads > 1 splits the routers (and the chips' sources and sinks) into that many parts
  // (at most 64 and the router count), simulated in parallel within each cycle by that many
  // threads; the results are exactly the same for any count. seed: the random choices of a
  // routing that asks for them (RoutingFunction::random_choice()), one stream per node.
  explicit Engine(const Fabric& f, int threads = 1, std::uint64_t seed = 0);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues a packet of `flits` flits at src's source, created now. False (nothing queued) when
  // src or dst is down or the routing does not deliver src -> dst.
  bool offer(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag);
  // The same through injection port `port` (< Fabric::injection_ports(src)) with the routing's
  // flags set to `flags` at injection, and without the reachability check: the caller vouches
  // that the routing delivers this packet (a replay whose routes it built itself).
  void offer_routed(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag,
                    std::uint32_t flags, int port);
  void step(); // simulates one cycle
  std::int64_t now() const { return now_; }
  int threads() const { return static_cast<int>(parts_.size()); }

  // Packets whose tail arrived since the caller last cleared the list.
  std::vector<Delivered>& delivered() { return delivered_; }
  std::int64_t flits_in_network() const { return flits_in_network_; } // injected, not arrived
  std::int64_t queued_packets() const { return queued_; }             // not fully injected
  // Packets of one chip not fully injected yet (its source queues, those in progress included).
  std::int64_t queued_at(std::int64_t chip) const {
    std::int64_t k = 0;
    for (std::int32_t s = F_.slot_begin_[static_cast<std::size_t>(chip)];
         s < F_.slot_begin_[static_cast<std::size_t>(chip) + 1]; ++s)
      k += queued_at_slot(s);
    return k;
  }
  // The same for one injection port of a chip.
  std::int64_t queued_at(std::int64_t chip, int port) const {
    return queued_at_slot(F_.slot_begin_[static_cast<std::size_t>(chip)] + port);
  }
  std::int64_t idle_cycles() const { return idle_; } // since a flit last moved or arrived
  // Flits that left through each network channel so far (by channel id).
  std::vector<std::int64_t> channel_flits() const;
  // A cycle of VCs that wait on each other (empty when there is none), for the watchdog.
  std::vector<WaitHop> waiting_cycle() const;

private:
  // A packet's record, written when it is offered, injected and when its head reaches the sink
  // (what changes hop by hop travels with the head flit, so that parts never write the same
  // packet records).
  struct Packet {
    std::int64_t tag, created, injected;
    std::int32_t src, dst;
    std::uint16_t flits, hops;
    std::uint32_t flags; // the routing's flags at injection
  };
  // What a head flit carries: the routing's flags and the network channels crossed so far.
  struct Meta {
    std::uint32_t flags = 0;
    std::uint32_t hops = 0;
    std::int32_t src = 0, dst = 0; // the packet's chips
  };
  struct Opt {
    std::int32_t out;
    std::uint16_t vb, ve; // VC range [vb, ve)
    std::uint32_t flags;
  };
  struct FlitEv {
    std::int32_t target; // input VC, or -1 - chip for a sink
    std::uint32_t flit;  // packet << 2 | head << 1 | tail
  };
  // The flits that arrive at one cycle, in the order they were sent, and the Meta of their head
  // flits in the same order (a body flit carries none: most flits are body flits).
  struct Arrivals {
    std::vector<FlitEv> flits;
    std::vector<Meta> heads;
  };
  enum : std::uint8_t { kIdle, kRouting, kVcAlloc, kActive };

  // One part of the network and what only its thread touches during a cycle: its work lists,
  // the events other parts (and itself) scheduled for it, what it delivered and freed, its
  // counters and its allocator's scratch. Parts meet only through these event lists, which are
  // read at least one cycle after they are written.
  struct alignas(64) Part {
    Part(int id, int parts, int wheel, int iterations, int max_ports);
    int id;
    std::vector<std::int32_t> active_routers;
    std::vector<std::int64_t> active_ni;
    // Events for this part by the part that scheduled them, then by arrival cycle (a wheel).
    std::vector<std::vector<Arrivals>> flits_in;
    std::vector<std::vector<std::vector<std::int32_t>>> credits_in;
    std::vector<Delivered> delivered;
    std::vector<std::uint32_t> freed; // packets whose tail reached a sink
    std::int64_t flits_delta = 0, queued_delta = 0;
    bool moved = false;
    Islip alloc;
    std::vector<route::Choice> choices;
    std::exception_ptr error;
  };

  void run_part(Part& W);
  void deliver_flit(Part& W, std::int32_t target, std::uint32_t flit, Meta meta);
  void ni_step(Part& W, std::int64_t chip, std::int32_t s);
  std::int64_t queued_at_slot(std::int32_t s) const {
    const auto k = static_cast<std::size_t>(s);
    return static_cast<std::int64_t>(queue_[k].size() - queue_head_[k]) + (cur_pkt_[k] >= 0);
  }
  // A new packet at the tail of source slot `slot` of chip src.
  void enqueue(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag, std::uint32_t flags,
               std::int32_t slot);
  void router_step(Part& W, std::int32_t r);
  void compute_route(Part& W, std::int32_t iv, std::int32_t r, std::int32_t unit, int vc);
  int pick_option(const std::vector<Opt>& opts) const;
  void send(Part& W, std::int32_t unit, int vc);
  // A flit leaves out unit o now: its next may leave a period later (pacing, below).
  void pace(std::int32_t o);
  void release_out_vc(std::int32_t ovc);
  bool reachable(std::int64_t src, std::int64_t dst);
  void schedule_flit(const Part& W, std::uint8_t to, std::int64_t at, std::int32_t target,
                     std::uint32_t flit, Meta meta);
  void schedule_credit(const Part& W, std::uint8_t to, std::int64_t at, std::int32_t ovc);
  std::uint32_t new_packet();
  void worker(std::size_t k);
  // Splits the routers and chips among min(threads, routers, 64) parts and starts the
  // workers of parts 1 .. (parallel.cpp).
  void make_parts(int threads);

  const Fabric& F_;
  const int V_, B_;
  const DivideBy per_unit_; // by V_: the unit of an input or output VC
  std::int32_t unit_of(std::int32_t vc) const {
    return static_cast<std::int32_t>(per_unit_.quotient(static_cast<std::uint32_t>(vc)));
  }
  std::int64_t now_ = 0;
  std::int64_t flits_in_network_ = 0, queued_ = 0, idle_ = 0;

  std::vector<Packet> packets_;
  std::vector<std::uint32_t> free_packets_;

  // Input VCs (in unit * V + vc): FIFO of flits, state, assigned output VC, route options.
  struct InVc {
    std::int64_t ready = 0;     // the cycle the head may be routed / the VC may use the switch
    std::int32_t out_vc = -1;   // assigned output VC (out unit * V + vc)
    std::int32_t out_unit = -1; // its out unit (out_vc / V)
    std::int32_t chosen = -1;   // the option a waiting head asked for this cycle
    std::uint16_t head = 0, count = 0;
    std::uint8_t state = kIdle;
  };
  std::vector<std::uint32_t> buf_; // [in VC * B + slot]
  std::vector<Meta> meta_;         // the same slots: a head flit's Meta
  std::vector<InVc> iv_;
  std::vector<std::vector<Opt>> opts_;
  // Output VCs (out unit * V + vc): credits, holder (input VC, -2 - chip for a source, -1 free).
  struct OutVc {
    std::int32_t credits;
    std::int32_t owner;
  };
  std::vector<OutVc> ov_;
  std::vector<char> tail_sent_;
  // Allocator state: iSLIP pointers (VC allocator per VC, switch allocator per port) and the
  // switch allocator's round-robin VC offset per input port.
  std::vector<std::uint32_t> va_gptr_, va_aptr_, sa_gptr_, sa_aptr_, sw_rr_;
  std::vector<std::int64_t> out_flits_; // per out unit
  // Per out unit of a paced fabric: the cycle (fractional) from which its next flit may leave.
  // A link k times slower than the fastest sends a flit every k cycles while busy (k need not
  // be whole: flits leave at the cycles that reach the ideal times 0, k, 2k, ...); idle for a
  // period, it starts afresh.
  std::vector<double> out_next_;
  std::vector<std::int32_t> router_flits_;
  // Input VCs waiting for routing or VC allocation: a count per router, and a bit per input VC
  // of the router (words from va_begin_[r]) so that the VC allocator visits only those.
  std::vector<std::int32_t> router_va_;
  std::vector<std::uint64_t> va_mask_;
  std::vector<std::int32_t> va_begin_;
  void set_waiting(std::int32_t r, std::int32_t iv, bool on);
  // Switch-allocation candidates (active input VCs holding flits): a bit per VC of each in unit,
  // and a bit per in unit of each router (words from rp_begin_[r]), so that the switch allocator
  // visits only ports with something to send.
  std::vector<std::uint64_t> port_mask_, router_ports_;
  std::vector<std::int32_t> rp_begin_;
  void set_candidate(std::int32_t unit, int vc);
  void clear_candidate(std::int32_t unit, int vc);
  std::vector<char> router_active_;

  // The parts: which part owns each router (and so its in and out units) and each chip's
  // source and sink; the part that receives the flits of each out unit and the credits of each
  // in unit.
  std::vector<Part> parts_;
  std::vector<std::uint8_t> router_part_, chip_part_, flit_part_, credit_part_;
  // Worker threads (parts 1 ..): a new cycle is published by bumping go_; each worker counts
  // pending_ down when its part is done.
  std::vector<std::thread> workers_;
  std::atomic<std::uint32_t> go_{0};
  std::atomic<std::int32_t> pending_{0};
  std::atomic<bool> stop_{false};
  std::atomic<std::int32_t> go_sleepers_{0}, pending_sleepers_{0}; // threads asleep on each

  // Sources, per slot (Fabric::slot_begin_): queue of packets, the packet being injected, its
  // output VC and options.
  std::vector<std::vector<std::uint32_t>> queue_;
  std::vector<std::size_t> queue_head_;
  std::vector<std::int64_t> cur_pkt_;
  std::vector<std::int32_t> cur_ovc_, cur_flit_, last_vc_;
  std::vector<std::uint32_t> cur_flags_; // the routing's flags for the packet being injected
  std::vector<std::vector<Opt>> ni_opts_;
  std::vector<char> ni_active_;

  std::vector<Delivered> delivered_;
  std::vector<SplitMix64> choice_rng_; // per node, for a routing's random choices
  // Keeps one of several options at random when the routing asks for a random choice.
  void choose_at_random(std::vector<Opt>& opts, std::int64_t node);

  // Reachability per ordered pair of chips, found on first use: 0 unknown, 1 yes, 2 no.
  // (2 bits a pair, 32 pairs a word, up to kDenseReach chips; else a hash map of the pairs seen).
  std::vector<std::uint64_t> reach_;
  // No table at all when the routing delivers every pair of a network without failures.
  bool every_pair_ = false;
  std::unordered_map<std::uint64_t, bool> reach_map_;
};

} // namespace icnkit::sim::flit
