// The generated network: chips and switches, links (a multigraph), the physical hierarchy
// chip -> board -> rack -> pod, and the metrics. Plus the faults section that rides with it.
#pragma once
#include "core/json.hpp" // Metrics::family_attrs is a JSON object
#include "topo/context.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::topo {

enum class NodeKind { Chip, Switch };

// Tiers of the spec's hardware model (@tbl-spec-topo-09): 6 chip, 7 board, 8 rack, 9 pod, 10 = 9+.
struct Node {
  std::int64_t id = 0;
  NodeKind kind = NodeKind::Chip;
  int tier = 6;
  std::int64_t board = -1; // chips: their board; switches: -1
  std::int64_t rack = -1;  // chips: their board's rack; rack switches: their rack; else -1
  std::int64_t pod = -1;   // chips and rack/pod switches: their pod; datacenter switches: -1
  std::vector<int> coord;  // families with coordinates (torus: x0, x1, ...; hyperx switches)
  // Switches only: what the switch is in its family ("leaf", "spine", "tor", "aggregation",
  // "core", "router", "switch") and how many link ends it has room for (its physical ports:
  // the family's radix times the lanes of each port, see topo/boards.hpp).
  std::string role;
  std::int64_t ports = 0;
};

// A full-duplex link between nodes a and b. bandwidth is per direction.
// dim/dir: for coordinate families, the dimension and +1 when a -> b is the + direction.
struct Link {
  std::int64_t id = 0;
  std::int64_t a = 0, b = 0;
  LinkKind kind = LinkKind::C2C;
  int dim = -1;
  int dir = 0;
  double bandwidth_bytes_per_s = 0;
  double latency_s = 0;
};

// Directed channels: link l carries channel 2l (a -> b) and 2l+1 (b -> a).
inline std::int64_t channel_of(std::int64_t link, bool forward) {
  return 2 * link + (forward ? 0 : 1);
}
inline std::int64_t link_of_channel(std::int64_t ch) {
  return ch / 2;
}
inline bool channel_forward(std::int64_t ch) {
  return ch % 2 == 0;
}

struct Board {
  std::int64_t id = 0;
  std::int64_t rack = 0;
  std::vector<std::int64_t> chips;
};
struct Rack {
  std::int64_t id = 0;
  std::int64_t pod = 0;
  std::vector<std::int64_t> boards;
};
struct Pod {
  std::int64_t id = 0;
  std::vector<std::int64_t> racks;
};

// The metrics of the surviving network when there are faults: failed links, failed chips and
// every link of a failed chip removed (topo/metrics.hpp, degraded_metrics). The figures of
// Metrics itself stay those of the fault-free (nominal) network.
struct DegradedMetrics {
  std::int64_t surviving_chips = 0;
  std::int64_t surviving_links = 0;
  bool connected = true;                // every surviving chip reaches every other
  std::optional<std::int64_t> diameter; // between surviving chips; none when not connected
  std::string diameter_method;          // "exact" | "lower-bound"
  std::int64_t path_diversity = 0;      // 0 when not connected
  std::string path_diversity_method;    // "exact" | "upper-bound"
  double bisection_bandwidth_bytes_per_s = 0;
  std::int64_t bisection_links = 0;
  std::string bisection_bandwidth_method; // "exact" | "heuristic" (an upper bound)
};

// What the network costs to buy and draws (topo/cost.hpp computes it from a price table).
// Ports and cables are counted in units of their speed class (a link faster than the table's
// fastest row counts several).
struct Cost {
  double capex_usd = 0, watts = 0;
  double switches_usd = 0, nics_usd = 0, cables_usd = 0;
  std::int64_t switch_ports = 0, nic_ports = 0;
  std::int64_t traces = 0, copper = 0, optics = 0;
  std::string table; // "default" or the table's file
};

struct Metrics {
  std::int64_t diameter = 0; // hops
  double bisection_bandwidth_bytes_per_s = 0;
  std::int64_t bisection_links = 0;
  std::string bisection_bandwidth_method; // "exact" | "closed-form" | "heuristic"
  std::int64_t link_count = 0;
  std::int64_t switch_count = 0;
  std::int64_t path_diversity = 0;
  std::int64_t derived_chips_per_board = 0;
  json family_attrs = json::object();
  std::optional<DegradedMetrics> degraded; // with faults only
  std::optional<Cost> cost;                // topo-gen's cost table
};

struct Network {
  std::string family;
  std::int64_t n_chip = 0;
  std::int64_t chip_radix = 1; // from the context; bounds link multiplicity
  std::vector<Node> nodes;     // chips 0..n_chip-1, then switches
  std::vector<Link> links;     // dense ids 0..L-1
  std::vector<Board> boards;
  std::vector<Rack> racks;
  std::vector<Pod> pods;
  Metrics metrics;
  std::string fingerprint; // XXH3-64 of nodes, links and faults (see fingerprint())

  std::int64_t channel_count() const { return 2 * static_cast<std::int64_t>(links.size()); }
  std::int64_t channel_src(std::int64_t ch) const {
    const Link& l = links[static_cast<std::size_t>(link_of_channel(ch))];
    return channel_forward(ch) ? l.a : l.b;
  }
  std::int64_t channel_dst(std::int64_t ch) const {
    const Link& l = links[static_cast<std::size_t>(link_of_channel(ch))];
    return channel_forward(ch) ? l.b : l.a;
  }
};

// A NIC link: one end a chip, the other a switch, and not a scale-up link (kind c2c: a chip's
// own SerDes into its scale-up switch, as NVLink into NVSwitch). What the cost model prices as
// a NIC port and what `--link-bw nic=...` / `--link-latency nic=...` set.
inline bool is_nic_link(const Network& n, std::int64_t a, std::int64_t b, LinkKind k) {
  const bool chip_a = n.nodes[static_cast<std::size_t>(a)].kind == NodeKind::Chip;
  const bool chip_b = n.nodes[static_cast<std::size_t>(b)].kind == NodeKind::Chip;
  return chip_a != chip_b && k != LinkKind::C2C;
}

// Failed links and chips, and why. A failed chip takes all its links down.
struct FailedLink {
  std::int64_t link = 0;
  std::string cause; // "explicit" | "random" | "ocs" | "switch" | "nic"
};
struct FailedChip {
  std::int64_t chip = 0;
  std::string cause;
};
struct Faults {
  std::vector<FailedLink> links; // sorted by link id, unique
  std::vector<FailedChip> chips; // sorted by chip id, unique
  std::optional<std::uint64_t> random_seed;
  std::vector<std::int64_t> ocs;      // failed OCSes (0..47, topo/faults.hpp), sorted, unique
  std::vector<std::int64_t> switches; // failed switches (node ids), sorted, unique: every link
                                      // of each is failed, cause "switch"

  bool empty() const { return links.empty() && chips.empty(); }
  // Per-link "down" flags: failed links plus every link of a failed chip.
  std::vector<char> down_links(const Network& n) const;
  std::vector<char> down_chips(const Network& n) const;
};

// XXH3-64 over the canonical content of nodes, links and faults (fixed-width fields).
std::string fingerprint(const Network& n, const Faults* f);

} // namespace icnkit::topo
