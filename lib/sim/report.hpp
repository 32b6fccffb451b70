// The `report` section net-sim writes: completion time, algorithm and bus bandwidth, per-phase
// times and link utilisation of one simulated run, plus its one-row CSV form.
#pragma once
#include "sim/flit/report.hpp"
#include "topo/network.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::sim {

// The kinds of lower bound a report names (coll/bound.hpp computes them; the reader accepts
// exactly these).
inline constexpr const char* kBoundInjection = "injection";
inline constexpr const char* kBoundInjectionInNetwork = "injection (in-network)";
inline constexpr const char* kBoundBisection = "bisection";
inline constexpr const char* kBoundCut = "cut";
inline constexpr std::array<const char*, 4> kBoundKinds = {
    kBoundInjection, kBoundInjectionInNetwork, kBoundBisection, kBoundCut};

struct AnalyticResult;
class Program;
namespace flit {
struct ReplayResult;
}

struct PhaseTime {
  std::string name;
  std::int64_t steps = 0;
  double start_s = 0, end_s = 0, time_s = 0; // time_s = end_s - start_s
};

// Per directed channel: bytes carried / (bandwidth * completion time).
struct LinkUtilisation {
  double max = 0;
  double mean = 0;      // over every directed channel of a live link, idle ones included
  double mean_busy = 0; // over the channels that carried bytes
  std::int64_t live_channels = 0, busy_channels = 0;
  std::optional<std::vector<flit::ChannelUse>> channels; // every live channel (--link-stats)
};

struct Report {
  std::string mode = "analytic"; // "analytic" | "flit"
  std::string source;            // "schedule" (coll-sched's steps) | "traffic" (--traffic)
  std::string collective;        // "all-to-all", ...
  std::string algorithm;         // the schedule's, or "hardware-routing:<routing algorithm>"
  std::string dim_scheduling;    // the schedule's; empty for --traffic
  std::string traffic;           // --traffic (all-to-all, all-to-all-pairwise, ...); empty else
  std::int64_t n_nodes = 0;      // chips taking part
  std::int64_t bytes_per_node = 0;
  double time_s = 0;
  double algbw_bytes_per_s = 0; // bytes_per_node / time_s (nccl-tests)
  double busbw_bytes_per_s = 0; // algbw * (n - 1) / n (nccl-tests; 2 (n - 1) / n all-reduce)
  std::vector<PhaseTime> phases;
  LinkUtilisation link_utilisation;
  std::string latency_model;
  // The analytic expectation (coll/closed_form.hpp) when the configuration has one.
  std::optional<double> closed_form_s;
  std::string closed_form_formula;
  // A lower bound on the collective's time (coll/bound.hpp) and what it bounds: "injection"
  // (per-rank bytes over its live link bandwidth; "injection (in-network)" where switches
  // reduce), "bisection" (all-to-all) or "cut" (all-gather, reduce-scatter). efficiency =
  // bound / time.
  std::optional<double> bound_s;
  std::string bound_kind; // one of kBoundKinds
  std::int64_t steps = 0, flows = 0, events = 0;
  // Per step (start_s, end_s), only when asked for (net-sim --step-times).
  std::optional<std::vector<std::pair<double, double>>> step_times;
  std::string network_fingerprint;
  // mode "flit", source "traffic": the flit-level study, which is then the whole section.
  std::optional<flit::FlitReport> flit;
  // mode "flit" on a schedule or an all-to-all baseline (a replay): the flit figures.
  std::optional<flit::ReplayInfo> replay;
};

// Fills a report from an analytic run; algbw/busbw follow the nccl-tests conventions.
Report make_analytic_report(const AnalyticResult& r, std::string source, std::string collective,
                            std::string algorithm, std::int64_t n_nodes,
                            std::int64_t bytes_per_node, std::string network_fingerprint,
                            bool step_times);

// Fills a report from a flit-level replay of `program` on network `n` (times: cycles x
// info.cycle_s; link utilisation: flits per cycle per live channel over the flits per cycle its
// link carries, 1 on the fastest).
Report make_replay_report(const flit::ReplayResult& r, const Program& program,
                          flit::ReplayInfo info, std::string source, std::string collective,
                          std::string algorithm, std::int64_t n_nodes, std::int64_t bytes_per_node,
                          const topo::Network& n, const std::vector<char>& down_links,
                          bool step_times);

// net-sim --link-stats: lists every live channel's utilisation in s.link_utilisation.channels
// (analytic: bytes / (bandwidth x completion time); replay: flits per cycle over its link's).
void add_link_stats(Report& s, const AnalyticResult& r, const topo::Network& n,
                    const std::vector<char>& down_links);
void add_link_stats(Report& s, const flit::ReplayResult& r, const topo::Network& n,
                    const std::vector<char>& down_links);

// What made a run, beyond the report itself: the configuration a CSV row carries so that rows
// of a sweep can be told apart and merged without parsing file names.
struct RunConfig {
  std::string candidate;   // the network's candidate id (torus:4x4x4/b2x2x2), or ""
  std::string family;      // the network's
  std::int64_t n_chip = 0; //
  double link_bandwidth_bytes_per_s = 0, link_latency_s = 0; // the first link's
  std::int64_t failed_links = 0, failed_chips = 0;           //
  std::string faults_digest; // XXH3-64 of the failed link and chip ids, "" without faults
  std::string routing;       // the routing section's algorithm, or ""
  int chunks = 0;            // the schedule's, 0 without one
  std::string latency;       // per-step | astra | flit
};
RunConfig run_config(const Report& r, const topo::Network& n, const topo::Faults& f,
                     std::string candidate, std::string routing, int chunks);

// CSV with friendly units: exactly one header line and one data row (each ending in '\n'); the
// report's columns first, then the run's configuration.
std::string csv_header();
std::string csv_row(const Report& s, const RunConfig& c = {});

// nccl-tests' table (its alltoall_perf / all_reduce_perf layout, out-of-place columns only):
// a commented header naming what ran, one row per report — size (B), count (float elements),
// type, redop, root, time (us), algbw and busbw (GB/s = 1e9 B/s), #wrong (N/A: nothing is
// checked) — and the average bus bandwidth, as nccl-tests prints them.
std::string nccl_header(const Report& first, const topo::Network& n);
std::string nccl_row(const Report& s);
std::string nccl_footer(double mean_busbw_bytes_per_s);

} // namespace icnkit::sim
