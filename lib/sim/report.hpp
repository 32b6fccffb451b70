// PLACEHOLDER (replaced by the simulation work): the `report` section of the document.
#pragma once
#include "core/json_reader.hpp"

namespace icnkit::sim {
struct Report {
  json body = json::object();
  std::string network_fingerprint;
};
json to_json(const Report& s);
Report parse_report(ObjReader& r);
} // namespace icnkit::sim
