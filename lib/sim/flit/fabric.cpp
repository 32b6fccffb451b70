// The Fabric: the network turned into routers, ports and channels (fabric.hpp).
#include "sim/flit/fabric.hpp"

#include "core/error.hpp"
#include "route/minimal.hpp"
#include "sim/flit/clock.hpp"

#include <algorithm>

namespace icnkit::sim::flit {

namespace {

// The slowest link the engine paces, relative to the fastest (a flit every 1,024 cycles).
constexpr double kMaxLinkPeriod = 1024;

template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}

} // namespace

Fabric::Fabric(const topo::Network& n, const topo::Faults& f, const route::RoutingFunction& fn,
               const RouterParams& p, std::vector<int> link_latency)
    : net_(n), fn_(fn), p_(p) {
  validate(p_);
  classes_ = fn.vc_count();
  if (p_.vcs < classes_)
    fail_infeasible("{vcs}", "the routing needs " + std::to_string(classes_) +
                                 " VC classes, but routers have " + std::to_string(p_.vcs) +
                                 " VCs per port");
  if (link_latency.size() != n.links.size())
    fail_runtime("flit", "link latencies do not match the network's links");
  for (int l : link_latency)
    if (l < 1) fail_usage("{link_latency_cycles}", "link latencies must be at least 1 cycle");
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
  channel_src_.resize(z(CH));
  for (std::int64_t ch = 0; ch < CH; ++ch)
    channel_src_[z(ch)] = static_cast<std::int32_t>(n.channel_src(ch));
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

} // namespace icnkit::sim::flit
