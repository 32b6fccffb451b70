#include "coll/registry.hpp"

#include "coll/rank_algorithms.hpp"

#include <algorithm>

// The entries name the members they set (designated initializers); every other member keeps
// its default, which is the point, so the warning about members left out does not apply here.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace icnkit::coll {

namespace {

constexpr const char* kThakur =
    "R. Thakur, R. Rabenseifner, W. Gropp, \"Optimization of Collective Communication Operations "
    "in MPICH\", IJHPCA 19(1), 2005";

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
      {.name = "ring",
       .torus =
           TorusForm{
               .summary = "classic bidirectional Ring: every block halved; stage h moves one half "
                          "h hops clockwise "
                          "and the other h hops anticlockwise, one hop per store-and-forward step; "
                          "N(N-1)/2 steps "
                          "per ring",
               .reference =
                   paper +
                   ", Table 1 and section 2 (the baseline); reduce-scatter / all-gather / "
                   "all-reduce: the bidirectional ring (halves each way, N-1 steps), dimension by "
                   "dimension (reduce-scatter in order, all-gather in reverse)",
               .collectives = {"all-to-all", "all-reduce", "reduce-scatter", "all-gather"},
               .fault_handling = "none",
               .plan = &ring_dim_plan,
               .ring_time = &ring_time,
               .ring_reductions = true},
       .ranks = RankForm{.summary = "ring over the ranks in packaging order: n-1 steps of "
                                    "reduce-scatter (each rank passes a "
                                    "partial sum of one block to the next) and n-1 of all-gather; "
                                    "every step moves S/n per "
                                    "rank (NCCL's ring, one direction)",
                         .reference = std::string(
                             "P. Patarasuk, X. Yuan, \"Bandwidth optimal all-reduce algorithms for "
                             "clusters of workstations\", JPDC 69(2), 2009; NCCL"),
                         .collectives = {"all-reduce", "reduce-scatter", "all-gather"},
                         .applies = "any number of ranks",
                         .refuses = &ranks::any_n,
                         .generate = &ranks::ring}},
      {.name = "bidirectional-ring",
       .ranks = RankForm{.summary = "two rings over the ranks in packaging order, one each way, "
                                    "each carrying half the buffer: 2n blocks, the even ones "
                                    "clockwise and the odd ones anticlockwise, n-1 steps of "
                                    "reduce-scatter and n-1 of all-gather each moving S/2n per "
                                    "rank each way (on a torus or a ring both links of a rank "
                                    "carry half: the torus's Ring, one level of hierarchical "
                                    "{hierarchy} dims per dimension)",
                         .reference = std::string(
                             "P. Patarasuk, X. Yuan, JPDC 69(2), 2009 (the ring); the torus Ring "
                             "of the MICRO'25 study, Table 1 (halves each way)"),
                         .collectives = {"all-reduce", "reduce-scatter", "all-gather"},
                         .applies = "any number of ranks",
                         .refuses = &ranks::any_n,
                         .generate = &ranks::bidirectional_ring}},
      {.name = "halfring",
       .torus =
           TorusForm{
               .summary =
                   "every block goes the short way round: stage h = 1..N/2 moves B[i][i+h] h hops "
                   "clockwise and B[i][i-h] h hops anticlockwise (an even ring's stage N/2 halves "
                   "its block "
                   "between the two); k(k+1)/2 steps for k = N/2, the bisection bound per ring",
               .reference = paper + ", section 3.1, Algorithm 1, Table 1",
               .collectives = {"all-to-all"},
               .fault_handling = "none",
               .plan = &halfring_dim_plan,
               .ring_time = &halfring_ring_time}},
      {.name = "foldedring",
       .torus =
           TorusForm{
               .summary = "a ring with one failed link runs the unidirectional Ring on its folded "
                          "ring (the hop "
                          "over the failed link goes the other way round, N-1 hops); healthy rings "
                          "run HalfRing "
                          "(all-to-all; the MICRO'25 artifact's definition) or the Ring "
                          "(reductions); two failed "
                          "links on one ring are refused",
               .reference =
                   paper +
                   ", section 4.1, Algorithm 2, Fig. 8 (which generalises it to all-reduce, "
                   "reduce-scatter and all-gather: the folded ring runs their unidirectional ring)",
               .collectives = {"all-to-all", "all-reduce", "reduce-scatter", "all-gather"},
               .fault_handling = "folded",
               .plan = &foldedring_dim_plan,
               .ring_time = &halfring_ring_time,
               .ring_reductions = true}},
      {.name = "foldedring-ring",
       .torus = TorusForm{.summary = "foldedring with the bidirectional Ring, not HalfRing, on the "
                                     "healthy rings of an "
                                     "all-to-all (Ring made fault tolerant, as the paper's section "
                                     "4.1 introduces it)",
                          .reference = paper + ", section 4.1, Algorithm 2",
                          .collectives = {"all-to-all"},
                          .fault_handling = "folded",
                          .plan = &foldedring_ring_dim_plan,
                          .ring_time = &ring_time}},
      {.name = "mate",
       .torus = TorusForm{.summary = "HalfRing on healthy rings; a faulty ring sends nothing in "
                                     "the normal phase and all its "
                                     "data in an acceleration phase right after it: a HalfRing on "
                                     "each healthy plane through "
                                     "the neighbouring rings of every other dimension (3-hop "
                                     "logical links) plus, with one "
                                     "fault, its folded ring, split so that they finish together",
                          .reference = paper + ", section 4.2, Fig. 9, Algorithm 2",
                          .collectives = {"all-to-all"},
                          .fault_handling = "mate",
                          .needs_fault = true,
                          .plan = &mate_dim_plan,
                          .one_fault = TorusForm::OneFault::Mate}},
      {.name = "matee",
       .torus = TorusForm{.summary = "MATE, but the faulty ring also sends the fraction r = "
                                     "T_HalfRing/T_FoldedRing of its "
                                     "data over its folded ring during the normal phase (static "
                                     "split, startup ignored), so "
                                     "the acceleration phase carries only 1 - r",
                          .reference = paper + ", section 4.2 (MATEe)",
                          .collectives = {"all-to-all"},
                          .fault_handling = "matee",
                          .needs_fault = true,
                          .plan = &matee_dim_plan,
                          .one_fault = TorusForm::OneFault::MateEarly}},
      {.name = "direct",
       .ranks =
           RankForm{
               .summary =
                   "one step: every rank sends every other rank its block at once (all-reduce: one "
                   "reduce-scatter step, one all-gather step); for full meshes and single switches",
               .reference =
                   std::string(kThakur) + " (the scattered algorithms); NCCL's one-shot all-reduce",
               .collectives = {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"},
               .applies = "any number of ranks",
               .refuses = &ranks::any_n,
               .generate = &ranks::direct}},
      {.name = "halving-doubling",
       .ranks =
           RankForm{
               .summary = "recursive halving reduce-scatter and recursive doubling all-gather "
                          "(Rabenseifner's "
                          "all-reduce): log2 n steps each, exchanging with rank XOR d half of the "
                          "remaining data; "
                          "an all-reduce on n ranks other than a power of two p first folds the "
                          "n-p extra ranks "
                          "into ranks 0..n-p-1 and unfolds them at the end, as MPICH does",
               .reference = std::string(kThakur) + ", section 4.4",
               .collectives = {"all-reduce", "reduce-scatter", "all-gather"},
               .applies =
                   "all-reduce: any number of ranks; reduce-scatter, all-gather: a power of two",
               .refuses = &ranks::pow2_unless_all_reduce,
               .generate = &ranks::halving_doubling}},
      {.name = "bruck",
       .ranks =
           RankForm{.summary = "Bruck's log-step algorithms on any n: all-gather (rank i sends "
                               "what it holds to i-d, d "
                               "doubling), reduce-scatter (its reverse) and all-to-all (items an "
                               "odd multiple of d ahead "
                               "move d)",
                    .reference = std::string(
                        "J. Bruck et al., \"Efficient algorithms for all-to-all communications in "
                        "multiport message-passing systems\", IEEE TPDS 8(11), 1997"),
                    .collectives = {"all-gather", "reduce-scatter", "all-reduce", "all-to-all"},
                    .applies = "any number of ranks",
                    .refuses = &ranks::any_n,
                    .generate = &ranks::bruck}},
      {.name = "pairwise",
       .ranks = RankForm{.summary = "pairwise exchange: n-1 steps, rank i sending its item for "
                                    "rank i XOR k (powers of two) "
                                    "or i + k in step k (MPICH's long-message MPI_Alltoall)",
                         .reference = std::string(kThakur) + ", section 5",
                         .collectives = {"all-to-all"},
                         .applies = "any number of ranks",
                         .refuses = &ranks::any_n,
                         .generate = &ranks::pairwise}},
      {.name = "hierarchical",
       .ranks =
           RankForm{
               .summary =
                   "one collective per packaging level (NCCL's intra/inter-node split, ASTRA-sim's "
                   "per-dimension lists): all-reduce is a reduce-scatter inside each board "
                   "({hierarchy} "
                   "rack/pod: each rack, pod), an all-reduce of every shard across them (the chips "
                   "of one "
                   "position in every board) and an all-gather back; reduce-scatter stops after a "
                   "reduce-scatter across; all-gather gathers across, then inside; "
                   "{level_algorithms} picks "
                   "each level's algorithm (ring,ring); all-to-all exchanges inside each board by "
                   "XOR (each "
                   "peer getting every item for its position), then across (each getting every "
                   "item for its "
                   "board): boards and their count powers of two",
               .reference = std::string(
                   "NCCL (intra-node then inter-node rings and trees); W. Won et al., "
                   "\"ASTRA-sim2.0\", ISPASS 2023 (hierarchical collectives per dimension)"),
               .collectives = {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"},
               .applies = "any number of ranks in boards (racks, pods) of one size (all-to-all: "
                          "powers of two)",
               .refuses = &ranks::any_n,
               .generate = nullptr}},
      {.name = "binomial",
       .ranks = RankForm{.summary = "binomial tree rooted at {root}: ceil(log2 n) steps, the ranks "
                                    "holding the buffer "
                                    "doubling each step (broadcast) or halving (reduce)",
                         .reference = std::string(kThakur) + ", section 3",
                         .collectives = {"broadcast", "reduce"},
                         .applies = "any number of ranks",
                         .refuses = &ranks::any_n,
                         .generate = &ranks::binomial}},
      {.name = "double-binary-tree",
       .ranks = RankForm{.summary = "two in-order binary trees, the second mirrored (or shifted by "
                                    "one) so that every leaf "
                                    "of one is an inner node of the other, each carrying half the "
                                    "buffer in {chunks} "
                                    "pipelined chunks (default 8 per tree level, at most 256): "
                                    "all-reduce reduces up both "
                                    "trees and broadcasts back down; broadcast and reduce hang "
                                    "both trees below the root",
                         .reference = std::string(
                             "P. Sanders, J. Speck, J. L. Traff, \"Two-tree algorithms for full "
                             "bandwidth broadcast, reduction and scan\", Parallel Computing "
                             "35(12), 2009; "
                             "NCCL 2.4's double binary trees"),
                         .collectives = {"all-reduce", "broadcast", "reduce"},
                         .applies = "any number of ranks",
                         .refuses = &ranks::any_n,
                         .pipelined = true,
                         .generate = &ranks::double_binary_tree}},
      {.name = "chain",
       .ranks =
           RankForm{.summary = "pipelined chain from the root through every rank in packaging "
                               "order: the buffer in "
                               "{chunks} chunks (default 4 per rank, 8 to 256), chunk k leaving "
                               "the j-th rank in step "
                               "k + j; reduce runs the chain towards the root",
                    .reference = std::string(kThakur) +
                                 " (pipelined broadcast); NCCL's ring broadcast and reduce",
                    .collectives = {"broadcast", "reduce"},
                    .applies = "any number of ranks",
                    .refuses = &ranks::any_n,
                    .pipelined = true,
                    .generate = &ranks::chain}},
      {.name = "in-network",
       .ranks = RankForm{.summary = "reduction in the switch every rank of the group is attached "
                                    "to (NVLS-like): all-reduce "
                                    "in {chunks} pipelined chunks (default 32), each reduced by "
                                    "the switch into its owner's "
                                    "share (every rank sends the chunk up once) while the owners "
                                    "multicast the previous "
                                    "chunk's shares through the switch; reduce-scatter is one "
                                    "reduce, all-gather one "
                                    "multicast. Bus bandwidth approaches 2(n-1)/(n+1) of a link's",
                         .reference = "NVIDIA NVLink SHARP (NCCL's NVLS algorithm, 2.17+); R. L. "
                                      "Graham et al., \"Scalable "
                                      "Hierarchical Aggregation Protocol (SHArP)\", COMHPC 2016",
                         .collectives = {"all-reduce", "reduce-scatter", "all-gather"},
                         .applies = "groups whose chips all have a link to one switch (a single "
                                    "switch; a fat-tree leaf's "
                                    "chips by {group} or as a level of hierarchical)",
                         .refuses = &ranks::any_n,
                         .pipelined = true,
                         .generate = &ranks::in_network,
                         .assumes = kSwitchReduction}},
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
       "C chunks ({chunks}, default 6) all in the order 0, 1, ..., one active chunk per "
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
const AlgorithmInfo* find_torus_algorithm(const std::string& name) {
  const AlgorithmInfo* a = find(algorithms(), name);
  return a && a->torus ? a : nullptr;
}
const AlgorithmInfo* find_rank_algorithm(const std::string& name) {
  const AlgorithmInfo* a = find(algorithms(), name);
  return a && a->ranks ? a : nullptr;
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
  if (alg.torus && alg.torus->implements(collective)) return;
  if (!alg.torus) fail_infeasible(where, alg.name + " runs between ranks, not on a torus's rings");
  std::string which;
  for (auto& c : alg.torus->collectives) {
    if (!which.empty()) which += ", ";
    which += c;
  }
  fail_infeasible(where, "the " + alg.name + " algorithm implements " + which + " only, not " +
                             collective);
}

int resolve_chunks(const DimSchedulingInfo& dims, int requested) {
  if (requested == 0) return dims.default_chunks;
  if (!dims.takes_chunks)
    fail_usage("{chunks}", "applies to {dims} pipeline only (" + dims.name + " fixes its chunks)");
  if (requested < 1 || requested > 64) fail_usage("{chunks}", "must lie in 1..64");
  return requested;
}

std::string collective_names() {
  return names_of(collectives());
}
std::string algorithm_names() {
  return names_of(algorithms());
}
std::string torus_algorithm_names() {
  std::string out;
  for (auto& a : algorithms())
    if (a.torus) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}
std::string rank_algorithm_names() {
  std::string out;
  for (auto& a : algorithms())
    if (a.ranks) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}
std::string dim_scheduling_names() {
  return names_of(dim_schedulings());
}

json describe() {
  json cols = json::array(), algs = json::array(), dims = json::array();
  for (auto& c : collectives()) {
    json on_torus = json::array(), between = json::array();
    for (auto& a : algorithms()) {
      if (a.torus && a.torus->implements(c.name)) on_torus.push_back(a.name);
      if (a.ranks && a.ranks->implements(c.name)) between.push_back(a.name);
    }
    cols.push_back({{"name", c.name},
                    {"summary", c.summary},
                    {"on_torus", on_torus},
                    {"between_ranks", between}});
  }
  for (auto& a : algorithms()) {
    // Where it runs; each form's own summary says how.
    json e = {{"name", a.name},
              {"summary", a.torus && a.ranks ? "on a torus's rings (its torus form) and between "
                                               "ranks on any network (its form between ranks)"
                          : a.torus          ? "on a torus's rings"
                                             : "between ranks on any network"}};
    if (a.torus)
      e["on_torus"] = {{"summary", a.torus->summary},
                       {"reference", a.torus->reference},
                       {"collectives", a.torus->collectives},
                       {"fault_handling", a.torus->fault_handling},
                       {"parameters", params_json(a.torus->params)}};
    if (a.ranks)
      e["between_ranks"] = {
          {"summary", a.ranks->summary},
          {"reference", a.ranks->reference},
          {"collectives", a.ranks->collectives},
          {"fault_handling", "routing"},
          {"applies", a.ranks->applies},
          {"assumes", a.ranks->assumes},
          {"parameters", a.ranks->pipelined
                             ? json::object({{"chunks", "{chunks}: pipelined chunks (0 or absent: "
                                                        "the default)"}})
                             : json::object()}};
    algs.push_back(std::move(e));
  }
  for (auto& d : dim_schedulings())
    dims.push_back({{"name", d.name},
                    {"summary", d.summary},
                    {"reference", d.reference},
                    {"parameters", params_json(d.params)}});
  return {{"collectives", cols}, {"algorithms", algs}, {"dim_scheduling", dims}};
}

} // namespace icnkit::coll
