// XXH3-64 fingerprints, printed as 16 lower-case hex digits.
#pragma once
#include <string>
#include <string_view>

namespace icnkit {
std::string fingerprint_hex(std::string_view bytes);
} // namespace icnkit
