// XXH3-64 fingerprints, printed as 16 lower-case hex digits. Content is fed field by field in a
// fixed order and width, so a fingerprint does not depend on how JSON happens to be formatted.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

struct XXH3_state_s;

namespace icnkit {

class Fingerprinter {
public:
  Fingerprinter();
  ~Fingerprinter();
  Fingerprinter(const Fingerprinter&) = delete;
  Fingerprinter& operator=(const Fingerprinter&) = delete;

  void add_int(std::int64_t v);
  void add_real(double v);
  void add_text(std::string_view bytes); // length-prefixed, so ("ab","c") != ("a","bc")
  std::string hex() const;

private:
  XXH3_state_s* st_;
};

// XXH3-64 of raw bytes (no length prefix).
std::string fingerprint_hex(std::string_view bytes);

} // namespace icnkit
