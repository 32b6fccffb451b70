// Deadlock check: the channel-dependency graph (CDG) of the routes actually taken.
// Vertices are (channel, vc); a packet holding (c, v) that may ask for (c', v') next adds the edge
// (c, v) -> (c', v'), for every choice the routing function permits (adaptive functions give
// several). The routing is deadlock-free when the graph is acyclic (Dally & Seitz 1987; for
// adaptive functions this is the sufficient, not the necessary, condition).
#pragma once
#include "route/routing.hpp"
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace icnkit::route {

// Walks the routing function from every live source to every live destination (pairs with a
// failed endpoint carry no traffic; hops onto failed links or chips are never taken, so they add
// no dependency). For source-independent functions the walks to one destination share their
// states, which makes a 16x16x16 torus take well under a second. Walks longer than hop_limit stop
// and are counted (livelock guard). Returns the counts and, if there is one, a cycle.
// The walks behind check_deadlock(), exposed so that the reachability check can reuse them
// (verify_routing() makes one pass over the pairs instead of two). Per scope (begin_scope(): one
// destination for source-independent functions, else one pair) it also remembers the choice
// trace() would take — the first permitted one whose link and next chip are up — from each state.
class CdgExplorer {
public:
  // Codes of next() / injection_next() besides a vertex id (channel * vcs + vc):
  static constexpr std::int64_t kFlagged = -1; // the choice carries flags: follow it with trace()
  static constexpr std::int64_t kUnknown = -2; // the state was not explored in this scope
  // codes <= -3: nothing permitted is up; reason(code) says why

  CdgExplorer(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
              std::int64_t hop_limit);
  ~CdgExplorer();
  void begin_scope();
  void walk(std::int64_t src, std::int64_t dst);
  int vcs() const;
  std::int64_t injection_next(std::int64_t src) const; // after walk(src, dst) in this scope
  std::int64_t next(std::int64_t vertex) const;
  std::int64_t vertex_node(std::int64_t vertex) const; // the chip a packet holding it is at
  const std::string& reason(std::int64_t code) const;
  // Raw views of next() and vertex_node() for the hot loop (valid until the next walk).
  struct Tables {
    const std::int64_t* next;
    const std::uint32_t* next_stamp;
    std::uint32_t stamp;
    const std::int64_t* channel_dst;
    int vcs;
    std::int64_t next_of(std::int64_t v) const {
      return next_stamp[v] == stamp ? next[v] : kUnknown;
    }
    std::int64_t node_of(std::int64_t v) const { return channel_dst[v / vcs]; }
  };
  Tables tables() const;
  // Adds the dependencies another explorer of the same routing found (parallel walks merge).
  void absorb(const CdgExplorer& other);
  CdgSummary summary() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

CdgSummary check_deadlock(const RoutingFunction& fn, const topo::Network& n, const topo::Faults& f,
                          std::int64_t hop_limit);

} // namespace icnkit::route
