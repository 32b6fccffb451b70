#include "sim/registry.hpp"

#include "sim/analytic.hpp"
#include "sim/flit/report.hpp"
#include "sim/pattern.hpp"
#include "sim/report.hpp"

namespace icnkit::sim {

const std::vector<ModeInfo>& modes() {
  static const std::vector<ModeInfo> list = {
      {"analytic",
       "Flow-level: every transfer of a step is a flow over its links, sharing each directed "
       "channel max-min fairly (progressive filling, recomputed when a flow starts or drains); a "
       "step starts when the steps it depends on have finished. Reports completion time, "
       "per-phase times, algbw/busbw, link utilisation and the closed form where one exists.",
       std::string("per-step (default) = ") + kAnalyticLatencyModel,
       std::string("{latency_model} astra (schedules) = ") + kAstraLatencyModel,
       "the document's schedule (from coll-sched), or {traffic} with {bytes}: an all-to-all "
       "baseline over the routing"},
      {"flit",
       "Cycle-level: input-queued routers with virtual channels, credits and wormhole switching, "
       "separable iSLIP VC and switch allocation ({router} booksim: BookSim 2.0's router), driven "
       "by the routing section. Reports latency in cycles (mean, p50, p99, max), offered and "
       "accepted flits per node per cycle, and a status per rate: ok, saturated, or deadlock "
       "(a verdict: a warning, exit 4 under {strict}).",
       "cycles: packet latency from creation to the tail's arrival, network latency from the "
       "head's injection; each hop pays the router pipeline (routing, VC allocation, switch "
       "allocation, switch traversal) and the link's latency ({link_latency_cycles}), plus "
       "queueing in the VC buffers",
       "",
       "{traffic} PATTERN at {rate} R (or {sweep}, {find_saturation}) over the routing; or the "
       "document's schedule replayed packet by packet over its own hops ({packet_bytes}, "
       "{flit_bytes}), or {traffic} all-to-all* with {bytes} over the routing"},
  };
  return list;
}

const std::vector<TrafficInfo>& traffic_patterns() {
  static const std::vector<TrafficInfo> list = {
      {"all-to-all",
       "Every ordered pair of live chips sends bytes/n as one flow over its routed path, all at "
       "once (the optimistic hardware-routing baseline).",
       "", AllToAllPattern::Simultaneous},
      {"all-to-all-pairwise",
       "MPICH's pairwise exchange: n-1 rounds one after the other, rank i to i XOR k (n a power "
       "of two) or i+k mod n, a barrier between rounds (the pessimistic baseline).",
       "MPICH MPI_Alltoall, pairwise-exchange algorithm", AllToAllPattern::Pairwise},
      {"all-to-all-mpich",
       "MPICH's default choice by message size: all at once up to 32 KiB per pair, pairwise "
       "above (the MICRO'25 paper's DOR/WFR baseline).",
       "MPICH MPI_Alltoall, MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE = 32768", AllToAllPattern::Mpich},
  };
  return list;
}

std::optional<AllToAllPattern> baseline_by_name(const std::string& name) {
  for (const TrafficInfo& t : traffic_patterns())
    if (t.name == name) return t.pattern;
  return std::nullopt;
}

namespace {

// The column names of a CSV header line.
json columns_of(const std::string& header) {
  json names = json::array();
  std::string name;
  for (char ch : header)
    if (ch == ',' || ch == '\n') {
      if (!name.empty()) names.push_back(name);
      name.clear();
    } else {
      name += ch;
    }
  if (!name.empty()) names.push_back(name);
  return names;
}

} // namespace

json describe() {
  json ms = json::array(), ts = json::array();
  for (auto& m : modes()) {
    json e = {{"name", m.name}, {"summary", m.summary}, {"latency_model", m.latency_model}};
    if (!m.alternative.empty()) e["latency_model_alternative"] = m.alternative;
    e["simulates"] = m.input;
    ms.push_back(e);
  }
  for (auto& t : traffic_patterns()) {
    json e = {{"name", t.name}, {"summary", t.summary}, {"mode", "analytic, flit (replayed)"}};
    if (!t.reference.empty()) e["reference"] = t.reference;
    ts.push_back(e);
  }
  for (auto& p : patterns())
    ts.push_back({{"name", p.name}, {"summary", p.summary}, {"mode", "flit"}});
  // The CSV columns, from the writers' own headers (scripts/plot reads by these names).
  flit::FlitReport searched;
  searched.saturation = flit::FlitReport::Saturation{};
  const json csv = json::array(
      {{{"name", "analytic"},
        {"summary", "{format} csv of a simulated schedule, {traffic} or {sizes} (a flit replay "
                    "too): one row per run or size"},
        {"columns", columns_of(csv_header())}},
       {{"name", "flit"},
        {"summary", "{mode} flit {format} csv of synthetic traffic: one row per rate"},
        {"columns", columns_of(flit::flit_csv_header(flit::FlitReport{}))}},
       {{"name", "flit-saturation"},
        {"summary", "the same with {find_saturation}: the search's result added to every row"},
        {"columns", columns_of(flit::flit_csv_header(searched))}}});
  return {{"modes", ms}, {"traffic", ts}, {"csv_columns", csv}};
}

} // namespace icnkit::sim
