#include "fuzz.hpp"

#include "core/json_reader.hpp"
#include "doc/topo_json.hpp"
#include "topo/network.hpp"

#include <cstdio>
#include <cstdlib>

namespace icnkit::fuzz {

void finding(const std::string& what) {
  std::fprintf(stderr, "icnkit fuzz finding: %s\n", what.c_str());
  std::abort();
}

std::string with_fingerprints(const std::string& text) {
  try {
    json j = parse_json(text, "fuzz");
    if (!j.is_object() || !j.contains("network") || !j["network"].is_object()) return text;
    ObjReader r(j["network"], "fuzz", "/network");
    const topo::Network n = topo::parse_network(r);
    std::optional<topo::Faults> f;
    if (j.contains("faults") && j["faults"].is_object()) {
      ObjReader fr(j["faults"], "fuzz", "/faults");
      f = topo::parse_faults(fr, &n);
    }
    const std::string fp = topo::fingerprint(n, f ? &*f : nullptr);
    j["network"]["fingerprint"] = fp;
    for (const char* s : {"routing", "schedule", "report"})
      if (j.contains(s) && j[s].is_object()) j[s]["network_fingerprint"] = fp;
    return j.dump();
  } catch (const std::exception&) {
    return text; // the reader will say what is wrong with it
  }
}

} // namespace icnkit::fuzz
