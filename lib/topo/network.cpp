#include "topo/network.hpp"

#include "core/fingerprint.hpp"

namespace icnkit::topo {

std::vector<char> Faults::down_links(const Network& n) const {
  std::vector<char> down(n.links.size(), 0);
  for (auto& f : links) down[static_cast<std::size_t>(f.link)] = 1;
  if (!chips.empty()) {
    auto dc = down_chips(n);
    for (auto& l : n.links)
      if (dc[static_cast<std::size_t>(l.a)] || dc[static_cast<std::size_t>(l.b)])
        down[static_cast<std::size_t>(l.id)] = 1;
  }
  return down;
}

std::vector<char> Faults::down_chips(const Network& n) const {
  std::vector<char> down(n.nodes.size(), 0);
  for (auto& c : chips) down[static_cast<std::size_t>(c.chip)] = 1;
  return down;
}

std::string fingerprint(const Network& n, const Faults* f) {
  Fingerprinter h; // fixed order and width: independent of JSON formatting
  h.add_text("icnkit-network/1");
  h.add_text(n.family);
  h.add_int(n.n_chip);
  h.add_int(static_cast<std::int64_t>(n.nodes.size()));
  for (const Node& v : n.nodes) {
    h.add_int(v.id);
    h.add_int(v.kind == NodeKind::Chip ? 0 : 1);
    h.add_int(v.tier);
    h.add_int(v.board);
    h.add_int(v.rack);
    h.add_int(v.pod);
    h.add_int(static_cast<std::int64_t>(v.coord.size()));
    for (int c : v.coord) h.add_int(c);
    if (v.kind == NodeKind::Switch) {
      h.add_text(v.role);
      h.add_int(v.ports);
    }
  }
  h.add_int(static_cast<std::int64_t>(n.links.size()));
  for (const Link& l : n.links) {
    h.add_int(l.id);
    h.add_int(l.a);
    h.add_int(l.b);
    h.add_int(static_cast<std::int64_t>(l.kind));
    h.add_int(l.dim);
    h.add_int(l.dir);
    h.add_real(l.bandwidth_bytes_per_s);
    h.add_real(l.latency_s);
  }
  const bool faulty = f && !f->empty();
  h.add_int(faulty ? static_cast<std::int64_t>(f->links.size()) : 0);
  if (faulty)
    for (auto& l : f->links) {
      h.add_int(l.link);
      h.add_text(l.cause);
    }
  h.add_int(faulty ? static_cast<std::int64_t>(f->chips.size()) : 0);
  if (faulty) {
    for (auto& c : f->chips) {
      h.add_int(c.chip);
      h.add_text(c.cause);
    }
    h.add_int(f->random_seed ? static_cast<std::int64_t>(*f->random_seed) : -1);
    if (!f->switches.empty()) { // only when present, as the OCSes below
      h.add_text("switches");
      h.add_int(static_cast<std::int64_t>(f->switches.size()));
      for (auto i : f->switches) h.add_int(i);
    }
    if (!f->ocs.empty()) { // only when present: fingerprints without OCS faults are unchanged
      h.add_text("ocs");
      h.add_int(static_cast<std::int64_t>(f->ocs.size()));
      for (auto i : f->ocs) h.add_int(i);
    }
  }
  return h.hex();
}

} // namespace icnkit::topo
