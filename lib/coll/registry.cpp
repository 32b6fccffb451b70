#include "coll/registry.hpp"

#include "coll/dims.hpp"

#include <algorithm>

namespace icnkit::coll {

namespace {

constexpr const char* kMicro25 =
    "L. Qin et al., \"Optimizing All-to-All Collective Communication with Fault Tolerance on "
    "Torus Networks\", MICRO '25, pp. 659-674, doi:10.1145/3725843.3756057";

template <class T> std::string names_of(const std::vector<T>& v) {
  std::string out;
  for (auto& e : v) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

template <class T> const T* find(const std::vector<T>& v, const std::string& name) {
  auto it = std::find_if(v.begin(), v.end(), [&](const T& e) { return e.name == name; });
  return it == v.end() ? nullptr : &*it;
}

json params_json(const std::vector<ParamInfo>& ps) {
  json out = json::array();
  for (auto& p : ps)
    out.push_back({{"name", p.name},
                   {"unit", p.unit},
                   {"default", p.default_value},
                   {"range", p.range},
                   {"summary", p.summary}});
  return out;
}

} // namespace

bool AlgorithmInfo::implements(const std::string& collective) const {
  return std::find(collectives.begin(), collectives.end(), collective) != collectives.end();
}

const std::vector<CollectiveInfo>& collectives() {
  static const std::vector<CollectiveInfo> list = {
      {"all-to-all", "every node sends a distinct S/n block to every node (itself included)"},
      {"all-reduce", "every node ends with the element-wise reduction of all nodes' S bytes"},
      {"reduce-scatter", "every node ends with its S/n share of the reduction"},
      {"all-gather", "every node ends with every node's S/n share"},
  };
  return list;
}

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> list = {
      {"ring",
       "classic bidirectional Ring: every block halved; stage h moves one half h hops clockwise "
       "and the other h hops anticlockwise, one hop per store-and-forward step; N(N-1)/2 steps "
       "per ring",
       std::string(kMicro25) + ", Table 1 and section 2 (the baseline)",
       {"all-to-all"},
       "none",
       {},
       &ring_all_to_all_plan},
  };
  return list;
}

const std::vector<DimSchedulingInfo>& dim_schedulings() {
  static const std::vector<DimSchedulingInfo> list = {
      {"sequential",
       "one dimension after the other (0, then 1, then 2): phase d is the algorithm inside every "
       "ring of dimension d, all rings in parallel",
       std::string(kMicro25) + ", section 2 (multi-dimensional decomposition)",
       {},
       &compose_sequential},
  };
  return list;
}

const CollectiveInfo& require_collective(const std::string& name, const std::string& where) {
  if (auto* c = find(collectives(), name)) return *c;
  fail_usage(where, "unknown collective '" + name + "' (known: " + collective_names() + ")");
}

const AlgorithmInfo& require_algorithm(const std::string& name, const std::string& where) {
  if (auto* a = find(algorithms(), name)) return *a;
  fail_usage(where, "unknown algorithm '" + name + "' (known: " + algorithm_names() + ")");
}

const DimSchedulingInfo& require_dim_scheduling(const std::string& name, const std::string& where) {
  if (auto* d = find(dim_schedulings(), name)) return *d;
  fail_usage(where,
             "unknown dimension scheduling '" + name + "' (known: " + dim_scheduling_names() + ")");
}

void require_implements(const AlgorithmInfo& alg, const std::string& collective,
                        const std::string& where) {
  if (alg.implements(collective)) return;
  std::string which;
  for (auto& c : alg.collectives) {
    if (!which.empty()) which += ", ";
    which += c;
  }
  fail_infeasible(where, "the " + alg.name + " algorithm implements " + which + " only, not " +
                             collective + " (not implemented yet)");
}

std::string collective_names() {
  return names_of(collectives());
}
std::string algorithm_names() {
  return names_of(algorithms());
}
std::string dim_scheduling_names() {
  return names_of(dim_schedulings());
}

json describe() {
  json cols = json::array(), algs = json::array(), dims = json::array();
  for (auto& c : collectives()) {
    json impl = json::array();
    for (auto& a : algorithms())
      if (a.implements(c.name)) impl.push_back(a.name);
    cols.push_back({{"name", c.name}, {"summary", c.summary}, {"algorithms", impl}});
  }
  for (auto& a : algorithms())
    algs.push_back({{"name", a.name},
                    {"summary", a.summary},
                    {"reference", a.reference},
                    {"collectives", a.collectives},
                    {"fault_handling", a.fault_handling},
                    {"parameters", params_json(a.params)}});
  for (auto& d : dim_schedulings())
    dims.push_back({{"name", d.name},
                    {"summary", d.summary},
                    {"reference", d.reference},
                    {"parameters", params_json(d.params)}});
  return {{"collectives", cols}, {"algorithms", algs}, {"dim_scheduling", dims}};
}

} // namespace icnkit::coll
