// lib/coll: the Ring all-to-all plan, the schedule section, exact delivery verification (and
// that it catches injected bugs), the expansion into simulator flows, the registry.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "coll/registry.hpp"
#include "coll/ring.hpp"
#include "coll/rings.hpp"
#include "coll/schedule.hpp"
#include "coll/verify.hpp"
#include "doc/coll_json.hpp"
#include "doc/document.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"
#include "topo/torus_geometry.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <set>

using namespace icnkit;
using namespace icnkit::coll;

namespace {

topo::Network make_torus(std::vector<int> S, std::vector<int> B) {
  std::int64_t n = 1, cpb = 1;
  for (int s : S) n *= s;
  for (int b : B) cpb *= b;
  topo::Candidate c;
  c.family = "torus";
  c.id = topo::torus_candidate_id({S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  c.n_endpoint = n;
  c.derived_chips_per_board = cpb;
  topo::Context ctx;
  ctx.n_chip = n;
  ctx.chips_per_board_max = 16;
  topo::Network net = topo::generate(ctx, c, {});
  net.fingerprint = topo::fingerprint(net, nullptr);
  return net;
}

Schedule ring_schedule(const topo::Network& net, std::int64_t bytes,
                       const topo::Faults& faults = {}) {
  Request req;
  req.bytes_per_node = bytes;
  return generate(req, net, faults);
}

// The error a callable throws (kind and message), or fails the test.
std::pair<ErrorKind, std::string> error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.kind(), std::string(e.where()) + ": " + e.what()};
  }
  FAIL("no error thrown");
  return {ErrorKind::Runtime, ""};
}

Schedule reparse(const json& j) {
  ObjReader r(j, "test", "/schedule");
  return parse_schedule(r);
}

} // namespace

TEST_CASE("ring plan: N(N-1)/2 steps of one clockwise and one anticlockwise half block", "[coll]") {
  for (int n = 1; n <= 17; ++n) {
    RingPlan plan = ring_all_to_all_plan(n);
    REQUIRE(plan.size() == static_cast<std::size_t>(n * (n - 1) / 2));
    for (auto& step : plan) {
      REQUIRE(step.size() == 2);
      CHECK(step[0].direction == 1);
      CHECK(step[1].direction == -1);
      for (auto& t : step) {
        CHECK(t.fraction == Fraction{1, 2});
        CHECK(!t.rings);
        CHECK(t.origin_offset >= 0);
        CHECK(t.origin_offset < n);
        CHECK(t.dest_offset >= 0);
        CHECK(t.dest_offset < n);
      }
    }
  }
  // N = 4, stage 2 (steps 1 and 2): the cw half of B[o][o+2] goes o -> o+1 -> o+2.
  RingPlan p4 = ring_all_to_all_plan(4);
  CHECK(p4[1][0].origin_offset == 0);
  CHECK(p4[1][0].dest_offset == 2);
  CHECK(p4[2][0].origin_offset == 3); // sender i forwards what came from i-1
  CHECK(p4[2][0].dest_offset == 1);
}

TEST_CASE("ring all-to-all verifies on several tori, odd and size-2 dimensions included",
          "[coll]") {
  struct Case {
    std::vector<int> S, B;
  };
  for (auto& c : std::vector<Case>{{{4, 4, 4}, {2, 2, 2}},
                                   {{8, 4, 4}, {2, 2, 2}},
                                   {{5, 5, 5}, {1, 1, 1}},
                                   {{2, 4}, {1, 1}},
                                   {{3, 5}, {1, 1}},
                                   {{2, 2, 2}, {1, 1, 1}},
                                   {{6, 3, 4}, {1, 1, 1}}}) {
    INFO("torus " << c.S[0] << "x" << c.S[1]);
    topo::Network net = make_torus(c.S, c.B);
    Schedule s = ring_schedule(net, 64 << 20);
    REQUIRE(s.verification);
    CHECK(s.verification->delivered);
    std::int64_t steps = 0, rings = 0, pieces = 0, hops = 0;
    for (int n : c.S) {
      steps += n * (n - 1) / 2;
      rings += net.n_chip / n;
      pieces += (net.n_chip / n) * n * n;
      hops += static_cast<std::int64_t>(n * (n - 1) / 2) * 2 * net.n_chip;
    }
    CHECK(s.step_count() == steps);
    CHECK(s.verification->rings_checked == rings);
    CHECK(s.verification->pieces_checked == pieces);
    CHECK(s.verification->hop_transfers_checked == hops);
    CHECK(s.phases.size() == c.S.size());
    for (std::size_t d = 0; d < c.S.size(); ++d) {
      CHECK(s.phases[d].dimension == static_cast<int>(d));
      CHECK(s.phases[d].steps.size() == static_cast<std::size_t>(c.S[d] * (c.S[d] - 1) / 2));
    }
    CHECK(s.network_fingerprint == net.fingerprint);
  }
}

TEST_CASE("every directed ring link carries exactly one S/(2N) piece per step", "[coll]") {
  topo::Network net = make_torus({4, 4, 4}, {2, 2, 2});
  const std::int64_t S = 64 << 20;
  Schedule s = ring_schedule(net, S);
  ScheduleProgram prog(s, net);
  REQUIRE(prog.phases() == std::vector<std::string>{"dim0", "dim1", "dim2"});
  REQUIRE(prog.steps().size() == 18);
  sim::StepFlows f;
  std::map<std::int64_t, double> per_channel_total;
  for (std::size_t k = 0; k < prog.steps().size(); ++k) {
    const auto& info = prog.steps()[k];
    CHECK(info.phase == static_cast<int>(k / 6));
    if (k % 6 == 0 && k > 0)
      CHECK(info.after == std::vector<std::int64_t>{static_cast<std::int64_t>(k - 1)});
    prog.flows(k, f);
    REQUIRE(f.flows.size() == 128); // 64 chips x 2 directions
    std::map<std::int64_t, int> uses;
    for (auto& fl : f.flows) {
      REQUIRE(fl.count == 1);
      std::int64_t ch = f.channels[fl.first];
      CHECK(net.channel_src(ch) == fl.src);
      CHECK(net.channel_dst(ch) == fl.dst);
      CHECK(net.links[static_cast<std::size_t>(topo::link_of_channel(ch))].dim == info.phase);
      CHECK(fl.bytes == static_cast<double>(S) / (2 * 4));
      uses[ch]++;
      per_channel_total[ch] += fl.bytes;
    }
    // Every directed link of the phase's dimension exactly once: 64 chips x 2 directions.
    CHECK(uses.size() == 128);
    for (auto& [ch, u] : uses) CHECK(u == 1);
  }
  // Over a phase each directed link carries N(N-1)/2 pieces of S/(2N) = (N-1) S / 4 bytes.
  REQUIRE(per_channel_total.size() == static_cast<std::size_t>(net.channel_count()));
  for (auto& [ch, b] : per_channel_total) CHECK(b == 3.0 * S / 4);
}

TEST_CASE("expand: a size-2 dimension uses both parallel links, rings subsets are honoured",
          "[coll]") {
  topo::Network net = make_torus({2, 4}, {1, 1});
  Schedule s = ring_schedule(net, 4096);
  ScheduleProgram prog(s, net);
  sim::StepFlows f;
  prog.flows(0, f); // dimension 0, size 2: one step, both halves
  REQUIRE(f.flows.size() == 16);
  std::set<std::int64_t> links;
  for (auto& fl : f.flows) {
    links.insert(topo::link_of_channel(f.channels[fl.first]));
    CHECK(fl.bytes == 4096.0 / 4);
  }
  CHECK(links.size() == 8); // all dimension-0 links: two between every pair
  // Restrict a transfer to ring 1 of dimension 1 (chips with x = 1): 4 flows.
  Schedule t = s;
  t.phases[1].steps[0].transfers[0].rings = std::vector<std::int64_t>{1};
  ScheduleProgram prog2(t, net);
  prog2.flows(1, f);
  REQUIRE(f.flows.size() == 4 + 8);
  DimRings r(topo::TorusGeometry::of(net, "test"), 1);
  for (int i = 0; i < 4; ++i) CHECK(f.flows[static_cast<std::size_t>(i)].src == r.chip(1, i));
}

TEST_CASE("verification catches injected bugs", "[coll]") {
  topo::Network net = make_torus({4, 4, 4}, {2, 2, 2});
  const Schedule good = ring_schedule(net, 1 << 20);
  const topo::Faults none;
  auto input_error = [&](const Schedule& s, const topo::Faults& f = {}) {
    auto [kind, msg] = error_of([&] { verify(s, net, f, ErrorKind::Input); });
    CHECK(kind == ErrorKind::Input);
    return msg;
  };
  REQUIRE_NOTHROW(verify(good, net, none, ErrorKind::Input));

  SECTION("a dropped transfer") {
    Schedule s = good;
    s.phases[1].steps[3].transfers.erase(s.phases[1].steps[3].transfers.begin());
    std::string msg = input_error(s);
    CHECK(msg.find("/schedule/phases/1") != std::string::npos);
  }
  SECTION("every single dropped transfer of the first phase") {
    for (std::size_t k = 0; k < good.phases[0].steps.size(); ++k)
      for (std::size_t t = 0; t < 2; ++t) {
        Schedule s = good;
        auto& tr = s.phases[0].steps[k].transfers;
        tr.erase(tr.begin() + static_cast<std::ptrdiff_t>(t));
        input_error(s);
      }
  }
  SECTION("a transfer limited to some rings") {
    Schedule s = good;
    s.phases[2].steps[5].transfers[1].rings = std::vector<std::int64_t>{0, 1, 2};
    CHECK(input_error(s).find("not delivered") != std::string::npos);
  }
  SECTION("a piece forwarded before it arrived (store-and-forward)") {
    Schedule s = good;
    std::swap(s.phases[0].steps[1].transfers, s.phases[0].steps[2].transfers);
    CHECK(input_error(s).find("holds only") != std::string::npos);
  }
  SECTION("a whole block where half was sent") {
    Schedule s = good;
    s.phases[0].steps[0].transfers[0].fraction = {1, 1};
    input_error(s);
  }
  SECTION("a wrong direction") {
    Schedule s = good;
    s.phases[0].steps[4].transfers[0].direction = -1;
    s.phases[0].steps[4].shared_links = true; // so the delivery check, not contention, fires
    input_error(s);
  }
  SECTION("two transfers on one directed link") {
    Schedule s = good;
    s.phases[0].steps[4].transfers[0].direction = -1;
    CHECK(input_error(s).find("two transfers") != std::string::npos);
  }
  SECTION("a transfer over a failed link") {
    topo::FaultRequest fr;
    fr.links = {"(1,1,0)-(2,1,0)"};
    topo::Faults f = topo::make_faults(net, fr);
    std::string msg = input_error(good, f);
    CHECK(msg.find("failed link") != std::string::npos);
  }
  SECTION("a failed chip") {
    topo::FaultRequest fr;
    fr.chips = {"5"};
    topo::Faults f = topo::make_faults(net, fr);
    CHECK(input_error(good, f).find("has failed") != std::string::npos);
  }
  SECTION("steps of a chunk not ordered") {
    Schedule s = good;
    s.phases[0].steps[3].after.clear();
    CHECK(input_error(s).find("does not wait") != std::string::npos);
  }
  SECTION("a phase missing, or a dimension twice") {
    Schedule s = good;
    s.phases[2].dimension = 1;
    s.phases[2].ring_size = 4;
    CHECK(input_error(s).find("one all-to-all phase along every dimension") != std::string::npos);
  }
  SECTION("a block size that does not match bytes_per_node") {
    Schedule s = good;
    s.bytes_per_node *= 2;
    CHECK(input_error(s).find("block_bytes") != std::string::npos);
  }
  SECTION("a ring size from another shape") {
    Schedule s = good;
    s.phases[0].ring_size = 8;
    input_error(s);
  }
  SECTION("our own generator's failures are internal errors") {
    Schedule s = good;
    s.phases[0].steps.pop_back();
    auto [kind, msg] = error_of([&] { verify(s, net, none, ErrorKind::Runtime); });
    CHECK(kind == ErrorKind::Runtime);
  }
}

TEST_CASE("schedule JSON round trip and strictness", "[coll]") {
  topo::Network net = make_torus({5, 2}, {1, 1});
  const Schedule s = ring_schedule(net, 8192); // 8192 / 5 / 2: fractional pieces
  json j = to_json(s);
  CHECK(j["step_count"] == 11);
  CHECK(j["phases"][0]["block_bytes"].get<double>() == 8192.0 / 5);
  CHECK(j["phases"][0]["steps"][0]["transfers"][0]["bytes"].get<double>() == 8192.0 / 10);
  CHECK(j["phases"][0]["steps"][0]["transfers"][0]["rings"] == "all");
  CHECK(j["phases"][0]["steps"][0]["transfers"][0]["fraction"] == "1/2");
  Schedule back = reparse(j);
  CHECK(back == s);
  CHECK(to_json(back).dump() == j.dump());
  // Through text too (doubles survive the round trip exactly).
  CHECK(reparse(json::parse(j.dump())) == s);

  auto bad = [&](const std::function<void(json&)>& edit) {
    json k = j;
    edit(k);
    auto [kind, msg] = error_of([&] { reparse(k); });
    CHECK(kind == ErrorKind::Input);
    return msg;
  };
  CHECK(bad([](json& k) { k["colour"] = 1; }).find("colour") != std::string::npos);
  CHECK(bad([](json& k) {
          k["phases"][0]["steps"][2]["transfers"][1]["hops"] = 2;
        }).find("/phases/0/steps/2/transfers/1") != std::string::npos);
  bad([](json& k) { k["phases"][0]["steps"][0]["typo"] = true; });
  bad([](json& k) { k["phases"][0]["x"] = true; });
  bad([](json& k) { k["verification"]["extra"] = 1; });
  bad([](json& k) { k.erase("bytes_per_node"); });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["fraction"] = "3/2"; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["fraction"] = "0"; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["fraction"] = "a/b"; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["fraction"] = "1/0"; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["bytes"] = 1.0; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["direction"] = 0; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["origin_offset"] = 5; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["rings"] = json::array(); });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["rings"] = "some"; });
  bad([](json& k) { k["phases"][0]["steps"][0]["transfers"][0]["rings"] = {2, 1}; });
  bad([](json& k) { k["phases"][0]["steps"][1]["after"] = {1}; }); // not earlier
  bad([](json& k) { k["phases"][0]["steps"][1]["id"] = 0; });      // duplicate id
  bad([](json& k) { k["step_count"] = 12; });                      // not dense
  bad([](json& k) { k["phases"][1]["name"] = "dim0"; });           // duplicate phase name
  bad([](json& k) { k["phases"][0]["chunk"] = 1; });               // chunk >= chunks
  bad([](json& k) { k["phases"][0]["block_bytes"] = -1; });
  bad([](json& k) { k["bytes_per_node"] = 0; });
  // A list of rings parses and round-trips.
  json k = j;
  k["phases"][0]["steps"][0]["transfers"][0]["rings"] = {0, 1};
  Schedule r = reparse(k);
  CHECK(r.phases[0].steps[0].transfers[0].rings == std::vector<std::int64_t>{0, 1});
  CHECK(to_json(r)["phases"][0]["steps"][0]["transfers"][0]["rings"] == json({0, 1}));
}

TEST_CASE("fractions are exact and strict", "[coll]") {
  CHECK(parse_fraction("2/4", "w") == Fraction{1, 2});
  CHECK(parse_fraction("1", "w") == Fraction{1, 1});
  CHECK(to_string(Fraction{3, 7}) == "3/7");
  CHECK(error_of([] { parse_fraction("-1/2", "w"); }).first == ErrorKind::Input);
  CHECK(error_of([] { parse_fraction("1/2/3", "w"); }).first == ErrorKind::Input);
  CHECK(error_of([] { parse_fraction("", "w"); }).first == ErrorKind::Input);
  CHECK(error_of([] { parse_fraction("1/4294967296", "w"); }).first == ErrorKind::Input);
}

TEST_CASE("the schedule rides in the document and is tied to its network", "[coll]") {
  topo::Network net = make_torus({4, 4}, {2, 2});
  Document d;
  d.network = net;
  d.schedule = ring_schedule(net, 1 << 16);
  std::string text = dump_document(d, false);
  Document back = parse_document(text, "test");
  REQUIRE(back.schedule);
  CHECK(*back.schedule == *d.schedule);
  REQUIRE_NOTHROW(verify(*back.schedule, *back.network, back.faults_or_none(), ErrorKind::Input));
  json j = json::parse(text);
  j["schedule"]["network_fingerprint"] = "0123456789abcdef";
  CHECK(error_of([&] { parse_document(j.dump(), "test"); }).first == ErrorKind::Input);
}

TEST_CASE("generate: registry names, collectives, faults", "[coll]") {
  topo::Network net = make_torus({4, 4}, {2, 2});
  Request req;
  req.bytes_per_node = 1024;
  req.algorithm = "halfring"; // all-to-all only; ring and foldedring also reduce
  for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
    req.collective = c;
    CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Infeasible);
  }
  req.algorithm = "ring";
  req.collective = "broadcast"; // a collective, which no ring serves
  CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Infeasible);
  req.collective = "scatter";
  CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Usage);
  req.collective = "all-to-all";
  req.algorithm = "doublering";
  auto [kind, msg] = error_of([&] { generate(req, net, {}); });
  CHECK(kind == ErrorKind::Usage);
  CHECK(msg.find("halfring") != std::string::npos);
  req.algorithm = "ring";
  req.dim_scheduling = "spiral";
  CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Usage);
  req.dim_scheduling = "dimrotation";
  req.chunks = 4; // dimrotation fixes its chunks
  CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Usage);
  req.dim_scheduling = "pipeline";
  req.chunks = 65;
  CHECK(error_of([&] { generate(req, net, {}); }).first == ErrorKind::Usage);
  req.chunks = 0;
  req.dim_scheduling = "sequential";
  topo::FaultRequest fr;
  fr.links = {"#3"};
  auto [k2, m2] = error_of([&] { generate(req, net, topo::make_faults(net, fr)); });
  CHECK(k2 == ErrorKind::Infeasible);
  CHECK(m2.find("link 3") != std::string::npos);
  CHECK(m2.find("foldedring") != std::string::npos);
  fr = {};
  fr.chips = {"2"};
  CHECK(error_of([&] { generate(req, net, topo::make_faults(net, fr)); }).first ==
        ErrorKind::Infeasible);
}

TEST_CASE("registry: one consistent list", "[coll]") {
  std::set<std::string> names;
  for (auto& a : algorithms()) {
    CHECK(names.insert(a.name).second);
    CHECK((a.torus || a.ranks)); // every entry runs somewhere
    if (a.torus) {
      CHECK(!a.torus->summary.empty());
      CHECK(!a.torus->reference.empty());
      CHECK(a.torus->plan != nullptr);
      for (auto& c : a.torus->collectives) CHECK_NOTHROW(require_collective(c, "test"));
    }
    if (a.ranks) {
      CHECK(!a.ranks->summary.empty());
      CHECK(!a.ranks->reference.empty());
      CHECK(a.ranks->refuses != nullptr);
      for (auto& c : a.ranks->collectives) CHECK_NOTHROW(require_collective(c, "test"));
    }
    // implements() is the union of the forms' collectives.
    for (auto& c : collectives())
      CHECK(a.implements(c.name) ==
            ((a.torus && a.torus->implements(c.name)) || (a.ranks && a.ranks->implements(c.name))));
  }
  for (auto& d : dim_schedulings()) CHECK(d.compose != nullptr);
  json j = describe();
  CHECK(j["algorithms"][0]["name"] == "ring");
  CHECK(j["algorithms"][0].contains("on_torus"));
  CHECK(j["algorithms"][0].contains("between_ranks"));
  CHECK(j["collectives"][0]["on_torus"] ==
        json({"ring", "halfring", "foldedring", "foldedring-ring", "mate", "matee"}));
  CHECK(j["collectives"][0]["between_ranks"] ==
        json({"direct", "bruck", "pairwise", "hierarchical"}));
  CHECK(j["collectives"][1]["on_torus"] == json({"ring", "foldedring"}));
  CHECK(j["dim_scheduling"][0]["name"] == "sequential");
  CHECK(torus_algorithm_names() == "ring, halfring, foldedring, foldedring-ring, mate, matee");
  CHECK(rank_algorithm_names() ==
        "ring, bidirectional-ring, direct, halving-doubling, bruck, pairwise, hierarchical, "
        "binomial, double-binary-tree, chain, in-network");
  CHECK(algorithm_names() ==
        "ring, bidirectional-ring, halfring, foldedring, foldedring-ring, mate, matee, direct, "
        "halving-doubling, bruck, pairwise, hierarchical, binomial, "
        "double-binary-tree, chain, in-network");
  // The lookups by form.
  CHECK(find_torus_algorithm("ring") == find_rank_algorithm("ring"));
  CHECK(find_torus_algorithm("direct") == nullptr);
  CHECK(find_rank_algorithm("halfring") == nullptr);
  CHECK(dim_scheduling_names() == "sequential, pipeline, dimrotation");
}

TEST_CASE("16x16x16 ring all-to-all: compact and verified", "[coll]") {
  topo::Network net = make_torus({16, 16, 16}, {2, 2, 2});
  Schedule s = ring_schedule(net, 64 << 20);
  CHECK(s.step_count() == 360);
  CHECK(s.verification->hop_transfers_checked == 360 * 8192);
  ScheduleProgram prog(s, net);
  sim::StepFlows f;
  prog.flows(359, f);
  CHECK(f.flows.size() == 8192);
}
