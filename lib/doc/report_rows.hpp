// A document's simulation reports as rows: CSV, each row with the configuration of its run (the
// network's candidate, the routing, the schedule's chunks), or nccl-tests' table.
#pragma once
#include "doc/document.hpp"
#include "sim/report.hpp"

#include <string>
#include <vector>

namespace icnkit {

// The configuration of report `r`'s run on document `d` (which holds the network), for its row.
sim::RunConfig report_config(const Document& d, const sim::Report& r);
// A CSV row per report (sim::csv_row), after the header if `header`.
std::string report_csv(const std::vector<sim::Report>& reps, const Document& d, bool header);
// nccl-tests' table of the reports (at least one): header, a row each, the mean bus bandwidth.
std::string report_nccl(const std::vector<sim::Report>& reps, const topo::Network& n);

} // namespace icnkit
