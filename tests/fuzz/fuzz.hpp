// What the fuzz targets (libFuzzer, scripts/fuzz) share: what counts as a finding, and a way past
// the fingerprint check. A tool may refuse any input with a typed error of exit 2, 3 or 4 (one
// line, nothing on stdout); a finding is anything else on an input it only reads: an exit-1
// Error (runtime: an internal invariant), any other exception (a JSON type_error, out_of_range,
// bad_alloc), a crash, a sanitizer report, a leak or a hang (libFuzzer's -timeout).
#pragma once
#include "core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

namespace icnkit::fuzz {

[[noreturn]] void finding(const std::string& what);

// Runs f. A typed refusal of exit 2, 3 or 4 is an answer: returns false. Returns true when f
// completes; anything else is a finding.
template <class F> bool attempt(F&& f) {
  try {
    f();
    return true;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Runtime)
      finding(std::string("exit-1 error: ") + e.where() + ": " + e.what());
    return false;
  } catch (const std::exception& e) {
    finding(std::string("untyped exception: ") + e.what());
  }
}

// Runs f, which must not fail at all (reading back what a tool wrote, a documented property).
template <class F> void must(const char* what, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    finding(std::string(what) + ": exit " + std::to_string(e.exit_code()) + ": " + e.where() +
            ": " + e.what());
  } catch (const std::exception& e) {
    finding(std::string(what) + ": untyped exception: " + e.what());
  }
}

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The document with network.fingerprint and the routing, schedule and report sections'
// network_fingerprint set to what the network and faults hash to, so that a mutated network
// reaches the sections' own validation instead of stopping at the fingerprint check (the
// document target keeps that check in play). The text unchanged when it has no readable network.
std::string with_fingerprints(const std::string& text);

// Networks small enough that a target replays the tools' whole work on them per input.
inline constexpr std::size_t kMaxReplayNodes = 128;

} // namespace icnkit::fuzz
