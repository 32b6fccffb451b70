#include "topo/describe.hpp"

#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/family.hpp"

namespace icnkit::topo {

json describe_families() {
  json fams = json::array();
  for (const Family* f : families()) {
    json scopes = json::array();
    for (Scope s : f->scopes()) scopes.push_back(to_string(s));
    fams.push_back({{"name", f->name()},
                    {"summary", f->summary()},
                    {"reference", f->reference()},
                    {"parameters", f->parameters()},
                    {"endpoints", f->leaf() == Leaf::Chip ? "chips (Tier 6)" : "boards (Tier 7)"},
                    {"scopes", scopes},
                    {"warnings", f->warning_names()}});
  }
  json framework = json::array({kNonStandardScope, kDensePcbImpractical});
  return {{"families", fams}, {"framework_warnings", framework}};
}

json describe_generation() {
  json d = describe_families();
  json formats = json::array();
  for (const auto& [name, summary] : export_formats())
    formats.push_back({{"name", name}, {"summary", summary}});
  d["formats"] = formats;
  return d;
}

} // namespace icnkit::topo
