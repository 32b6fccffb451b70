// The check that two analytic results are the same run: a program simulated whole and by its
// orbits (the symmetry fast path), say. Times and utilisations to 1e-12, flows exactly, every
// channel's bytes to 1e-9 of the bytes per rank.
#pragma once
#include "sim/analytic.hpp"

#include <catch2/catch.hpp>
#include <cmath>

namespace icnkit::test {

inline void check_same_analytic(const sim::AnalyticResult& got, const sim::AnalyticResult& want,
                                double bytes_per_rank) {
  auto close = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
  CHECK(close(got.time_s, want.time_s));
  CHECK(got.flows == want.flows);
  REQUIRE(got.channel_bytes.size() == want.channel_bytes.size());
  for (std::size_t ch = 0; ch < want.channel_bytes.size(); ++ch)
    CHECK(std::abs(got.channel_bytes[ch] - want.channel_bytes[ch]) <= 1e-9 * bytes_per_rank);
  CHECK(close(got.max_utilisation, want.max_utilisation));
}

} // namespace icnkit::test
