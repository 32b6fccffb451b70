// A flit-level study of a network under synthetic traffic, from what a document holds (network,
// faults, routing section) and the options net-sim takes: one rate, a sweep of rates or a search
// for the saturation rate, recorded as a FlitReport.
#pragma once
#include "route/routing_section.hpp"
#include "sim/flit/report.hpp"
#include "sim/pattern.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim::flit {

// How link latencies in cycles are set: as BookSim times its topologies (1 cycle, 2 on a torus
// or ring, whose folded layout makes every link two router pitches long), one fixed figure, or
// from the document's latency_s at the clock of one flit per cycle on the fastest link.
enum class LinkLatencyRule { Booksim, Fixed, Document };
struct LinkLatencySpec {
  LinkLatencyRule rule = LinkLatencyRule::Booksim;
  int cycles = 1; // Fixed
};
// Parses booksim | document | CYCLES (Error(Usage) at `where`).
LinkLatencySpec parse_link_latency(const std::string& text, const std::string& where);
// Per link, and a description in words.
std::vector<int> link_latencies(const topo::Network& n, const LinkLatencySpec& s,
                                std::int64_t flit_bytes, std::string* description);

// "0.05:0.5:0.05" (from:to:step, both ends included) or "0.1,0.2,0.3"; Error(Usage) at `where`.
std::vector<double> parse_rates(const std::string& text, const std::string& where);

struct StudyOptions {
  RouterParams router = booksim_preset();
  std::string preset = "booksim";
  LinkLatencySpec link_latency;
  std::int64_t flit_bytes = 16;
  PatternSpec pattern;
  TrafficParams traffic;
  MeasureParams measure;
  std::vector<double> sweep; // several rates; empty: traffic.rate only
  bool find_saturation = false;
  double saturation_resolution = 0.005;
  double saturation_latency_factor = 3; // latency >= factor x zero-load latency: saturated
  double zero_load_rate = 0.01;
  int threads = 1;
};

// Builds the engine for the network and its routing and runs the study (links slower than the
// fastest paced: engine.hpp).
FlitReport run_study(const topo::Network& n, const topo::Faults& f,
                     const route::RoutingSection& routing, const StudyOptions& o,
                     Progress* progress = nullptr);

// The mean zero-load latency of the pattern over the routing's paths (the model's closed form,
// sim/flit/run.hpp zero_load_cycles), or nothing above `max_chips` chips.
std::optional<double> pattern_zero_load(const Fabric& f, const Pattern& p,
                                        const std::vector<int>& link_latency, int packet_flits,
                                        std::int64_t max_chips = 1024);

} // namespace icnkit::sim::flit
