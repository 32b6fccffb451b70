// PLACEHOLDER (replaced by the routing work): the `routing` section of the document.
#pragma once
#include "core/json_reader.hpp"

namespace icnkit::route {
struct RoutingSection {
  json body = json::object();
  std::string network_fingerprint;
};
json to_json(const RoutingSection& s);
RoutingSection parse_routing(ObjReader& r);
} // namespace icnkit::route
