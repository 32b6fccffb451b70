// The simulation report's JSON (the `report` section: an analytic or replayed run, or a flit-level
// study), written as the document holds it and read back strictly. The types are lib/sim's
// (sim/report.hpp, sim/flit/report.hpp), which knows no JSON text.
#pragma once
#include "core/json_reader.hpp"
#include "sim/report.hpp"

#include <string>
#include <vector>

namespace icnkit::sim::flit {

json channels_json(const std::vector<ChannelUse>& v);
std::vector<ChannelUse> parse_channels(ObjReader& r, const std::string& key); // strict

json to_json(const ReplayInfo& r);
ReplayInfo parse_replay_info(ObjReader& r); // strict

// The router's parameters as reports hold them (and back, strictly).
json router_json(const RouterParams& p, const std::string& preset, const std::string& link_latency,
                 int link_latency_max_cycles);
RouterParams parse_router(ObjReader& ro, std::string& preset, std::string& link_latency,
                          int& link_latency_max_cycles);

json to_json(const FlitReport& r);
FlitReport parse_flit_report(ObjReader& r); // strict, as every section

} // namespace icnkit::sim::flit

namespace icnkit::sim {

json to_json(const Report& s);
Report parse_report(ObjReader& r); // strict: unknown keys and impossible values are errors

} // namespace icnkit::sim
