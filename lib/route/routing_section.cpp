#include "route/routing_section.hpp"
namespace icnkit::route {
json to_json(const RoutingSection& s) {
  json j = s.body;
  j["network_fingerprint"] = s.network_fingerprint;
  return j;
}
RoutingSection parse_routing(ObjReader& r) {
  RoutingSection s;
  s.network_fingerprint = r.string("network_fingerprint");
  return s;
}
} // namespace icnkit::route
