#include "core/threads.hpp"

#include "core/error.hpp"

#include <cstdlib>
#include <string>
#include <thread>

namespace icnkit {

int default_threads() {
  if (const char* env = std::getenv("ICNKIT_THREADS")) {
    const std::string t = env;
    const bool digits =
        !t.empty() && t.size() <= 3 && t.find_first_not_of("0123456789") == std::string::npos;
    const int v = digits ? std::stoi(t) : 0;
    if (v < 1 || v > kMaxThreads)
      fail_usage("ICNKIT_THREADS", "must be a number of workers from 1 to " +
                                       std::to_string(kMaxThreads) + ", got '" + t + "'");
    return v;
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min<unsigned>(hw, kMaxThreads));
}

int resolve_threads(int requested) {
  return requested > 0 ? requested : default_threads();
}

} // namespace icnkit
