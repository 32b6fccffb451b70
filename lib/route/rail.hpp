// Routing on composed networks (topo/composed.hpp) the way their clusters route: the scale-up
// domain and the rails of the scale-out network, never a chip as transit inside the scale-out
// network, and chips as transit between the two (a GPU relaying through its NVLink and NIC).
//
// - Inside a domain: the shortest scale-up paths (through the domain's switch chips, its mesh
//   or around its ring), every one of equal length permitted (ECMP).
// - Between domains, `pxn` (NCCL's PXN): first inside the source's domain to its chip at the
//   destination's position (on the destination's rails), then out of that chip's NICs over the
//   shortest scale-out paths to the destination. `rail-aligned`: out of the source's own NICs,
//   over the scale-out network inside their rails to the destination domain's chip on the same
//   rail (the destination itself when it is on it), then inside that domain to the destination.
//   Every scale-out choice is a shortest one over the live scale-out switches (ECMP: any spine
//   of a full-bisection tier). A chip without scale-up links (scale-up none) sends everything
//   through the scale-out network.
// - One VC class: a packet crosses from scale-up to scale-out at most once, in one direction
//   (pxn: up then out; rail-aligned: out then up), and each part is an up-down Clos path or a
//   shortest path inside a domain; the checker confirms the dependency graph has no cycle. A
//   ring scale-up of 4 or more chips has chips as transit around its cycle: there the k-th hop
//   takes VC k (hop-count classes, as minimal routing's), as many as the longest path.
// - Fault-aware: failed links, chips and switches are left out of the distances. A chip whose
//   NICs all failed (its NIC, its leaf, its whole rail) still sends and receives through its
//   domain: pxn lands at the destination domain's entry chip (the destination, else the next
//   chip round the domain, in position order, with a live NIC that reaches it inside the domain)
//   and relays from the source domain's chip at the entry's position (else the next that
//   reaches the entry); rail-aligned sends from a chip without a live NIC to its domain's exit
//   chip (the chip at the destination's position, else the next with a live NIC), and lands on
//   the destination domain's chip of the rail it travelled (the destination when it is on it).
//   Entry and exit depend only on the destination, so the routing stays a function of (node,
//   destination). Such a path goes up, out and up again: with any fault the hops inside the
//   destination's domain after the scale-out network take VC 1 (two classes; a ring's hop
//   classes already order every hop). A pair no live path joins is unreachable (the checker
//   lists it). On a rail-only network (one Clos per rail) pxn and rail-aligned are the only
//   ways across rails.
#pragma once
#include "route/adjacency.hpp"
#include "route/routing.hpp"
#include "topo/composed.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

enum class RailPath { Pxn, RailAligned };

class RailRouting : public RoutingFunction {
public:
  // Error(Infeasible) when the network is not composed.
  RailRouting(const topo::Network& n, const topo::Faults& f, RailPath mode);

  int vc_count() const override { return vcs_; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

private:
  enum class Role : std::uint8_t { Chip, UpSwitch, Leaf, Spine, Core };
  static constexpr std::uint8_t kFar = 255;

  bool live(std::int64_t ch) const {
    return down_links_.empty() || !down_links_[static_cast<std::size_t>(topo::link_of_channel(ch))];
  }
  std::int64_t domain_of(std::int64_t v) const;          // chips and scale-up switches
  std::int64_t local_of(std::int64_t v) const;           // index inside its domain's scale-up graph
  int up_distance(std::int64_t v, std::int64_t x) const; // v and chip x in one domain
  int out_distance(std::int64_t v, std::int64_t x) const; // scale-out switch v to chip x
  std::int64_t rail_of_leaf(std::int64_t leaf) const;
  // The rail a packet in the scale-out network is on at switch v, having come in on `in`.
  std::int64_t rail_here(std::int64_t v, std::int64_t in, std::int64_t dst) const;
  // Where rail r lands in dst's domain: dst itself when it has a live NIC on r, else the first
  // chip of the domain on r with a live NIC on r and a scale-up path to dst; -1 if none.
  std::int64_t rail_chip(std::int64_t r, std::int64_t dst) const;
  // Whether chip c's live NICs can carry a packet for dst rail-aligned (some NIC's rail lands).
  bool can_leave(std::int64_t c, std::int64_t dst) const;
  // rail-aligned's exit chip of `domain` for dst: the first from dst's position on (wrapping)
  // that can leave; -1 if none.
  std::int64_t exit_chip(std::int64_t domain, std::int64_t dst) const;
  bool chip_on_rail(std::int64_t chip, std::int64_t r) const;
  void choose(const PacketState& p, std::vector<Choice>& out) const;
  // pxn's relay in `domain` for `dst`: the chip at dst's position, else the next that reaches dst.
  std::int64_t pxn_relay(std::int64_t domain, std::int64_t dst) const;
  // pxn's entry chip for dst: dst, else the first chip of its domain from its position on
  // (wrapping) with a live NIC and a scale-up path to dst; -1 if none.
  std::int64_t pxn_entry(std::int64_t dst) const;
  void toward_up(std::int64_t v, std::int64_t x, std::vector<Choice>& out) const;
  void toward_out(std::int64_t v, std::int64_t x, std::vector<Choice>& out) const;

  const topo::Network& n_;
  topo::ComposedShape s_;
  topo::ComposedLayout at_;
  RailPath mode_;
  Adjacency adj_;
  std::vector<char> down_links_, down_nodes_;
  std::vector<Role> role_;
  std::int64_t D_ = 1, S_ = 0, per_rail_ = 1;
  bool has_up_ = false, has_out_ = false;
  bool hop_vcs_ = false;
  bool split_vcs_ = false; // faults: VC 1 inside the destination's domain after the scale-out
  int vcs_ = 1;
  // Per domain, per chip x of it, per local node: scale-up hops to x.
  std::vector<std::uint8_t> up_dist_;
  // Per leaf (all planes, in node order), per scale-out switch: switch hops to the leaf.
  std::vector<std::uint8_t> leaf_dist_;
  // Per chip: its live NIC channels and the leaves they reach (scale-out switch indices).
  std::vector<std::vector<std::int64_t>> nic_ch_, nic_leaf_;
  // Per chip, per NIC leaf: where the leaf's row of leaf_dist_ starts, less out_base, so a
  // switch v's hops to it are leaf_dist_[row + v] (no division on the per-hop path).
  std::vector<std::vector<std::int64_t>> nic_row_;
  // The scale-out next hops toward every leaf, precomputed where switches x leaves stay within
  // kMaxHopTable (about 16 MB of offsets; the rest scan v's ports per hop): entry
  // (v - out_base) * leaves + l lists, in port order, the live channels from switch v one hop
  // nearer leaf l (empty when v is l or cannot reach it). leaf_of_chip_: per chip and plane
  // its one NIC leaf, -1 for none or several (those chips take the scan).
  static constexpr std::int64_t kMaxHopTable = std::int64_t{1} << 22;
  std::vector<std::int64_t> hop_begin_, hop_ch_;
  std::vector<std::int32_t> leaf_of_chip_;
  void build_hop_table(std::int64_t OUT, std::int64_t leaves);
};

} // namespace icnkit::route
