#include "core/fingerprint.hpp"

#include <cstdio>
#include <new>
#include <xxhash.h>

namespace icnkit {

namespace {
std::string to_hex(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}
} // namespace

Fingerprinter::Fingerprinter() : st_(XXH3_createState()) {
  if (!st_ || XXH3_64bits_reset(st_) == XXH_ERROR) throw std::bad_alloc();
}
Fingerprinter::~Fingerprinter() {
  XXH3_freeState(st_);
}

void Fingerprinter::add_int(std::int64_t v) {
  XXH3_64bits_update(st_, &v, sizeof v);
}
void Fingerprinter::add_real(double v) {
  XXH3_64bits_update(st_, &v, sizeof v);
}
void Fingerprinter::add_text(std::string_view bytes) {
  add_int(static_cast<std::int64_t>(bytes.size()));
  XXH3_64bits_update(st_, bytes.data(), bytes.size());
}
std::string Fingerprinter::hex() const {
  return to_hex(XXH3_64bits_digest(st_));
}

std::string fingerprint_hex(std::string_view bytes) {
  return to_hex(XXH3_64bits(bytes.data(), bytes.size()));
}

} // namespace icnkit
