// The one explicit list of collectives, collective algorithms (each with its torus form, its
// form between ranks, or both) and dimension schedulers, with their descriptions. coll-sched's
// --help, its validation of --collective / --algorithm / --dims and --describe all derive from
// these lists; nothing else switches over names.
#pragma once
#include "coll/algorithm_info.hpp"
#include "coll/dims.hpp"
#include "coll/schedule.hpp"

#include <string>
#include <vector>

namespace icnkit::coll {

struct CollectiveInfo {
  std::string name; // "all-to-all"
  std::string summary;
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
