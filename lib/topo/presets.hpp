// Published systems as presets (topo-gen --preset NAME [key=value ...], --list-presets): each
// is a context and a candidate built from the system's public description, with its source
// named and, where the model departs from it, why. The scale-up and scale-out speeds are the
// published per-direction figures (a "900 GB/s" NVLink GPU moves 450 GB/s each way); the
// latencies are assumed (100 ns a scale-up hop, 1 us a scale-out hop) unless --link-latency
// says otherwise.
#pragma once
#include "topo/candidate.hpp"
#include "topo/context.hpp"

#include <string>
#include <utility>
#include <vector>

namespace icnkit::topo {

struct PresetKey {
  std::string name;
  std::string fallback; // the value when not given
  std::string help;
};

struct Preset {
  std::string name;
  std::string summary;
  std::string source; // where the figures come from
  std::string model;  // how the model departs from the source, and why
  std::vector<PresetKey> keys;
};

// The presets, in the order --list-presets shows them.
const std::vector<Preset>& presets();

// The context and candidate of preset `name` with `settings` ("key=value" each). Error(Usage)
// naming --preset for an unknown preset, an unknown or repeated key, a value out of range, or a
// size the system does not come in. `twist` is set for the presets whose torus is twisted.
std::pair<Context, Candidate>
preset_candidate(const std::string& name, const std::vector<std::string>& settings, bool& twist);

// The --list-presets text: one paragraph per preset, its keys with their defaults, its source.
std::string list_presets();

} // namespace icnkit::topo
