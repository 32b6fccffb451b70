// Turn-model routing on 2-D meshes: Chiu's odd-even (minimal adaptive, fault-free) and FTHOE
// (fault-tolerant, on the Hamiltonian odd-even turn model). Dimension 0 is x (E = +x,
// W = -x), dimension 1 is y (N = +y, S = -y).
//
// Odd-even (Chiu 2000; docs/algorithms.md §Odd-even turn model): no EN or ES turn at a node in an
// even column, no NW or SW turn in an odd column; ROUTE(c, d, s) as Chiu gives it. It depends on
// whether the packet is still in its source column (c.x = s.x): that is carried as flag bit 0 ("has
// moved east or west"), so the routing stays a function of the packet's state.
//
// HOE (as a summary of the FTHOE paper gives it): snake labels L(x, y) = y n + x on even rows,
// y n + n - 1 - x on odd rows; N always raises L, S lowers it, E raises it on even rows and W on
// odd rows. The turns HOE forbids (E->S, N->W on even rows, N->E, W->S on odd rows, U-turns) are
// exactly the turns from a label-raising move to a label-lowering one, so every legal route
// lowers L, then raises it (docs/algorithms.md §HOE and FTHOE; the checker proves the
// channel-dependency graph acyclic).
//
// FTHOE as built here (the paper's full text is not available; docs/algorithms.md §HOE and FTHOE):
// at each hop the minimal ports in priority order (the horizontal one first, the seed's EN
// rows), keeping those that are healthy (the 4-bit local fault vector: the link and the
// neighbour up), HOE-legal from the input port, and from which a minimal HOE-legal healthy
// route to the destination exists; if there is none, the non-minimal ports from which any
// HOE-legal healthy route exists. The "exists" tables are computed per destination by dynamic
// programming over (node, last move), which is a DAG because L falls, then rises. So FTHOE
// delivers every pair an HOE-legal route connects (and, the route being HOE-legal, without
// deadlock or livelock), and returns no port for the others ("no route"). The seed's
// suboptimal-port rows are not used: its argument that an illegal turn taken "for one hop"
// adds no dependency is unsound (every turn taken is an edge of the dependency graph).
#pragma once
#include "route/routing.hpp"
#include "topo/mesh.hpp"

#include <cstdint>
#include <vector>

namespace icnkit::route {

enum Dir : int { kEast = 0, kWest = 1, kNorth = 2, kSouth = 3, kNone = 4 };

// The 2-D mesh a turn model routes (Error(Infeasible) for anything else), with each chip's
// port channels (-1 at the boundary).
class MeshPorts {
public:
  MeshPorts(const topo::Network& n, const std::string& who);
  int cols() const { return cols_; }
  int rows() const { return rows_; }
  int x(std::int64_t c) const { return static_cast<int>(c % cols_); }
  int y(std::int64_t c) const { return static_cast<int>(c / cols_); }
  std::int64_t channel(std::int64_t c, int dir) const {
    return port_[static_cast<std::size_t>(c) * 4 + static_cast<std::size_t>(dir)];
  }
  std::int64_t neighbour(std::int64_t c, int dir) const;
  // The direction of a channel (the move it makes), kNone for -1.
  int dir_of(std::int64_t channel) const;

private:
  int cols_, rows_;
  std::vector<std::int64_t> port_;     // chip * 4 + dir
  std::vector<std::int8_t> dir_of_ch_; // per channel
};

class OddEvenRouting : public RoutingFunction {
public:
  explicit OddEvenRouting(const topo::Network& n);
  int vc_count() const override { return 1; }
  bool source_independent() const override { return true; } // the source column is a flag
  std::vector<Choice> route(const PacketState& p) const override;

private:
  MeshPorts mesh_;
};

class FthoeRouting : public RoutingFunction {
public:
  FthoeRouting(const topo::Network& n, const topo::Faults& f);
  int vc_count() const override { return 1; }
  bool source_independent() const override { return true; }
  std::vector<Choice> route(const PacketState& p) const override;
  void route_into(const PacketState& p, std::vector<Choice>& out) const override;

  // HOE: whether a move raises the snake label, and whether a turn is legal.
  static bool raises(int dir, int y) {
    return dir == kNorth || (dir == kEast ? y % 2 == 0 : dir == kWest && y % 2 == 1);
  }
  static bool legal_turn(int from, int to, int y);
  // Whether an HOE-legal healthy route (minimal or any) leads from `node`, having arrived by a
  // move in `last` (kNone at injection), to `dst`.
  bool reachable(std::int64_t node, int last, std::int64_t dst, bool minimal) const;

private:
  bool healthy(std::int64_t node, int dir) const; // the local fault vector
  MeshPorts mesh_;
  std::vector<char> up_;      // per channel: its link and its far chip are up
  std::vector<char> chip_up_; // per chip
  std::size_t V_;
  std::vector<std::uint8_t> reach_; // (dst * V + node) * 5 + last: bit 0 any, bit 1 minimal
};

} // namespace icnkit::route
