#include "sim/report.hpp"
namespace icnkit::sim {
json to_json(const Report& s) {
  json j = s.body;
  j["network_fingerprint"] = s.network_fingerprint;
  return j;
}
Report parse_report(ObjReader& r) {
  Report s;
  s.network_fingerprint = r.string("network_fingerprint");
  return s;
}
} // namespace icnkit::sim
