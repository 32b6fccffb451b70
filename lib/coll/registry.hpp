// The one explicit list of collectives, collective algorithms (each with its torus form, its
// form between ranks, or both) and dimension schedulers, with their descriptions. coll-sched's
// --help, its validation of --collective / --algorithm / --dims and --describe all derive from
// these lists; nothing else switches over names.
#pragma once
#include "coll/plan.hpp"
#include "coll/rank_schedule.hpp"
#include "coll/ring_time.hpp"
#include "coll/schedule.hpp"
#include "topo/torus_geometry.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::coll {

struct ParamInfo {
  std::string name;          // as in the schedule / on the command line
  std::string unit;          // "bytes", "" for counts
  std::string default_value; // as text
  std::string range;         // e.g. "1..64"
  std::string summary;
};

struct CollectiveInfo {
  std::string name; // "all-to-all"
  std::string summary;
};

// How an algorithm runs on a torus: inside every ring of one dimension (a DimPlan per chunk
// and dimension), the dimensions composed by a dimension scheduler (--dims).
struct TorusForm {
  std::string summary;
  std::string reference;
  std::vector<std::string> collectives; // the collectives it implements on a torus
  // What it does about failed links: "none" = it needs every link of every ring (and refuses
  // faults); "folded" / "mate" / "matee" otherwise.
  std::string fault_handling;
  bool needs_fault = false; // MATE and MATEe exist for faulty tori only
  std::vector<ParamInfo> params;
  DimPlan (*plan)(const DimContext&) = nullptr; // one chunk's work along one dimension
  // Its closed forms (composed by closed_form.hpp), where it has them:
  // one ring's fault-free all-to-all time (null: none; MATE and MATEe need a fault);
  double (*ring_time)(int n, double S, double B, double alpha, LatencyModel m) = nullptr;
  // fault-free reductions on the bidirectional ring (ring_reduction_time per phase);
  bool ring_reductions = false;
  // one failed link: MATE's acceleration phase, and whether the folded ring already carries
  // its share r in the normal phase (MATEe).
  enum class OneFault { None, Mate, MateEarly } one_fault = OneFault::None;
  bool implements(const std::string& collective) const;
};

// How an algorithm runs between ranks on any network (rank_schedule.hpp): a generator of rule
// transfers between ranks, the chips in packaging order, over the routing section's paths.
struct RankForm {
  std::string summary;
  std::string reference;
  std::vector<std::string> collectives; // the collectives it implements between ranks
  std::string applies;                  // in words, e.g. "any number of ranks"
  // "" when the algorithm serves `collective` on n ranks, else why not (e.g. "needs a power of
  // two").
  std::string (*refuses)(const std::string& collective, std::int64_t n) = nullptr;
  // Whether it pipelines the buffer in chunks (--chunks: how many; 0 = its default).
  bool pipelined = false;
  // Steps and phases of `collective` on n ranks (root for broadcast / reduce; chunks for a
  // pipelined algorithm, 0 = its default); chips are left for the caller. Precondition:
  // implements(collective) and refuses(collective, n) is "".
  // Null for a composed algorithm (hierarchical: stages of the others, generate.cpp).
  RankSchedule (*generate)(const std::string& collective, std::int64_t n, std::int64_t root,
                           std::int64_t chunks) = nullptr;
  // What it assumes of the hardware beyond links and the routing ("" = nothing): in-network
  // reduction needs switches that add and multicast. --algorithm auto leaves such algorithms
  // out; a schedule using one states the assumption.
  std::string assumes;
  bool implements(const std::string& collective) const;
};

// One collective algorithm: its name and the forms it takes. A name with both forms (ring) runs
// its torus form on a torus (every ring of a dimension) and its rank form elsewhere.
struct AlgorithmInfo {
  std::string name;
  std::optional<TorusForm> torus;                       // on a torus's rings
  std::optional<RankForm> ranks;                        // between ranks, on any network
  bool implements(const std::string& collective) const; // in either form
};

// What a dimension scheduler composes: one algorithm's ring plans over a torus.
struct ComposeInput {
  const AlgorithmInfo* algorithm = nullptr;
  const topo::TorusGeometry* geometry = nullptr;
  std::string collective;
  std::int64_t bytes_per_node = 0;
  // plans[op][dim] (op = PhaseOp as an index; empty for dimensions of size 1 and for the ops
  // the collective does not use).
  std::array<std::vector<DimPlan>, 3> plans;
  int chunks = 1;        // for pipeline
  bool lockstep = false; // a slot starts when the previous one has ended (faulty tori)
};

struct DimSchedulingInfo {
  std::string name;
  std::string summary;
  std::string reference;
  std::vector<ParamInfo> params;
  bool takes_chunks = false; // --chunks applies
  int default_chunks = 1;
  Schedule (*compose)(const ComposeInput&) = nullptr; // phases and steps, unverified
  // How it orders the work, for the plans and the closed forms:
  // one dimension at a time (a slot lasts its own ring's plan, not the largest ring's);
  bool one_dimension_at_a_time = false;
  // chunk c runs its k-th dimension in slot c + k (else every chunk starts in slot 0);
  bool staggered = false;
  // the dimensions each chunk takes, in order, from the live ones and the chunk count;
  std::vector<std::vector<int>> (*chunk_orders)(const std::vector<int>& live, int chunks) = nullptr;
  // the fault-free all-to-all of D equal dimensions: slots(D, C) x T(S / chunks(D, C)), and how
  // the report writes it (after "algorithm+scheduling: ");
  int (*slots)(int dims, int chunks) = nullptr;
  std::string (*form)(int dims, int chunks) = nullptr;
  // MATE's one-fault form: none, every dimension after the other, or D rotated slots.
  enum class OneFault { None, Sequential, Rotation } one_fault = OneFault::None;
};

const std::vector<CollectiveInfo>& collectives();
const std::vector<AlgorithmInfo>& algorithms();
const std::vector<DimSchedulingInfo>& dim_schedulings();

// Lookups: nullptr when the name is unknown.
const CollectiveInfo* find_collective(const std::string& name);
const AlgorithmInfo* find_algorithm(const std::string& name);
// The entry of that name if it has a torus form / a form between ranks, else nullptr.
const AlgorithmInfo* find_torus_algorithm(const std::string& name);
const AlgorithmInfo* find_rank_algorithm(const std::string& name);
const DimSchedulingInfo* find_dim_scheduling(const std::string& name);

// Lookups that throw Error(Usage) naming `where` and listing the known names.
const CollectiveInfo& require_collective(const std::string& name, const std::string& where);
const AlgorithmInfo& require_algorithm(const std::string& name, const std::string& where);
const DimSchedulingInfo& require_dim_scheduling(const std::string& name, const std::string& where);

// Error(Infeasible) naming `where` unless `alg`'s torus form implements `collective`.
void require_implements(const AlgorithmInfo& alg, const std::string& collective,
                        const std::string& where);

// The chunk count a scheduler uses for a request of `requested` (0 = its default). Error(Usage)
// naming --chunks for a scheduler that fixes its chunks, or outside 1..64.
int resolve_chunks(const DimSchedulingInfo& dims, int requested);

// "ring, halfring" style lists for messages and --help.
std::string collective_names();
std::string algorithm_names();
std::string torus_algorithm_names(); // those with a torus form
std::string rank_algorithm_names();  // those with a form between ranks
std::string dim_scheduling_names();

// Everything above as one JSON object (coll-sched --describe).
json describe();

} // namespace icnkit::coll
