// What topo-enum and topo-gen can do, described from their registries for --describe: the
// families (parameters, scopes, endpoints, warnings) and topo-gen's export formats.
#pragma once
#include "core/json_reader.hpp"

namespace icnkit::topo {

// {"families": [...], "framework_warnings": [...]}: every family of the registry in its order.
json describe_families();
// describe_families() and {"formats": [...]}: the output formats of topo-gen --format.
json describe_generation();

} // namespace icnkit::topo
