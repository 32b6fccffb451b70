// The schedule section's JSON: a torus schedule's phases, or a schedule between ranks (its stages,
// parts and skew), written as the document holds it and read back strictly, the names
// (collective, algorithm, dimension scheduling) checked against the registry (coll/registry.hpp).
// The types are lib/coll's, which knows no JSON text.
#pragma once
#include "coll/schedule.hpp"
#include "core/json_reader.hpp"

#include <string>

namespace icnkit::coll {

json to_json(const Skew& k);
Skew parse_skew(ObjReader& r);

json to_json(const RankSchedule& r);
// Strict structural parse; every group of the same size n >= 1, no chip twice; chips are checked
// against the network by verification. `collective` decides what `blocks` may be.
RankSchedule parse_rank_schedule(ObjReader& r, const std::string& collective);

json to_json(const Schedule& s);
// Strict structural parse (unknown keys, bad ranges, non-dense step ids, `after` not earlier,
// bytes inconsistent with fraction x block: Error(Input)). Semantic checks against the network
// (delivery, faults, contention) are verify()'s job.
Schedule parse_schedule(ObjReader& r);

} // namespace icnkit::coll
