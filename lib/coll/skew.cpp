#include "coll/skew.hpp"

#include "core/error.hpp"
#include "core/random.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <sstream>

namespace icnkit::coll {

namespace {

// A whole finite number, nothing around it.
bool to_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && p == end && std::isfinite(v);
}

std::string num(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

} // namespace

std::vector<double> skew_bytes(const Skew& k, std::int64_t n, double S, const std::string& where) {
  const auto N = static_cast<std::size_t>(n);
  std::vector<double> m(N * N, 0.0);
  if (n < 2) return m;
  if (k.kind == "zipf") {
    // Popularity ranks 1..n in a seeded random order (Fisher-Yates with SplitMix64).
    std::vector<std::int64_t> place(N);
    std::iota(place.begin(), place.end(), 1);
    SplitMix64 rng(k.seed);
    for (std::size_t i = N - 1; i > 0; --i)
      std::swap(place[i], place[static_cast<std::size_t>(rng.below(i + 1))]);
    std::vector<double> w(N);
    for (std::size_t d = 0; d < N; ++d) w[d] = std::pow(static_cast<double>(place[d]), -k.exponent);
    double total = 0;
    for (double x : w) total += x;
    for (std::size_t o = 0; o < N; ++o)
      for (std::size_t d = 0; d < N; ++d) m[o * N + d] = S * w[d] / total;
    return m;
  }
  if (k.weights.size() != N)
    fail_input(where, "the skew matrix has " + std::to_string(k.weights.size()) + " rows, the " +
                          "group " + std::to_string(n) + " ranks");
  double total = 0;
  for (std::size_t o = 0; o < N; ++o) {
    if (k.weights[o].size() != N)
      fail_input(where, "row " + std::to_string(o + 1) + " of the skew matrix has " +
                            std::to_string(k.weights[o].size()) + " entries, not " +
                            std::to_string(n));
    for (std::size_t d = 0; d < N; ++d) total += k.weights[o][d];
  }
  if (!(total > 0)) fail_input(where, "the skew matrix is all zeros");
  for (std::size_t o = 0; o < N; ++o)
    for (std::size_t d = 0; d < N; ++d)
      m[o * N + d] = S * static_cast<double>(n) * k.weights[o][d] / total;
  return m;
}

Skew parse_skew_spec(const std::string& spec, std::uint64_t seed, const std::string& where) {
  Skew k;
  if (spec.rfind("zipf:", 0) == 0) {
    if (!to_double(spec.substr(5), k.exponent) || k.exponent < 0 || k.exponent > 10)
      fail_usage(where, "zipf:S takes an exponent S from 0 to 10, not '" + spec.substr(5) + "'");
    k.seed = seed;
    return k;
  }
  fail_usage(where, "'" + spec + "' is not a skew (zipf:S or matrix:FILE)");
}

std::vector<std::vector<double>> parse_skew_matrix(const std::string& text,
                                                   const std::string& where) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(text);
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream ls(line);
    std::vector<double> row;
    for (std::string tok; ls >> tok;) {
      double v = 0;
      if (!to_double(tok, v) || v < 0)
        fail_input(where, "line " + std::to_string(no) + ": '" + tok + "' is not a size >= 0");
      row.push_back(v);
    }
    if (!row.empty()) rows.push_back(std::move(row));
  }
  if (rows.empty()) fail_input(where, "no rows");
  return rows;
}

std::string to_string(const Skew& k) {
  if (k.kind == "zipf") return "zipf:" + num(k.exponent) + " seed " + std::to_string(k.seed);
  return "matrix " + std::to_string(k.weights.size()) + "x" + std::to_string(k.weights.size());
}

} // namespace icnkit::coll
