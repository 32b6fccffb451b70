// A schedule as a simulation program (lib/sim/program.hpp): the ring transfers of a step are
// expanded into one-hop flows on demand, one step at a time.
#pragma once
#include "coll/schedule.hpp"
#include "sim/program.hpp"
#include "topo/network.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::coll {

// How a schedule's steps pay link latency.
enum class StepLatency {
  PerHop, // every step pays its flows' path latency (store-and-forward: one alpha per sub-stage)
  // The MICRO'25 artifact's accounting (ASTRA-sim's analytical backend): a phase pays its
  // latency once, on the first step of each lane: alpha for Ring and HalfRing, (N-1) alpha for
  // a folded ring, 3 alpha for an acceleration phase; later steps pay none.
  Astra,
};

class ScheduleProgram : public sim::Program {
public:
  // Copies what it needs from `s` and `net` (neither must outlive the program). The network must
  // be the torus the schedule was made for (Error(Infeasible) for another family; shapes are
  // checked by verify(), run it first on schedules read from documents).
  // Astra takes alpha from the network's first link (the artifact's tori have one latency).
  // Given `faults` (the analytic engine's case) and none has failed, a schedule whose transfers
  // all cover every ring without a fold is simulated one flow per orbit of the torus's
  // translations (sim/symmetry.hpp: the same result bit for bit); orbits() then says so.
  ScheduleProgram(const Schedule& s, const topo::Network& net,
                  StepLatency latency = StepLatency::PerHop, const topo::Faults* faults = nullptr);

  const std::vector<std::string>& phases() const override { return phase_names_; }
  const std::vector<sim::StepInfo>& steps() const override { return steps_; }
  // For every transfer, every ring in its scope (ascending), every position (ascending):
  // add1(chip, neighbour, bytes, channel). Deterministic order.
  // By orbits: the same for the chips of the fundamental domain only, every channel replaced by
  // its orbit's representative.
  void flows(std::size_t step, sim::StepFlows& out) const override;
  const sim::FlowOrbits* orbits() const override { return orbits_ ? &*orbits_ : nullptr; }

private:
  struct DimTable {
    // Indexed by ring * size + position: the chip, and its neighbour / channel per direction.
    std::vector<std::int64_t> chip, next_plus, next_minus, chan_plus, chan_minus;
    std::int64_t ring_count = 0;
    int size = 0;
  };
  Schedule sched_;
  topo::TorusGeometry geo_;
  std::vector<std::string> phase_names_;
  std::vector<sim::StepInfo> steps_;
  std::vector<std::pair<std::size_t, std::size_t>> where_; // step id -> (phase, index)
  std::vector<DimTable> dims_;
  std::optional<sim::FlowOrbits> orbits_;
  std::vector<std::int64_t> domain_; // the chips that send, by orbits
};

} // namespace icnkit::coll
