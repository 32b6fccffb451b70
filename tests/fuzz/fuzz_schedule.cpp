// Fuzz target: the schedule section, read with the fingerprints made to match, then what
// coll-sched --check and net-sim do with it on small networks: verify it (delivery of every
// block, no hop over a failed link, no shared directed link), and only if it verifies expand it
// into flows and simulate it, with its closed form; then write the report and read it back. A
// schedule between ranks (stages) is verified against the document's routing and simulated over
// it.
#include "coll/closed_form.hpp"
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/rank_program.hpp"
#include "coll/verify.hpp"
#include "doc/document.hpp"
#include "fuzz.hpp"
#include "sim/analytic.hpp"

using namespace icnkit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::with_fingerprints(fuzz::text_of(data, size));
  Document d;
  if (!fuzz::attempt([&] { d = parse_document(text, "fuzz"); })) return 0;
  if (!d.network || !d.schedule || d.network->nodes.size() > fuzz::kMaxReplayNodes) return 0;
  const topo::Network& n = *d.network;
  const topo::Faults& f = d.faults_or_none();
  if (d.schedule->stages) {
    // Between ranks: verified against the routing, then simulated over its spreads.
    if (!d.routing) return 0;
    std::unique_ptr<route::RoutingFunction> fn;
    if (!fuzz::attempt([&] { fn = route::make_routing(*d.routing, n, f); })) return 0;
    if (!fuzz::attempt([&] {
          coll::verify_ranks(*d.schedule, n, f, *fn, ErrorKind::Input, "fuzz:/schedule");
        }))
      return 0;
    fuzz::attempt([&] {
      coll::RankProgram prog(*d.schedule, n, f, *fn);
      const std::vector<char> down = f.down_links(n);
      sim::AnalyticOptions opt;
      opt.down_links = &down;
      sim::AnalyticResult r = sim::simulate_analytic(prog, n, opt);
      Document out = d;
      out.report = sim::make_analytic_report(r, "schedule", d.schedule->collective,
                                             d.schedule->algorithm, coll::group_size(*d.schedule),
                                             d.schedule->bytes_per_node, n.fingerprint, true);
      const std::string written = dump_document(out, false);
      fuzz::must("reading back net-sim's output", [&] { parse_document(written, "sim"); });
    });
    return 0;
  }
  if (!fuzz::attempt([&] { coll::verify(*d.schedule, n, f, ErrorKind::Input, "fuzz:/schedule"); }))
    return 0;
  fuzz::attempt([&] {
    coll::ScheduleProgram prog(*d.schedule, n);
    const std::vector<char> down = f.down_links(n);
    sim::AnalyticOptions opt;
    opt.down_links = &down;
    sim::AnalyticResult r = sim::simulate_analytic(prog, n, opt);
    Document out = d;
    out.report =
        sim::make_analytic_report(r, "schedule", d.schedule->collective, d.schedule->algorithm,
                                  n.n_chip, d.schedule->bytes_per_node, n.fingerprint, true);
    if (auto cf = coll::closed_form(*d.schedule, n, f)) {
      out.report->closed_form_s = cf->time_s;
      out.report->closed_form_formula = cf->formula;
    }
    const std::string written = dump_document(out, false);
    fuzz::must("reading back net-sim's output", [&] { parse_document(written, "sim"); });
  });
  return 0;
}
