// One step of following a routing function, shared by trace() and the reachability check so
// that both take exactly the same decisions and give the same reasons.
#pragma once
#include "route/routing.hpp"
#include "topo/network.hpp"

#include <string>
#include <vector>

namespace icnkit::route::detail {

// Index of the first choice whose link and next chip are up, or -1 with *reason saying what
// blocked the first choice (or that there was none). down_chips may be empty (unknown).
// Error(Runtime) when a choice does not leave `node` (a routing-function bug).
int pick(const std::vector<Choice>& choices, const topo::Network& n,
         const std::vector<char>& down_links, const std::vector<char>& down_chips,
         std::int64_t node, std::string* reason);

std::string loop_reason(std::int64_t hop_limit);

} // namespace icnkit::route::detail
