// Dimension schedulers: how the per-ring plans of an algorithm become phases over a torus.
#pragma once
#include "coll/registry.hpp"

namespace icnkit::coll {

// Sequential: one chunk; dimension 0, then 1, then 2 ..., each an all-to-all inside every ring
// of that dimension, all rings in parallel; every step waits for the previous one. Dimensions
// of size 1 move nothing and get no phase.
Schedule compose_sequential(const ComposeInput& in);

} // namespace icnkit::coll
