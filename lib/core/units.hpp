// Human units on the command line -> SI base units in documents (DESIGN.md §2).
#pragma once
#include <cstdint>
#include <string>

namespace icnkit {

// "64MiB", "8KB", "2GB", "4096" (bytes). KB/MB/GB/TB are powers of 1000, KiB/MiB/GiB/TiB of 1024.
// Result must be a whole, positive number of bytes. Throws Error(Usage) naming `where`.
std::uint64_t parse_bytes(const std::string& text, const std::string& where);
// "50GB/s", "400Gb/s" (bits), "50e9" (bytes/s). Result > 0.
double parse_bandwidth(const std::string& text, const std::string& where);
// "1us", "100ns", "2ms", "1s", "1e-6" (seconds). Result >= 0.
double parse_time(const std::string& text, const std::string& where);

} // namespace icnkit
