// The network as the flit engine sees it (sim/flit/engine.hpp): routers, their ports and the
// channels between them, with the link pacing and the VC classes of the routing.
#pragma once
#include "route/routing.hpp"
#include "sim/flit/params.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::sim::flit {

// The network as the engine sees it: routers, their ports and the channels between them. Built
// once and only read by engines (several engines may share one, e.g. one per thread of a sweep).
class Fabric {
public:
  // link_latency: cycles per link (>= 1), by link id. Error(Usage) for bad router parameters
  // (validate()) and Error(Infeasible) when the VCs per port are fewer than the routing's classes.
  Fabric(const topo::Network& n, const topo::Faults& f, const route::RoutingFunction& fn,
         const RouterParams& p, std::vector<int> link_latency);

  const topo::Network& network() const { return net_; }
  const route::RoutingFunction& routing() const { return fn_; }
  const RouterParams& params() const { return p_; }
  std::int64_t routers() const { return static_cast<std::int64_t>(router_node_.size()); }
  bool chips_route() const { return chips_route_; }
  const std::vector<char>& down_links() const { return down_link_; }
  const std::vector<char>& down_nodes() const { return down_chip_; } // by node id
  bool chip_live(std::int64_t c) const { return !down_chip_[static_cast<std::size_t>(c)]; }
  std::int64_t live_chips() const { return live_chips_; }
  // Injection ports of a chip (RouterParams::endpoint_ports; 1 for a chip that does not route).
  int injection_ports(std::int64_t chip) const {
    return slot_begin_[static_cast<std::size_t>(chip) + 1] -
           slot_begin_[static_cast<std::size_t>(chip)];
  }
  int max_link_latency() const { return max_latency_; }
  // Cycles per flit of the slowest live channel: a channel of bandwidth b carries a flit every
  // (the network's fastest bandwidth / b) cycles (1 on the fastest; see Engine's pacing).
  double max_link_period() const { return max_period_; }
  // The index of a network channel among the output ports of its source's router (0 when the
  // source is a chip that does not route, or the channel is down).
  int out_port(std::int64_t channel) const;
  // About how many bytes an Engine of this fabric holds (its buffers, VC and port state).
  std::int64_t engine_bytes() const;

private:
  friend class Engine;
  const topo::Network& net_;
  const route::RoutingFunction& fn_;
  RouterParams p_;
  bool chips_route_ = false;
  int classes_ = 1;
  std::vector<std::uint8_t> class_of_vc_;   // [V]
  std::vector<std::uint16_t> class_begin_;  // [C + 1]
  std::vector<char> down_link_, down_chip_; // by link, by chip
  std::int64_t live_chips_ = 0;
  std::vector<std::int64_t> router_node_;          // router -> node
  std::vector<std::int32_t> node_router_;          // node -> router or -1
  std::vector<std::int32_t> in_begin_, out_begin_; // router -> its first in / out unit
  // In units (router input ports): their router, the out unit feeding them, their channel.
  std::vector<std::int32_t> in_router_, in_up_;
  std::vector<std::int64_t> in_channel_; // network channel, or -1 for an injection port
  // Out units: router output ports first (by router), then the chips' sources (by chip).
  std::vector<std::int32_t> out_down_; // in unit fed, or -1: a sink
  std::vector<std::int32_t> out_sink_; // the chip whose sink it feeds (out_down_ == -1)
  std::vector<std::int32_t> out_latency_;
  // Cycles per flit of each out unit: the fastest link's bandwidth / its link's (1 for
  // injection and ejection units); paced_ when some unit's exceeds 1.
  std::vector<double> out_period_;
  bool paced_ = false;
  double max_period_ = 1;
  std::vector<std::int64_t> out_channel_; // network channel, or -1 (injection or ejection)
  std::vector<std::int32_t> ni_begin_;    // chip -> its first source out unit ([n_chip + 1])
  // Source slots (a packet being injected and a queue each): chip -> its first slot
  // ([n_chip + 1]). A chip that routes has one slot per injection port (slot k feeds out unit
  // ni_begin_ + k); a chip that does not has one, whose routing picks among its out units.
  std::vector<std::int32_t> slot_begin_;
  std::vector<std::int32_t> eject_out_;   // chip -> its first ejection out unit (chips that route)
  std::vector<std::int32_t> eject_n_;     // chip -> its ejection out units
  std::vector<std::int32_t> channel_out_; // network channel -> out unit, or -1 when down
  // Network channel -> its source node: the check that a routing's choice leaves the node it
  // was asked at, without the network's 56-byte link records (a cache miss a head each).
  std::vector<std::int32_t> channel_src_;
  // The same, packed for the engine's inner loop (one cache line per unit's lookups).
  struct OutHot {
    std::int32_t target; // the first input VC fed (in unit * V), or -1 - chip for a sink
    std::int32_t lag;    // switch allocation -> arrival downstream: sa + st + link latency
    std::int32_t link;   // 1 when a network channel (a hop), else 0
  };
  struct InHot {
    std::int32_t router;
    std::int32_t credit_ovc; // the first output VC its credits go back to (up unit * V)
    std::int32_t credit_lag; // switch allocation -> credit back upstream
  };
  std::vector<OutHot> out_hot_;
  std::vector<InHot> in_hot_;
  int max_in_ = 0, max_out_ = 0; // the largest router's port counts
  int max_latency_ = 1;          // the slowest channel's latency, cycles
  int wheel_ = 1;                // event wheel size (a power of two)
};

} // namespace icnkit::sim::flit
