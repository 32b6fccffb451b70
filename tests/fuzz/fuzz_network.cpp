// Fuzz target: the network section (and faults), read with its fingerprint made to match so
// that mutations reach the validation (invariants, the family's structure, faults), then what
// the tools do with a network they accepted, on small ones: topo-gen keeps it and adds faults,
// computes the degraded metrics and exports it in every format; topo-route builds a routing
// (each algorithm in turn, by the input's hash) and verifies it; coll-sched schedules a
// collective on it (one algorithm, collective and dimension scheduling, by the hash).
#include "coll/generate.hpp"
#include "coll/registry.hpp"
#include "doc/document.hpp"
#include "fuzz.hpp"
#include "route/load.hpp"
#include "route/registry.hpp"
#include "route/verify.hpp"
#include "topo/export.hpp"
#include "topo/faults.hpp"
#include "topo/metrics.hpp"

#include <functional>

using namespace icnkit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::with_fingerprints(fuzz::text_of(data, size));
  Document d;
  if (!fuzz::attempt([&] { d = parse_document(text, "fuzz"); })) return 0;
  if (!d.network || d.network->nodes.size() > fuzz::kMaxReplayNodes) return 0;
  const std::size_t h = std::hash<std::string>{}(text);
  const topo::Network& n = *d.network;

  // topo-gen -i DOC --fail-random-links K: the network kept, faults added.
  fuzz::attempt([&] {
    topo::FaultRequest fr;
    fr.random_links = static_cast<std::int64_t>(h % 3);
    fr.seed = h;
    topo::Faults f = topo::make_faults(n, fr, d.faults ? &*d.faults : nullptr);
    Document out = d;
    out.faults.reset();
    if (!f.empty()) out.faults = f;
    refresh_fingerprint(out);
    if (out.faults) out.network->metrics.degraded = topo::degraded_metrics(n, *out.faults);
    const std::string written = dump_document(out, false);
    fuzz::must("reading back topo-gen's output", [&] { parse_document(written, "gen"); });
  });
  for (auto fmt : {topo::ExportFormat::NetworkX, topo::ExportFormat::GraphML,
                   topo::ExportFormat::Dot, topo::ExportFormat::BookSim}) {
    std::vector<std::string> notes;
    fuzz::must("export",
               [&] { topo::export_network(n, d.faults ? &*d.faults : nullptr, fmt, &notes); });
  }

  // topo-route --algorithm A (defaults), then verification and --load.
  const topo::Faults& f = d.faults_or_none();
  const auto& algs = route::algorithms();
  const route::Algorithm& a = algs[h % algs.size()];
  fuzz::attempt([&] {
    route::ParamErrors cli{ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }};
    json params = route::complete_params(a, json::object(), cli);
    route::require_connected(n, f);
    route::Built b = a.build(params, n, f, cli);
    route::Verification v = route::verify_routing(*b.fn, n, f);
    route::uniform_load(*b.fn, n, f, v.hop_limit);
  });

  // coll-sched --collective C --algorithm A --dims S --bytes 1MiB.
  // The algorithms with a torus form (those between ranks need the routing this target omits).
  std::vector<const coll::AlgorithmInfo*> calgs;
  for (const auto& a : coll::algorithms())
    if (a.torus) calgs.push_back(&a);
  const coll::AlgorithmInfo& ca = *calgs[(h / 7) % calgs.size()];
  const auto& dims = coll::dim_schedulings();
  coll::Request req;
  req.algorithm = ca.name;
  req.collective = ca.torus->collectives[(h / 61) % ca.torus->collectives.size()];
  req.dim_scheduling = dims[(h / 257) % dims.size()].name;
  req.bytes_per_node = 1 << 20;
  fuzz::attempt([&] {
    Document out = d;
    out.schedule = coll::generate(req, n, f);
    const std::string written = dump_document(out, false);
    fuzz::must("reading back coll-sched's output", [&] { parse_document(written, "sched"); });
  });
  return 0;
}
