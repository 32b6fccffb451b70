// PLACEHOLDER (replaced by the collective scheduling work): the `schedule` section of the document.
#pragma once
#include "core/json_reader.hpp"

namespace icnkit::coll {
struct Schedule {
  json body = json::object();
  std::string network_fingerprint;
};
json to_json(const Schedule& s);
Schedule parse_schedule(ObjReader& r);
} // namespace icnkit::coll
