// The `routing` section of the document: which algorithm with which parameters, its VC count,
// what the verification found (deadlock check, reachability under faults, hop statistics), and
// the network it was computed for.
#pragma once
#include "core/json.hpp" // RoutingSection::params is a JSON object

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::route {

// One channel of a dependency cycle: the packet holds it while waiting for the next one.
struct CycleHop {
  std::int64_t from = 0, to = 0; // chips
  std::int64_t link = 0;
  int vc = 0;
};

// The channel-dependency graph built from the routes actually taken.
struct CdgSummary {
  std::int64_t vertices = 0; // (channel, vc) pairs some route uses
  std::int64_t edges = 0;    // distinct dependencies between them
  // Walks stopped by the hop limit (a livelock guard; 0 for any minimal routing).
  std::int64_t walks_over_hop_limit = 0;
  std::optional<std::vector<CycleHop>> cycle; // one cycle, when the graph has one
};

struct UnreachablePair {
  std::int64_t src = 0, dst = 0;
  std::string reason;
};

struct HopStats {
  double mean = 0; // over delivered pairs
  std::int64_t max = 0;
  std::vector<std::int64_t> histogram; // histogram[h] = delivered pairs with h hops
  // Path stretch: hops over the fault-free shortest path (same transit rule), over delivered
  // pairs; non_minimal_pairs took more hops than that.
  double stretch_mean = 1;
  double stretch_max = 1;
  std::int64_t non_minimal_pairs = 0;
};

// Uniform all-to-all link load (route/load.hpp), when asked for (topo-route --load).
struct LoadSummary {
  // "all-to-all" (every ordered pair of distinct chips one unit), or a synthetic pattern
  // (sim/pattern.hpp: uniform, transpose, ...) whose loads are per unit of injection per chip.
  std::string traffic = "all-to-all";
  double max = 0, mean = 0;   // per directed channel, in those units
  std::int64_t max_link = -1; // the busiest channel's link, from and to chips or switches
  std::int64_t max_from = -1, max_to = -1;
  // The injection per chip, in link bandwidths, that fills the busiest channel: (N-1) / max for
  // all-to-all, 1 / max for a pattern (flits per node per cycle at one flit per link per cycle).
  double throughput_bound = 0;
  bool split_exact = true;
};

inline constexpr std::size_t kMaxListedUnreachable = 100;

struct Verification {
  bool deadlock_free = true; // the CDG is acyclic
  CdgSummary cdg;
  std::int64_t hop_limit = 0;               // walks longer than this count as loops
  std::int64_t pairs = 0;                   // ordered pairs of distinct live chips (the demand)
  std::int64_t unreachable_pairs = 0;       // pairs the routing does not deliver
  std::vector<UnreachablePair> unreachable; // the first kMaxListedUnreachable, by (src, dst)
  HopStats hops;
  std::optional<LoadSummary> load;
};

// Explicit routing output on request (topo-route --emit): per-node next-hop tables (the first
// permitted channel from a packet injected there, per destination chip; -1: none) or every
// pair's path as channel ids.
struct Emitted {
  std::vector<std::vector<std::int64_t>> tables; // [node][dst]
  struct PairPath {
    std::int64_t src = 0, dst = 0;
    std::vector<std::int64_t> channels;
    std::vector<int> vcs;
  };
  std::vector<PairPath> paths;
};

struct RoutingSection {
  std::string algorithm;
  // Complete parameters (defaults filled in), validated by the algorithm's registry entry.
  json params = json::object();
  std::int64_t vc_count = 1;
  std::optional<Verification> verification; // optional in hand-written documents
  std::optional<Emitted> emitted;
  std::string network_fingerprint;
};

} // namespace icnkit::route
