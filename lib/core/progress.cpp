#include "core/progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace icnkit {
namespace {
bool g_quiet = false;
}

void Progress::set_quiet(bool quiet) {
  g_quiet = quiet;
}

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(!g_quiet && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() {
  finish();
}

void Progress::update(std::uint64_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  // Only after a second of work, and at most five times a second.
  if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200))
    return;
  last_ = now;
  shown_ = true;
  double pct = total_ ? 100.0 * static_cast<double>(done) / static_cast<double>(total_) : 0.0;
  std::fprintf(stderr, "\r%s: %5.1f%%", label_.c_str(), pct);
  std::fflush(stderr);
}

void Progress::finish() {
  if (shown_) {
    std::fprintf(stderr, "\r%s: done  \n", label_.c_str());
    shown_ = false;
  }
}

} // namespace icnkit
