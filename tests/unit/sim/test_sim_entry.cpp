// lib/sim's entry points (sim/run_analytic.hpp, sim/flit/replay_run.hpp): a schedule at its own
// size and at others, the same figures as its program simulated directly; the replay's reports
// seen one by one; the sections they need named at the document's source, not at an option.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "core/error.hpp"
#include "sim/analytic.hpp"
#include "sim/flit/replay_run.hpp"
#include "sim/run_analytic.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>

using namespace icnkit;

namespace {

coll::Schedule halfring(const topo::Network& net, std::int64_t bytes) {
  coll::Request req;
  req.algorithm = "halfring";
  req.dim_scheduling = "dimrotation";
  req.bytes_per_node = bytes;
  return coll::generate(req, net, {});
}

std::string where_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.where();
  }
  return "";
}

} // namespace

TEST_CASE("run_analytic: the schedule's program simulated at each size", "[sim][entry]") {
  const topo::Network net = test::torus_of("4x4");
  const topo::Faults none;
  const coll::Schedule s = halfring(net, 1 << 20);
  sim::AnalyticRunOptions o;
  o.sizes = {0, 1 << 16};
  const std::vector<sim::Report> reps = sim::run_analytic(net, none, nullptr, &s, o);
  REQUIRE(reps.size() == 2);
  const coll::ScheduleProgram whole(s, net);
  const sim::AnalyticResult direct = sim::simulate_analytic(whole, net);
  CHECK(reps[0].time_s == direct.time_s);
  CHECK(reps[0].bytes_per_node == 1 << 20);
  CHECK(reps[0].closed_form_s.has_value());
  CHECK(reps[0].bound_s.has_value());
  const coll::Schedule small = coll::with_bytes(s, 1 << 16);
  CHECK(reps[1].time_s == sim::simulate_analytic(coll::ScheduleProgram(small, net), net).time_s);
  CHECK(reps[1].bytes_per_node == 1 << 16);
}

TEST_CASE("run_replay: a report per size, each seen as it is made", "[sim][entry][flit]") {
  const topo::Network net = test::torus_of("4x4");
  const topo::Faults none;
  const coll::Schedule s = halfring(net, 1 << 14);
  sim::flit::ReplayRunOptions o;
  o.router.endpoint_ports = 0;
  o.sizes = {0, 1 << 15};
  o.threads = 1;
  std::vector<std::int64_t> seen;
  const std::vector<sim::Report> reps = sim::flit::run_replay(
      net, none, nullptr, &s, o, [&](const sim::Report& r) { seen.push_back(r.bytes_per_node); });
  REQUIRE(reps.size() == 2);
  CHECK(seen == std::vector<std::int64_t>{1 << 14, 1 << 15});
  for (const sim::Report& r : reps) {
    CHECK(r.mode == "flit");
    REQUIRE(r.replay);
    CHECK(r.replay->status == "ok");
    CHECK(r.replay->routing == "schedule");
    CHECK(r.time_s > 0);
  }
  CHECK(reps[1].time_s > reps[0].time_s);
}

TEST_CASE("the entry points name a missing section at the document", "[sim][entry]") {
  const topo::Network net = test::torus_of("4x4");
  const topo::Faults none;
  sim::AnalyticRunOptions a;
  a.source = "doc.json";
  CHECK(where_of([&] { sim::run_analytic(net, none, nullptr, nullptr, a); }) ==
        "doc.json:/schedule");
  a.baseline = sim::AllToAllPattern::Simultaneous;
  a.traffic = "all-to-all";
  a.sizes = {1 << 20};
  CHECK(where_of([&] { sim::run_analytic(net, none, nullptr, nullptr, a); }) ==
        "doc.json:/routing");
  sim::flit::ReplayRunOptions r;
  r.source = "doc.json";
  CHECK(where_of([&] { sim::flit::run_replay(net, none, nullptr, nullptr, r); }) ==
        "doc.json:/schedule");
  r.baseline = sim::AllToAllPattern::Pairwise;
  CHECK(where_of([&] { sim::flit::run_replay(net, none, nullptr, nullptr, r); }) ==
        "doc.json:/routing");
}
