// The routing section's JSON, written as the document holds it and read back strictly. The type
// is lib/route's (route/routing_section.hpp), which knows no JSON text.
#pragma once
#include "core/json_reader.hpp"
#include "route/routing_section.hpp"

namespace icnkit::route {

json to_json(const RoutingSection& s);
// Strict: unknown keys anywhere are Error(Input); the algorithm must be registered and its
// parameters of the right types. Checks that need the network are made by make_routing().
RoutingSection parse_routing(ObjReader& r);

} // namespace icnkit::route
