#include "doc/report_rows.hpp"

namespace icnkit {

sim::RunConfig report_config(const Document& d, const sim::Report& r) {
  return sim::run_config(r, *d.network, d.faults_or_none(), d.candidate ? d.candidate->id : "",
                         d.routing ? d.routing->algorithm : "",
                         r.source == "schedule" && d.schedule ? d.schedule->chunks : 0);
}

std::string report_csv(const std::vector<sim::Report>& reps, const Document& d, bool header) {
  std::string out = header ? sim::csv_header() : "";
  for (const sim::Report& r : reps) out += sim::csv_row(r, report_config(d, r));
  return out;
}

std::string report_nccl(const std::vector<sim::Report>& reps, const topo::Network& n) {
  std::string out = sim::nccl_header(reps.front(), n);
  double busbw = 0;
  for (const sim::Report& r : reps) {
    out += sim::nccl_row(r);
    busbw += r.busbw_bytes_per_s;
  }
  return out + sim::nccl_footer(busbw / static_cast<double>(reps.size()));
}

} // namespace icnkit
