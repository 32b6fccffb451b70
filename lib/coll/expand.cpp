#include "coll/expand.hpp"

#include <algorithm>

#include "coll/hops.hpp"
#include "coll/rings.hpp"
#include "sim/symmetry.hpp"
#include "topo/torus_geometry.hpp"

namespace icnkit::coll {

ScheduleProgram::ScheduleProgram(const Schedule& s, const topo::Network& net, StepLatency latency,
                                 const topo::Faults* faults)
    : sched_(s), geo_(topo::TorusGeometry::of(net, "the schedule simulation")) {
  const topo::TorusGeometry& g = geo_;
  // Tables per dimension: the simulator asks for 8192 flows per step on 16x16x16, 360 times, so
  // neighbour and channel arithmetic is done once here.
  for (int d = 0; d < g.dims(); ++d) {
    DimRings rings(g, d);
    DimTable t;
    t.size = rings.size();
    t.ring_count = rings.count();
    auto n = static_cast<std::size_t>(g.count());
    t.chip.resize(n), t.next_plus.resize(n), t.next_minus.resize(n);
    t.chan_plus.resize(n), t.chan_minus.resize(n);
    for (std::int64_t r = 0; r < rings.count(); ++r)
      for (int i = 0; i < rings.size(); ++i) {
        auto k = static_cast<std::size_t>(r * rings.size() + i);
        std::int64_t c = rings.chip(r, i);
        t.chip[k] = c;
        t.next_plus[k] = g.neighbour(c, d, +1);
        t.next_minus[k] = g.neighbour(c, d, -1);
        t.chan_plus[k] = g.channel(c, d, +1);
        t.chan_minus[k] = g.channel(c, d, -1);
      }
    dims_.push_back(std::move(t));
  }
  auto n_steps = static_cast<std::size_t>(sched_.step_count());
  steps_.resize(n_steps);
  where_.resize(n_steps);
  for (std::size_t p = 0; p < sched_.phases.size(); ++p) {
    const Phase& ph = sched_.phases[p];
    if (ph.dimension >= g.dims() || ph.ring_size != g.size(ph.dimension))
      fail_input("/schedule/phases/" + std::to_string(p),
                 "phase does not match the network's torus shape");
    phase_names_.push_back(ph.name);
    for (std::size_t k = 0; k < ph.steps.size(); ++k) {
      auto id = static_cast<std::size_t>(ph.steps[k].id);
      if (id >= n_steps)
        fail_input("/schedule/phases/" + std::to_string(p), "step id out of range");
      for (auto& tr : ph.steps[k].transfers)
        if (tr.rings && !tr.rings->empty() &&
            tr.rings->back() >= dims_[static_cast<std::size_t>(ph.dimension)].ring_count)
          fail_input("/schedule/phases/" + std::to_string(p),
                     "transfer names a ring that does not exist");
      steps_[id].after = ph.steps[k].after;
      steps_[id].phase = static_cast<int>(p);
      where_[id] = {p, k};
    }
    if (latency == StepLatency::Astra) {
      const double alpha = net.links.empty() ? 0 : net.links.front().latency_s;
      const bool accel = ph.name.find("/accel") != std::string::npos;
      std::vector<int> lanes_seen;
      for (const Step& st : ph.steps) {
        double& lat = steps_[static_cast<std::size_t>(st.id)].latency_s;
        lat = 0;
        if (std::find(lanes_seen.begin(), lanes_seen.end(), st.lane) != lanes_seen.end()) continue;
        lanes_seen.push_back(st.lane);
        bool folded = false;
        for (const RingTransfer& tr : st.transfers) folded |= tr.fold_at >= 0;
        lat = alpha * (accel ? 3 : folded ? ph.ring_size - 1 : 1);
      }
    }
  }
  // One flow per orbit where every transfer is the same from every chip.
  bool uniform = faults && faults->empty();
  for (const Phase& ph : sched_.phases)
    for (const Step& st : ph.steps)
      for (const RingTransfer& tr : st.transfers) uniform = uniform && !tr.rings && tr.fold_at < 0;
  if (uniform)
    if (auto period = sim::link_periods(g, net)) {
      sim::Translations t = sim::translations(g, net, *period);
      domain_ = std::move(t.sources);
      orbits_ = sim::FlowOrbits{std::move(t.channel_rep), t.order, {}};
    }
}

void ScheduleProgram::flows(std::size_t step, sim::StepFlows& out) const {
  out.clear();
  auto [p, k] = where_.at(step);
  const Phase& ph = sched_.phases[p];
  const DimTable& t = dims_[static_cast<std::size_t>(ph.dimension)];
  const Step& st = ph.steps[k];
  std::vector<std::int64_t> path;
  auto add_ring = [&](const RingTransfer& tr, double bytes, std::int64_t r) {
    auto base = static_cast<std::size_t>(r * t.size);
    if (tr.fold_at >= 0 || tr.via_dim >= 0) { // logical hops over several links
      for (int i = 0; i < t.size; ++i) {
        path.clear();
        std::int64_t last = 0;
        for_each_hop(geo_, ph.dimension, t.size, t.chip[base + static_cast<std::size_t>(i)], i, tr,
                     [&](std::int64_t, std::int64_t dst, std::int64_t ch) {
                       path.push_back(ch);
                       last = dst;
                     });
        out.add(t.chip[base + static_cast<std::size_t>(i)], last, bytes, path);
      }
      return;
    }
    const auto& next = tr.direction > 0 ? t.next_plus : t.next_minus;
    const auto& chan = tr.direction > 0 ? t.chan_plus : t.chan_minus;
    for (std::size_t i = base; i < base + static_cast<std::size_t>(t.size); ++i)
      out.add1(t.chip[i], next[i], bytes, chan[i]);
  };
  if (orbits_) {
    const std::vector<std::uint32_t>& rep = orbits_->channel_rep;
    out.flows.reserve(st.transfers.size() * domain_.size());
    for (const RingTransfer& tr : st.transfers) {
      const double bytes = transfer_bytes(ph, tr);
      for (std::int64_t u : domain_) {
        path.clear();
        std::int64_t last = 0;
        for_each_hop(geo_, ph.dimension, t.size, u, geo_.coord(u, ph.dimension), tr,
                     [&](std::int64_t, std::int64_t dst, std::int64_t ch) {
                       path.push_back(rep[static_cast<std::size_t>(ch)]);
                       last = dst;
                     });
        out.add(u, last, bytes, path);
      }
    }
    return;
  }
  std::size_t total = 0;
  for (const RingTransfer& tr : st.transfers)
    total += (tr.rings ? tr.rings->size() : static_cast<std::size_t>(t.ring_count)) *
             static_cast<std::size_t>(t.size);
  out.flows.reserve(total);
  out.channels.reserve(total);
  for (const RingTransfer& tr : st.transfers) {
    double bytes = transfer_bytes(ph, tr);
    if (tr.rings)
      for (std::int64_t r : *tr.rings) add_ring(tr, bytes, r);
    else
      for (std::int64_t r = 0; r < t.ring_count; ++r) add_ring(tr, bytes, r);
  }
}

} // namespace icnkit::coll
