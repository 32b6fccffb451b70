// Fuzz target: the report section, read with the fingerprints made to match. What a tool does
// with a report it accepted: write it (JSON, and net-sim's CSV row); what was written must read
// back to the same report.
#include "doc/document.hpp"
#include "doc/sim_json.hpp"
#include "fuzz.hpp"

using namespace icnkit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::with_fingerprints(fuzz::text_of(data, size));
  Document d;
  if (!fuzz::attempt([&] { d = parse_document(text, "fuzz"); })) return 0;
  if (!d.report) return 0;
  fuzz::must("net-sim's CSV of an accepted report", [&] { sim::csv_row(*d.report); });
  json j;
  fuzz::must("writing an accepted report", [&] { j = sim::to_json(*d.report); });
  fuzz::must("reading back a written report", [&] {
    ObjReader r(j, "written", "/report");
    if (sim::to_json(sim::parse_report(r)) != j)
      fuzz::finding("a written report changes when read and written again");
  });
  return 0;
}
