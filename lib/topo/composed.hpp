// Composed networks: a scale-up domain (chips on switch chips, a full mesh, a ring or a torus)
// inside every node of a scale-out Clos built from rails, the shape of the AI clusters of 2023-2026
// (a DGX node of 8 GPUs on NVSwitch with one NIC per GPU on a rail-optimized fabric; a GB200
// NVL72 rack of 72 GPUs on 18 NVSwitch chips). The family "composed" builds them; candidates
// come from the command line (topo-gen --scale-up / --scale-out) or a preset
// (topo/presets.hpp), not from enumeration.
//
// The model (one convention, every count derived):
// - D chips per domain (the scale-up domain: a node or a rack), N domains. Scale-up "switch":
//   S switch chips (NVSwitch planes), every chip linked to every one with L parallel links;
//   "full-mesh": every pair of a domain's chips, L links; "ring": chip i to i+1 (one link for
//   D = 2), L links; "torus" of shape k0 x k1 x ...: chip i at coordinates numbered as the torus
//   family's (the first dimension fastest), linked to its + neighbour in every dimension with
//   wrap-around (one link in a dimension of size 2), L links (a TPU cube, a Trn2 node's 4x4);
//   "none": no scale-up links.
// - Each chip has `nics` NICs, each with one port on every one of P planes (P independent
//   copies of the scale-out network). NIC j = c * nics + i of a domain is on rail
//   j / (D nics / R): R rails, consecutive NICs sharing one (GB200: a compute tray's 4 GPUs).
// - Domains form units of `unit` (a DGX SuperPOD scalable unit: 32 nodes). A leaf switch serves
//   one rail of one unit: unit * D nics / R ports down, `leaf_up` up (leaf_up < down:
//   oversubscribed).
// - rail-optimized, 2 tiers: S spines, the smallest divisor of leaf_up that gives each spine at
//   most `radix` ports; every leaf linked to every spine by leaf_up / S links.
//   rail-optimized, 3 tiers: per rail, blocks of units; each block's leaves linked to their own
//   spines completely (the block is every unit when the spines' down ports, radix - spine_up,
//   allow it at the fewest spines, else blocks of as many units as there are down ports with one
//   link per leaf and spine); spine j of every rail and block forms core group j, whose cores
//   (the smallest divisor of spine_up that fits the radix) each take spine_up / cores links
//   from every member.
//   rail-only: one Clos per rail and no tier above: 1 tier (a leaf per rail, one unit) or
//   2 tiers (the 3-tier rail-optimized network without its cores, one block per rail);
//   cross-rail traffic crosses the scale-up domain.
// - Packaging: boards of `board_chips` chips inside a domain, racks of `rack_domains` domains
//   (a domain never spans racks), a pod per unit. Scale-up switches are tier 8 in their
//   domain's rack, leaves tier 9 in their unit's pod, spines and cores tier 9+.
// - Link kinds name the tiers: c2c scale-up, b2b chip (NIC) to leaf, r2r leaf to spine, p2p
//   spine to core, so --link-bw c2c=450GB/s,50GB/s gives the two networks their speeds.
#pragma once
#include "core/error.hpp"
#include "topo/family.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::topo {

// The most links a composition may have (16.7 million: a million GPUs with 8 scale-up links and
// a NIC each fit).
inline constexpr std::int64_t kMaxComposedLinks = std::int64_t{1} << 24;

struct ComposedParams {
  // The scale-up domain.
  std::int64_t domains = 1;           // N
  std::int64_t domain_chips = 1;      // D
  std::string scale_up = "none";      // switch | full-mesh | ring | torus | none
  std::vector<std::int64_t> up_shape; // torus only: the sizes, product domain_chips
  std::int64_t up_switches = 0;       // S (switch only)
  std::int64_t up_links = 1;          // L parallel links per chip-switch or chip-chip pair
  std::int64_t board_chips = 0;       // chips per board (0: the domain is one board)
  std::int64_t rack_domains = 1;      // domains per rack
  // The scale-out network.
  std::string scale_out = "rail-optimized"; // rail-optimized | rail-only
  std::int64_t nics = 1;                    // NICs per chip
  std::int64_t planes = 1;
  std::int64_t rails = 0;     // 0: one per NIC of a domain (D nics)
  std::int64_t unit = 0;      // domains per unit (0: every domain)
  std::int64_t radix = 64;    // ports of a scale-out switch
  std::int64_t tiers = 2;     // 2 or 3 (rail-optimized); 1 or 2 (rail-only)
  std::int64_t leaf_up = -1;  // -1: as many as down ports (1:1)
  std::int64_t spine_up = -1; // 3 tiers: -1 as many as down ports
};

// The switch counts and link multiplicities the parameters give (per plane where it says so).
struct ComposedShape {
  ComposedParams p; // with the defaults filled in
  std::int64_t units = 1, leaf_down = 0;
  std::int64_t leaves = 0;           // per plane: units * rails
  std::int64_t spines = 0;           // per plane
  std::int64_t spines_per_block = 0; // 3-tier / rail-only 2-tier: spines of one block
  std::int64_t block_units = 0;      // units per block
  std::int64_t leaf_spine_links = 0; // parallel links per leaf-spine pair
  std::int64_t cores = 0;            // per plane
  std::int64_t cores_per_group = 0;  //
  std::int64_t spine_core_links = 0; // parallel links per spine-core pair
  std::int64_t up_switch_count = 0;  // every domain's scale-up switches
  std::int64_t switch_count = 0;     // all
  std::int64_t link_count = 0;       // all
  std::int64_t spine_ports = 0;      // ports a spine uses
  std::int64_t core_ports = 0;       // ports a core uses
};

// The shape of `p`, or Error(kind) at `where` naming the parameter that does not add up (a
// rail count that does not divide the NICs, ports beyond the radix, uplinks no spine count
// divides, a rail-only network without a scale-up domain, ...).
ComposedShape composed_shape(const ComposedParams& p, ErrorKind kind, const std::string& where);
// The parallel links a chip has to one node (scale-up links, NICs of a chip on one rail): the
// context's chip_radix must be at least this.
std::int64_t composed_chip_radix(const ComposedShape& s);

// The context and candidate of a composed network ("composed:<D>x<N>-<scale-up>/<scale-out>").
std::pair<Context, Candidate> composed_candidate(const ComposedParams& p, const std::string& where);

// Parses topo-gen's --scale-up / --scale-out: "switch:8,switches=4,links=1,board=8,rack=4",
// "full-mesh:4", "ring:4", "torus:4x4x4", "none:1";
// "rail-optimized:domains=128,unit=32,radix=64,tiers=2, up=32,rails=8,nics=1,planes=1,spine-up=32",
// "rail-only:...". Error(Usage) naming the option for an unknown kind or key, a key given twice or
// a value that is not a positive integer.
ComposedParams parse_composition(const std::string& scale_up, const std::string& scale_out);

// The family_attrs of a composed network (every parameter and the derived switch counts).
json composed_attrs(const ComposedShape& s);

// The shape of a composed network from its family_attrs; Error(Infeasible) at `where` when the
// network is not composed.
ComposedShape composed_shape_of(const Network& n, const std::string& where);
// Where a composed network's nodes are: chips 0..N D-1 (domain-major), then every domain's
// scale-up switches (domain-major), then plane by plane the leaves (unit-major, rail-minor),
// spines ((rail, block)-major in 3 tiers and rail-only; one set in 2 tiers) and cores
// (group-major).
struct ComposedLayout {
  std::int64_t up_base = 0;   // the first scale-up switch
  std::int64_t out_base = 0;  // the first scale-out switch
  std::int64_t per_plane = 0; // scale-out switches per plane
  explicit ComposedLayout(const ComposedShape& s)
      : up_base(s.p.domains * s.p.domain_chips), out_base(up_base + s.up_switch_count),
        per_plane(s.leaves + s.spines + s.cores) {}
};

// The scale-out switches of plane `plane` (0-based) of a composed network, by node id: what
// topo-gen --fail-plane fails. Error(Usage) naming `where` when the network is not composed
// or has no such plane.
std::vector<std::int64_t> plane_switches(const Network& n, std::int64_t plane,
                                         const std::string& where);
// The scale-out switches that serve rail `rail` (0-based) alone, in every plane: its leaves in
// every unit, and with per-rail spines (3 tiers, or a 2-tier rail-only network) its spines;
// cores serve every rail and stay. What topo-gen --fail-rail fails. Error(Usage) naming `where`
// when the network is not composed, has no scale-out, or no such rail.
std::vector<std::int64_t> rail_switches(const Network& n, std::int64_t rail,
                                        const std::string& where);

class ComposedFamily : public Family {
public:
  std::string name() const override { return "composed"; }
  std::string summary() const override {
    return "a scale-up domain (switch chips, full mesh, ring or torus) inside every node of a "
           "rail-optimized or rail-only Clos (topo-gen {scale_up}/{scale_out} or {preset})";
  }
  std::string reference() const override {
    return "topology-generation-spec v1.3.1 §future extensions (multi-level composition); "
           "NVIDIA DGX SuperPOD reference architectures; Wang et al., rail-only, 2023";
  }
  std::vector<Scope> scopes() const override { return {Scope::InterRack}; }
  Leaf leaf() const override { return Leaf::Board; }
  std::string parameters() const override;
  std::vector<std::string> attr_keys() const override;
  const std::vector<std::string>& warning_names() const override;
  void enumerate(const Context&, RunSink&) const override {} // built from the command line
  bool enumerated() const override { return false; }
  Candidate make(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Estimate estimate(const Context& ctx, const CandidateRun& r, std::int64_t i) const override;
  Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) const override;
  void check_network(const Network& n, const NetworkSite& at) const override;
};

} // namespace icnkit::topo
