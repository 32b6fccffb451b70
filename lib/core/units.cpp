#include "core/units.hpp"

#include "core/error.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

namespace icnkit {
namespace {

// Splits "64.5MiB" into 64.5 and "MiB"; rejects anything that is not number + suffix.
std::pair<double, std::string> split(const std::string& text, const std::string& where,
                                     const char* what) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  if (t.empty()) fail_usage(where, std::string("empty ") + what);
  const char* begin = t.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(v)) fail_usage(where, "'" + text + "' is not a " + what);
  return {v, std::string(end)};
}

} // namespace

std::uint64_t parse_bytes(const std::string& text, const std::string& where) {
  static const std::map<std::string, double> k = {{"", 1},
                                                  {"B", 1},
                                                  {"KB", 1e3},
                                                  {"MB", 1e6},
                                                  {"GB", 1e9},
                                                  {"TB", 1e12},
                                                  {"KiB", 1024.0},
                                                  {"MiB", 1048576.0},
                                                  {"GiB", 1073741824.0},
                                                  {"TiB", 1099511627776.0},
                                                  {"K", 1e3},
                                                  {"M", 1e6},
                                                  {"G", 1e9}};
  auto [v, unit] = split(text, where, "size (e.g. 64MiB)");
  auto it = k.find(unit);
  if (it == k.end())
    fail_usage(where,
               "unknown size unit '" + unit + "' (use B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
  double bytes = v * it->second;
  if (!(bytes >= 1)) fail_usage(where, "size must be at least 1 byte");
  if (bytes > 1.0e18) fail_usage(where, "size '" + text + "' is too large");
  if (bytes != std::floor(bytes))
    fail_usage(where, "size '" + text + "' is not a whole number of bytes");
  return static_cast<std::uint64_t>(bytes);
}

double parse_bandwidth(const std::string& text, const std::string& where) {
  static const std::map<std::string, double> k = {
      {"", 1},           {"B/s", 1},           {"KB/s", 1e3},
      {"MB/s", 1e6},     {"GB/s", 1e9},        {"TB/s", 1e12},
      {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0},
      {"b/s", 0.125},    {"Kb/s", 125.0},      {"Mb/s", 1.25e5},
      {"Gb/s", 1.25e8},  {"Tb/s", 1.25e11},    {"bps", 0.125},
      {"Kbps", 125.0},   {"Mbps", 1.25e5},     {"Gbps", 1.25e8},
      {"Tbps", 1.25e11}, {"GBps", 1e9}};
  auto [v, unit] = split(text, where, "bandwidth (e.g. 50GB/s)");
  auto it = k.find(unit);
  if (it == k.end())
    fail_usage(where, "unknown bandwidth unit '" + unit +
                          "' (use B/s, KB/s, MB/s, GB/s, TB/s, Gb/s, Gbps)");
  double bw = v * it->second;
  if (!(bw > 0) || !std::isfinite(bw)) fail_usage(where, "bandwidth must be positive");
  return bw;
}

double parse_time(const std::string& text, const std::string& where) {
  // Divisors, not factors: 500 / 1e9 is exactly the double nearest 5e-7, 500 * 1e-9 is not.
  static const std::map<std::string, double> k = {{"", 1},     {"s", 1},    {"ms", 1e3},
                                                  {"us", 1e6}, {"ns", 1e9}, {"ps", 1e12}};
  auto [v, unit] = split(text, where, "time (e.g. 1us)");
  auto it = k.find(unit);
  if (it == k.end()) fail_usage(where, "unknown time unit '" + unit + "' (use s, ms, us, ns, ps)");
  double t = v / it->second;
  if (!(t >= 0) || !std::isfinite(t)) fail_usage(where, "time must not be negative");
  return t;
}

} // namespace icnkit
