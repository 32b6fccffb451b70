#include "route/routing_section.hpp"

#include "core/error.hpp"
#include "route/registry.hpp"
#include "route/routing.hpp"

namespace icnkit::route {

std::unique_ptr<RoutingFunction> make_routing(const RoutingSection& s, const topo::Network& n,
                                              const topo::Faults& f) {
  const Algorithm& a = require_algorithm(s.algorithm, ErrorKind::Input, "/routing/algorithm");
  ParamErrors errors{ErrorKind::Input,
                     [](const ParamSpec& p) { return "/routing/params/" + p.name; }};
  Built b = build_routing(a, s.params, n, f, errors);
  if (b.fn->vc_count() != s.vc_count)
    fail_input("/routing/vc_count", "is " + std::to_string(s.vc_count) + ", but " + s.algorithm +
                                        " with these parameters uses " +
                                        std::to_string(b.fn->vc_count()));
  return std::move(b.fn);
}

} // namespace icnkit::route
