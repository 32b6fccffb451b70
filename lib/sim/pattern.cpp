#include "sim/pattern.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace icnkit::sim {

const std::vector<PatternInfo>& patterns() {
  static const std::vector<PatternInfo> list = {
      {PatternKind::Uniform, "uniform", "every chip equally likely, the source included"},
      {PatternKind::Transpose, "transpose",
       "swap the upper and lower halves of the id bits ((x,y) -> (y,x) on a k x k grid)"},
      {PatternKind::BitComplement, "bit-complement", "complement every id bit"},
      {PatternKind::BitReverse, "bit-reverse", "reverse the order of the id bits"},
      {PatternKind::Shuffle, "shuffle", "rotate the id bits left by one"},
      {PatternKind::Tornado, "tornado", "x -> x + ceil(k/2) - 1 (mod k) in every dimension"},
      {PatternKind::Neighbour, "neighbour", "x -> x + 1 (mod k) in every dimension"},
      {PatternKind::Hotspot, "hotspot",
       "a share of the packets to a few hot chips ({hotspot} NODES:FRACTION), the rest uniform"},
      {PatternKind::RandomPermutation, "random-permutation",
       "a fixed random permutation of the chips (drawn from {seed})"},
  };
  return list;
}

std::string pattern_names() {
  std::string s;
  for (const PatternInfo& p : patterns()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

PatternKind pattern_by_name(const std::string& name, const std::string& where) {
  for (const PatternInfo& p : patterns())
    if (name == p.name) return p.kind;
  fail_usage(where, "unknown traffic pattern '" + name + "' (one of: " + pattern_names() + ")");
}

const char* pattern_name(PatternKind k) {
  for (const PatternInfo& p : patterns())
    if (p.kind == k) return p.name;
  return "?";
}

void parse_hotspot(const std::string& text, PatternSpec& spec, const std::string& where) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    fail_usage(where, "expected NODES:FRACTION, e.g. 0,63:0.2");
  spec.hotspots.clear();
  const std::string nodes = text.substr(0, colon);
  std::size_t pos = 0;
  while (pos <= nodes.size()) {
    std::size_t comma = nodes.find(',', pos);
    if (comma == std::string::npos) comma = nodes.size();
    const std::string tok = nodes.substr(pos, comma - pos);
    if (tok.empty() || tok.size() > 12 ||
        !std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        (tok.size() > 1 && tok[0] == '0'))
      fail_usage(where, "hot chips must be decimal chip ids separated by commas");
    spec.hotspots.push_back(std::stoll(tok));
    pos = comma + 1;
  }
  const std::string frac = text.substr(colon + 1);
  char* end = nullptr;
  const double f = std::strtod(frac.c_str(), &end);
  if (end != frac.c_str() + frac.size() || !(f > 0) || !(f <= 1))
    fail_usage(where, "the hot share must be a number in (0, 1]");
  spec.hotspot_fraction = f;
  std::sort(spec.hotspots.begin(), spec.hotspots.end());
  spec.hotspots.erase(std::unique(spec.hotspots.begin(), spec.hotspots.end()), spec.hotspots.end());
}

namespace {

int log2_exact(std::int64_t n) {
  int b = 0;
  while ((std::int64_t{1} << b) < n) ++b;
  return (std::int64_t{1} << b) == n ? b : -1;
}

// The chips' grid: their coordinates' extents when every chip has coordinates and its id is the
// row-major index (dimension 0 fastest); else one ring of n chips.
std::vector<std::int64_t> grid_of(const topo::Network& n) {
  const std::int64_t N = n.n_chip;
  const std::vector<int>& c0 = n.nodes.front().coord;
  std::vector<std::int64_t> shape(c0.size(), 0);
  bool ok = !c0.empty();
  for (std::int64_t c = 0; ok && c < N; ++c) {
    const std::vector<int>& x = n.nodes[static_cast<std::size_t>(c)].coord;
    if (x.size() != shape.size()) ok = false;
    for (std::size_t d = 0; ok && d < x.size(); ++d)
      shape[d] = std::max<std::int64_t>(shape[d], x[d] + 1);
  }
  if (ok) {
    std::int64_t prod = 1;
    for (std::int64_t s : shape) prod *= s;
    ok = prod == N;
  }
  for (std::int64_t c = 0; ok && c < N; ++c) {
    const std::vector<int>& x = n.nodes[static_cast<std::size_t>(c)].coord;
    std::int64_t id = 0;
    for (std::size_t d = shape.size(); d-- > 0;) id = id * shape[d] + x[d];
    ok = id == c;
  }
  return ok ? shape : std::vector<std::int64_t>{N};
}

} // namespace

Pattern::Pattern(const PatternSpec& spec, const topo::Network& n) : spec_(spec), n_(n.n_chip) {
  const std::int64_t N = n_;
  if (N < 1) fail_infeasible("{traffic}", "the network has no chips");
  const int b = log2_exact(N);
  auto need_pow2 = [&](bool even) {
    if (b < 0 || (even && b % 2 != 0))
      fail_infeasible("{traffic}", std::string(pattern_name(spec.kind)) + " needs a chip count " +
                                       (even ? "that is 4^k" : "that is a power of two") +
                                       " (this network has " + std::to_string(N) + ")");
  };
  auto fill = [&](auto f) {
    perm_.resize(static_cast<std::size_t>(N));
    for (std::int64_t s = 0; s < N; ++s) perm_[static_cast<std::size_t>(s)] = f(s);
  };
  const std::int64_t mask = N - 1;
  switch (spec.kind) {
  case PatternKind::Uniform:
    break;
  case PatternKind::Hotspot:
    if (spec.hotspots.empty()) fail_usage("{hotspot}", "hotspot traffic needs {hotspot} NODES:F");
    for (std::int64_t h : spec.hotspots)
      if (h < 0 || h >= N)
        fail_usage("{hotspot}", "chip " + std::to_string(h) + " does not exist (0.." +
                                    std::to_string(N - 1) + ")");
    break;
  case PatternKind::Transpose:
    need_pow2(true);
    fill([&](std::int64_t s) {
      const int h = b / 2;
      const std::int64_t lo = (std::int64_t{1} << h) - 1;
      return ((s >> h) & lo) | ((s & lo) << h);
    });
    break;
  case PatternKind::BitComplement:
    need_pow2(false);
    fill([&](std::int64_t s) { return ~s & mask; });
    break;
  case PatternKind::BitReverse:
    need_pow2(false);
    fill([&](std::int64_t s) {
      std::int64_t r = 0;
      for (int i = 0; i < b; ++i)
        if (s >> i & 1) r |= std::int64_t{1} << (b - 1 - i);
      return r;
    });
    break;
  case PatternKind::Shuffle:
    need_pow2(false);
    fill([&](std::int64_t s) { return b == 0 ? s : (((s << 1) & mask) | (s >> (b - 1))); });
    break;
  case PatternKind::Tornado:
  case PatternKind::Neighbour: {
    const std::vector<std::int64_t> shape = grid_of(n);
    const bool tornado = spec.kind == PatternKind::Tornado;
    fill([&](std::int64_t s) {
      std::int64_t r = 0, stride = 1, rest = s;
      for (std::int64_t k : shape) {
        const std::int64_t x = rest % k;
        rest /= k;
        const std::int64_t step = tornado ? (k + 1) / 2 - 1 : 1;
        r += stride * ((x + step) % k);
        stride *= k;
      }
      return r;
    });
    break;
  }
  case PatternKind::RandomPermutation: {
    SplitMix64 rng(spec.seed ^ 0x7065726d75746521ULL); // its own stream ("permute!")
    fill([](std::int64_t s) { return s; });
    for (std::int64_t i = N - 1; i > 0; --i) // Fisher-Yates
      std::swap(perm_[static_cast<std::size_t>(i)],
                perm_[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    break;
  }
  }
}

void Pattern::distribution(std::int64_t src,
                           std::vector<std::pair<std::int64_t, double>>& out) const {
  out.clear();
  if (!perm_.empty()) {
    out.emplace_back(perm_[static_cast<std::size_t>(src)], 1.0);
    return;
  }
  const double hot = spec_.kind == PatternKind::Hotspot ? spec_.hotspot_fraction : 0.0;
  const double each = (1.0 - hot) / static_cast<double>(n_);
  const double per_hot = spec_.hotspots.empty() ? 0.0 : hot / spec_.hotspots.size();
  std::size_t h = 0;
  for (std::int64_t d = 0; d < n_; ++d) {
    double w = each;
    if (h < spec_.hotspots.size() && spec_.hotspots[h] == d) w += per_hot, ++h;
    out.emplace_back(d, w);
  }
}

} // namespace icnkit::sim
