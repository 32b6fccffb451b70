// The router pipeline, cycle by cycle (engine.hpp): a part's cycle (run_part), its sources
// (ni_step) and routers (router_step: routing, VC and switch allocation, switch traversal).
#include "sim/flit/engine_internal.hpp"

#include "core/error.hpp"

#include <bit>

namespace icnkit::sim::flit {

namespace {

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

} // namespace

void Engine::release_out_vc(std::int32_t ovc) {
  const std::int32_t o = unit_of(ovc);
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
  InVc& in = iv_[z(target)];
  if (in.count >= B_) fail_runtime("flit", "input buffer overflow (credit accounting broken)");
  std::int32_t pos = in.head + in.count; // the ring's next slot, without a division
  if (pos >= B_) pos -= B_;
  const std::size_t slot = z(target) * z(B_) + z(pos);
  buf_[slot] = flit;
  if (flit & 2) meta_[slot] = meta; // only a head's Meta is ever read
  const std::int32_t unit = unit_of(target);
  if (++in.count == 1 && in.state == kActive) set_candidate(unit, target - unit * V_);
  const std::int32_t r = F_.in_hot_[z(unit)].router;
  if (in.state == kIdle) {
    in.state = kRouting;
    in.ready = now_ + F_.p_.routing_delay;
    set_waiting(r, target, true);
  }
  if (router_flits_[z(r)]++ == 0 && !router_active_[z(r)]) {
    router_active_[z(r)] = 1;
    W.active_routers.push_back(r);
  }
}

// The permitted next hops of the head of input VC iv at router r, as out units and VC ranges.
void Engine::compute_route(Part& W, std::int32_t iv, std::int32_t r, std::int32_t unit, int vc) {
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
    if (c.channel < 0 || z(c.channel) >= F_.channel_src_.size() ||
        F_.channel_src_[z(c.channel)] != node)
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
  Meta meta; // a body flit's is never read
  if (flit & 2) meta = meta_[i * z(B_) + in.head];
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
        const std::int32_t u = unit_of(iv);
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
        const std::int32_t u = unit_of(iv);
        set_candidate(u, iv - u * V_);
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
        const int v = last_vc_[c] + k < V_ ? last_vc_[c] + k : last_vc_[c] + k - V_;
        if (ov_[z(o) * z(V_) + z(v)].owner == -1 && ov_[z(o) * z(V_) + z(v)].credits > 0)
          ovc = o * V_ + v;
      }
    } else { // the routing picks the link to the switch
      std::vector<Opt>& opts = ni_opts_[c];
      if (opts.empty()) {
        route::PacketState s{chip, -1, 0, p.src, p.dst, p.flags};
        F_.fn_.route_into(s, W.choices);
        for (const route::Choice& ch : W.choices) {
          if (ch.channel < 0 || z(ch.channel) >= F_.channel_src_.size() ||
              F_.channel_src_[z(ch.channel)] != chip)
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
    last_vc_[c] = ovc - unit_of(ovc) * V_;
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
  const std::int32_t o = unit_of(ovc);
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
    schedule_flit(W, flit_part_[z(o)], arrive, down * V_ + (ovc - o * V_), flit, meta);
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
    for (std::vector<Arrivals>& from : W.flits_in) {
      Arrivals& a = from[slot];
      const Meta* head = a.heads.data();
      for (const FlitEv& e : a.flits)
        deliver_flit(W, e.target, e.flit, e.flit & 2 ? *head++ : Meta{});
      a.flits.clear();
      a.heads.clear();
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

} // namespace icnkit::sim::flit
