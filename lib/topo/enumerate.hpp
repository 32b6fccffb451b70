// The framework around the families: enumerate (warnings for every family, status order,
// the 50-result cap) and generate (invariants and fingerprint on every output).
#pragma once
#include "topo/family.hpp"

namespace icnkit::topo {

inline constexpr std::size_t kDefaultResultCap = 50;

// The family for a name: Error(Usage) if the name is unknown, Error(Infeasible) if the spec
// defines it but it is not implemented yet.
const Family& require_family(const std::string& name, const std::string& where);

// All feasible candidates of the given families, recommended first; at most `cap` (0 = all).
CandidateList enumerate(const Context& ctx, const std::vector<const Family*>& fams,
                        std::size_t cap);

// Generates the candidate's network and checks every invariant on it.
Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o);

} // namespace icnkit::topo
