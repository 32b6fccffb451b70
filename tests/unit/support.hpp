// Helpers shared by the unit tests.
#pragma once
#include "core/error.hpp"
#include "topo/enumerate.hpp"
#include "topo/grid.hpp"

#include <catch2/catch.hpp>
#include <functional>

namespace icnkit::test {

// The kind of icnkit::Error that `f` throws; fails the test when it throws none.
inline ErrorKind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.kind();
  }
  FAIL("no error thrown");
  return ErrorKind::Runtime;
}

// The candidate a grid family (torus, mesh) would enumerate for shape S and board shape B.
inline topo::Candidate grid_candidate(const std::string& family, const std::vector<int>& S,
                                      const std::vector<int>& B) {
  topo::Candidate c;
  c.family = family;
  c.id = topo::grid_candidate_id(family, {S, B});
  c.family_attrs = {{"dimension_sizes", S}, {"board_shape", B}};
  c.n_endpoint = topo::product(S);
  c.derived_chips_per_board = topo::product(B);
  return c;
}

// Its network, generated with a default context (the framework checks the invariants).
inline topo::Network grid_network(const std::string& family, const std::vector<int>& S,
                                  const std::vector<int>& B) {
  topo::Candidate c = grid_candidate(family, S, B);
  topo::Context ctx;
  ctx.n_chip = c.n_endpoint;
  return topo::generate(ctx, c, {});
}

} // namespace icnkit::test
