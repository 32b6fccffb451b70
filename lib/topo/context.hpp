// The spec's EnumerationContext (@tbl-spec-topo-21a): what the user says about the system.
#pragma once
#include "core/json_reader.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace icnkit::topo {

enum class Scope { IntraRack, InterRack };
enum class IntraBoardTopo { None, FullMesh, Ring, Torus };
enum class LinkKind { C2C, B2B, R2R, P2P };

inline constexpr std::int64_t kMaxChips = 1 << 20; // 1,048,576 chips: the largest system we build

std::string to_string(Scope s);
std::string to_string(IntraBoardTopo t);
std::string to_string(LinkKind k);
std::optional<Scope> parse_scope(const std::string& s);
std::optional<IntraBoardTopo> parse_intra_board_topo(const std::string& s);
std::optional<LinkKind> parse_link_kind(const std::string& s);

struct LinkParams {
  double bandwidth_bytes_per_s; // per direction
  double latency_s;             // per hop
};
// 50 GB/s per direction and 1 us per hop, TPU v4 ICI-like, for every link kind unless told.
inline constexpr LinkParams kDefaultLinkParams{50.0e9, 1.0e-6};

struct Context {
  std::int64_t n_chip = 0;
  Scope scope = Scope::IntraRack;
  std::int64_t chips_per_board_max = 16;
  std::int64_t chip_radix = 1;
  IntraBoardTopo intra_board_topo = IntraBoardTopo::None;
  std::map<LinkKind, LinkParams> defaults; // per link kind; missing kinds use kDefaultLinkParams

  LinkParams link_params(LinkKind k) const;
};

// Checks the spec's stage-one rules; throws Error(kind) at `where` + the field's name
// (kind Usage: `where` is "--" and fields are spelled as options, n_chip -> --n-chip).
void validate(const Context& c, ErrorKind kind, const std::string& where);

json to_json(const Context& c);
Context parse_context(ObjReader& r); // strict; validates

} // namespace icnkit::topo
