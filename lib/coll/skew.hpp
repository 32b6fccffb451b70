// All-to-all-v: an all-to-all whose (origin, destination) items differ in size, as a mixture of
// experts' token dispatch does when some experts are more popular than others. A schedule between
// ranks carries the skew (Schedule::skew); the items' bytes follow from it and the schedule's
// bytes_per_node S, so `net-sim --sizes` rescales them and the document stays compact.
// Every origin's buffer holds S bytes on average, its item for itself included (that one stays
// where it is, as a token routed to a local expert does):
//  - zipf:s (seed N): the ranks of a group are ranked by popularity in a seeded random order
//    (the same for every origin: an expert's popularity is global), rank r getting weight 1/r^s;
//    every origin's S is split over the ranks (itself included) in proportion to their weights.
//    s = 0 is the uniform all-to-all, S/n an item.
//  - matrix: an n x n matrix of relative sizes (row: origin rank, column: destination; the
//    diagonal is what stays local), scaled so that the buffers hold S each on average.
// Verification does not change (items are symbolic); the simulation moves each item's bytes
// (rank_program.hpp) and the bound is the busiest rank's injection (bound.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icnkit::coll {

// The largest group whose items' sizes are kept (n x n of them: 128 MB).
constexpr std::int64_t kMaxSkewRanks = 4096;

struct Skew {
  std::string kind = "zipf";                // "zipf" | "matrix"
  double exponent = 0;                      // zipf
  std::uint64_t seed = 0;                   // zipf
  std::vector<std::vector<double>> weights; // matrix: n x n, >= 0
  friend bool operator==(const Skew&, const Skew&) = default;
};

// The bytes of rank o's item for rank d, at [o * n + d], for a group of n ranks holding S bytes
// each on average (the diagonal: what stays local). Error(Input) naming `where` when a matrix is
// not n x n.
std::vector<double> skew_bytes(const Skew& k, std::int64_t n, double S, const std::string& where);

// "zipf:S" (with `seed`) or a matrix already read; Error(Usage) naming `where` for a bad spec.
Skew parse_skew_spec(const std::string& spec, std::uint64_t seed, const std::string& where);
// A matrix from text: one row per line, numbers separated by commas or white space ('#' starts a
// comment). Error(Input) naming `where`.
std::vector<std::vector<double>> parse_skew_matrix(const std::string& text,
                                                   const std::string& where);
std::string to_string(const Skew& k); // "zipf:1.2 seed 7", "matrix 8x8"

} // namespace icnkit::coll
