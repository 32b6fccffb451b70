#include "core/fingerprint.hpp"

#include <cstdio>
#include <xxhash.h>

namespace icnkit {
std::string fingerprint_hex(std::string_view bytes) {
  unsigned long long h = XXH3_64bits(bytes.data(), bytes.size());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}
} // namespace icnkit
