#include "route/hyperx_dor.hpp"

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "topo/context.hpp"

namespace icnkit::route {

namespace {
template <class T> std::size_t z(T v) {
  return static_cast<std::size_t>(v);
}
} // namespace

HyperxDorRouting::HyperxDorRouting(const topo::Network& n, std::vector<int> dimension_order)
    : n_(n), order_(std::move(dimension_order)) {
  if (n.family != "hyperx")
    fail_infeasible("/network/family", "HyperX DOR routes a HyperX; this network is a " + n.family);
  const json& a = n.metrics.family_attrs;
  if (!a.contains("S") || !a["S"].is_array() || a["S"].empty())
    fail_input("/network/metrics/family_attrs/S", "missing HyperX shape");
  std::int64_t switches = 1;
  for (std::size_t d = 0; d < a["S"].size(); ++d) {
    const std::int64_t s = as_integer(
        a["S"][d], "/network/metrics/family_attrs/S/" + std::to_string(d), 1, topo::kMaxChips);
    S_.push_back(static_cast<int>(s));
    stride_.push_back(switches);
    slot_begin_.push_back(d == 0 ? 0 : slot_begin_.back() + S_[d - 1]);
    switches *= s;
  }
  const auto L = static_cast<int>(S_.size());
  if (static_cast<int>(order_.size()) != L)
    fail_runtime("hyperx dor", "the dimension order does not list every dimension");
  first_switch_ = n.n_chip;
  if (static_cast<std::int64_t>(n.nodes.size()) != n.n_chip + switches)
    fail_input("/network/nodes", "a " + std::to_string(switches) +
                                     "-switch HyperX needs its switches after the chips");
  // Switch coordinates are row-major over S (checked when the document was read; a network
  // built in process is checked here).
  for (std::int64_t s = 0; s < switches; ++s) {
    const topo::Node& v = n.nodes[z(first_switch_ + s)];
    bool ok = v.kind == topo::NodeKind::Switch && static_cast<int>(v.coord.size()) == L;
    for (int d = 0; ok && d < L; ++d) ok = v.coord[z(d)] == (s / stride_[z(d)]) % S_[z(d)];
    if (!ok)
      fail_input("/network/nodes/" + std::to_string(first_switch_ + s),
                 "not HyperX switch " + std::to_string(s) + " at its coordinates");
  }
  const std::int64_t slots = slot_begin_.back() + S_.back();
  hop_.assign(z(switches), std::vector<std::vector<std::int64_t>>(z(slots)));
  chips_ = ChipLinks(n, "switch");
  for (const topo::Link& l : n.links) {
    if (l.a < n.n_chip || l.b < n.n_chip) continue; // a chip's link (chips_) or a board's
    const std::int64_t sa = l.a - first_switch_, sb = l.b - first_switch_;
    int differ = -1, count = 0;
    for (int d = 0; d < L; ++d)
      if ((sa / stride_[z(d)]) % S_[z(d)] != (sb / stride_[z(d)]) % S_[z(d)]) differ = d, ++count;
    if (count != 1)
      fail_input("/network/links/" + std::to_string(l.id),
                 "joins HyperX switches that differ in " + std::to_string(count) + " dimensions");
    const std::int64_t yb = (sb / stride_[z(differ)]) % S_[z(differ)];
    const std::int64_t ya = (sa / stride_[z(differ)]) % S_[z(differ)];
    hop_[z(sa)][z(slot_begin_[z(differ)] + yb)].push_back(topo::channel_of(l.id, true));
    hop_[z(sb)][z(slot_begin_[z(differ)] + ya)].push_back(topo::channel_of(l.id, false));
  }
}

void HyperxDorRouting::route_into(const PacketState& p, std::vector<Choice>& out) const {
  out.clear();
  if (p.node == p.dst) return;
  auto pick = [&](const std::vector<std::int64_t>& lanes) {
    if (!lanes.empty())
      out.push_back({lanes[z(p.dst % static_cast<std::int64_t>(lanes.size()))], 0, 0});
  };
  if (p.node < n_.n_chip) { // a chip: up to its switch
    pick(chips_.up[z(p.node)]);
    return;
  }
  const std::int64_t s = p.node - first_switch_, t = chips_.switch_of[z(p.dst)] - first_switch_;
  for (int d : order_) {
    const std::int64_t ys = (s / stride_[z(d)]) % S_[z(d)], yt = (t / stride_[z(d)]) % S_[z(d)];
    if (ys != yt) {
      pick(hop_[z(s)][z(slot_begin_[z(d)] + yt)]);
      return;
    }
  }
  pick(chips_.down[z(p.dst)]); // at the destination's switch
}

std::vector<Choice> HyperxDorRouting::route(const PacketState& p) const {
  std::vector<Choice> out;
  route_into(p, out);
  return out;
}

} // namespace icnkit::route
