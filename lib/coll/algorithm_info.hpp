// What the registry (registry.hpp) says of one collective algorithm: its forms (on a torus's
// rings, between ranks) and their parameters. Apart from the registry's lists so that the
// dimension schedulers (dims.hpp), which the registry lists, can read the algorithm they compose.
#pragma once
#include "coll/plan.hpp"
#include "coll/rank_schedule.hpp"
#include "coll/ring_time.hpp"

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

} // namespace icnkit::coll
