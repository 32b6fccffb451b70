// Analyses by symmetry: verification and uniform link load computed from a routing's symmetry
// instead of pair by pair, with the same results as verify_routing_all_pairs() and
// uniform_load_all_pairs() (verify.hpp, load.hpp). A routing function offers one through
// RoutingFunction::symmetric_analysis(); verify_routing() and uniform_load() ask it first and walk
// every pair when it has none or it declines. The analyses (dor_symmetry.hpp,
// minimal_symmetry.hpp) depend on verification's and load's interfaces, never the other way
// round: verify.cpp and load.cpp know this interface only, not the algorithms.
#pragma once
#include "route/routing_section.hpp"
#include "topo/network.hpp"

#include <optional>

namespace icnkit::route {

struct LoadReport; // load.hpp: load.cpp includes this header, so it must not include load.hpp

class SymmetricAnalysis {
public:
  virtual ~SymmetricAnalysis() = default;
  // std::nullopt when the analysis does not apply to this network and faults (or its tables
  // would be too large): the caller then walks every pair.
  virtual std::optional<Verification> verify(const topo::Network& n,
                                             const topo::Faults& f) const = 0;
  virtual std::optional<LoadReport> uniform_load(const topo::Network& n,
                                                 const topo::Faults& f) const = 0;
};

// The analysis of a routing function Fn whose fast paths are two functions, Verify(fn, n, f) and
// Load(fn, n, f) (DorRouting's and MinimalRouting's, in their symmetry files). Report is
// LoadReport, a parameter only so that this header needs no complete LoadReport.
template <class Fn, auto Verify, auto Load, class Report = LoadReport>
class SymmetricFunctions final : public SymmetricAnalysis {
public:
  explicit SymmetricFunctions(const Fn& fn) : fn_(fn) {}
  std::optional<Verification> verify(const topo::Network& n, const topo::Faults& f) const override {
    return Verify(fn_, n, f);
  }
  std::optional<Report> uniform_load(const topo::Network& n, const topo::Faults& f) const override {
    return Load(fn_, n, f);
  }

private:
  const Fn& fn_;
};

} // namespace icnkit::route
