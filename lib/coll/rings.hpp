// The rings of one dimension of a torus: numbering, membership and the chip at a position.
// Ring r of dimension d holds the chips that share every coordinate but d; r numbers them
// row-major over the other coordinates (lower dimension fastest), the position is coordinate d.
#pragma once
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <string>

namespace icnkit::coll {

class DimRings {
public:
  DimRings(const topo::TorusGeometry& g, int d)
      : size_(g.size(d)), stride_(g.stride(d)), span_(g.stride(d) * g.size(d)),
        count_(g.count() / g.size(d)) {}

  int size() const { return size_; }            // chips per ring
  std::int64_t count() const { return count_; } // rings in this dimension
  std::int64_t chip(std::int64_t ring, int pos) const {
    return ring % stride_ + pos * stride_ + (ring / stride_) * span_;
  }
  std::int64_t ring_of(std::int64_t chip) const {
    return chip % stride_ + (chip / span_) * stride_;
  }
  int pos_of(std::int64_t chip) const { return static_cast<int>((chip / stride_) % size_); }

private:
  int size_;
  std::int64_t stride_, span_, count_;
};

// "chip 5 (1,1,0)" for messages.
inline std::string chip_text(const topo::TorusGeometry& g, std::int64_t chip) {
  std::string s = "chip " + std::to_string(chip) + " (";
  for (int d = 0; d < g.dims(); ++d) {
    if (d > 0) s += ',';
    s += std::to_string(g.coord(chip, d));
  }
  s += ')';
  return s;
}

// (a + b) mod n for a, b of any sign, n > 0.
inline int wrap(std::int64_t a, int n) {
  std::int64_t m = a % n;
  return static_cast<int>(m < 0 ? m + n : m);
}

} // namespace icnkit::coll
