#include "topo/torus_geometry.hpp"

#include "core/error.hpp"

namespace icnkit::topo {

TorusGeometry::TorusGeometry(std::vector<int> sizes) : sizes_(std::move(sizes)) {
  for (int s : sizes_) {
    strides_.push_back(count_);
    count_ *= s;
  }
}

TorusGeometry TorusGeometry::of(const Network& n, const std::string& who) {
  if (n.family != "torus")
    fail_infeasible("/network/family", who + " needs a torus, but the network is a " + n.family);
  const json& attrs = n.metrics.family_attrs;
  std::vector<int> sizes;
  if (attrs.contains("dimension_sizes") && attrs["dimension_sizes"].is_array())
    for (auto& v : attrs["dimension_sizes"])
      if (v.is_number_integer()) sizes.push_back(v.get<int>());
  TorusGeometry g(sizes);
  if (sizes.empty() || g.count() != n.n_chip ||
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
