// The JSON value type, for the few domain types that hold a JSON value as data (a family's
// attributes, a routing's parameters). Reading and writing documents is lib/doc's; the strict
// reader is core/json_reader.hpp.
#pragma once
#include <nlohmann/json.hpp>

namespace icnkit {

using json = nlohmann::json;

} // namespace icnkit
