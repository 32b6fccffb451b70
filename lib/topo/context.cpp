#include "topo/context.hpp"

#include "core/error.hpp"

namespace icnkit::topo {

std::string to_string(Scope s) {
  return s == Scope::IntraRack ? "intra-rack" : "inter-rack";
}
std::string to_string(IntraBoardTopo t) {
  switch (t) {
  case IntraBoardTopo::None:
    return "none";
  case IntraBoardTopo::FullMesh:
    return "full-mesh";
  case IntraBoardTopo::Ring:
    return "ring";
  case IntraBoardTopo::Torus:
    return "torus";
  }
  return "none";
}
std::string to_string(LinkKind k) {
  switch (k) {
  case LinkKind::C2C:
    return "c2c";
  case LinkKind::B2B:
    return "b2b";
  case LinkKind::R2R:
    return "r2r";
  case LinkKind::P2P:
    return "p2p";
  }
  return "c2c";
}
Scope default_scope(std::int64_t n_chip) {
  return n_chip <= kRackChipsMax ? Scope::IntraRack : Scope::InterRack;
}

std::optional<Scope> parse_scope(const std::string& s) {
  if (s == "intra-rack") return Scope::IntraRack;
  if (s == "inter-rack") return Scope::InterRack;
  return std::nullopt;
}
std::optional<IntraBoardTopo> parse_intra_board_topo(const std::string& s) {
  for (auto t : {IntraBoardTopo::None, IntraBoardTopo::FullMesh, IntraBoardTopo::Ring,
                 IntraBoardTopo::Torus})
    if (to_string(t) == s) return t;
  return std::nullopt;
}
std::optional<LinkKind> parse_link_kind(const std::string& s) {
  for (auto k : {LinkKind::C2C, LinkKind::B2B, LinkKind::R2R, LinkKind::P2P})
    if (to_string(k) == s) return k;
  return std::nullopt;
}

PerKind parse_per_kind(const std::string& text, const std::string& where,
                       const std::function<double(const std::string&)>& one) {
  PerKind out;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = text.find(',', at);
    const std::string item =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      if (out.every)
        fail_usage(where, "gives two figures for every link ('" + text +
                              "'); name the kinds the others are for, e.g. 50GB/s,c2c=900GB/s");
      out.every = one(item);
    } else {
      const std::string name = item.substr(0, eq);
      const auto k = parse_link_kind(name);
      if (!k && name != "nic")
        fail_usage(where, "unknown link kind '" + name + "' (use c2c, b2b, r2r, p2p, nic)");
      auto& v = k ? out.kind[static_cast<std::size_t>(*k)] : out.nic;
      if (v) fail_usage(where, "gives link kind '" + name + "' twice");
      v = one(item.substr(eq + 1));
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

LinkParams Context::link_params(LinkKind k) const {
  auto it = defaults.find(k);
  return it == defaults.end() ? kDefaultLinkParams : it->second;
}

void validate(const Context& c, ErrorKind kind, const std::string& where) {
  // From a command line a field is named as a parameter ({n_chip}), in a file by its pointer.
  auto bad = [&](const std::string& field, const std::string& what) {
    throw Error(kind, kind == ErrorKind::Usage ? where + "{" + field + "}" : where + field, what);
  };
  if (c.n_chip < 2 || c.n_chip > kMaxChips)
    bad("n_chip", "n_chip must be in [2, " + std::to_string(kMaxChips) + "], got " +
                      std::to_string(c.n_chip));
  if (c.chips_per_board_max < 1 || c.chips_per_board_max > kMaxChips)
    bad("chips_per_board_max",
        "chips_per_board_max must be in [1, " + std::to_string(kMaxChips) + "]");
  if (c.chip_radix < 1 || c.chip_radix > 1024) bad("chip_radix", "chip_radix must be in [1, 1024]");
}

} // namespace icnkit::topo
