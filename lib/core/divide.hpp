// Quotient and remainder of 32-bit unsigned integers by a divisor fixed at run time, by
// multiplications instead of a hardware division (20 to 40 cycles on the machines this runs on,
// against 3 or 4): with M = ceil(2^64 / d), n / d is the high 64 bits of M n, and n mod d the
// high 64 bits of (M n mod 2^64) d. Exact for every 32-bit n and every d >= 1 (Lemire, Kaser &
// Kurz, Faster Remainder by Direct Computation, Software: Practice and Experience 49(6), 2019).
#pragma once
#include <cstdint>

namespace icnkit {

class DivideBy {
public:
  explicit DivideBy(std::uint32_t d) : d_(d), m_(d > 1 ? ~std::uint64_t{0} / d + 1 : 0) {}
  std::uint32_t divisor() const { return d_; }
  std::uint32_t quotient(std::uint32_t n) const {
    return d_ > 1 ? static_cast<std::uint32_t>(high(m_, n)) : n;
  }
  std::uint32_t remainder(std::uint32_t n) const {
    return d_ > 1 ? static_cast<std::uint32_t>(high(m_ * n, d_)) : 0;
  }

private:
  __extension__ using U128 = unsigned __int128;
  static std::uint64_t high(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>(static_cast<U128>(a) * b >> 64);
  }
  std::uint32_t d_;
  std::uint64_t m_;
};

} // namespace icnkit
