#include "coll/schedule.hpp"

#include "coll/rank_algorithms.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace icnkit::coll {

namespace {

constexpr std::int64_t kMaxDen = std::int64_t{1} << 31;

bool parse_digits(const std::string& s, std::int64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

} // namespace

Fraction parse_fraction(const std::string& text, const std::string& where) {
  std::int64_t num = 0, den = 1;
  auto slash = text.find('/');
  bool ok = slash == std::string::npos ? parse_digits(text, num)
                                       : parse_digits(text.substr(0, slash), num) &&
                                             parse_digits(text.substr(slash + 1), den);
  if (!ok) fail_input(where, "expected a fraction like \"1/2\", got \"" + text + "\"");
  if (den == 0 || num == 0 || num > den || den > kMaxDen)
    fail_input(where, "fraction \"" + text + "\" must lie in (0, 1] with a denominator <= 2^31");
  std::int64_t g = std::gcd(num, den);
  return {num / g, den / g};
}

std::string to_string(const Fraction& f) {
  return f.den == 1 ? std::to_string(f.num) : std::to_string(f.num) + "/" + std::to_string(f.den);
}

Fraction make_fraction(std::int64_t num, std::int64_t den) {
  if (den <= 0 || num <= 0 || num > den)
    fail_runtime("coll",
                 "fraction " + std::to_string(num) + "/" + std::to_string(den) + " outside (0, 1]");
  std::int64_t g = std::gcd(num, den);
  if (den / g > kMaxDen) fail_runtime("coll", "fraction denominator above 2^31");
  return {num / g, den / g};
}

std::string to_string(PhaseOp op) {
  switch (op) {
  case PhaseOp::ReduceScatter:
    return "reduce-scatter";
  case PhaseOp::AllGather:
    return "all-gather";
  case PhaseOp::AllToAll:
    break;
  }
  return "all-to-all";
}

bool uses_switch(const Schedule& s) {
  if (!s.stages) return false;
  for (const RankStage& g : *s.stages)
    for (const RankSchedule& r : g.parts)
      if (uses_switch(r)) return true;
  return false;
}

std::int64_t Schedule::step_count() const {
  if (stages) {
    std::int64_t n = 0;
    for (const RankStage& st : *stages)
      for (const RankSchedule& p : st.parts) n += static_cast<std::int64_t>(p.steps.size());
    return n;
  }
  std::int64_t n = 0;
  for (auto& p : phases) n += static_cast<std::int64_t>(p.steps.size());
  return n;
}

Schedule with_bytes(const Schedule& s, std::int64_t bytes) {
  Schedule t = s;
  const double k = static_cast<double>(bytes) / static_cast<double>(s.bytes_per_node);
  t.bytes_per_node = bytes;
  t.verified_digest.clear();
  for (Phase& p : t.phases) p.block_bytes *= k;
  return t;
}

} // namespace icnkit::coll
