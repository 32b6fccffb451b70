// What a flit-level run records in the document's `report` section and in its CSV rows.
// Figures are in cycles and flits, and their keys say so (latency_cycles,
// accepted_flits_per_node_cycle, ...).
#pragma once
#include "core/json_reader.hpp"
#include "sim/flit/run.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim::flit {

struct FlitPoint {
  double rate = 0, offered = 0, accepted = 0;
  LatencyStats latency;
  double network_latency_mean = 0, hops_mean = 0;
  std::int64_t cycles = 0;
  std::string status = "ok", status_detail;
  std::vector<WaitHop> deadlock_cycle;
  std::int64_t packets_measured = 0, packets_not_generated = 0;
  std::int64_t backlog_growth = 0; // the most a source queue grew over the window, packets
  double link_util_max = 0, link_util_mean = 0; // flits per cycle per live channel, in the window
  struct ChannelUse {
    std::int64_t link = 0, from = 0, to = 0;
    double utilisation = 0;
  };
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

FlitPoint make_point(const RunResult& r, const topo::Network& n, const std::vector<char>& down,
                     bool link_stats);

json to_json(const FlitReport& r);
FlitReport parse_flit_report(ObjReader& r); // strict, as every section

// The CSV form: one header line, one row per point.
std::string flit_csv_header();
std::string flit_csv_rows(const FlitReport& r);

} // namespace icnkit::sim::flit
