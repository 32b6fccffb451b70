// Explicit paths as a routing function, for the flit engine to replay flows whose channels are
// already chosen (a collective schedule's transfers, coll/hops.hpp): each packet's flags name
// its path in a table and how many hops it has taken.
//
// VC classes: a hop's class is the number of times the path has changed dimension before it
// (Link::dim), so a path that turns k times needs k + 1 classes. Within a class a packet only
// goes on in the same dimension and direction, so a class's channel dependencies follow the
// rings of one dimension; they are acyclic when no path of the class runs all the way round a
// ring (true of a schedule's transfers: a fold goes round a ring the other way, short of the link
// it avoids). The engine's watchdog reports a deadlock if a caller breaks that.
#pragma once
#include "route/routing.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::sim::flit {

class SourceRoutes final : public route::RoutingFunction {
public:
  static constexpr int kMaxHops = 255;               // hops of one path
  static constexpr std::int64_t kMaxPaths = 1 << 24; // paths held at once

  // classes: VC classes the engine gives the routing (at least the most dimension changes of
  // any path added, plus one).
  SourceRoutes(const topo::Network& n, int classes);

  int vc_count() const override { return classes_; }
  bool source_independent() const override { return false; }
  std::vector<route::Choice> route(const route::PacketState& p) const override;
  void route_into(const route::PacketState& p, std::vector<route::Choice>& out) const override;

  // Stores a path (its channels, in order) and returns the packet flags that follow it.
  // Error(Infeasible) past kMaxPaths paths or kMaxHops hops, or when it turns more often than
  // the classes allow.
  std::uint32_t add(const std::int64_t* channels, std::size_t count);
  // Frees the path of `flags` (its packets have all arrived).
  void release(std::uint32_t flags);
  std::int64_t held() const { return held_; }

  // Dimension changes along a path (what add() needs classes for).
  static int turns(const topo::Network& n, const std::int64_t* channels, std::size_t count);

private:
  struct Hop {
    std::int64_t channel;
    int vc;
  };
  const topo::Network& net_;
  int classes_;
  std::vector<std::vector<Hop>> paths_;
  std::vector<std::uint32_t> free_;
  std::int64_t held_ = 0;
};

} // namespace icnkit::sim::flit
