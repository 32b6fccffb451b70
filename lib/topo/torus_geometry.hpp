// Coordinates, neighbours and links of a generated torus, in the ids the document format fixes:
// chip id = x0 + S0*(x1 + S1*x2); the link leaving chip c in + direction of dimension d is c*D + d.
#pragma once
#include "topo/network.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::topo {

// The number of chips of a shape, and the shape as people write it ("4x4x2").
std::int64_t product(const std::vector<int>& v);
std::string join_sizes(const std::vector<int>& v);

// Tori of up to this many dimensions can be generated from a hand-written candidate (topo-enum
// lists the spec's 2 and 3).
inline constexpr std::size_t kMaxTorusDims = 6;

class TorusGeometry {
public:
  explicit TorusGeometry(std::vector<int> sizes);
  // The geometry of a generated regular torus network, for code that follows its links with
  // neighbour() (DOR, the ring collectives), a ring network being the torus of one dimension:
  // Error(Infeasible) for other families and for a twisted torus, whose wrap links neighbour()
  // does not know.
  static TorusGeometry of(const Network& n, const std::string& who);
  // The shape of a generated torus network, twisted or not, for code that needs only chip
  // coordinates (the OCS fault model): Error(Infeasible) for other families.
  static TorusGeometry shape_of(const Network& n, const std::string& who);
  // Whether a torus network is twisted (metrics.family_attrs "twisted": true; absent or false
  // on a regular torus; anything else is Error(Input)).
  static bool twisted(const Network& n);

  int dims() const { return static_cast<int>(sizes_.size()); }
  int size(int d) const { return sizes_[static_cast<std::size_t>(d)]; }
  const std::vector<int>& sizes() const { return sizes_; }
  std::int64_t count() const { return count_; }
  std::int64_t stride(int d) const { return strides_[static_cast<std::size_t>(d)]; }

  int coord(std::int64_t id, int d) const {
    return static_cast<int>((id / strides_[static_cast<std::size_t>(d)]) %
                            sizes_[static_cast<std::size_t>(d)]);
  }
  std::vector<int> coords(std::int64_t id) const;
  std::int64_t id(const std::vector<int>& c) const;
  // Neighbour one step in dimension d, direction dir (+1 / -1), wrapping around.
  std::int64_t neighbour(std::int64_t id, int d, int dir) const;
  // The link and the directed channel a chip uses to leave in (d, dir).
  std::int64_t link(std::int64_t id, int d, int dir) const {
    return (dir > 0 ? id : neighbour(id, d, -1)) * dims() + d;
  }
  std::int64_t channel(std::int64_t id, int d, int dir) const {
    return channel_of(link(id, d, dir), dir > 0);
  }

private:
  std::vector<int> sizes_;
  std::vector<std::int64_t> strides_;
  std::int64_t count_ = 1;
};

// A grid geometry's coordinates and the channel each chip leaves on in each (dimension,
// direction), tabulated once. Routing functions on tori and meshes (DOR, WFR, mesh DOR) are
// called tens of millions of times by the verification and would otherwise spend their time in
// the geometry's divisions. Geometry is TorusGeometry or MeshGeometry (whose missing boundary
// channels are -1).
class GridTables {
public:
  template <class Geometry> explicit GridTables(const Geometry& g) : dims_(g.dims()) {
    const auto D = static_cast<std::size_t>(dims_);
    const auto count = static_cast<std::size_t>(g.count());
    coords_.resize(count * D);
    out_.resize(count * D * 2);
    for (std::int64_t c = 0; c < g.count(); ++c)
      for (int d = 0; d < dims_; ++d) {
        const std::size_t i = static_cast<std::size_t>(c) * D + static_cast<std::size_t>(d);
        coords_[i] = g.coord(c, d);
        out_[2 * i] = g.channel(c, d, -1);
        out_[2 * i + 1] = g.channel(c, d, +1);
      }
  }

  int dims() const { return dims_; }
  // The chip's coordinates, dims() of them.
  const int* coords(std::int64_t chip) const {
    return &coords_[static_cast<std::size_t>(chip) * static_cast<std::size_t>(dims_)];
  }
  int coord(std::int64_t chip, int d) const { return coords(chip)[d]; }
  // The channel chip leaves on in dimension d, direction dir (+1 / -1).
  std::int64_t channel(std::int64_t chip, int d, int dir) const {
    return out_[(static_cast<std::size_t>(chip) * static_cast<std::size_t>(dims_) +
                 static_cast<std::size_t>(d)) *
                    2 +
                (dir > 0 ? 1 : 0)];
  }

private:
  int dims_;
  std::vector<int> coords_;       // chip * dims + d
  std::vector<std::int64_t> out_; // (chip * dims + d) * 2 + (dir > 0)
};

} // namespace icnkit::topo
