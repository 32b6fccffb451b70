#include "coll/schedule.hpp"
namespace icnkit::coll {
json to_json(const Schedule& s) {
  json j = s.body;
  j["network_fingerprint"] = s.network_fingerprint;
  return j;
}
Schedule parse_schedule(ObjReader& r) {
  Schedule s;
  s.network_fingerprint = r.string("network_fingerprint");
  return s;
}
} // namespace icnkit::coll
