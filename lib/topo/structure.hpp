// A network read from a document checked against its family's own structure (Family::
// check_network): what the families' checks share. The spec's invariants (topo/invariants.hpp)
// hold for every family; these say that a torus's link 5 is the link a torus has there, that a
// chip's coordinates are its id's, that family_attrs is what the family writes. Errors are
// Error(Input) naming the JSON pointer of what is wrong (exit 3).
#pragma once
#include "core/json_reader.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace icnkit::topo {

class Family;
class TorusGeometry;

// Where the network sits: its document (source) and its JSON pointer there ("/network").
class NetworkSite {
public:
  NetworkSite(std::string source, std::string pointer)
      : source_(std::move(source)), pointer_(std::move(pointer)) {}
  // "SOURCE:POINTER/rel" ("POINTER/rel" without a source).
  std::string where(const std::string& rel) const {
    return (source_.empty() ? "" : source_ + ":") + pointer_ + rel;
  }
  [[noreturn]] void fail(const std::string& rel, const std::string& what) const {
    fail_input(where(rel), what);
  }
  // A strict reader of metrics.family_attrs: the caller reads the family's keys and calls
  // done(), which rejects any other.
  ObjReader attrs(const Network& n) const {
    return ObjReader(n.metrics.family_attrs, source_, pointer_ + "/metrics/family_attrs");
  }

private:
  std::string source_;
  std::string pointer_;
};

// "/nodes/7", "/links/12".
inline std::string node_ptr(std::int64_t id) {
  return "/nodes/" + std::to_string(id);
}
inline std::string link_ptr(std::int64_t id) {
  return "/links/" + std::to_string(id);
}

// The network's family, or Error(Input) at /family naming the families.
const Family& family_of(const Network& n, const NetworkSite& at);

// A family without switches (torus, mesh, hypercube, ring, full-mesh): every node is a chip.
void check_no_switches(const Network& n, const NetworkSite& at);
// The switches a family builds, in its order: n_chip + i has roles[i] at tiers[i].
void check_switches(const Network& n, const NetworkSite& at, const std::vector<std::string>& roles,
                    const std::vector<int>& tiers);
// Nodes from `first` on carry no coordinates (families without them; a HyperX's chips).
void check_no_coordinates(const Network& n, const NetworkSite& at, std::int64_t first,
                          std::int64_t last);
// Nodes first .. first + g.count() - 1 sit at the coordinates of their index in grid g, in the
// row-major order the document format fixes (id = x0 + S0*(x1 + S1*x2)): the right number of
// coordinates, each inside its dimension, no two nodes at one place.
void check_grid_coordinates(const Network& n, const NetworkSite& at, const TorusGeometry& g,
                            std::int64_t first, const std::string& shape);
// The links of a coordinate family, one by one against what its geometry has at that id
// (`expected(i)`: a, b, dim, dir), with their count: the first field that differs is named.
void check_links_are(const Network& n, const NetworkSite& at, std::int64_t count,
                     const std::function<Link(std::int64_t)>& expected, const std::string& shape);
// Links without a dimension (the families whose links have none).
void check_no_link_dimensions(const Network& n, const NetworkSite& at);

} // namespace icnkit::topo
