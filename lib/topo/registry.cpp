// The one explicit list of families. Adding a family: implement Family, add it here.
#include "topo/family.hpp"
#include "topo/mesh.hpp"
#include "topo/torus.hpp"

#include <algorithm>

namespace icnkit::topo {

const std::vector<const Family*>& families() {
  static const TorusFamily torus;
  static const MeshFamily mesh;
  static const std::vector<const Family*> all = {&torus, &mesh};
  return all;
}

const Family* find_family(const std::string& name) {
  for (const Family* f : families())
    if (f->name() == name) return f;
  return nullptr;
}

const std::vector<std::string>& spec_family_names() {
  static const std::vector<std::string> names = {"fat-tree",  "dragonfly",    "dragonfly+", "torus",
                                                 "mesh",      "hypercube",    "hyperx",     "ring",
                                                 "full-mesh", "single-switch"};
  return names;
}

LinkKind link_kind_between(const Network& n, std::int64_t a, std::int64_t b) {
  const Node& x = n.nodes[static_cast<std::size_t>(a)];
  const Node& y = n.nodes[static_cast<std::size_t>(b)];
  if (x.board >= 0 && x.board == y.board) return LinkKind::C2C;
  if (x.rack >= 0 && x.rack == y.rack) return LinkKind::B2B;
  if (x.pod >= 0 && x.pod == y.pod) return LinkKind::R2R;
  return LinkKind::P2P;
}

LinkParams link_params(const Context& ctx, const GenerateOptions& o, LinkKind k) {
  LinkParams p = ctx.link_params(k);
  if (o.link_bandwidth_bytes_per_s) p.bandwidth_bytes_per_s = *o.link_bandwidth_bytes_per_s;
  if (o.link_latency_s) p.latency_s = *o.link_latency_s;
  return p;
}

} // namespace icnkit::topo
