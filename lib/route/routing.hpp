// The routing-function interface every routing algorithm implements, and path tracing.
// Given a packet's state, a routing function returns the permitted output channels with their
// VC classes in priority order (one for deterministic algorithms, several for adaptive ones).
// Channels are the network's directed channels (topo::channel_of). Faults are given to the
// algorithm when it is built, so fault-aware algorithms (WFR, FTHOE) see them.
//
// This is the bottom of lib/route: it includes no other route/ header. The algorithms include
// it, the registry (registry.hpp) includes the algorithms, and verification and load
// (verify.hpp, load.hpp) sit above; see docs/architecture.md, "Fast paths and reference paths".
#pragma once
#include "topo/network.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace icnkit::route {

struct RoutingSection;   // routing_section.hpp
class SymmetricAnalysis; // symmetric.hpp

struct PacketState {
  std::int64_t node = 0;        // where the packet is
  std::int64_t in_channel = -1; // the channel it arrived on; -1 at injection
  int vc = 0;                   // the VC class it arrived on
  std::int64_t src = 0, dst = 0;
  std::uint32_t flags = 0; // algorithm-specific state carried in the header
};

struct Choice {
  std::int64_t channel = 0;
  int vc = 0;
  std::uint32_t flags = 0; // the packet's flags after taking this hop
};

class RoutingFunction {
public:
  virtual ~RoutingFunction() = default;
  virtual int vc_count() const = 0; // VC classes per physical channel
  // True when route() depends only on (node, in_channel, vc, dst, flags), not on src:
  // the deadlock check can then share work between sources.
  virtual bool source_independent() const = 0;
  // True when the permitted next hops are alternatives of equal standing for an oblivious
  // random choice: a packet-level simulator takes one of them uniformly at random per packet
  // and hop, instead of the one with the most free credits (adaptive). Verification (the
  // channel-dependency graph, reachability) treats them as any permitted hops.
  virtual bool random_choice() const { return false; }
  // True when, on the network as built and with no link or chip failed, the routing delivers
  // every ordered pair of distinct chips (by construction, checked where it is built): a
  // packet simulator need not trace a pair before offering it. False when unsure.
  virtual bool delivers_every_pair_fault_free() const { return false; }
  // Permitted next hops in priority order; empty when the packet is at its destination.
  virtual std::vector<Choice> route(const PacketState& p) const = 0;
  // route() into a caller-owned buffer (cleared first). The verification walks call it tens of
  // millions of times on a 16x16x16 torus, where a fresh vector per call would dominate the run
  // time; algorithms override it when speed matters, the default just calls route().
  virtual void route_into(const PacketState& p, std::vector<Choice>& out) const { out = route(p); }
  // The analysis by symmetry that verify_routing() and uniform_load() try before walking every
  // pair (symmetric.hpp), or none. An algorithm registers one by overriding this, in the file
  // that implements the analysis (DorRouting: dor_symmetry.cpp; MinimalRouting:
  // minimal_symmetry.cpp), so neither verification nor load names an algorithm. A shared_ptr so
  // that this default needs no definition of SymmetricAnalysis.
  virtual std::shared_ptr<const SymmetricAnalysis> symmetric_analysis() const { return nullptr; }
  // True when the network has switches and the choices toward a chip depend only on its
  // attachment(), the set of live switches it links to (MinimalRouting's per-attachment
  // distances): then the flows from one switch to chips of one attachment share their middle,
  // which the flow spreading's switch-to-switch fast path (spread.hpp) reuses.
  virtual bool routes_by_attachment() const { return false; }
  // Where routes_by_attachment(): the chip's attachment, an id shared by the chips on the same
  // live switches; -1 when the chip is down or has no live link to a switch.
  virtual std::int32_t attachment(std::int64_t /*chip*/) const { return -1; }
};

struct Hop {
  std::int64_t channel = 0;
  int vc = 0;
};

struct Path {
  std::vector<Hop> hops;
  bool delivered = false;
  std::string reason; // why not delivered (failed link, failed chip, loop, no route)
};

// Rebuilds the routing function a routing section describes, through the algorithm registry.
// Defined with the routing section (routing_section.cpp), which includes the registry: the
// routing interface includes neither.
std::unique_ptr<RoutingFunction> make_routing(const RoutingSection& s, const topo::Network& n,
                                              const topo::Faults& f);

// Follows the routing function from src to dst: at each hop the first permitted choice whose
// link and next node are up. Stops (delivered = false) on a failed element or after max_hops.
Path trace(const RoutingFunction& fn, const topo::Network& n, const std::vector<char>& down_links,
           std::int64_t src, std::int64_t dst, std::int64_t max_hops);
// The same, also told which chips are down (Faults::down_chips), so a packet blocked by a failed
// chip is reported as such rather than as one of the chip's failed links.
Path trace(const RoutingFunction& fn, const topo::Network& n, const std::vector<char>& down_links,
           const std::vector<char>& down_chips, std::int64_t src, std::int64_t dst,
           std::int64_t max_hops);

namespace detail {

// One step of following a routing function, shared by trace() and the verification walks so that
// they take exactly the same decisions and give the same reasons.
// Index of the first choice whose link and next chip are up, or -1 with *reason saying what
// blocked the first choice (or that there was none). down_chips may be empty (unknown).
// Error(Runtime) when a choice does not leave `node` (a routing-function bug).
int pick(const std::vector<Choice>& choices, const topo::Network& n,
         const std::vector<char>& down_links, const std::vector<char>& down_chips,
         std::int64_t node, std::string* reason);

std::string loop_reason(std::int64_t hop_limit);

} // namespace detail

} // namespace icnkit::route
