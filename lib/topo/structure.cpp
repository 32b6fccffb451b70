#include "topo/structure.hpp"

#include "topo/family.hpp"
#include "topo/invariants.hpp"
#include "topo/torus_geometry.hpp"

namespace icnkit::topo {

namespace {

std::string coords_text(const std::vector<int>& c) {
  std::string s = "(";
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(c[i]);
  }
  return s + ")";
}

const char* kind_name(const Node& v) {
  return v.kind == NodeKind::Chip ? "chip" : "switch";
}

} // namespace

const Family& family_of(const Network& n, const NetworkSite& at) {
  if (const Family* f = find_family(n.family)) return *f;
  std::string all;
  for (auto* f : families()) {
    if (!all.empty()) all += ", ";
    all += f->name();
  }
  at.fail("/family", "unknown family '" + n.family + "' (the families: " + all + ")");
}

void check_family_structure(const Network& n, const std::string& source,
                            const std::string& pointer) {
  const NetworkSite at(source, pointer);
  family_of(n, at).check_network(n, at);
}

void check_no_switches(const Network& n, const NetworkSite& at) {
  if (static_cast<std::int64_t>(n.nodes.size()) != n.n_chip)
    at.fail(node_ptr(n.n_chip), "a " + n.family + " has no switches: its nodes are its " +
                                    std::to_string(n.n_chip) + " chips");
}

void check_switches(const Network& n, const NetworkSite& at, const std::vector<std::string>& roles,
                    const std::vector<int>& tiers) {
  const auto want = static_cast<std::int64_t>(roles.size());
  if (static_cast<std::int64_t>(n.nodes.size()) - n.n_chip != want)
    at.fail("/nodes", "this " + n.family + " has " + std::to_string(want) + " switches after its " +
                          std::to_string(n.n_chip) + " chips, the network " +
                          std::to_string(static_cast<std::int64_t>(n.nodes.size()) - n.n_chip));
  for (std::int64_t i = 0; i < want; ++i) {
    const Node& v = n.nodes[static_cast<std::size_t>(n.n_chip + i)];
    const auto k = static_cast<std::size_t>(i);
    if (v.role != roles[k])
      at.fail(node_ptr(v.id) + "/role", "switch " + std::to_string(v.id) + " of this " + n.family +
                                            " is a " + roles[k] + ", not a " + v.role);
    if (v.tier != tiers[k])
      at.fail(node_ptr(v.id) + "/tier", "a " + n.family + "'s " + roles[k] + " is at tier " +
                                            std::to_string(tiers[k]) + ", not " +
                                            std::to_string(v.tier));
  }
}

void check_no_coordinates(const Network& n, const NetworkSite& at, std::int64_t first,
                          std::int64_t last) {
  for (std::int64_t i = first; i < last; ++i) {
    const Node& v = n.nodes[static_cast<std::size_t>(i)];
    if (!v.coord.empty())
      at.fail(node_ptr(i) + "/coord",
              std::string("a ") + n.family + "'s " + kind_name(v) + "s have no coordinates");
  }
}

void check_grid_coordinates(const Network& n, const NetworkSite& at, const TorusGeometry& g,
                            std::int64_t first, const std::string& shape) {
  const int D = g.dims();
  for (std::int64_t k = 0; k < g.count(); ++k) {
    const std::int64_t i = first + k;
    const Node& v = n.nodes[static_cast<std::size_t>(i)];
    const std::string ptr = node_ptr(i) + "/coord";
    if (static_cast<int>(v.coord.size()) != D)
      at.fail(ptr, std::string(kind_name(v)) + " " + std::to_string(i) + " has " +
                       std::to_string(v.coord.size()) + " coordinates; a " + std::to_string(D) +
                       "-dimensional " + shape + " has " + std::to_string(D));
    for (int d = 0; d < D; ++d)
      if (v.coord[static_cast<std::size_t>(d)] >= g.size(d))
        at.fail(ptr + "/" + std::to_string(d),
                "coordinate " + std::to_string(v.coord[static_cast<std::size_t>(d)]) +
                    " is outside dimension " + std::to_string(d) + " of the " + shape + " (0.." +
                    std::to_string(g.size(d) - 1) + ")");
    const std::int64_t at_id = g.id(v.coord);
    if (at_id == k) continue;
    // Nodes before this one are where their ids put them: one of them holds these coordinates.
    if (at_id < k)
      at.fail(ptr, std::string(kind_name(v)) + " " + std::to_string(i) + " has the coordinates " +
                       coords_text(v.coord) + " of " + kind_name(v) + " " +
                       std::to_string(first + at_id) + ": no two nodes sit at one place");
    at.fail(ptr, std::string(kind_name(v)) + " " + std::to_string(i) + " of the " + shape +
                     " is at " + coords_text(g.coords(k)) + ", not " + coords_text(v.coord) +
                     " (ids are row-major, dimension 0 fastest)");
  }
}

void check_links_are(const Network& n, const NetworkSite& at, std::int64_t count,
                     const std::function<Link(std::int64_t)>& expected, const std::string& shape) {
  if (static_cast<std::int64_t>(n.links.size()) != count)
    at.fail("/links", "a " + shape + " has " + std::to_string(count) + " links, this network " +
                          std::to_string(n.links.size()));
  for (const Link& l : n.links) {
    const Link e = expected(l.id);
    const char* field = l.a != e.a ? "a" : l.b != e.b ? "b" : l.dim != e.dim ? "dim" : nullptr;
    if (!field && l.dir != e.dir) field = "dir";
    if (!field) continue;
    at.fail(link_ptr(l.id) + "/" + field,
            "not the link a " + shape + " has there: link " + std::to_string(l.id) +
                " joins chip " + std::to_string(e.a) + " to chip " + std::to_string(e.b) +
                " in + direction of dimension " + std::to_string(e.dim) + " (a " +
                std::to_string(e.a) + ", b " + std::to_string(e.b) + ", dim " +
                std::to_string(e.dim) + ", dir +1)");
  }
}

void check_no_link_dimensions(const Network& n, const NetworkSite& at) {
  for (const Link& l : n.links)
    if (l.dim >= 0)
      at.fail(link_ptr(l.id) + "/dim", "a " + n.family + "'s links have no dimension");
}

} // namespace icnkit::topo
