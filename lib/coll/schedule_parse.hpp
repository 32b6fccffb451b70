// Reading a `schedule` section (schedule.hpp): its structure, and its names (collective,
// algorithm, dimension scheduling) checked against the registry (registry.hpp). Apart from
// schedule.hpp so that the schedule's types do not depend on the registry, which lists the
// algorithms that build schedules.
#pragma once
#include "coll/schedule.hpp"

namespace icnkit::coll {

// Strict structural parse (unknown keys, bad ranges, non-dense step ids, `after` not earlier,
// bytes inconsistent with fraction x block: Error(Input)). Semantic checks against the network
// (delivery, faults, contention) are verify()'s job.
Schedule parse_schedule(ObjReader& r);

} // namespace icnkit::coll
