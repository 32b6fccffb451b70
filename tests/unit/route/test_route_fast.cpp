// The symmetric verification and load of DOR on a torus (route/dor_symmetry.hpp) against the
// straightforward all-pairs computation (verify_routing_all_pairs(), uniform_load_all_pairs()):
// the routing section they write must be the same to the byte, and the load of every channel
// the same number, on tori of 2 to 4 dimensions, odd and even rings, every DOR option that
// changes the routes or the VCs (ties, datelines, dimension orders, a routing with a cycle), with
// no fault, one failed link and several. Where the symmetric path does not apply it must say so.
// The path is reached as verify_routing() and uniform_load() reach it: through the analysis the
// routing function registers (RoutingFunction::symmetric_analysis(), route/symmetric.hpp).
#include "route/dor_symmetry.hpp"
#include "route/load.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"
#include "route/symmetric.hpp"
#include "route/verify.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <random>
#include <set>

using namespace icnkit;
using namespace icnkit::route;

using namespace icnkit::test::routing;

namespace {

// The analysis a routing function registers; it must have one.
std::shared_ptr<const SymmetricAnalysis> analysis(const RoutingFunction& fn) {
  auto a = fn.symmetric_analysis();
  REQUIRE(a != nullptr);
  return a;
}

void same_as_all_pairs(const topo::Network& n, const json& params, const topo::Faults& f) {
  auto fn = build("dor", n, f, params);
  const auto fast = analysis(*fn)->verify(n, f);
  REQUIRE(fast.has_value());
  const Verification ref = verify_routing_all_pairs(*fn, n, f);
  CHECK(section_text(*fast, "dor") == section_text(ref, "dor"));
  // What topo-route calls takes the symmetric path.
  CHECK(section_text(verify_routing(*fn, n, f), "dor") == section_text(ref, "dor"));

  const auto load = analysis(*fn)->uniform_load(n, f);
  REQUIRE(load.has_value());
  const LoadReport lr = uniform_load_all_pairs(*fn, n, f, ref.hop_limit);
  CHECK(load->channel_load == lr.channel_load);
  CHECK(load->max_load == lr.max_load);
  CHECK(load->mean_load == lr.mean_load);
  CHECK(load->max_channel == lr.max_channel);
  CHECK(load->throughput_bound == lr.throughput_bound);
  CHECK(load->split_exact == lr.split_exact);
}

const std::vector<std::vector<int>> kShapes = {{8, 3},       {7, 2},         {4, 4},    {3, 6},
                                               {2, 5},       {4, 4, 4},      {5, 4, 3}, {2, 3, 4},
                                               {3, 2, 2, 4}, {3, 2, 2, 2, 2}};

std::vector<json> params_for(std::size_t dims) {
  std::vector<int> reversed;
  for (std::size_t d = dims; d-- > 0;) reversed.push_back(static_cast<int>(d));
  return {json::object(),
          {{"tie", "plus"}},
          {{"dateline", false}},
          {{"tie", "plus"}, {"dateline", false}}, // a dependency cycle on even rings
          {{"dateline_vc", "whole-dimension"}},
          {{"dimension_order", reversed}, {"tie", "plus"}}};
}

} // namespace

TEST_CASE("DOR symmetric verification = all pairs, fault-free", "[route][route-fast]") {
  for (const auto& S : kShapes) {
    const auto n = torus(S);
    for (const json& p : params_for(S.size())) {
      INFO("shape " << json(S).dump() << " params " << p.dump());
      same_as_all_pairs(n, p, {});
    }
  }
}

TEST_CASE("DOR symmetric verification = all pairs, failed links", "[route][route-fast]") {
  for (const auto& S : kShapes) {
    const auto n = torus(S);
    for (int count : {1, 3}) {
      for (unsigned seed : {1u, 2u}) {
        const topo::Faults f = failed_links(n, count, seed);
        for (const json& p : params_for(S.size())) {
          INFO("shape " << json(S).dump() << " params " << p.dump() << " failed links " << count
                        << " seed " << seed);
          same_as_all_pairs(n, p, f);
        }
      }
    }
  }
}

TEST_CASE("DOR symmetric verification: a failed link's cycle and unreachable list",
          "[route][route-fast]") {
  // 6x6 with --no-dateline --tie plus has cycles in every ring; the failed link (chip 0's in
  // dimension 0) takes dependencies out of the first ring the cycle search visits, so the cycle
  // reported depends on the failed link being accounted for exactly.
  const auto n = torus({6, 6});
  topo::Faults f;
  f.links.push_back({0, "explicit"});
  auto fn = build("dor", n, f, {{"tie", "plus"}, {"dateline", false}});
  const auto fast = analysis(*fn)->verify(n, f);
  REQUIRE(fast.has_value());
  CHECK_FALSE(fast->deadlock_free);
  CHECK(fast->unreachable_pairs > 0);
  CHECK(fast->unreachable.size() ==
        std::min<std::size_t>(kMaxListedUnreachable,
                              static_cast<std::size_t>(fast->unreachable_pairs)));
  CHECK(section_text(*fast, "dor") == section_text(verify_routing_all_pairs(*fn, n, f), "dor"));
}

TEST_CASE("DOR symmetric verification applies only where it is exact", "[route][route-fast]") {
  const auto n = torus({4, 4});
  // A failed chip: the all-pairs path.
  topo::Faults chips;
  chips.chips.push_back({5, "explicit"});
  auto fn = build("dor", n, chips, json::object());
  CHECK_FALSE(analysis(*fn)->verify(n, chips).has_value());
  CHECK_FALSE(analysis(*fn)->uniform_load(n, chips).has_value());
  // The typed entry points say the same.
  const auto& dor = dynamic_cast<const DorRouting&>(*fn);
  CHECK_FALSE(verify_dor_symmetric(dor, n, chips).has_value());
  CHECK_FALSE(uniform_load_dor_symmetric(dor, n, chips).has_value());
  // Another routing function on the same torus: it registers no analysis.
  const topo::Faults links = failed_links(n, 1, 7);
  auto wfr = build("wfr", n, links, json::object());
  CHECK(wfr->symmetric_analysis() == nullptr);
  // DOR on a mesh (another class): none either.
  const auto m = test::grid_network("mesh", {4, 4}, {1, 1});
  auto mesh_dor = build("dor", m, {}, json::object());
  CHECK(mesh_dor->symmetric_analysis() == nullptr);
}

namespace {

// A routing function that registers a stand-in analysis: verify_routing() and uniform_load() must
// take its answer when it gives one and walk every pair when it declines, whatever the algorithm.
class Registered final : public RoutingFunction {
public:
  Registered(const RoutingFunction& inner, bool applies) : inner_(inner), applies_(applies) {}
  int vc_count() const override { return inner_.vc_count(); }
  bool source_independent() const override { return inner_.source_independent(); }
  std::vector<Choice> route(const PacketState& p) const override { return inner_.route(p); }
  std::shared_ptr<const SymmetricAnalysis> symmetric_analysis() const override {
    return std::make_shared<Marker>(applies_);
  }

private:
  class Marker final : public SymmetricAnalysis {
  public:
    explicit Marker(bool applies) : applies_(applies) {}
    std::optional<Verification> verify(const topo::Network&, const topo::Faults&) const override {
      if (!applies_) return std::nullopt;
      Verification v;
      v.hop_limit = 12345;
      return v;
    }
    std::optional<LoadReport> uniform_load(const topo::Network&,
                                           const topo::Faults&) const override {
      if (!applies_) return std::nullopt;
      LoadReport r;
      r.max_load = 12345;
      return r;
    }

  private:
    bool applies_;
  };
  const RoutingFunction& inner_;
  bool applies_;
};

} // namespace

TEST_CASE("verify_routing and uniform_load run the analysis the routing registers",
          "[route][route-fast]") {
  const auto n = torus({4, 3});
  auto wfr = build("wfr", n, {}, json::object());
  const Verification ref = verify_routing_all_pairs(*wfr, n, {});
  const LoadReport ref_load = uniform_load_all_pairs(*wfr, n, {}, ref.hop_limit);

  const Registered taken(*wfr, true);
  CHECK(verify_routing(taken, n, {}).hop_limit == 12345);
  CHECK(uniform_load(taken, n, {}, ref.hop_limit).max_load == 12345);

  const Registered declined(*wfr, false);
  CHECK(section_text(verify_routing(declined, n, {}), "wfr") == section_text(ref, "wfr"));
  CHECK(uniform_load(declined, n, {}, ref.hop_limit).channel_load == ref_load.channel_load);
}
