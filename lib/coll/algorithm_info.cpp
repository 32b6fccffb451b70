#include "coll/algorithm_info.hpp"

#include <algorithm>

namespace icnkit::coll {

bool TorusForm::implements(const std::string& collective) const {
  return std::find(collectives.begin(), collectives.end(), collective) != collectives.end();
}
bool RankForm::implements(const std::string& collective) const {
  return std::find(collectives.begin(), collectives.end(), collective) != collectives.end();
}
bool AlgorithmInfo::implements(const std::string& collective) const {
  return (torus && torus->implements(collective)) || (ranks && ranks->implements(collective));
}

} // namespace icnkit::coll
