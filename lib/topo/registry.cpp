// The one explicit list of families. Adding a family: implement Family, add it here.
#include "topo/basic.hpp"
#include "topo/composed.hpp"
#include "topo/custom.hpp"
#include "topo/dragonfly.hpp"
#include "topo/family.hpp"
#include "topo/fat_tree.hpp"
#include "topo/hypercube.hpp"
#include "topo/hyperx.hpp"
#include "topo/mesh.hpp"
#include "topo/torus.hpp"

#include <algorithm>

namespace icnkit::topo {

const std::vector<const Family*>& families() {
  static const FatTreeFamily fat_tree;
  static const DragonflyFamily dragonfly(false), dragonfly_plus(true);
  static const TorusFamily torus;
  static const MeshFamily mesh;
  static const HypercubeFamily hypercube;
  static const HyperXFamily hyperx;
  static const BasicFamily ring(BasicKind::Ring), full_mesh(BasicKind::FullMesh),
      single_switch(BasicKind::SingleSwitch);
  static const ComposedFamily composed;
  static const CustomFamily custom;
  static const std::vector<const Family*> all = {
      &fat_tree, &dragonfly, &dragonfly_plus, &torus,         &mesh,     &hypercube,
      &hyperx,   &ring,      &full_mesh,      &single_switch, &composed, &custom};
  return all;
}

const Family* find_family(const std::string& name) {
  for (const Family* f : families())
    if (f->name() == name) return f;
  return nullptr;
}

LinkKind link_kind_between(const Network& n, std::int64_t a, std::int64_t b) {
  const Node& x = n.nodes[static_cast<std::size_t>(a)];
  const Node& y = n.nodes[static_cast<std::size_t>(b)];
  if (x.board >= 0 && x.board == y.board) return LinkKind::C2C;
  if (x.rack >= 0 && x.rack == y.rack) return LinkKind::B2B;
  if (x.pod >= 0 && x.pod == y.pod) return LinkKind::R2R;
  return LinkKind::P2P;
}

LinkParams link_params(const Context& ctx, const GenerateOptions& o, LinkKind k, bool nic_link) {
  LinkParams p = ctx.link_params(k);
  if (auto bw = o.link_bandwidth.of(k, nic_link)) p.bandwidth_bytes_per_s = *bw;
  if (auto lat = o.link_latency.of(k, nic_link)) p.latency_s = *lat;
  return p;
}

std::int64_t add_link(Network& n, const Context& ctx, const GenerateOptions& o, std::int64_t a,
                      std::int64_t b, int dim, int dir) {
  Link l;
  l.id = static_cast<std::int64_t>(n.links.size());
  l.a = a;
  l.b = b;
  l.kind = link_kind_between(n, a, b);
  LinkParams lp = link_params(ctx, o, l.kind, is_nic_link(n, a, b, l.kind));
  l.bandwidth_bytes_per_s = lp.bandwidth_bytes_per_s;
  l.latency_s = lp.latency_s;
  l.dim = dim;
  l.dir = dir;
  n.links.push_back(l);
  return l.id;
}

std::vector<std::string> warnings_of(const Family& f, std::uint32_t mask) {
  std::vector<std::string> out;
  const auto& names = f.warning_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (mask & (1u << i)) out.push_back(names[i]);
  return out;
}

} // namespace icnkit::topo
