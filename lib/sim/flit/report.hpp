// What a flit-level run records in the document's `report` section and in its CSV rows.
// Figures are in cycles and flits, and their keys say so (latency_cycles,
// accepted_flits_per_node_cycle, ...).
#pragma once
#include "sim/flit/run.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim::flit {

// One directed channel's use (net-sim --link-stats): the link it belongs to, its direction
// (from -> to) and its utilisation (flit mode: flits per cycle; analytic: bytes / (bandwidth x
// completion time)). Reports list every live channel in channel-id order.
struct ChannelUse {
  std::int64_t link = 0, from = 0, to = 0;
  double utilisation = 0;
};
// Every live channel's use, from per-channel utilisations indexed by channel id (links marked
// in `down` are left out).
std::vector<ChannelUse> channel_uses(const std::vector<double>& utilisation, const topo::Network& n,
                                     const std::vector<char>& down);

struct FlitPoint {
  double rate = 0, offered = 0, accepted = 0;
  LatencyStats latency;
  double network_latency_mean = 0, hops_mean = 0;
  std::int64_t cycles = 0;
  std::string status = "ok", status_detail;
  std::vector<WaitHop> deadlock_cycle;
  std::int64_t packets_measured = 0;
  // Packets of the window not generated: addressed to a failed chip (packets_to_failed), or
  // between live chips the routing does not connect (the rest).
  std::int64_t packets_not_generated = 0, packets_to_failed = 0;
  std::int64_t backlog_growth = 0; // the most a source queue grew over the window, packets
  double link_util_max = 0, link_util_mean = 0; // flits per cycle per live channel, in the window
  std::optional<std::vector<ChannelUse>> channels; // --link-stats
};

struct FlitReport {
  std::string traffic;                // pattern name
  std::vector<std::int64_t> hotspots; // hotspot traffic
  double hotspot_fraction = 0;
  std::string routing;                   // the routing section's algorithm
  std::string router_preset = "booksim"; // what the parameters started from
  RouterParams router;
  std::string link_latency; // how link latencies were set, in words
  int link_latency_max_cycles = 1;
  int packet_flits = 1;
  std::int64_t flit_bytes = 16;
  std::int64_t warmup_cycles = 0, measure_cycles = 0;
  std::uint64_t seed = 0;
  std::int64_t n_nodes = 0;               // live chips
  std::optional<double> zero_load_cycles; // the model's closed form for this traffic
  bool sweep = false;                     // several rates: `points`; else the one point inline
  std::vector<FlitPoint> points;
  struct Saturation {
    double rate = 0;             // the estimate: the middle of the bracket
    double highest_stable = 0;   // the bracket the search ended with
    double lowest_saturated = 0; //
    double zero_load = 0;        // the measured zero-load latency the criterion used
  };
  std::optional<Saturation> saturation; // --find-saturation
  std::string network_fingerprint;
};

// A schedule or all-to-all replayed flit by flit (net-sim --mode flit on a schedule, or with
// --traffic all-to-all*): what the sim::Report's `replay` object records beside the times.
struct ReplayInfo {
  std::string routing; // "schedule" (the schedule's own hops) or the routing section's algorithm
  std::string router_preset = "booksim";
  RouterParams router;
  std::string link_latency;
  int link_latency_max_cycles = 1;
  std::int64_t packet_bytes = 512, flit_bytes = 32;
  double cycle_s = 0; // one flit per cycle on the fastest link: flit_bytes / its bandwidth
  std::int64_t cycles = 0, packets = 0, flits = 0, flit_hops = 0;
  double latency_mean = 0, network_latency_mean = 0; // cycles
  std::int64_t latency_max = 0;
  std::int64_t peak_flows = 0; // flows in flight at once, the most
  std::string status = "ok";   // ok | deadlock
  std::string status_detail;
};
FlitPoint make_point(const RunResult& r, const topo::Network& n, const std::vector<char>& down,
                     bool link_stats);

// The CSV form: one header line, one row per point; a --find-saturation report adds the
// search's result to every row (saturation_rate, highest_stable_rate, lowest_saturated_rate,
// zero_load_latency_cycles).
std::string flit_csv_header(const FlitReport& r);
std::string flit_csv_rows(const FlitReport& r);

} // namespace icnkit::sim::flit
