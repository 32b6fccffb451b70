#include "coll/registry.hpp"

#include "coll/dims.hpp"
#include "coll/rank_algorithms.hpp"

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

// One ring's fault-free all-to-all under HalfRing (FoldedRing is HalfRing without a fault).
double halfring_ring_time(int n, double S, double B, double alpha, LatencyModel m) {
  return halfring_time(n, S, B, alpha, m);
}

// The schedulings' orders: sequential runs one chunk through the live dimensions; pipeline C
// chunks through them in the same order; dimrotation D chunks, chunk i from dimension i on.
std::vector<std::vector<int>> one_chunk_order(const std::vector<int>& live, int) {
  return {live};
}
std::vector<std::vector<int>> same_order_chunks(const std::vector<int>& live, int chunks) {
  return std::vector<std::vector<int>>(static_cast<std::size_t>(chunks), live);
}
std::vector<std::vector<int>> rotated_orders(const std::vector<int>& live, int) {
  const int D = static_cast<int>(live.size());
  std::vector<std::vector<int>> order;
  for (int i = 0; i < D; ++i) {
    order.emplace_back();
    for (int k = 0; k < D; ++k) order.back().push_back(live[static_cast<std::size_t>((i + k) % D)]);
  }
  return order;
}
int sequential_slots(int D, int) {
  return D;
}
int pipeline_slots(int D, int C) {
  return C + D - 1;
}
int rotation_slots(int D, int) {
  return D;
}
std::string sequential_form(int D, int) {
  return "D T(S) = " + std::to_string(D) + " T(S)";
}
std::string pipeline_form(int, int C) {
  return "(C + D - 1) T(S/C), C = " + std::to_string(C);
}
std::string rotation_form(int D, int) {
  return "D T(S/D), D = " + std::to_string(D);
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
      {"broadcast", "every node ends with the root's S bytes"},
      {"reduce", "the root ends with the element-wise reduction of all nodes' S bytes"},
  };
  return list;
}

const std::vector<AlgorithmInfo>& algorithms() {
  const std::string paper(kMicro25);
  static const std::vector<AlgorithmInfo> list = {
      {"ring",
       "classic bidirectional Ring: every block halved; stage h moves one half h hops clockwise "
       "and the other h hops anticlockwise, one hop per store-and-forward step; N(N-1)/2 steps "
       "per ring",
       paper + ", Table 1 and section 2 (the baseline); reduce-scatter / all-gather / "
               "all-reduce: the bidirectional ring (halves each way, N-1 steps), dimension by "
               "dimension (reduce-scatter in order, all-gather in reverse)",
       {"all-to-all", "all-reduce", "reduce-scatter", "all-gather"},
       "none",
       false,
       {},
       &ring_dim_plan,
       &ring_time,
       true},
      {"halfring",
       "every block goes the short way round: stage h = 1..N/2 moves B[i][i+h] h hops "
       "clockwise and B[i][i-h] h hops anticlockwise (an even ring's stage N/2 halves its block "
       "between the two); k(k+1)/2 steps for k = N/2, the bisection bound per ring",
       paper + ", section 3.1, Algorithm 1, Table 1",
       {"all-to-all"},
       "none",
       false,
       {},
       &halfring_dim_plan,
       &halfring_ring_time},
      {"foldedring",
       "a ring with one failed link runs the unidirectional Ring on its folded ring (the hop "
       "over the failed link goes the other way round, N-1 hops); healthy rings run HalfRing "
       "(all-to-all; the MICRO'25 artifact's definition) or the Ring (reductions); two failed "
       "links on one ring are refused",
       paper + ", section 4.1, Algorithm 2, Fig. 8 (which generalises it to all-reduce, "
               "reduce-scatter and all-gather: the folded ring runs their unidirectional ring)",
       {"all-to-all", "all-reduce", "reduce-scatter", "all-gather"},
       "folded",
       false,
       {},
       &foldedring_dim_plan,
       &halfring_ring_time,
       true},
      {"foldedring-ring",
       "foldedring with the bidirectional Ring, not HalfRing, on the healthy rings of an "
       "all-to-all (Ring made fault tolerant, as the paper's section 4.1 introduces it)",
       paper + ", section 4.1, Algorithm 2",
       {"all-to-all"},
       "folded",
       false,
       {},
       &foldedring_ring_dim_plan,
       &ring_time},
      {"mate",
       "HalfRing on healthy rings; a faulty ring sends nothing in the normal phase and all its "
       "data in an acceleration phase right after it: a HalfRing on each healthy plane through "
       "the neighbouring rings of every other dimension (3-hop logical links) plus, with one "
       "fault, its folded ring, split so that they finish together",
       paper + ", section 4.2, Fig. 9, Algorithm 2",
       {"all-to-all"},
       "mate",
       true,
       {},
       &mate_dim_plan,
       nullptr,
       false,
       AlgorithmInfo::OneFault::Mate},
      {"matee",
       "MATE, but the faulty ring also sends the fraction r = T_HalfRing/T_FoldedRing of its "
       "data over its folded ring during the normal phase (static split, startup ignored), so "
       "the acceleration phase carries only 1 - r",
       paper + ", section 4.2 (MATEe)",
       {"all-to-all"},
       "matee",
       true,
       {},
       &matee_dim_plan,
       nullptr,
       false,
       AlgorithmInfo::OneFault::MateEarly},
  };
  return list;
}

const std::vector<DimSchedulingInfo>& dim_schedulings() {
  const std::string paper(kMicro25);
  static const std::vector<DimSchedulingInfo> list = {
      {"sequential",
       "one dimension after the other (0, then 1, then 2): phase d is the algorithm inside every "
       "ring of dimension d, all rings in parallel",
       paper + ", section 2 (multi-dimensional decomposition)",
       {},
       false,
       1,
       &compose_sequential,
       true,
       false,
       &one_chunk_order,
       &sequential_slots,
       &sequential_form,
       DimSchedulingInfo::OneFault::Sequential},
      {"pipeline",
       "C chunks (--chunks, default 6) all in the order 0, 1, ..., one active chunk per "
       "dimension: chunk c runs its k-th dimension in slot c + k",
       paper + ", section 2 (Ring + Pipeline, after Themis, ISCA'22)",
       {{"chunks", "", "6", "1..64", "chunks C"}},
       true,
       6,
       &compose_pipeline,
       false,
       true,
       &same_order_chunks,
       &pipeline_slots,
       &pipeline_form,
       DimSchedulingInfo::OneFault::None},
      {"dimrotation",
       "D chunks (D = dimensions of size > 1); chunk i takes the dimensions i, i+1, ... (mod "
       "D), so every slot keeps every dimension busy",
       paper + ", section 3.2, Algorithm 1 (Scheduler)",
       {},
       false,
       1,
       &compose_dimrotation,
       false,
       false,
       &rotated_orders,
       &rotation_slots,
       &rotation_form,
       DimSchedulingInfo::OneFault::Rotation},
  };
  return list;
}

const CollectiveInfo* find_collective(const std::string& name) {
  return find(collectives(), name);
}
const AlgorithmInfo* find_algorithm(const std::string& name) {
  return find(algorithms(), name);
}
const DimSchedulingInfo* find_dim_scheduling(const std::string& name) {
  return find(dim_schedulings(), name);
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

int resolve_chunks(const DimSchedulingInfo& dims, int requested) {
  if (requested == 0) return dims.default_chunks;
  if (!dims.takes_chunks)
    fail_usage("--chunks", "applies to --dims pipeline only (" + dims.name + " fixes its chunks)");
  if (requested < 1 || requested > 64) fail_usage("--chunks", "must lie in 1..64");
  return requested;
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
    json ranks = json::array();
    for (auto& a : rank_algorithms())
      if (a.implements(c.name)) ranks.push_back(a.name);
    cols.push_back({{"name", c.name},
                    {"summary", c.summary},
                    {"algorithms", impl},
                    {"algorithms_between_ranks", ranks}});
  }
  json between = json::array();
  for (auto& a : rank_algorithms())
    between.push_back(
        {{"name", a.name},
         {"summary", a.summary},
         {"reference", a.reference},
         {"collectives", a.collectives},
         {"fault_handling", "routing"},
         {"applies", a.applies},
         {"assumes", a.assumes},
         {"parameters", a.pipelined ? json::object({{"chunks", "--chunks: pipelined chunks "
                                                               "(0 or absent: the default)"}})
                                    : json::object()}});
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
  return {{"collectives", cols},
          {"algorithms", algs},
          {"algorithms_between_ranks", between},
          {"dim_scheduling", dims}};
}

} // namespace icnkit::coll
