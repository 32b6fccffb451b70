// The verifier behind coll/verify.hpp, for the files that implement it: verify.cpp (run: the
// checks in order, and check 4's hop walk), verify_order.cpp (checks 1 and 2),
// verify_pieces.cpp (check 3), verify_fast.cpp and verify_lanes.cpp (check 4's shortcuts
// and its lane check). verify() and verify_all_rings() run the same Verifier; `all_rings`
// picks the reference path.
#pragma once
#include "coll/schedule.hpp"
#include "core/error.hpp"
#include "topo/network.hpp"
#include "topo/torus_geometry.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace icnkit::coll::verify_detail {

// (ring, weight): simulate this ring and count it for `weight` rings that behave alike.
using RingsToSimulate = std::vector<std::pair<std::int64_t, std::int64_t>>;

class Verifier {
public:
  // `all_rings`: the straightforward computation (verify_all_rings()).
  Verifier(const Schedule& s, const topo::Network& net, const topo::Faults& faults, ErrorKind kind,
           std::string where, bool all_rings)
      : s_(s), net_(net), geo_(topo::TorusGeometry::of(net, "schedule verification")), kind_(kind),
        where_(std::move(where)), down_links_(faults.down_links(net)),
        down_chips_(faults.down_chips(net)), all_rings_(all_rings) {}

  Verification run();

private:
  struct Loc {
    std::size_t phase = 0, index = 0;
  };
  struct Group { // one chunk's steps along one dimension with one op, in id order
    int chunk = 0, dim = 0;
    PhaseOp op = PhaseOp::AllToAll;
    std::vector<Loc> steps;
    // Per lane used: its first and last step in the group, and for its first step the latest
    // ancestor in each lane of the chunk (to tell whether two lanes are ordered).
    std::map<int, std::int64_t> first, last;
    std::map<int, std::vector<std::int64_t>> first_row;
  };

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(kind_, where_ + pointer, what);
  }
  static std::string phase_ptr(std::size_t p) { return "/phases/" + std::to_string(p); }
  static std::string step_ptr(std::size_t p, std::size_t k) {
    return phase_ptr(p) + "/steps/" + std::to_string(k);
  }
  static std::string transfer_ptr(std::size_t p, std::size_t k, std::size_t t) {
    return step_ptr(p, k) + "/transfers/" + std::to_string(t);
  }

  // Checks 1 and 2 (verify_order.cpp).
  void check_header();
  void check_order();
  void check_sequence();
  // Check 3 (verify_pieces.cpp).
  void simulate_group(const Group& grp, const RingsToSimulate& todo);
  void simulate_reduction_group(const Group& grp, const RingsToSimulate& todo);
  RingsToSimulate rings_to_simulate(const Group& grp) const;
  // Check 4: the hop walk (verify.cpp), the fast path's clean steps (verify_fast.cpp), the
  // lane check both ways (verify_lanes.cpp).
  template <class Geometry, class OnHop> void check_links(const Geometry& g, OnHop&& on_hop);
  void check_hop(std::size_t p, std::size_t k, std::size_t t, const Step& st, std::int64_t src,
                 std::int64_t dst, std::int64_t ch, std::vector<std::int64_t>& stamp);
  void find_bad_rings();
  bool proven_clean(std::size_t p, std::size_t k);
  void check_lanes();
  void check_lane_masks(const std::vector<std::vector<std::uint64_t>>& masks) const;
  [[noreturn]] void lane_conflict(const Group& grp, int A, int B, std::int64_t channel) const;

  const Schedule& s_;
  const topo::Network& net_;
  topo::TorusGeometry geo_;
  ErrorKind kind_;
  std::string where_;
  std::vector<char> down_links_, down_chips_;
  bool all_rings_;
  std::vector<Group> groups_;
  std::vector<std::size_t> phase_group_; // phase -> index into groups_
  // verify()'s shortcuts: find_bad_rings(), and per multi-lane group, per (lane, direction),
  // the rings its steps proven clean cover (empty for single-lane groups).
  std::vector<std::vector<char>> bad_rings_;
  std::vector<char> any_bad_;
  std::vector<std::vector<std::vector<char>>> cover_;
  Verification v_;
};

} // namespace icnkit::coll::verify_detail
