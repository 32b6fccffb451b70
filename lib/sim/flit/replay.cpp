#include "sim/flit/replay.hpp"

#include "core/units.hpp"

#include "core/error.hpp"
#include "core/progress.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::sim::flit {

namespace {

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

// A flow in flight: what it still has to offer and to receive.
struct FlowState {
  std::int64_t src = 0, dst = 0, step = 0;
  double bytes = 0;
  std::int64_t packets = 0, offered = 0, delivered = 0;
  std::uint32_t flags = 0;
  int port = 0;
};

} // namespace

ReplayResult replay(const Fabric& f, const Program& program, SourceRoutes* routes,
                    const ReplayParams& P, int threads, Progress* progress) {
  if (P.flit_bytes < 1 || P.packet_bytes < P.flit_bytes || P.packet_bytes % P.flit_bytes != 0)
    fail_usage("{packet_bytes}", "must be a positive multiple of {flit_bytes}");
  if (P.packet_bytes / P.flit_bytes > 65535)
    fail_usage("{packet_bytes}", "a packet has at most 65535 flits");
  if (P.window < 1) fail_usage("flit", "the injection window is at least one packet");
  const std::vector<StepInfo>& steps = program.steps();
  const std::size_t S = steps.size();

  // Dependencies: checked for range and cycles before anything runs.
  std::vector<std::int64_t> waiting(S, 0);
  std::vector<std::vector<std::int64_t>> dependents(S);
  for (std::size_t s = 0; s < S; ++s)
    for (std::int64_t a : steps[s].after) {
      if (a < 0 || z(a) >= S || z(a) == s)
        fail_input("program", "step " + std::to_string(s) + " depends on step " +
                                  std::to_string(a) + ", which does not exist");
      ++waiting[s];
      dependents[z(a)].push_back(static_cast<std::int64_t>(s));
    }
  {
    std::vector<std::int64_t> w = waiting, order;
    for (std::size_t s = 0; s < S; ++s)
      if (w[s] == 0) order.push_back(static_cast<std::int64_t>(s));
    for (std::size_t k = 0; k < order.size(); ++k)
      for (std::int64_t d : dependents[z(order[k])])
        if (--w[z(d)] == 0) order.push_back(d);
    if (order.size() != S) fail_input("program", "the steps' dependencies form a cycle");
  }

  const std::int64_t engine_bytes = f.engine_bytes();
  if (engine_bytes > P.max_bytes)
    fail_infeasible("{max_memory}", "the replay needs about " + format_mib(engine_bytes) +
                                        " for the routers' buffers alone, above the bound of " +
                                        format_mib(P.max_bytes));

  const topo::Network& n = f.network();
  std::vector<std::int32_t> slot_base(z(n.n_chip) + 1, 0);
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    slot_base[z(c) + 1] = slot_base[z(c)] + f.injection_ports(c);
  const std::size_t NS = z(slot_base.back());
  std::vector<std::int32_t> slot_chip(NS); // each injection slot's chip
  for (std::int64_t c = 0; c < n.n_chip; ++c)
    for (std::int32_t s = slot_base[z(c)]; s < slot_base[z(c) + 1]; ++s)
      slot_chip[z(s)] = static_cast<std::int32_t>(c);

  Engine e(f, threads, 0);
  ReplayResult res;
  res.step_start.assign(S, -1);
  res.step_end.assign(S, -1);
  std::vector<FlowState> flows;
  std::vector<std::uint32_t> free_flows;
  std::int64_t live_flows = 0;
  std::vector<std::vector<std::uint32_t>> port_flows(NS);
  std::vector<std::size_t> port_rr(NS, 0);
  std::vector<std::int32_t> active_slots;
  std::vector<char> slot_active(NS, 0);
  std::vector<std::int64_t> step_left(S, 0), ready;
  std::size_t steps_done = 0;
  double latency_sum = 0, network_latency_sum = 0;

  auto finish_step = [&](std::int64_t s, std::int64_t at) {
    res.step_end[z(s)] = at;
    ++steps_done;
    for (std::int64_t d : dependents[z(s)])
      if (--waiting[z(d)] == 0) ready.push_back(d);
  };
  StepFlows sf;
  auto start_step = [&](std::int64_t s) {
    const std::int64_t now = e.now();
    res.step_start[z(s)] = now;
    program.flows(z(s), sf);
    std::int64_t count = 0;
    for (const Flow& fl : sf.flows) {
      if (!(fl.bytes > 0)) continue;
      if (fl.src == fl.dst || fl.count == 0) { // nothing crosses the network
        res.bytes += fl.bytes;
        if (P.pair_bytes) res.pair_bytes[{fl.src, fl.dst}] += fl.bytes;
        continue;
      }
      if (engine_bytes + (live_flows + 1) * kReplayBytesPerFlow > P.max_bytes)
        fail_infeasible("{max_memory}",
                        "the replay needs more than " +
                            format_mib(engine_bytes + (live_flows + 1) * kReplayBytesPerFlow) +
                            " (routers' buffers " + format_mib(engine_bytes) + ", " +
                            std::to_string(live_flows + 1) +
                            " flows in flight), above the bound of " + format_mib(P.max_bytes));
      std::uint32_t id;
      if (!free_flows.empty()) {
        id = free_flows.back();
        free_flows.pop_back();
      } else {
        id = static_cast<std::uint32_t>(flows.size());
        flows.emplace_back();
      }
      FlowState& st = flows[id];
      st = FlowState{};
      st.src = fl.src;
      st.dst = fl.dst;
      st.step = s;
      st.bytes = fl.bytes;
      st.packets =
          static_cast<std::int64_t>(std::ceil(fl.bytes / static_cast<double>(P.packet_bytes)));
      const std::int64_t* path = sf.channels.data() + fl.first;
      if (routes) st.flags = routes->add(path, fl.count);
      st.port = f.out_port(path[0]) % f.injection_ports(fl.src);
      const std::size_t slot = z(slot_base[z(fl.src)] + st.port);
      port_flows[slot].push_back(id);
      if (!slot_active[slot])
        slot_active[slot] = 1, active_slots.push_back(static_cast<std::int32_t>(slot));
      ++live_flows;
      ++count;
    }
    res.flows += count;
    res.peak_flows = std::max(res.peak_flows, live_flows);
    step_left[z(s)] = count;
    if (count == 0) finish_step(s, now);
  };
  auto start_ready = [&] {
    while (!ready.empty()) {
      const std::int64_t s = ready.back();
      ready.pop_back();
      start_step(s);
    }
  };
  for (std::size_t s = 0; s < S; ++s)
    if (waiting[s] == 0) ready.push_back(static_cast<std::int64_t>(s));
  std::reverse(ready.begin(), ready.end()); // lowest step first
  start_ready();

  const std::int64_t watchdog =
      P.watchdog > 0 ? P.watchdog
                     : 1000 + 4 * f.max_link_latency() +
                           4 * static_cast<std::int64_t>(std::ceil(f.max_link_period()));
  const double packet_bytes = static_cast<double>(P.packet_bytes);
  while (steps_done < S) {
    // Offer: every injection port with flows keeps up to `window` packets queued.
    std::size_t keep = 0;
    for (std::size_t k = 0; k < active_slots.size(); ++k) {
      const std::int32_t slot = active_slots[k];
      std::vector<std::uint32_t>& list = port_flows[z(slot)];
      std::size_t& rr = port_rr[z(slot)];
      const std::int64_t chip = slot_chip[z(slot)];
      const int port = slot - slot_base[z(chip)];
      while (!list.empty() && e.queued_at(chip, port) < P.window) {
        if (rr >= list.size()) rr = 0;
        const std::uint32_t id = list[rr];
        FlowState& st = flows[id];
        const bool last = st.offered + 1 == st.packets;
        const double b =
            last ? st.bytes - static_cast<double>(st.packets - 1) * packet_bytes : packet_bytes;
        const int flits = static_cast<int>(std::ceil(b / static_cast<double>(P.flit_bytes)));
        e.offer_routed(st.src, st.dst, std::max(flits, 1),
                       static_cast<std::int64_t>(id) << 1 | last, st.flags, port);
        if (++st.offered == st.packets) {
          list[rr] = list.back();
          list.pop_back();
        } else {
          ++rr;
        }
      }
      if (!list.empty())
        active_slots[keep++] = slot;
      else
        slot_active[z(slot)] = 0;
    }
    active_slots.resize(keep);

    e.step();

    for (const Delivered& d : e.delivered()) {
      const std::uint32_t id = static_cast<std::uint32_t>(d.tag >> 1);
      FlowState& st = flows[id];
      const double b = (d.tag & 1) ? st.bytes - static_cast<double>(st.packets - 1) * packet_bytes
                                   : packet_bytes;
      res.bytes += b;
      if (P.pair_bytes) res.pair_bytes[{st.src, st.dst}] += b;
      ++res.packets;
      res.flits += d.flits;
      res.flit_hops += static_cast<std::int64_t>(d.hops) * d.flits;
      latency_sum += static_cast<double>(d.arrived - d.created);
      network_latency_sum += static_cast<double>(d.arrived - d.injected);
      res.latency_max = std::max(res.latency_max, d.arrived - d.created);
      res.cycles = std::max(res.cycles, d.arrived);
      if (++st.delivered == st.packets) {
        if (routes) routes->release(st.flags);
        free_flows.push_back(id);
        --live_flows;
        if (--step_left[z(st.step)] == 0) finish_step(st.step, d.arrived);
      }
    }
    e.delivered().clear();
    start_ready();

    if (e.flits_in_network() > 0 && e.idle_cycles() > watchdog) {
      res.status = "deadlock";
      res.deadlock_cycle = e.waiting_cycle();
      res.status_detail = "no flit moved for " + std::to_string(e.idle_cycles()) + " cycles with " +
                          std::to_string(e.flits_in_network()) + " flits in the network";
      res.cycles = e.now();
      break;
    }
    if (e.flits_in_network() == 0 && e.queued_packets() == 0 && active_slots.empty() &&
        steps_done < S && ready.empty())
      fail_runtime("flit", "replay stalled with " + std::to_string(S - steps_done) +
                               " steps not run (a step waits for one that never finishes)");
    if (progress && (e.now() & 4095) == 0) progress->update(steps_done);
  }
  if (res.packets > 0) {
    res.latency_mean = latency_sum / static_cast<double>(res.packets);
    res.network_latency_mean = network_latency_sum / static_cast<double>(res.packets);
  }
  res.channel_flits = e.channel_flits();
  return res;
}

} // namespace icnkit::sim::flit
