// A reference flit engine for tests/unit/sim/flit/test_flit_reference.cpp: the semantics of
// sim/flit/engine.hpp (timing in params.hpp) written for obviousness, not speed. Every cycle it
// visits every source and every router, every input port and every VC, in index order; flits
// wait in a std::deque per input VC; flits and credits on their way sit in plain lists with
// the cycle they arrive; the allocators are a plain separable iSLIP. It builds its own ports
// from the network (the Fabric's tables are private to the Engine) and reads only the Fabric's
// public face: its network, routing, parameters, failed links and chips, and chips_route().
// One thing follows the engine's work lists rather than the index order: the order of the
// deliveries within a cycle (busy_seq_ below). It does not model link pacing (the tests use
// networks whose links are all equally fast).
#pragma once
#include "core/random.hpp"
#include "route/routing.hpp"
#include "sim/flit/engine.hpp"
#include "sim/flit/fabric.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::sim::flit::reference {

// One request of an allocation: input `in` asks for output `out`; label (>= 0) rides along.
struct IslipRequest {
  int in = 0, out = 0, label = 0;
};

// Separable iSLIP over n_in inputs and n_out outputs, `iterations` rounds. Each round: every
// output not yet matched grants the first unmatched input, counting round-robin from its grant
// pointer, that asks for it; every unmatched input that got grants accepts the first, counting
// from its accept pointer. A pointer moves to one past its match only in the first round. The
// matches come out by round, then by input.
inline std::vector<IslipRequest> plain_islip(const std::vector<IslipRequest>& reqs, int n_in,
                                             int n_out, std::vector<std::uint32_t>& grant_ptr,
                                             std::vector<std::uint32_t>& accept_ptr,
                                             int iterations) {
  if (reqs.empty()) return {};
  // label[i * n_out + o]: the label of input i's request for output o, -1 when none.
  std::vector<int> label(static_cast<std::size_t>(n_in) * static_cast<std::size_t>(n_out), -1);
  auto at = [&](int i, int o) -> int& {
    return label[static_cast<std::size_t>(i) * static_cast<std::size_t>(n_out) +
                 static_cast<std::size_t>(o)];
  };
  for (const IslipRequest& q : reqs) {
    if (at(q.in, q.out) != -1) throw std::logic_error("plain_islip: two requests for one pair");
    at(q.in, q.out) = q.label;
  }
  std::vector<bool> in_matched(static_cast<std::size_t>(n_in), false);
  std::vector<bool> out_matched(static_cast<std::size_t>(n_out), false);
  std::vector<IslipRequest> matches;
  for (int it = 0; it < iterations; ++it) {
    std::vector<int> grant(static_cast<std::size_t>(n_out), -1); // the input each output grants
    for (int o = 0; o < n_out; ++o) {
      if (out_matched[static_cast<std::size_t>(o)]) continue;
      for (int d = 0; d < n_in; ++d) {
        const int i = static_cast<int>(
            (grant_ptr[static_cast<std::size_t>(o)] + static_cast<std::uint32_t>(d)) %
            static_cast<std::uint32_t>(n_in));
        if (!in_matched[static_cast<std::size_t>(i)] && at(i, o) != -1) {
          grant[static_cast<std::size_t>(o)] = i;
          break;
        }
      }
    }
    bool any = false;
    for (int i = 0; i < n_in; ++i) {
      if (in_matched[static_cast<std::size_t>(i)]) continue;
      for (int d = 0; d < n_out; ++d) {
        const int o = static_cast<int>(
            (accept_ptr[static_cast<std::size_t>(i)] + static_cast<std::uint32_t>(d)) %
            static_cast<std::uint32_t>(n_out));
        if (grant[static_cast<std::size_t>(o)] != i) continue;
        in_matched[static_cast<std::size_t>(i)] = true;
        out_matched[static_cast<std::size_t>(o)] = true;
        matches.push_back({i, o, at(i, o)});
        any = true;
        if (it == 0) {
          grant_ptr[static_cast<std::size_t>(o)] = static_cast<std::uint32_t>((i + 1) % n_in);
          accept_ptr[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>((o + 1) % n_out);
        }
        break;
      }
    }
    if (!any) break;
  }
  return matches;
}

class ReferenceEngine {
public:
  ReferenceEngine(const Fabric& f, const std::vector<int>& link_latency, std::uint64_t seed)
      : f_(f), n_(f.network()), fn_(f.routing()), p_(f.params()), V_(f.params().vcs),
        B_(f.params().buffer_flits), C_(f.routing().vc_count()) {
    if (fn_.random_choice()) {
      SplitMix64 streams(seed ^ 0x63686f6963657321ULL); // the engine's seeding of its streams
      for (std::size_t v = 0; v < n_.nodes.size(); ++v) rng_.emplace_back(streams.next());
    }
    build(link_latency);
  }

  // As Engine::offer and Engine::offer_routed.
  bool offer(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag) {
    if (!f_.chip_live(src) || !f_.chip_live(dst) || !reachable(src, dst)) return false;
    enqueue(src, dst, flits, tag, 0, 0);
    return true;
  }
  void offer_routed(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag,
                    std::uint32_t flags, int port) {
    enqueue(src, dst, flits, tag, flags, port);
  }

  void step() {
    // Credits that arrive now.
    std::vector<CreditEvent> credits_later;
    for (const CreditEvent& c : credits_) {
      if (c.at != now_) {
        credits_later.push_back(c);
        continue;
      }
      OutVc& ov = out_[static_cast<std::size_t>(c.unit)].vcs[static_cast<std::size_t>(c.vc)];
      ++ov.credits;
      if (ov.tail_sent && ov.credits == B_) {
        ov.free = true;
        ov.tail_sent = false;
      }
    }
    credits_ = credits_later;
    // Flits that arrive now, in the order they were sent.
    std::vector<FlitEvent> flits_later, arriving;
    for (const FlitEvent& e : flits_) (e.at == now_ ? arriving : flits_later).push_back(e);
    flits_ = flits_later;
    for (const FlitEvent& e : arriving) arrive(e);
    // Sources, then routers.
    for (std::size_t s = 0; s < slots_.size(); ++s) source_step(slots_[s]);
    for (std::size_t r = 0; r < routers_.size(); ++r) router_step(routers_[r]);
    // What was sent this cycle goes on its way in the engine's reporting order (see busy_seq_).
    std::vector<std::pair<std::int64_t, std::size_t>> order;
    for (std::size_t c = 0; c < chip_sent_.size(); ++c)
      if (chip_busy_[c] >= 0) order.push_back({chip_busy_[c], c});
    std::sort(order.begin(), order.end());
    for (const auto& [since, c] : order) {
      for (const FlitEvent& e : chip_sent_[c]) flits_.push_back(e);
      chip_sent_[c].clear();
    }
    order.clear();
    for (std::size_t r = 0; r < routers_.size(); ++r)
      if (router_busy_[r] >= 0) order.push_back({router_busy_[r], r});
    std::sort(order.begin(), order.end());
    for (const auto& [since, r] : order) {
      for (const FlitEvent& e : router_sent_[r]) flits_.push_back(e);
      router_sent_[r].clear();
    }
    // A chip with nothing left to send, a router with empty buffers, is idle again.
    for (std::size_t c = 0; c < chip_busy_.size(); ++c) {
      bool busy = false;
      for (int k = chip_slot_[c]; k < chip_slot_[c + 1]; ++k)
        busy = busy || slots_[static_cast<std::size_t>(k)].cur >= 0 ||
               !slots_[static_cast<std::size_t>(k)].queue.empty();
      if (!busy) chip_busy_[c] = -1;
    }
    for (std::size_t r = 0; r < routers_.size(); ++r)
      if (router_flits(r) == 0) router_busy_[r] = -1;
    ++now_;
  }

  std::int64_t now() const { return now_; }
  std::vector<Delivered>& delivered() { return delivered_; }
  std::int64_t flits_in_network() const { return flits_in_network_; }
  std::int64_t queued_packets() const { return queued_; }
  std::vector<std::int64_t> channel_flits() const {
    std::vector<std::int64_t> c(static_cast<std::size_t>(n_.channel_count()), 0);
    for (const OutUnit& o : out_)
      if (o.channel >= 0) c[static_cast<std::size_t>(o.channel)] = o.flits;
    return c;
  }

private:
  struct Packet {
    std::int64_t tag = 0, created = 0, injected = -1, src = 0, dst = 0;
    int flits = 0, hops = 0;
    std::uint32_t flags = 0;
  };
  struct Flit {
    std::int64_t packet = 0;
    bool head = false, tail = false;
    std::uint32_t flags = 0; // the routing's flags (what a head carries)
    int hops = 0;            // network channels the head crossed
  };
  struct Option {
    int out = 0;        // out unit
    int vb = 0, ve = 0; // its VCs [vb, ve)
    std::uint32_t flags = 0;
  };
  enum class State { Idle, Routing, VcAlloc, Active };
  struct InVc {
    std::deque<Flit> q;
    State state = State::Idle;
    std::int64_t ready = 0;
    int out_unit = -1, out_vc = -1;
    std::vector<Option> opts;
    int chosen = -1;
  };
  struct OutVc {
    int credits = 0;
    bool free = true;
    bool tail_sent = false; // released once its last credit is back (VcRelease::Credit)
  };
  struct OutUnit {
    int router = -1;           // -1: a chip's source
    std::int64_t channel = -1; // network channel, or -1 (injection, ejection)
    int down = -1;             // in unit fed, or -1: a sink
    std::int64_t sink = -1;    // the chip whose sink it feeds
    int latency = 1;
    int local = 0; // index among its router's out units
    std::vector<OutVc> vcs;
    std::int64_t flits = 0;
  };
  struct InUnit {
    int router = 0;
    std::int64_t channel = -1; // -1: an injection port
    int up = -1;               // the out unit feeding it
    int local = 0;             // index among its router's in units
    std::vector<InVc> vcs;
    int sw_rr = 0; // the switch allocator's round-robin VC
  };
  struct Router {
    std::int64_t node = 0;
    std::vector<int> ins, outs, ejects;
    std::vector<std::uint32_t> va_gptr, va_aptr, sa_gptr, sa_aptr;
  };
  struct Slot {
    std::int64_t chip = 0;
    int unit = -1; // the injection out unit (chips that route)
    std::deque<std::int64_t> queue;
    std::int64_t cur = -1;
    int cur_unit = -1, cur_vc = -1, cur_flit = 0, last_vc = 0;
    std::uint32_t cur_flags = 0;
    bool opts_made = false;
    std::vector<Option> opts;
  };
  struct FlitEvent {
    std::int64_t at = 0;
    int in_unit = -1; // -1: the sink of chip `sink`
    int vc = 0;
    std::int64_t sink = -1;
    Flit flit;
  };
  struct CreditEvent {
    std::int64_t at = 0;
    int unit = 0, vc = 0;
  };

  [[noreturn]] static void fail(const std::string& what) {
    throw std::runtime_error(std::string("reference engine: ") + what);
  }
  bool node_down(std::int64_t v) const {
    return v < n_.n_chip && f_.down_nodes()[static_cast<std::size_t>(v)];
  }
  bool live(std::int64_t ch) const {
    return !f_.down_links()[static_cast<std::size_t>(topo::link_of_channel(ch))] &&
           !node_down(n_.channel_src(ch)) && !node_down(n_.channel_dst(ch));
  }
  int class_begin(int k) const { return k * V_ / C_; }
  int class_of_vc(int v) const {
    for (int k = 0; k < C_; ++k)
      if (v >= class_begin(k) && v < class_begin(k + 1)) return k;
    fail("VC without a class");
  }
  int new_out(int router, std::int64_t channel, int latency) {
    OutUnit o;
    o.router = router;
    o.channel = channel;
    o.latency = latency;
    o.vcs.assign(static_cast<std::size_t>(V_), OutVc{B_, true, false});
    out_.push_back(o);
    return static_cast<int>(out_.size()) - 1;
  }

  void build(const std::vector<int>& link_latency) {
    const std::int64_t N = static_cast<std::int64_t>(n_.nodes.size());
    const bool chips_route = f_.chips_route();
    for (std::int64_t v = 0; v < N; ++v) {
      if (node_down(v) || (v < n_.n_chip && !chips_route)) continue;
      Router r;
      r.node = v;
      routers_.push_back(r);
    }
    auto live_out = [&](std::int64_t v) {
      std::vector<std::int64_t> c;
      for (std::int64_t ch = 0; ch < n_.channel_count(); ++ch)
        if (live(ch) && n_.channel_src(ch) == v) c.push_back(ch);
      return c;
    };
    auto endpoint_ports = [&](std::int64_t v) {
      return p_.endpoint_ports > 0 ? p_.endpoint_ports
                                   : std::max(1, static_cast<int>(live_out(v).size()));
    };
    channel_out_.assign(static_cast<std::size_t>(n_.channel_count()), -1);
    std::vector<int> channel_in(static_cast<std::size_t>(n_.channel_count()), -1);
    std::vector<int> inject_in(static_cast<std::size_t>(n_.n_chip), -1);
    for (std::size_t r = 0; r < routers_.size(); ++r) {
      Router& R = routers_[r];
      const std::int64_t v = R.node;
      const bool chip = v < n_.n_chip;
      auto add_in = [&](std::int64_t channel) {
        InUnit u;
        u.router = static_cast<int>(r);
        u.channel = channel;
        u.local = static_cast<int>(R.ins.size());
        u.vcs.resize(static_cast<std::size_t>(V_));
        in_.push_back(u);
        R.ins.push_back(static_cast<int>(in_.size()) - 1);
        return static_cast<int>(in_.size()) - 1;
      };
      for (std::int64_t ch = 0; ch < n_.channel_count(); ++ch)
        if (live(ch) && n_.channel_dst(ch) == v)
          channel_in[static_cast<std::size_t>(ch)] = add_in(ch);
      if (chip) {
        for (int k = 0; k < endpoint_ports(v); ++k) {
          const int u = add_in(-1);
          if (k == 0) inject_in[static_cast<std::size_t>(v)] = u;
        }
      }
      for (std::int64_t ch : live_out(v)) {
        const int o = new_out(static_cast<int>(r), ch,
                              link_latency[static_cast<std::size_t>(topo::link_of_channel(ch))]);
        channel_out_[static_cast<std::size_t>(ch)] = o;
        out_[static_cast<std::size_t>(o)].local = static_cast<int>(R.outs.size());
        R.outs.push_back(o);
      }
      if (chip) {
        for (int k = 0; k < endpoint_ports(v); ++k) {
          const int o = new_out(static_cast<int>(r), -1, p_.injection_latency);
          out_[static_cast<std::size_t>(o)].sink = v;
          out_[static_cast<std::size_t>(o)].local = static_cast<int>(R.outs.size());
          R.outs.push_back(o);
          R.ejects.push_back(o);
        }
      }
    }
    // The chips' sources.
    chip_slot_.assign(static_cast<std::size_t>(n_.n_chip) + 1, 0);
    chip_units_.assign(static_cast<std::size_t>(n_.n_chip), {});
    for (std::int64_t c = 0; c < n_.n_chip; ++c) {
      chip_slot_[static_cast<std::size_t>(c)] = static_cast<int>(slots_.size());
      if (node_down(c)) continue;
      if (chips_route) {
        for (int k = 0; k < endpoint_ports(c); ++k) {
          Slot s;
          s.chip = c;
          s.last_vc = V_ - 1;
          s.unit = new_out(-1, -1, p_.injection_latency);
          out_[static_cast<std::size_t>(s.unit)].down = inject_in[static_cast<std::size_t>(c)] + k;
          chip_units_[static_cast<std::size_t>(c)].push_back(s.unit);
          slots_.push_back(s);
        }
      } else {
        Slot s;
        s.chip = c;
        s.last_vc = V_ - 1;
        slots_.push_back(s);
        for (std::int64_t ch : live_out(c)) {
          const int o =
              new_out(-1, ch, link_latency[static_cast<std::size_t>(topo::link_of_channel(ch))]);
          channel_out_[static_cast<std::size_t>(ch)] = o;
          chip_units_[static_cast<std::size_t>(c)].push_back(o);
        }
      }
    }
    chip_slot_[static_cast<std::size_t>(n_.n_chip)] = static_cast<int>(slots_.size());
    // Where each live channel leads: a router's in unit, or a chip's sink.
    for (std::int64_t ch = 0; ch < n_.channel_count(); ++ch) {
      const int o = channel_out_[static_cast<std::size_t>(ch)];
      if (o < 0) continue;
      out_[static_cast<std::size_t>(o)].down = channel_in[static_cast<std::size_t>(ch)];
      if (channel_in[static_cast<std::size_t>(ch)] < 0)
        out_[static_cast<std::size_t>(o)].sink = n_.channel_dst(ch);
    }
    for (std::size_t o = 0; o < out_.size(); ++o)
      if (out_[o].down >= 0) in_[static_cast<std::size_t>(out_[o].down)].up = static_cast<int>(o);
    for (const InUnit& u : in_)
      if (u.up < 0) fail("an in unit nothing feeds");
    chip_busy_.assign(static_cast<std::size_t>(n_.n_chip), -1);
    router_busy_.assign(routers_.size(), -1);
    chip_sent_.resize(static_cast<std::size_t>(n_.n_chip));
    router_sent_.resize(routers_.size());
    for (Router& R : routers_) {
      R.va_gptr.assign(R.outs.size() * static_cast<std::size_t>(V_), 0);
      R.va_aptr.assign(R.ins.size() * static_cast<std::size_t>(V_), 0);
      R.sa_gptr.assign(R.outs.size(), 0);
      R.sa_aptr.assign(R.ins.size(), 0);
    }
  }

  std::int64_t router_flits(std::size_t r) const {
    std::int64_t k = 0;
    for (int u : routers_[r].ins)
      for (const InVc& c : in_[static_cast<std::size_t>(u)].vcs)
        k += static_cast<std::int64_t>(c.q.size());
    return k;
  }

  bool reachable(std::int64_t src, std::int64_t dst) const {
    if (src == dst) return f_.chips_route() || !chip_units_[static_cast<std::size_t>(src)].empty();
    return route::trace(fn_, n_, f_.down_links(), f_.down_nodes(), src, dst,
                        2 * static_cast<std::int64_t>(n_.nodes.size()) + 8)
        .delivered;
  }

  void enqueue(std::int64_t src, std::int64_t dst, int flits, std::int64_t tag, std::uint32_t flags,
               int port) {
    Packet p;
    p.tag = tag;
    p.created = now_;
    p.src = src;
    p.dst = dst;
    p.flits = flits;
    p.flags = flags;
    packets_.push_back(p);
    slots_[static_cast<std::size_t>(chip_slot_[static_cast<std::size_t>(src)] + port)]
        .queue.push_back(static_cast<std::int64_t>(packets_.size()) - 1);
    ++queued_;
    if (chip_busy_[static_cast<std::size_t>(src)] < 0)
      chip_busy_[static_cast<std::size_t>(src)] = busy_seq_++;
  }

  void arrive(const FlitEvent& e) {
    if (e.in_unit < 0) { // a sink
      Packet& p = packets_[static_cast<std::size_t>(e.flit.packet)];
      if (e.flit.head) p.hops = e.flit.hops;
      if (e.flit.tail)
        delivered_.push_back({p.tag, p.src, p.dst, p.created, p.injected, now_, p.hops, p.flits});
      --flits_in_network_;
      return;
    }
    InVc& c = in_[static_cast<std::size_t>(e.in_unit)].vcs[static_cast<std::size_t>(e.vc)];
    if (static_cast<int>(c.q.size()) >= B_) fail("input buffer overflow");
    const auto r = static_cast<std::size_t>(in_[static_cast<std::size_t>(e.in_unit)].router);
    if (router_flits(r) == 0 && router_busy_[r] < 0) router_busy_[r] = busy_seq_++;
    c.q.push_back(e.flit);
    if (c.state == State::Idle) {
      c.state = State::Routing;
      c.ready = now_ + p_.routing_delay;
    }
  }

  void release(int unit, int vc) {
    OutUnit& o = out_[static_cast<std::size_t>(unit)];
    OutVc& ov = o.vcs[static_cast<std::size_t>(vc)];
    if (p_.vc_release == VcRelease::Tail || o.down < 0 || ov.credits == B_) {
      ov.free = true;
      ov.tail_sent = false;
    } else {
      ov.tail_sent = true;
    }
  }

  // Keeps one option at random when the routing asks for random choices.
  void choose_at_random(std::vector<Option>& opts, std::int64_t node) {
    if (opts.size() < 2 || !fn_.random_choice()) return;
    const Option keep = opts[rng_[static_cast<std::size_t>(node)].below(opts.size())];
    opts.assign(1, keep);
  }

  // The option with a free VC whose VCs have the most credits in all, ties to the first; -1
  // when none has a free VC.
  int pick_option(const std::vector<Option>& opts) const {
    int best = -1;
    std::int64_t best_credits = -1;
    for (std::size_t k = 0; k < opts.size(); ++k) {
      const OutUnit& o = out_[static_cast<std::size_t>(opts[k].out)];
      bool any_free = false;
      std::int64_t credits = 0;
      for (int v = opts[k].vb; v < opts[k].ve; ++v) {
        any_free = any_free || o.vcs[static_cast<std::size_t>(v)].free;
        credits += o.vcs[static_cast<std::size_t>(v)].credits;
      }
      if (any_free && credits > best_credits) {
        best = static_cast<int>(k);
        best_credits = credits;
      }
    }
    return best;
  }

  Option option_of(const route::Choice& c, std::int64_t node) const {
    if (c.channel < 0 || c.channel >= n_.channel_count() || n_.channel_src(c.channel) != node)
      fail("the routing chose a channel that does not leave the node");
    return {channel_out_[static_cast<std::size_t>(c.channel)], class_begin(c.vc),
            class_begin(c.vc + 1), c.flags};
  }

  void source_step(Slot& s) {
    if (s.cur < 0) {
      if (s.queue.empty()) return;
      const std::int64_t id = s.queue.front();
      Packet& p = packets_[static_cast<std::size_t>(id)];
      int unit = -1, vc = -1;
      std::uint32_t flags = p.flags;
      if (f_.chips_route()) { // any VC of the injection port, round-robin
        for (int k = 1; k <= V_ && vc < 0; ++k) {
          const int v = (s.last_vc + k) % V_;
          const OutVc& ov = out_[static_cast<std::size_t>(s.unit)].vcs[static_cast<std::size_t>(v)];
          if (ov.free && ov.credits > 0) unit = s.unit, vc = v;
        }
      } else { // the routing picks the link (once per packet), the VCs of its class round-robin
        if (!s.opts_made) {
          s.opts.clear();
          for (const route::Choice& c : fn_.route({s.chip, -1, 0, p.src, p.dst, p.flags})) {
            if (c.channel < 0 || c.channel >= n_.channel_count() ||
                n_.channel_src(c.channel) != s.chip)
              fail("the routing chose a channel that does not leave the chip");
            if (channel_out_[static_cast<std::size_t>(c.channel)] >= 0 && c.vc >= 0 && c.vc < C_)
              s.opts.push_back(option_of(c, s.chip));
          }
          choose_at_random(s.opts, s.chip);
          if (s.opts.empty()) // its own packet: up its first link and back
            s.opts.push_back({chip_units_[static_cast<std::size_t>(s.chip)].front(), class_begin(0),
                              class_begin(1), p.flags});
          s.opts_made = true;
        }
        const int k = pick_option(s.opts);
        if (k >= 0) {
          const Option& o = s.opts[static_cast<std::size_t>(k)];
          const int span = o.ve - o.vb;
          for (int j = 1; j <= span && vc < 0; ++j) {
            const int v = o.vb + (((s.last_vc - o.vb + j) % span) + span) % span;
            const OutVc& ov =
                out_[static_cast<std::size_t>(o.out)].vcs[static_cast<std::size_t>(v)];
            if (ov.free && ov.credits > 0) unit = o.out, vc = v;
          }
          flags = o.flags;
        }
      }
      if (vc < 0) return;
      s.opts.clear();
      s.opts_made = false;
      out_[static_cast<std::size_t>(unit)].vcs[static_cast<std::size_t>(vc)].free = false;
      s.last_vc = vc;
      s.cur = id;
      s.cur_unit = unit;
      s.cur_vc = vc;
      s.cur_flit = 0;
      s.cur_flags = flags;
      p.injected = now_;
      s.queue.pop_front();
    }
    OutUnit& o = out_[static_cast<std::size_t>(s.cur_unit)];
    OutVc& ov = o.vcs[static_cast<std::size_t>(s.cur_vc)];
    if (o.down >= 0 && ov.credits <= 0) return;
    const Packet& p = packets_[static_cast<std::size_t>(s.cur)];
    Flit fl;
    fl.packet = s.cur;
    fl.head = s.cur_flit == 0;
    fl.tail = s.cur_flit + 1 == p.flits;
    fl.flags = s.cur_flags;
    fl.hops = fl.head && o.channel >= 0 ? 1 : 0;
    FlitEvent e;
    e.at = now_ + 1 + o.latency;
    e.flit = fl;
    if (o.down >= 0) {
      --ov.credits;
      e.in_unit = o.down;
      e.vc = s.cur_vc;
    } else {
      e.sink = o.sink;
    }
    chip_sent_[static_cast<std::size_t>(s.chip)].push_back(e);
    ++o.flits;
    ++flits_in_network_;
    ++s.cur_flit;
    if (fl.tail) {
      release(s.cur_unit, s.cur_vc);
      s.cur = -1;
      --queued_;
    }
  }

  // The options of the head of VC v of in unit u.
  void compute_route(const Router& R, InUnit& u, int v) {
    InVc& c = u.vcs[static_cast<std::size_t>(v)];
    const Flit& h = c.q.front();
    const Packet& p = packets_[static_cast<std::size_t>(h.packet)];
    const route::PacketState s{R.node, u.channel, u.channel < 0 ? 0 : class_of_vc(v),
                               p.src,  p.dst,     h.flags};
    c.opts.clear();
    for (const route::Choice& ch : fn_.route(s)) {
      const Option o = option_of(ch, R.node);
      if (o.out < 0) continue; // a failed link
      if (ch.vc < 0 || ch.vc >= C_) fail("the routing chose a VC class out of range");
      c.opts.push_back(o);
    }
    choose_at_random(c.opts, R.node);
    if (c.opts.empty()) { // arrived: the ejection port paired with the input port
      if (R.node != p.dst || R.ejects.empty()) fail("no live next hop");
      const int k = u.local % static_cast<int>(R.ejects.size());
      c.opts.push_back({R.ejects[static_cast<std::size_t>(k)], 0, V_, h.flags});
    }
  }

  void send(InUnit& u, int v) {
    InVc& c = u.vcs[static_cast<std::size_t>(v)];
    Flit fl = c.q.front();
    c.q.pop_front();
    OutUnit& o = out_[static_cast<std::size_t>(c.out_unit)];
    if (fl.head && o.channel >= 0) ++fl.hops;
    FlitEvent e;
    e.at = now_ + p_.sa_delay + p_.st_delay + o.latency;
    e.flit = fl;
    if (o.down >= 0) {
      --o.vcs[static_cast<std::size_t>(c.out_vc)].credits;
      e.in_unit = o.down;
      e.vc = c.out_vc;
    } else {
      e.sink = o.sink;
    }
    router_sent_[static_cast<std::size_t>(u.router)].push_back(e);
    ++o.flits;
    // The slot is free again upstream.
    const OutUnit& up = out_[static_cast<std::size_t>(u.up)];
    credits_.push_back({now_ + p_.st_delay + up.latency + p_.credit_delay - 1, u.up, v});
    if (fl.tail) {
      release(c.out_unit, c.out_vc);
      c.out_unit = c.out_vc = -1;
      if (!c.q.empty()) {
        c.state = State::Routing;
        c.ready = now_ + 1 + p_.routing_delay;
      } else {
        c.state = State::Idle;
      }
    }
  }

  void router_step(Router& R) {
    const int n_in = static_cast<int>(R.ins.size()), n_out = static_cast<int>(R.outs.size());
    // Routing, then VC allocation: every waiting head asks for the free VCs of its option.
    std::vector<IslipRequest> reqs;
    for (int i = 0; i < n_in; ++i) {
      InUnit& u = in_[static_cast<std::size_t>(R.ins[static_cast<std::size_t>(i)])];
      for (int v = 0; v < V_; ++v) {
        InVc& c = u.vcs[static_cast<std::size_t>(v)];
        if (c.state == State::Routing && c.ready <= now_) {
          compute_route(R, u, v);
          c.state = State::VcAlloc;
        }
        if (c.state != State::VcAlloc) continue;
        c.chosen = pick_option(c.opts);
        if (c.chosen < 0) continue;
        const Option& o = c.opts[static_cast<std::size_t>(c.chosen)];
        const OutUnit& out = out_[static_cast<std::size_t>(o.out)];
        for (int w = o.vb; w < o.ve; ++w)
          if (out.vcs[static_cast<std::size_t>(w)].free)
            reqs.push_back({i * V_ + v, out.local * V_ + w, 0});
      }
    }
    for (const IslipRequest& m :
         plain_islip(reqs, n_in * V_, n_out * V_, R.va_gptr, R.va_aptr, p_.alloc_iters)) {
      InUnit& u = in_[static_cast<std::size_t>(R.ins[static_cast<std::size_t>(m.in / V_)])];
      InVc& c = u.vcs[static_cast<std::size_t>(m.in % V_)];
      const Option& o = c.opts[static_cast<std::size_t>(c.chosen)];
      const int unit = R.outs[static_cast<std::size_t>(m.out / V_)];
      if (unit != o.out) fail("VC allocation matched another output");
      out_[static_cast<std::size_t>(unit)].vcs[static_cast<std::size_t>(m.out % V_)].free = false;
      c.out_unit = unit;
      c.out_vc = m.out % V_;
      c.state = State::Active;
      c.ready = now_ + p_.va_delay;
      c.q.front().flags = o.flags;
    }
    // Switch allocation: each input port asks, for each output port, with the first of its
    // VCs (round-robin from sw_rr) that may send there now.
    reqs.clear();
    for (int i = 0; i < n_in; ++i) {
      const InUnit& u = in_[static_cast<std::size_t>(R.ins[static_cast<std::size_t>(i)])];
      for (int j = 0; j < V_; ++j) {
        const int v = (u.sw_rr + j) % V_;
        const InVc& c = u.vcs[static_cast<std::size_t>(v)];
        if (c.state != State::Active || c.q.empty() || c.ready > now_) continue;
        const OutUnit& o = out_[static_cast<std::size_t>(c.out_unit)];
        if (o.down >= 0 && o.vcs[static_cast<std::size_t>(c.out_vc)].credits <= 0) continue;
        bool asked = false; // this port already asks for that output
        for (const IslipRequest& q : reqs) asked = asked || (q.in == i && q.out == o.local);
        if (!asked) reqs.push_back({i, o.local, v});
      }
    }
    for (const IslipRequest& m :
         plain_islip(reqs, n_in, n_out, R.sa_gptr, R.sa_aptr, p_.alloc_iters)) {
      InUnit& u = in_[static_cast<std::size_t>(R.ins[static_cast<std::size_t>(m.in)])];
      u.sw_rr = (m.label + 1) % V_;
      send(u, m.label);
    }
  }

  const Fabric& f_;
  const topo::Network& n_;
  const route::RoutingFunction& fn_;
  const RouterParams p_;
  const int V_, B_, C_;
  std::int64_t now_ = 0, flits_in_network_ = 0, queued_ = 0;
  std::vector<SplitMix64> rng_;
  std::vector<Packet> packets_;
  std::vector<Router> routers_;
  std::vector<InUnit> in_;
  std::vector<OutUnit> out_;
  std::vector<int> channel_out_;
  std::vector<Slot> slots_;
  std::vector<int> chip_slot_;               // chip -> its first slot ([n_chip + 1])
  std::vector<std::vector<int>> chip_units_; // chip -> its source out units
  std::vector<FlitEvent> flits_;             // on their way, in the order sent
  std::vector<CreditEvent> credits_;
  std::vector<Delivered> delivered_;
  // The order of what is sent in a cycle (which the order of the deliveries in a cycle follows):
  // the engine keeps its busy sources and routers in lists, each appended when it becomes busy
  // (a chip when a packet is offered to it idle, a router when a flit reaches its empty
  // buffers) and dropped once idle (nothing left to send; empty buffers) at the end of its
  // turn, and it visits them in list order, sources first. So a cycle's flits go on their way
  // sources first, then routers, each in the order they last became busy (busy_seq_ stamps;
  // -1 idle). This decides nothing but the order of the deliveries within a cycle.
  std::vector<std::int64_t> chip_busy_, router_busy_;
  std::int64_t busy_seq_ = 0;
  std::vector<std::vector<FlitEvent>> chip_sent_, router_sent_; // this cycle's, by sender
};

} // namespace icnkit::sim::flit::reference
