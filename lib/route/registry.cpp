#include "route/registry.hpp"

#include "route/dmodk.hpp"
#include "route/dor.hpp"
#include "route/dragonfly_min.hpp"
#include "route/hoe.hpp"
#include "route/hyperx_dor.hpp"
#include "route/minimal.hpp"
#include "route/rail.hpp"
#include "route/wfr.hpp"
#include "topo/torus_geometry.hpp"

#include <algorithm>

namespace icnkit::route {
namespace {

// DOR's parameters: JSON -> DorOptions, checked against the torus or mesh it will route.
Built build_dor(const json& params, const topo::Network& n, const topo::Faults&,
                const ParamErrors& err) {
  const Algorithm& self = *find_algorithm("dor");
  // The family check comes first: asking DOR of a fat-tree is infeasible whatever the options.
  const bool mesh = n.family == "mesh", hyperx = n.family == "hyperx";
  const int D = hyperx ? static_cast<int>(n.metrics.family_attrs.value("S", json::array()).size())
                : mesh ? topo::MeshGeometry::of(n, "DOR").dims()
                       : topo::TorusGeometry::of(n, "DOR").dims();
  DorOptions o;
  const json& order = params.at("dimension_order");
  if (order.is_null()) {
    for (int d = 0; d < D; ++d) o.dimension_order.push_back(d);
  } else {
    std::vector<int> seen(static_cast<std::size_t>(D), 0);
    const std::string what = std::string(mesh ? "mesh" : hyperx ? "HyperX" : "torus");
    for (const json& v : order) {
      std::int64_t d = v.get<std::int64_t>();
      if (d < 0 || d >= D || seen[static_cast<std::size_t>(d)]++)
        err.fail(*self.param("dimension_order"), "must be a permutation of 0.." +
                                                     std::to_string(D - 1) + " for this " +
                                                     std::to_string(D) + "-dimensional " + what);
      o.dimension_order.push_back(static_cast<int>(d));
    }
    if (static_cast<int>(o.dimension_order.size()) != D)
      err.fail(*self.param("dimension_order"), "must be a permutation of 0.." +
                                                   std::to_string(D - 1) + " for this " +
                                                   std::to_string(D) + "-dimensional " + what);
  }
  const std::string tie = params.at("tie").get<std::string>();
  if (tie == "parity")
    o.tie = Tie::Parity;
  else if (tie == "plus")
    o.tie = Tie::Plus;
  else
    err.fail(*self.param("tie"), "must be parity or plus");
  // A mesh has no wrap-around: no tie to break and no dateline (one VC).
  o.dateline = !mesh && params.at("dateline").get<bool>();
  const std::string dvc = params.at("dateline_vc").get<std::string>();
  if (dvc == "whole-dimension")
    o.dateline_vc = DatelineVc::WholeDimension;
  else if (dvc != "from-wrap")
    err.fail(*self.param("dateline_vc"), "must be from-wrap or whole-dimension");
  json canonical = {{"dimension_order", o.dimension_order},
                    {"tie", tie},
                    {"dateline", o.dateline},
                    {"dateline_vc", dvc}};
  // A HyperX's dimensions are complete graphs: no direction, no tie, no wrap, one VC.
  if (hyperx)
    return Built{std::make_unique<HyperxDorRouting>(n, o.dimension_order),
                 json{{"dimension_order", o.dimension_order}}};
  if (mesh) return Built{std::make_unique<MeshDorRouting>(n, o.dimension_order), canonical};
  return Built{std::make_unique<DorRouting>(n, o), canonical};
}

Built build_wfr(const json& params, const topo::Network& n, const topo::Faults& f,
                const ParamErrors& err) {
  if (n.family != "torus")
    fail_infeasible("/network/family", "WFR routes tori; this network is a " + n.family);
  json dor_params = params;
  dor_params["dateline"] = true;
  dor_params["dateline_vc"] = "from-wrap";
  Built dor = build_dor(dor_params, n, f, err);
  auto* d = static_cast<DorRouting*>(dor.fn.get());
  json canonical = {{"dimension_order", d->options().dimension_order},
                    {"tie", params.at("tie").get<std::string>()}};
  return Built{std::make_unique<WfrRouting>(n, f, d->options()), canonical};
}

Built build_odd_even(const json&, const topo::Network& n, const topo::Faults&, const ParamErrors&) {
  return Built{std::make_unique<OddEvenRouting>(n), json::object()};
}

Built build_fthoe(const json&, const topo::Network& n, const topo::Faults& f, const ParamErrors&) {
  return Built{std::make_unique<FthoeRouting>(n, f), json::object()};
}

Built build_minimal(const json& params, const topo::Network& n, const topo::Faults& f,
                    const ParamErrors&) {
  MinimalOptions o;
  const std::string paths = params.at("paths").get<std::string>();
  o.ecmp = paths != "first";
  o.random = paths == "random";
  o.hop_vcs = params.at("vc_scheme").get<std::string>() == "hops";
  json canonical = {{"paths", paths}, {"vc_scheme", o.hop_vcs ? "hops" : "none"}};
  return Built{std::make_unique<MinimalRouting>(n, f, o), canonical};
}

Built build_dmodk(const json&, const topo::Network& n, const topo::Faults&, const ParamErrors&) {
  return Built{std::make_unique<DmodkRouting>(n), json::object()};
}

Built build_rail(const json& params, const topo::Network& n, const topo::Faults& f,
                 const ParamErrors&) {
  const std::string path = params.at("rail_path").get<std::string>();
  return Built{
      std::make_unique<RailRouting>(n, f, path == "pxn" ? RailPath::Pxn : RailPath::RailAligned),
      json{{"rail_path", path}}};
}

Built build_dragonfly_min(const json&, const topo::Network& n, const topo::Faults&,
                          const ParamErrors&) {
  return Built{std::make_unique<DragonflyMinRouting>(n), json::object()};
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// A parameter taking one of `choices`, by default `def`: its default and its allowed values as
// people read them are those.
ParamSpec choice_param(std::string name, std::string meaning, const std::string& def,
                       std::vector<std::string> choices) {
  ParamSpec p;
  p.name = std::move(name);
  p.type = ParamType::Choice;
  p.meaning = std::move(meaning);
  p.default_value = json(def);
  p.default_text = def;
  p.allowed = join(choices, ", ");
  p.choices = std::move(choices);
  return p;
}

} // namespace

const ParamSpec* Algorithm::param(const std::string& n) const {
  for (auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const std::vector<Algorithm>& algorithms() {
  // The one list.
  static const std::vector<Algorithm> list = [] {
    std::vector<Algorithm> v;
    Algorithm dor;
    dor.name = "dor";
    dor.summary =
        "Dimension-order routing on the torus: finish the dimensions in a fixed order, each in its "
        "shortest direction, with dateline virtual channels against wrap-around deadlock; a ring "
        "is the torus of one dimension; on a mesh the same with one VC; on a HyperX one hop per "
        "differing dimension, one VC. "
        "Deterministic; does not route around faults.";
    dor.reference =
        "Dally & Seitz, Deadlock-Free Message Routing in Multiprocessor Interconnection Networks, "
        "IEEE TC 1987; tie by parity as TPU v4 (Jouppi et al., ISCA 2023; NSDI 2024)";
    dor.params = {
        {"dimension_order",
         ParamType::IntList,
         "order in which the dimensions are finished",
         json(nullptr),
         "0,1,...,D-1",
         {},
         "a permutation of 0..D-1",
         ""},
        choice_param("tie",
                     "direction on a half-way tie of an even ring: parity = + from an even "
                     "coordinate, - from an odd one (splits the traffic evenly); plus = always +",
                     "parity", {"parity", "plus"}),
        {"dateline",
         ParamType::Bool,
         "dateline VC classes on the torus: 2 VCs per channel, a packet moves to VC 1 on its "
         "dimension's wrap link (deadlock-free); false = 1 VC, which may deadlock (the checker "
         "says); a mesh has no wrap links and uses 1 VC either way",
         json(true),
         "true",
         {},
         "true, false",
         "Turn the dateline VCs off: 1 VC per channel instead of 2 dateline VC classes per "
         "dimension (VC 1 from the wrap link on); may deadlock, which the checker reports"},
        choice_param("dateline_vc",
                     "which hops of a dimension take dateline VC 1: from-wrap = the wrap hop and "
                     "those after it; whole-dimension = every hop of a dimension whose route wraps "
                     "(BookSim's dim_order_torus); both deadlock-free",
                     "from-wrap", {"from-wrap", "whole-dimension"}),
    };
    dor.build = build_dor;
    v.push_back(std::move(dor));

    Algorithm wfr;
    wfr.name = "wfr";
    wfr.summary =
        "TPU v4 wild-first routing on a torus with faults: DOR, except that a packet whose DOR "
        "path crosses a failed link takes one wild hop in the next dimension before the faulty "
        "one (on its own VC class), or the long way round when the last dimension is faulty; "
        "re-evaluated at every hop, so several faults are handled in turn.";
    wfr.reference = "Zu et al., Resiliency at Scale: Managing Google's TPUv4 ML Supercomputer, "
                    "NSDI 2024; as reimplemented by Qin et al., MICRO 2025 (artifact "
                    "outportComputeSANDWICH)";
    wfr.params = {v[0].params[0], v[0].params[1]}; // DOR's dimension_order and tie
    wfr.build = build_wfr;
    v.push_back(std::move(wfr));

    Algorithm odd_even;
    odd_even.name = "odd-even";
    odd_even.summary = "Chiu's odd-even turn model on 2-D meshes: minimal adaptive routing "
                       "without virtual channels (no EN/ES turn in even columns, no NW/SW turn "
                       "in odd columns).";
    odd_even.reference = "G.-M. Chiu, The Odd-Even Turn Model for Adaptive Routing, IEEE TPDS "
                         "11(7), 2000";
    odd_even.build = build_odd_even;
    v.push_back(std::move(odd_even));

    Algorithm fthoe;
    fthoe.name = "fthoe";
    fthoe.summary =
        "FTHOE on 2-D meshes: the Hamiltonian odd-even turn model (snake labels, routes that "
        "lower the label and then raise it) with the 4-bit local fault vector; minimal ports "
        "first, then a detour, always on HOE-legal turns toward a state from which a legal "
        "route exists; one VC.";
    fthoe.reference = "FTHOE: a Hamiltonian-driven fault-tolerant routing algorithm for "
                      "wafer-scale interconnection networks, FITEE 27(3), 2026; the fault "
                      "fallback (reachability DP over HOE-legal states) is icnkit's";
    fthoe.build = build_fthoe;
    v.push_back(std::move(fthoe));

    Algorithm minimal;
    minimal.name = "minimal";
    minimal.summary =
        "Shortest-path routing on any network, around faults: every live next hop one step closer "
        "to the destination (ECMP, adaptive) or the first of them; only switches forward where "
        "there are switches. Hop-count VC classes (hop k on VC k) make it deadlock-free on any "
        "graph.";
    minimal.reference = "Gunther, Prevention of Deadlocks in Packet-Switched Data Transport "
                        "Systems, IEEE Trans. Commun. 1981 (hop-count VC classes)";
    minimal.params = {
        choice_param("paths",
                     "which minimal next hops are permitted: ecmp = all, in channel order "
                     "(adaptive); random = all, one taken at random per packet and hop (oblivious; "
                     "BookSim's nca on a fat-tree); first = the first (deterministic)",
                     "ecmp", {"ecmp", "random", "first"}),
        choice_param(
            "vc_scheme",
            "VC classes: hops = the k-th hop on VC k (as many classes as the longest minimal path; "
            "deadlock-free); none = one VC (the checker says whether it deadlocks)",
            "hops", {"hops", "none"}),
    };
    minimal.build = build_minimal;
    v.push_back(std::move(minimal));

    Algorithm dmodk;
    dmodk.name = "dmodk";
    dmodk.summary =
        "D-mod-k on PGFT fat-trees: up-port floor(D / prod w p) mod (w p) of the level, down "
        "the unique way to D; deterministic, one VC; contention-free for shift permutations on "
        "full-bisection trees with one chip per board and on 2-layer ones (3-layer trees with "
        "parallel links are not). Does not route around faults.";
    dmodk.reference = "Zahavi, D-Mod-K Routing Providing Non-Blocking Traffic for Shift "
                      "Permutations on Real Life Fat Trees, CCIT 776, Technion 2010; SimGrid "
                      "FatTreeZone";
    dmodk.build = build_dmodk;
    v.push_back(std::move(dmodk));

    Algorithm dfmin;
    dfmin.name = "dragonfly-min";
    dfmin.summary =
        "The dragonfly's minimal routing (MIN): at most one global link - a local hop to a "
        "router with a global link to the destination's group, the global hop, a local hop to "
        "the destination's router; VC class 0 up to the global hop, 1 from it on (BookSim's "
        "min_dragonflynew). Deterministic; does not route around faults.";
    dfmin.reference = "Kim, Dally, Scott & Abts, Technology-Driven, Highly-Scalable Dragonfly "
                      "Topology, ISCA 2008; BookSim 2.0 dragonflynew";
    dfmin.build = build_dragonfly_min;
    v.push_back(std::move(dfmin));

    Algorithm rail;
    rail.name = "rail";
    rail.summary =
        "Composed networks (a scale-up domain in every node of a rail Clos): shortest scale-up "
        "paths inside a domain; between domains pxn (to the source domain's chip at the "
        "destination's position, then its NIC over the scale-out network) or rail-aligned (the "
        "source's own NIC to the destination domain's chip on that rail, then the scale-up "
        "domain). ECMP over equal choices, around faults; one VC; the only way across the rails "
        "of a rail-only network.";
    rail.reference = "NCCL PXN (PCI x NVLink, NCCL 2.12); Wang et al., Rail-only: A Low-Cost "
                     "High-Performance Network for Training LLMs with Trillion Parameters, 2023";
    rail.params = {
        choice_param(
            "rail_path",
            "how traffic between domains reaches the destination's rail: pxn = through the source "
            "domain's scale-up first; rail-aligned = on the source's rail, through the destination "
            "domain's scale-up last",
            "pxn", {"pxn", "rail-aligned"}),
    };
    rail.build = build_rail;
    v.push_back(std::move(rail));
    return v;
  }();
  return list;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (auto& a : algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

std::string algorithm_names() {
  std::vector<std::string> names;
  for (auto& a : algorithms()) names.push_back(a.name);
  return join(names, ", ");
}

const Algorithm& require_algorithm(const std::string& name, ErrorKind kind,
                                   const std::string& where) {
  if (const Algorithm* a = find_algorithm(name)) return *a;
  throw Error(kind, where,
              "unknown routing algorithm '" + name + "' (known: " + algorithm_names() + ")");
}

json read_params(const Algorithm& a, ObjReader& r) {
  json out = json::object();
  for (auto& p : a.params) {
    switch (p.type) {
    case ParamType::Bool: {
      auto b = r.boolean_opt(p.name);
      out[p.name] = b ? json(*b) : p.default_value;
      break;
    }
    case ParamType::Choice: {
      auto s = r.string_opt(p.name);
      if (s && std::find(p.choices.begin(), p.choices.end(), *s) == p.choices.end())
        r.fail(p.name, "'" + *s + "' is not one of " + p.allowed);
      out[p.name] = s ? json(*s) : p.default_value;
      break;
    }
    case ParamType::IntList: {
      if (r.has(p.name) && !r.raw(p.name).is_null())
        out[p.name] = r.int_list(p.name, 0, 1 << 20);
      else
        out[p.name] = p.default_value;
      break;
    }
    }
  }
  r.done();
  return out;
}

json complete_params(const Algorithm& a, const json& given, const ParamErrors& errors) {
  json out = json::object();
  for (auto it = given.begin(); it != given.end(); ++it)
    if (!a.param(it.key())) {
      ParamSpec unknown;
      unknown.name = it.key();
      errors.fail(unknown, "algorithm '" + a.name + "' has no parameter '" + it.key() + "'");
    }
  for (auto& p : a.params) out[p.name] = given.contains(p.name) ? given[p.name] : p.default_value;
  return out;
}

Built build_routing(const Algorithm& a, const json& params, const topo::Network& n,
                    const topo::Faults& f, const ParamErrors& errors) {
  return a.build(complete_params(a, params, errors), n, f, errors);
}

json describe() {
  json algs = json::array();
  for (auto& a : algorithms()) {
    json ps = json::array();
    for (auto& p : a.params)
      ps.push_back({{"name", p.name},
                    {"summary", p.meaning},
                    {"allowed", p.allowed},
                    {"default", p.default_text}});
    algs.push_back(
        {{"name", a.name}, {"summary", a.summary}, {"reference", a.reference}, {"parameters", ps}});
  }
  return {{"algorithms", algs}};
}

std::vector<ParamUse> parameters() {
  std::vector<ParamUse> out;
  for (auto& a : algorithms())
    for (auto& p : a.params) {
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const ParamUse& u) { return u.spec->name == p.name; });
      if (it == out.end()) it = out.insert(out.end(), ParamUse{&p, {}});
      it->algorithms.push_back(a.name);
    }
  return out;
}

} // namespace icnkit::route
