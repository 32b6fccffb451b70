// Dimension schedulers: how the dimension plans (plan.hpp) of every chunk are placed in time.
#pragma once
#include "coll/algorithm_info.hpp"
#include "coll/plan.hpp"
#include "coll/schedule.hpp"
#include "topo/torus_geometry.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::coll {

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

// Sequential: one chunk; dimension 0, then 1, then 2 ...
Schedule compose_sequential(const ComposeInput& in);
// Pipeline (Themis-style baseline, MICRO'25 "Ring + Pipeline"): C chunks (in.chunks), all in the
// order 0, 1, ..., D-1, one active chunk per dimension: chunk c runs its k-th dimension after
// its own (k-1)-th and after chunk c-1's k-th, i.e. in slot c + k.
Schedule compose_pipeline(const ComposeInput& in);
// DimRotation: D chunks (D = dimensions of size > 1); chunk i takes the dimensions in the order
// i, i+1, ..., i+D-1 (mod D), so in every slot the chunks occupy D different dimensions.
Schedule compose_dimrotation(const ComposeInput& in);

} // namespace icnkit::coll
