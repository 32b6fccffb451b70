// What net-sim can simulate, described once: its modes (with their latency models and the
// traffic each takes) and the analytic mode's all-to-all baselines; the flit mode's synthetic
// patterns are sim/pattern.hpp's registry. net-sim's --describe derives from these lists.
#pragma once
#include "core/json_reader.hpp"
#include "sim/traffic.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icnkit::sim {

struct ModeInfo {
  std::string name; // --mode
  std::string summary;
  std::string latency_model; // how time or latency is modelled (the default)
  std::string alternative;   // another model --latency-model selects, or empty
  std::string input;         // what it simulates
};

struct TrafficInfo {
  std::string name; // --traffic (analytic mode)
  std::string summary;
  std::string reference;
  AllToAllPattern pattern = AllToAllPattern::Simultaneous;
};

const std::vector<ModeInfo>& modes();
// The analytic mode's --traffic baselines.
const std::vector<TrafficInfo>& traffic_patterns();
// The baseline of traffic_patterns() called `name`, or nothing.
std::optional<AllToAllPattern> baseline_by_name(const std::string& name);

// Everything above, the flit patterns and the CSV columns of each mode as one JSON object
// (net-sim --describe).
json describe();

} // namespace icnkit::sim
