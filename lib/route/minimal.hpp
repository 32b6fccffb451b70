// Minimal (shortest-path) routing for any network, fault-aware: the next hops of a packet are
// the live channels that bring it one hop closer to its destination over the live links
// (failed links and chips removed). With ECMP every such channel is permitted, in channel-id
// order (adaptive); `random` permits them all as alternatives for an oblivious random choice
// per packet and hop (BookSim's nca on its fat-tree: a random up port); otherwise only the
// first (deterministic).
//
// Transit: in a network with switches only switches forward (a chip is a source or a sink, as
// a NIC is); in a switchless network (torus, mesh, hypercube, ring, full-mesh) chips forward.
//
// VC classes: `hops` puts the k-th hop of a packet on VC k, so every dependency goes from a
// lower to a higher class and the channel-dependency graph is acyclic whatever the topology
// (Gunther 1981; the classic scheme for dragonflies and faulty graphs); it needs as many
// classes as the longest minimal path. `none` uses one VC class: deadlock-free on trees and
// meshes-like graphs only, which the checker decides (it finds the cycle on a torus).
//
// Distances. A switchless network keeps a table of nodes x chips hops. A network with switches
// keeps one column of switch hops per attachment instead: the set of live switches a live chip
// has a live link to. Since chips do not forward, the BFS from a chip dst reaches the switches
// exactly as a BFS over switches only started from dst's attachment at 1 hop, so chips with the
// same attachment share it; a chip v != dst is then 1 hop away when a live link joins it to
// dst, else 1 + the least hops of its own live switches. Exactly the table's answers, in
// attachments x switches bytes (a 16,384-chip fat-tree: 512 x 2,048 instead of 18,432 x 16,384).
#pragma once
#include "route/adjacency.hpp"
#include "route/routing.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

struct MinimalOptions {
  bool ecmp = true;    // every minimal next hop is permitted
  bool random = false; // ... as alternatives for a random choice (random_choice())
  bool hop_vcs = true;
};

// Distance tables above this many entries (one byte each: nodes x chips without switches,
// attachments x switches with them) are refused.
inline constexpr std::int64_t kMaxMinimalTable = std::int64_t{1} << 28;

class MinimalRouting : public RoutingFunction {
public:
  // Error(Infeasible) when the table would be too large or a path longer than 254 hops.
  MinimalRouting(const topo::Network& n, const topo::Faults& f, MinimalOptions o);

  int vc_count() const override { return opt_.hop_vcs ? std::max(1, longest_) : 1; }
  bool source_independent() const override { return true; }
  bool random_choice() const override { return opt_.ecmp && opt_.random; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;
  // Verification and load per attachment; defined in minimal_symmetry.cpp.
  std::shared_ptr<const SymmetricAnalysis> symmetric_analysis() const override;

  // Hops from node v to chip dst over the live network; -1 when unreachable.
  int distance(std::int64_t v, std::int64_t dst) const {
    if (transit_) {
      const std::uint8_t d =
          dist_[static_cast<std::size_t>(dst) * V_ + static_cast<std::size_t>(v)];
      return d == kUnreachable ? -1 : d;
    }
    return switched_distance(v, dst);
  }

  const MinimalOptions& options() const { return opt_; }
  // The longest minimal path between live chips.
  int longest() const { return longest_; }
  // Networks with switches: the distances are kept per attachment (see above), so the choices
  // toward a chip depend only on its attachment.
  bool routes_by_attachment() const override { return !transit_; }
  // A chip's attachment, -1 when the chip is down or has no live link to a switch.
  std::int32_t attachment(std::int64_t chip) const override {
    return attachment_[static_cast<std::size_t>(chip)];
  }

private:
  static constexpr std::uint8_t kUnreachable = 255;
  int switched_distance(std::int64_t v, std::int64_t dst) const;
  // True when a live link joins live chips a and b (switched networks).
  bool chips_adjacent(std::int64_t a, std::int64_t b) const;
  void build_table(const std::vector<char>& down_links, const std::vector<char>& down_nodes);
  void build_columns(const std::vector<char>& down_nodes);

  const topo::Network& n_;
  MinimalOptions opt_;
  Adjacency adj_;
  std::size_t V_;
  bool transit_;                   // chips forward (a switchless network)
  std::vector<std::uint8_t> dist_; // switchless: dst * V + v; with switches: attachment * S + s
  std::vector<char> usable_;       // per channel: its link and its far node are up
  int longest_ = 0;                // the longest minimal path between live chips
  // Networks with switches (s = node - n_chip):
  std::size_t S_ = 0;
  std::vector<char> down_;                // per node
  std::vector<std::int32_t> attachment_;  // per chip
  std::vector<std::int64_t> reach_start_; // per chip: its live switches, distinct (CSR)
  std::vector<std::int32_t> reach_;       //
  std::vector<std::int64_t> peers_start_; // per chip: the live chips a live link joins it to
  std::vector<std::int32_t> peers_;       // (sorted, distinct; CSR)
};

// Whether chips forward traffic in this network (it has no switches).
bool chips_transit(const topo::Network& n);
// Hops from every node to chip `dst` over the links not down and the nodes not down, with the
// transit rule above (BFS from dst); -1 where unreachable. `down_links` / `down_nodes` may be
// empty (nothing down). Used for the minimal tables and, fault-free, for path stretch.
void distances_to(const topo::Network& n, const Adjacency& adj, std::int64_t dst,
                  const std::vector<char>& down_links, const std::vector<char>& down_nodes,
                  std::vector<std::int32_t>& dist);

} // namespace icnkit::route
