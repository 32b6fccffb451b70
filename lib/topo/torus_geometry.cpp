#include "topo/torus_geometry.hpp"

#include "core/error.hpp"

#include <functional>
#include <numeric>

namespace icnkit::topo {

std::int64_t product(const std::vector<int>& v) {
  return std::accumulate(v.begin(), v.end(), std::int64_t{1}, std::multiplies<>());
}

std::string join_sizes(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(v[i]);
  }
  return s;
}

TorusGeometry::TorusGeometry(std::vector<int> sizes) : sizes_(std::move(sizes)) {
  for (int s : sizes_) {
    strides_.push_back(count_);
    count_ *= s;
  }
}

TorusGeometry TorusGeometry::of(const Network& n, const std::string& who) {
  TorusGeometry g = shape_of(n, who);
  if (twisted(n))
    fail_infeasible("/network/metrics/family_attrs/twisted",
                    who + ": DOR/ring schedules on a twisted torus are not supported yet");
  // neighbour() must describe the links themselves (the fingerprint covers the links, not
  // family_attrs: a twisted network stripped of "twisted" is caught here).
  const int D = g.dims();
  const std::string shape = join_sizes(g.sizes());
  for (const Link& l : n.links) {
    const std::int64_t c = l.id / D;
    const int d = static_cast<int>(l.id % D);
    if (l.a != c || l.b != g.neighbour(c, d, +1) || l.dim != d || l.dir != +1)
      fail_input("/network/links/" + std::to_string(l.id),
                 "not the link a regular " + shape +
                     " torus has there (link c*D+d leaves chip c in + direction of dimension d)");
  }
  return g;
}

bool TorusGeometry::twisted(const Network& n) {
  const json& attrs = n.metrics.family_attrs;
  if (!attrs.is_object() || !attrs.contains("twisted")) return false;
  if (!attrs["twisted"].is_boolean())
    fail_input("/network/metrics/family_attrs/twisted", "expected true or false");
  return attrs["twisted"].get<bool>();
}

TorusGeometry TorusGeometry::shape_of(const Network& n, const std::string& who) {
  // A ring is the torus of one dimension: its links are laid out as a torus's (link c leaves
  // chip c towards c + 1, of() checks it).
  if (n.family == "ring") {
    if (n.n_chip < 2 || static_cast<std::int64_t>(n.links.size()) != n.n_chip)
      fail_input("/network/links", "a ring of " + std::to_string(n.n_chip) + " chips has " +
                                       std::to_string(n.n_chip) + " links, not " +
                                       std::to_string(n.links.size()));
    return TorusGeometry(std::vector<int>{static_cast<int>(n.n_chip)});
  }
  if (n.family != "torus")
    fail_infeasible("/network/family", who + " needs a torus, but the network is a " + n.family);
  const json& attrs = n.metrics.family_attrs;
  std::vector<int> sizes;
  bool ok = attrs.is_object() && attrs.contains("dimension_sizes") &&
            attrs["dimension_sizes"].is_array() && attrs["dimension_sizes"].size() <= kMaxTorusDims;
  if (ok)
    for (auto& v : attrs["dimension_sizes"]) {
      ok = ok && v.is_number_integer() && v.get<std::int64_t>() >= 1 &&
           v.get<std::int64_t>() <= n.n_chip;
      if (ok) sizes.push_back(v.get<int>());
    }
  TorusGeometry g(ok ? sizes : std::vector<int>{});
  if (!ok || sizes.empty() || g.count() != n.n_chip ||
      static_cast<std::int64_t>(n.links.size()) != n.n_chip * g.dims())
    fail_input("/network/metrics/family_attrs/dimension_sizes",
               "torus shape disagrees with the network's chips and links");
  return g;
}

std::vector<int> TorusGeometry::coords(std::int64_t id) const {
  std::vector<int> c(sizes_.size());
  for (int d = 0; d < dims(); ++d) c[static_cast<std::size_t>(d)] = coord(id, d);
  return c;
}

std::int64_t TorusGeometry::id(const std::vector<int>& c) const {
  std::int64_t v = 0;
  for (int d = 0; d < dims(); ++d)
    v += strides_[static_cast<std::size_t>(d)] * c[static_cast<std::size_t>(d)];
  return v;
}

std::int64_t TorusGeometry::neighbour(std::int64_t id, int d, int dir) const {
  int s = size(d);
  int x = coord(id, d);
  int y = ((x + dir) % s + s) % s;
  return id + static_cast<std::int64_t>(y - x) * stride(d);
}

} // namespace icnkit::topo
