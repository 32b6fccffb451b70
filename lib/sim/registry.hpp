// What net-sim can simulate, described once: its modes (with their latency models) and its
// synthetic traffic patterns. net-sim's --describe derives from these lists.
#pragma once
#include "core/json_reader.hpp"
#include "sim/traffic.hpp"

#include <string>
#include <vector>

namespace icnkit::sim {

struct ModeInfo {
  std::string name; // --mode
  std::string summary;
  std::string latency_model; // what a report of this mode records as latency_model
  bool implemented = false;
};

struct TrafficInfo {
  std::string name; // --traffic
  std::string summary;
  std::string reference;
  AllToAllPattern pattern = AllToAllPattern::Simultaneous;
};

const std::vector<ModeInfo>& modes();
const std::vector<TrafficInfo>& traffic_patterns();

// Everything above as one JSON object (net-sim --describe).
json describe();

} // namespace icnkit::sim
