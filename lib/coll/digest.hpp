// The digest of a verified schedule: coll-sched records it (`verified_digest`) once verify() has
// passed, so that net-sim need not repeat the verification on a schedule that has not changed
// since. It covers every field of the section but itself, the network fingerprint (which covers
// the network and its faults) and the verification's figures included, so a schedule edited
// after coll-sched, or moved onto another network, no longer matches and is verified again.
// Like the network fingerprint it guards against accidents, not against someone who recomputes
// it on purpose.
#pragma once
#include "coll/schedule.hpp"

#include <string>

namespace icnkit::coll {

// XXH3-64 (16 hex digits) of the schedule's content, verified_digest excluded.
std::string schedule_digest(const Schedule& s);

// Records the digest of `s`, which the caller has just verified (s.verification set).
void seal(Schedule& s);

// Whether `s` carries a digest of what it now holds, with a successful verification: verifying
// it again would find what coll-sched found. False without a digest (older documents).
bool sealed(const Schedule& s);

} // namespace icnkit::coll
