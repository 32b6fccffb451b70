#include "topo/layout.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace icnkit::topo {

namespace {

constexpr double kUnit = 0.75;    // inches between neighbouring grid nodes
constexpr double kLevelGap = 1.5; // inches between levels
constexpr double kPi = 3.14159265358979323846;

// Where a coordinate goes, in inches: dimension 0 right, 1 down, 2 in depth (each plane a
// little up and to the right of the one before, so the Z links are short diagonals), and
// dimensions 3, 4, ... repeat the whole picture to the right (odd) or downwards (even) with a
// gap between the copies.
Point grid_point(const std::vector<int>& c, const std::vector<int>& size) {
  const auto at = [&](std::size_t d) { return d < c.size() ? c[d] : 0; };
  const auto extent = [&](std::size_t d) { return d < size.size() ? size[d] : 1; };
  const double depth = size.size() >= 3 ? 0.36 : 0.0; // inches per plane
  // The planes' copies of a node stay within its cell.
  const double unit = std::max(kUnit, extent(2) * depth + 0.25);
  Point p{at(0) * unit + at(2) * depth, -at(1) * unit + at(2) * depth * 0.7};
  double w = (extent(0) + 1) * unit;
  double h = (extent(1) + 1) * unit;
  for (std::size_t d = 3; d < c.size(); ++d) {
    if (d % 2 == 1) {
      p.x += at(d) * w;
      w *= extent(d);
    } else {
      p.y -= at(d) * h;
      h *= extent(d);
    }
  }
  return p;
}

} // namespace

bool wraps(const Network& n, const Link& l) {
  const Node& a = n.nodes[static_cast<std::size_t>(l.a)];
  const Node& b = n.nodes[static_cast<std::size_t>(l.b)];
  if (l.dim < 0 || a.coord.empty() || a.coord.size() != b.coord.size()) return false;
  const auto d = static_cast<std::size_t>(l.dim);
  return d < a.coord.size() && std::abs(a.coord[d] - b.coord[d]) > 1;
}

std::vector<Point> layout(const Network& n) {
  std::vector<Point> p(n.nodes.size());
  std::vector<int> size;
  bool coords = false;
  for (const Node& v : n.nodes) {
    if (v.coord.empty()) continue;
    coords = true;
    if (size.size() < v.coord.size()) size.resize(v.coord.size(), 1);
    for (std::size_t d = 0; d < v.coord.size(); ++d) size[d] = std::max(size[d], v.coord[d] + 1);
  }
  if (coords) {
    std::vector<char> placed(n.nodes.size(), 0);
    double bottom = 0;
    for (const Node& v : n.nodes) {
      if (v.coord.empty()) continue;
      const Point g = grid_point(v.coord, size);
      p[static_cast<std::size_t>(v.id)] = g;
      placed[static_cast<std::size_t>(v.id)] = 1;
      bottom = std::min(bottom, g.y);
    }
    // The others around their lowest placed neighbour, on a small circle.
    std::vector<std::int64_t> host(n.nodes.size(), -1); // the lowest placed neighbour
    for (const Link& l : n.links)
      for (auto [v, o] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}}) {
        auto& h = host[static_cast<std::size_t>(v)];
        if (!placed[static_cast<std::size_t>(v)] && placed[static_cast<std::size_t>(o)] &&
            (h < 0 || o < h))
          h = o;
      }
    std::vector<std::vector<std::int64_t>> around(n.nodes.size());
    for (const Node& v : n.nodes)
      if (host[static_cast<std::size_t>(v.id)] >= 0)
        around[static_cast<std::size_t>(host[static_cast<std::size_t>(v.id)])].push_back(v.id);
    for (std::size_t h = 0; h < around.size(); ++h) {
      const auto& g = around[h];
      for (std::size_t k = 0; k < g.size(); ++k) {
        // Far enough that a chip clears its host and its neighbours on the circle (0.32 in wide,
        // with margin).
        const double r = std::max(0.5, 0.45 * static_cast<double>(g.size()) / (2 * kPi));
        const double a = kPi / 4 + 2 * kPi * static_cast<double>(k) / static_cast<double>(g.size());
        p[static_cast<std::size_t>(g[k])] = {p[h].x + r * std::cos(a), p[h].y + r * std::sin(a)};
        placed[static_cast<std::size_t>(g[k])] = 1;
      }
    }
    double x = 0; // anything left: a row under the picture
    for (const Node& v : n.nodes)
      if (!placed[static_cast<std::size_t>(v.id)]) {
        p[static_cast<std::size_t>(v.id)] = {x, bottom - 2 * kUnit};
        x += kUnit;
      }
    return p;
  }
  const bool switched = std::any_of(n.nodes.begin(), n.nodes.end(),
                                    [](const Node& v) { return v.kind == NodeKind::Switch; });
  if (!switched) {
    const double count = static_cast<double>(n.nodes.size());
    const double r = std::max(1.0, count * kUnit / (2 * kPi));
    for (std::size_t i = 0; i < n.nodes.size(); ++i) {
      const double a = kPi / 2 - 2 * kPi * static_cast<double>(i) / count;
      p[i] = {r * std::cos(a), r * std::sin(a)};
    }
    return p;
  }
  // Levels by tier: chips (tier 6) at the bottom.
  std::map<int, std::vector<std::int64_t>> levels;
  for (const Node& v : n.nodes) levels[v.tier].push_back(v.id);
  std::size_t widest = 0;
  for (auto& [tier, ids] : levels) widest = std::max(widest, ids.size());
  const double width = static_cast<double>(widest) * kUnit * 0.6;
  int level = 0;
  for (auto& [tier, ids] : levels) {
    const double step = width / static_cast<double>(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k)
      p[static_cast<std::size_t>(ids[k])] = {(static_cast<double>(k) + 0.5) * step,
                                             level * kLevelGap};
    ++level;
  }
  return p;
}

} // namespace icnkit::topo
