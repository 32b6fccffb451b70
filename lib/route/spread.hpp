// How one flow from src to dst spreads over the network's channels under a routing function:
// what a flow-level simulation must send where, so that it agrees with the link load
// topo-route --load reports (load.hpp).
//
// Split (the default, ECMP as a fluid): at every hop the flow divides evenly over the permitted
// choices whose link and next chip are up, as load.hpp's uniform and demand loads do; a
// channel's share is the fraction of the flow's bytes that crosses it. A deterministic routing
// gives one path with share 1 on each hop (exactly trace()'s path). Where the routing carries
// flags in its packets, its states loop, or a branch dead-ends, the flow follows trace()'s one
// path instead (split_exact false), as load.hpp does.
// Hash: one path per flow, each hop's choice drawn from the live ones by a hash of (seed,
// source, destination, chip), as a switch's ECMP hash pins a flow to one path.
#pragma once
#include "route/routing.hpp"
#include "topo/faults.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace icnkit::route {

enum class Ecmp { Split, Hash };
// "split" / "hash"; Error(Usage) naming `where` otherwise.
Ecmp parse_ecmp(const std::string& text, const std::string& where);
std::string to_string(Ecmp e);

struct Spread {
  std::vector<std::int64_t> channels; // each once, in the order the flow first reaches them
  std::vector<double> shares;         // per channel: the fraction of the flow that crosses it
  bool delivered = false;
  bool split_exact = true;
  std::string reason; // why not delivered
};

// A routing by attachment (RoutingFunction::routes_by_attachment(): minimal routing on a network
// with switches), ECMP split, no faults: a flow between chips that each have one link, to
// switches A and B, spreads as its first link, then what every such flow from A to a chip on B
// does (the choices at switches depend only on the hops to B), then its last link. Spreader keeps
// that middle per (A, B) and reuses it: the same channels, in the same order, with the same shares
// as computing the pair afresh (tested), a million pairs' spreads on a 1,024-chip dragonfly for the
// 16,900 switch pairs' cost.
class Spreader {
public:
  Spreader(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
           Ecmp mode = Ecmp::Split, std::uint64_t seed = 0, std::int64_t max_hops = 0);
  // Fills `out` (cleared first). Not thread-safe (scratch state).
  void spread(std::int64_t src, std::int64_t dst, Spread& out);

private:
  struct Middle {
    std::vector<std::int64_t> channels;
    std::vector<double> shares;
  };
  void fresh(std::int64_t src, std::int64_t dst, Spread& out);
  void follow(std::int64_t src, std::int64_t dst, bool hashed, Spread& out);
  bool single(std::int64_t src, std::int64_t dst, Spread& out);
  bool split(std::int64_t src, std::int64_t dst, Spread& out);
  bool crosses_twice(const std::vector<std::int64_t>& path); // a channel more than once
  void live_choices(const PacketState& p, bool& flagged);

  const RoutingFunction& fn_;
  const topo::Network& n_;
  std::vector<char> down_links_, down_chips_, blocked_;
  Ecmp mode_;
  std::uint64_t seed_;
  std::int64_t max_hops_;
  int vcs_;
  // Scratch of split(): per state (channel * vcs + vc).
  std::vector<std::uint32_t> stamp_;
  std::uint32_t epoch_ = 0;
  std::vector<std::int32_t> indeg_;
  std::vector<double> inflow_;
  std::vector<std::int64_t> succ_head_, succ_, ends_, order_, stack_, queue_, choice_states_;
  std::vector<Choice> buf_;
  std::vector<std::int64_t> slot_;  // per channel: index in out.channels, or -1
  std::vector<std::uint32_t> seen_; // crosses_twice(): per channel, the path it was last on
  std::uint32_t seen_epoch_ = 0;
  // The middles (above), when they apply: per chip its one channel to a switch and back (-1 for
  // a chip with another number of links, or whose link is not to a switch).
  bool by_attachment_ = false;
  std::vector<std::int64_t> up_, down_;
  std::unordered_map<std::uint64_t, Middle> middles_;
  std::int64_t middle_channels_ = 0;
};

} // namespace icnkit::route
