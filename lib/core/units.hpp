// Human units on the command line -> SI base units in documents (docs/document.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icnkit {

// Physical bounds of a link (docs/document.md, "Conventions"): the slowest serial link is a few
// KB/s, the fastest optical links are ~200 GB/s (1 PB/s leaves 5000x headroom); a hop's latency is
// ps on a board to ms across a campus (1 s covers a geostationary satellite). Outside them the
// figures are typos, and the simulators' arithmetic would overflow to inf.
inline constexpr double kLinkBandwidthMin = 1e3;  // bytes/s (1 KB/s)
inline constexpr double kLinkBandwidthMax = 1e15; // bytes/s (1 PB/s)
inline constexpr double kLinkLatencyMax = 1.0;    // seconds

// Numbers are decimal: [+-]digits[.digits][e[+-]digits] (no hex, inf or nan), then the unit.
// Errors are Error(Usage) naming `where`.

// "64MiB", "8KB", "2GB", "4096", "64 MiB" (bytes). KB/MB/GB/TB are powers of 1000,
// KiB/MiB/GiB/TiB of 1024, and so are nccl-tests' bare K/M/G/T (its -b 8K -e 1G mean binary).
// Result must be a whole, positive number of bytes.
std::uint64_t parse_bytes(const std::string& text, const std::string& where);
// A range of sizes as nccl-tests sweeps them (-b, -e, -f / -i): "8KiB:1GiB:x2" (from FROM to
// TO, multiplying by 2), "1MiB:8MiB:+1MiB" (adding), or a list "4KiB,1MiB,64MiB". Sizes as
// parse_bytes; FROM <= TO; at most `max_count` sizes (Error(Usage) at `where` otherwise).
std::vector<std::uint64_t> parse_sizes(const std::string& text, const std::string& where,
                                       std::size_t max_count = 4096);
// "50GB/s", "400Gb/s" (bits), "1.5PB/s". The unit is required (a bare "50" is refused, naming
// the accepted units); the result must lie in [lo, hi] bytes/s.
double parse_bandwidth(const std::string& text, const std::string& where,
                       double lo = kLinkBandwidthMin, double hi = kLinkBandwidthMax);
// "1us", "1µs", "100ns", "2ms", "1s" (seconds). The unit is required, except for 0; the result
// must lie in [0, hi] seconds.
double parse_time(const std::string& text, const std::string& where, double hi = kLinkLatencyMax);

// The accepted units, for messages and --help: "B/s, KB/s, ..." and "s, ms, us, ns, ps".
// "12.3 MiB": a memory figure in messages (one decimal).
std::string format_mib(std::int64_t bytes);

std::string bandwidth_units();
std::string time_units();
std::string size_units(); // for messages and --help: which suffixes, decimal or binary

} // namespace icnkit
