// The spec's EnumerationContext (@tbl-spec-topo-21a): what the user says about the system.
#pragma once
#include "core/error.hpp"

#include <array>
#include <cstdint>
#include <functional>
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
// The chips one rack holds at most (a GB200 NVL72 rack: 72 GPUs; a TPU v4 cube: 64 chips).
inline constexpr std::int64_t kRackChipsMax = 72;
// The scope a chip count suggests when none is given: intra-rack up to kRackChipsMax chips,
// inter-rack beyond (a 1,024-chip dragonfly spans racks).
Scope default_scope(std::int64_t n_chip);
std::optional<IntraBoardTopo> parse_intra_board_topo(const std::string& s);
std::optional<LinkKind> parse_link_kind(const std::string& s);

// A link figure (bandwidth or latency) for every link and, overriding it, per link kind, as the
// command line gives it: "50GB/s", "c2c=900GB/s,r2r=50GB/s", or both: "50GB/s,c2c=900GB/s";
// "nic=..." overrides the kind for NIC links (a chip to a switch, scale-up c2c links excepted:
// topo/network.hpp is_nic_link), e.g. a dragonfly's 1-cycle terminal links beside its 10-cycle
// local ones, both inside a rack.
struct PerKind {
  std::optional<double> every;
  std::array<std::optional<double>, 4> kind{}; // indexed by LinkKind
  std::optional<double> nic;
  // The NIC figure for a NIC link, else the kind's own figure, else the one for every link,
  // else none.
  std::optional<double> of(LinkKind k, bool nic_link = false) const {
    if (nic_link && nic) return nic;
    const auto& v = kind[static_cast<std::size_t>(k)];
    return v ? v : every;
  }
};
// Error(Usage) naming `where` for an unknown kind (not c2c, b2b, r2r, p2p or nic), a kind given
// twice, two figures for every link, or an item `one` refuses (it parses one figure, naming
// `where`).
PerKind parse_per_kind(const std::string& text, const std::string& where,
                       const std::function<double(const std::string&)>& one);

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
// (kind Usage: the field is named as a parameter, `where` + "{n_chip}", core/error.hpp).
void validate(const Context& c, ErrorKind kind, const std::string& where);

} // namespace icnkit::topo
