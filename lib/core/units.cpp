#include "core/units.hpp"

#include "core/error.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace icnkit {
namespace {

using UnitTable = std::vector<std::pair<std::string, double>>;

// Bandwidth units, factors to bytes/s, in the order messages list them.
const UnitTable& bandwidth_table() {
  static const UnitTable k = {{"B/s", 1},
                              {"KB/s", 1e3},
                              {"MB/s", 1e6},
                              {"GB/s", 1e9},
                              {"TB/s", 1e12},
                              {"PB/s", 1e15},
                              {"KiB/s", 1024.0},
                              {"MiB/s", 1048576.0},
                              {"GiB/s", 1073741824.0},
                              {"TiB/s", 1099511627776.0},
                              {"b/s", 0.125},
                              {"Kb/s", 125.0},
                              {"Mb/s", 1.25e5},
                              {"Gb/s", 1.25e8},
                              {"Tb/s", 1.25e11},
                              {"bps", 0.125},
                              {"Kbps", 125.0},
                              {"Mbps", 1.25e5},
                              {"Gbps", 1.25e8},
                              {"Tbps", 1.25e11},
                              {"GBps", 1e9}};
  return k;
}

// Time units, divisors of seconds: 500 / 1e9 is exactly the double nearest 5e-7, 500 * 1e-9 is
// not.
const UnitTable& time_table() {
  static const UnitTable k = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}, {"ps", 1e12}};
  return k;
}

// Microseconds as people write them: the micro sign (U+00B5) or the Greek mu (U+03BC).
std::string ascii_micro(std::string unit) {
  for (const char* mu : {"\xC2\xB5", "\xCE\xBC"})
    if (unit.rfind(mu, 0) == 0) return unit.replace(0, 2, 1, 'u');
  return unit;
}

std::string names(const UnitTable& t) {
  std::string s;
  for (auto& [name, f] : t) s += (s.empty() ? "" : ", ") + name;
  return s;
}

const double* find(const UnitTable& t, const std::string& unit) {
  for (auto& [name, f] : t)
    if (name == unit) return &f;
  return nullptr;
}

// Length of the decimal number at the start of `t`: [+-]digits[.digits][e[+-]digits]
// (digits on at least one side of the point); 0 if there is none.
std::size_t number_length(const std::string& t) {
  auto digits = [&](std::size_t i) {
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i;
  };
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t int_end = digits(i);
  std::size_t end = int_end;
  bool any = int_end > i;
  if (end < t.size() && t[end] == '.') {
    std::size_t frac_end = digits(end + 1);
    any = any || frac_end > end + 1;
    end = frac_end;
  }
  if (!any) return 0;
  if (end < t.size() && (t[end] == 'e' || t[end] == 'E')) {
    std::size_t j = end + 1;
    if (j < t.size() && (t[j] == '+' || t[j] == '-')) ++j;
    std::size_t exp_end = digits(j);
    if (exp_end > j) end = exp_end;
  }
  return end;
}

// Splits "64.5MiB" (or " 64.5 MiB ") into 64.5 and "MiB"; rejects anything that is not a
// number and a suffix. Spaces may surround the value and stand between the number and its unit,
// nowhere else: "1 2" is not 12, nor "5 0GB/s" 50 GB/s.
std::pair<double, std::string> split(const std::string& text, const std::string& where,
                                     const char* what) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t b = 0, e = text.size();
  while (b < e && space(text[b])) ++b;
  while (e > b && space(text[e - 1])) --e;
  const std::string t = text.substr(b, e - b);
  if (t.empty()) fail_usage(where, std::string("empty ") + what);
  const std::size_t n = number_length(t);
  if (n == 0) fail_usage(where, "'" + text + "' is not a " + what);
  double v = std::strtod(t.substr(0, n).c_str(), nullptr);
  if (!std::isfinite(v)) fail_usage(where, "'" + text + "' is out of range");
  std::size_t u = n;
  while (u < t.size() && space(t[u])) ++u;
  std::string unit = t.substr(u);
  for (char c : unit)
    if (space(c)) fail_usage(where, "'" + text + "' is not a " + what);
  return {v, unit};
}

// `v` in the largest unit of `t` it is at least 1 of, e.g. 1e15 -> "1PB/s", 1 -> "1s".
std::string with_unit(double v, const UnitTable& t, bool divisor) {
  std::string best = t.front().first;
  double best_v = divisor ? v * t.front().second : v / t.front().second;
  for (auto& [name, f] : t) {
    double x = divisor ? v * f : v / f;
    if (x >= 1 && x < best_v) best = name, best_v = x;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", best_v);
  return buf + best;
}

} // namespace

std::string bandwidth_units() {
  return names(bandwidth_table());
}
std::string time_units() {
  return names(time_table()) + " (or \xC2\xB5s)";
}
std::string size_units() {
  return "B, KB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB and nccl-tests' K, M, G, T "
         "(powers of 1024)";
}

std::uint64_t parse_bytes(const std::string& text, const std::string& where) {
  static const UnitTable k = {{"", 1},
                              {"B", 1},
                              {"KB", 1e3},
                              {"MB", 1e6},
                              {"GB", 1e9},
                              {"TB", 1e12},
                              {"KiB", 1024.0},
                              {"MiB", 1048576.0},
                              {"GiB", 1073741824.0},
                              {"TiB", 1099511627776.0},
                              // nccl-tests' suffixes (-b 8K -e 1G): powers of 1024
                              {"K", 1024.0},
                              {"M", 1048576.0},
                              {"G", 1073741824.0},
                              {"T", 1099511627776.0}};
  auto [v, unit] = split(text, where, "size (e.g. 64MiB)");
  const double* f = find(k, unit);
  if (!f) fail_usage(where, "unknown size unit '" + unit + "' (" + size_units() + ")");
  double bytes = v * *f;
  if (!(bytes >= 1)) fail_usage(where, "size must be at least 1 byte");
  if (bytes > 1.0e18) fail_usage(where, "size '" + text + "' is too large");
  if (bytes != std::floor(bytes))
    fail_usage(where, "size '" + text + "' is not a whole number of bytes");
  return static_cast<std::uint64_t>(bytes);
}

std::vector<std::uint64_t> parse_sizes(const std::string& text, const std::string& where,
                                       std::size_t max_count) {
  std::vector<std::uint64_t> out;
  auto too_many = [&] {
    fail_usage(where, "more than " + std::to_string(max_count) + " sizes in '" + text + "'");
  };
  if (text.find(':') == std::string::npos) { // a list
    std::size_t pos = 0;
    for (;;) {
      const std::size_t comma = text.find(',', pos);
      out.push_back(parse_bytes(text.substr(pos, comma - pos), where));
      if (out.size() > max_count) too_many();
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
    return out;
  }
  const std::size_t a = text.find(':'), b = text.find(':', a + 1);
  if (b == std::string::npos || text.find(':', b + 1) != std::string::npos ||
      b + 1 >= text.size() || (text[b + 1] != 'x' && text[b + 1] != '+'))
    fail_usage(where, "expected FROM:TO:xFACTOR, FROM:TO:+STEP or a list of sizes, got '" + text +
                          "' (e.g. 8KiB:1GiB:x2)");
  const std::uint64_t from = parse_bytes(text.substr(0, a), where);
  const std::uint64_t to = parse_bytes(text.substr(a + 1, b - a - 1), where);
  if (from > to) fail_usage(where, "FROM must not exceed TO in '" + text + "'");
  if (text[b + 1] == 'x') {
    const std::string f = text.substr(b + 2);
    char* end = nullptr;
    const long factor = std::strtol(f.c_str(), &end, 10);
    if (f.empty() || *end != '\0' || factor < 2 || factor > 1024)
      fail_usage(where, "the factor after 'x' is a whole number from 2 to 1024, got '" + f + "'");
    for (std::uint64_t z = from; z <= to; z *= static_cast<std::uint64_t>(factor)) {
      out.push_back(z);
      if (out.size() > max_count) too_many();
      if (z > to / static_cast<std::uint64_t>(factor)) break;
    }
  } else {
    const std::uint64_t step = parse_bytes(text.substr(b + 2), where);
    for (std::uint64_t z = from; z <= to; z += step) {
      out.push_back(z);
      if (out.size() > max_count) too_many();
      if (to - z < step) break;
    }
  }
  return out;
}

double parse_bandwidth(const std::string& text, const std::string& where, double lo, double hi) {
  const UnitTable& k = bandwidth_table();
  auto [v, unit] = split(text, where, "bandwidth (e.g. 50GB/s)");
  if (unit.empty())
    fail_usage(where, "'" + text + "' has no unit (e.g. 50GB/s; units: " + bandwidth_units() + ")");
  const double* f = find(k, unit);
  if (!f)
    fail_usage(where, "unknown bandwidth unit '" + unit + "' (units: " + bandwidth_units() + ")");
  double bw = v * *f;
  if (!(bw >= lo && bw <= hi)) {
    const UnitTable decimal(k.begin(), k.begin() + 6); // B/s .. PB/s
    fail_usage(where, "bandwidth '" + text + "' is outside " + with_unit(lo, decimal, false) +
                          " .. " + with_unit(hi, decimal, false));
  }
  return bw;
}

double parse_time(const std::string& text, const std::string& where, double hi) {
  const UnitTable& k = time_table();
  auto [v, written] = split(text, where, "time (e.g. 1us)");
  const std::string unit = ascii_micro(written);
  if (unit.empty() && v != 0)
    fail_usage(where, "'" + text + "' has no unit (e.g. 1us; units: " + time_units() + ")");
  const double* f = unit.empty() ? &k.front().second : find(k, unit);
  if (!f) fail_usage(where, "unknown time unit '" + written + "' (units: " + time_units() + ")");
  double t = v / *f;
  if (t == 0) t = 0; // not -0
  if (!(t >= 0 && t <= hi))
    fail_usage(where, "time '" + text + "' is outside 0 .. " + with_unit(hi, k, true));
  return t;
}

std::string format_mib(std::int64_t bytes) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return b;
}

} // namespace icnkit
