// A short text summary of a document's newest section, for people: what `--format table` prints
// and what every tool prints when its standard output is a terminal (JSON stays the default into
// a pipe or a file). One renderer per section:
// - candidates: the context, then one row per candidate (id, status, the closed-form diameter,
//   links and switches, chips per board, the sort key's value when sorted, warnings);
// - network: the family, counts (chips, boards, racks, pods, switches, links by kind with their
//   speed), metrics (diameter, path diversity, bisection, cost), faults and degraded metrics;
// - routing: the algorithm, VCs, the verdicts (deadlock freedom, unreachable pairs), hops and
//   stretch, the load bound when computed;
// - schedule: the collective, algorithm, bytes, steps and the verification's verdict;
// - report: time, algorithm and bus bandwidth, the bound and the efficiency against it, the
//   phases; for synthetic flit traffic the latency and throughput per rate, and the saturation.
// The figures are the document's own (rounded for reading); nothing is recomputed.
#pragma once
#include "doc/document.hpp"

#include <string>

namespace icnkit {

enum class SummarySection { Candidates, Network, Routing, Schedule, Report };

// The summary of section `s` of `d`; Error(Input) naming the section when `d` does not have it.
std::string summary_text(const Document& d, SummarySection s);

} // namespace icnkit
