// Progress on stderr, only when stderr is a terminal and the user did not ask for --quiet.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace icnkit {

class Progress {
public:
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  static void set_quiet(bool quiet);
  void update(std::uint64_t done);
  void finish();

private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

} // namespace icnkit
