// Maximum flow (Dinic's algorithm) over real capacities, and the source side of a minimum cut.
//
// Capacities are doubles, infinity allowed (no s-t path may be infinite throughout): a residual
// capacity at most `eps` (a relative tolerance, 1e-12 of the largest finite capacity, set by
// run()) counts as saturated, so rounding in the subtractions cannot
// make the search loop on crumbs. A flow value is exact to about that tolerance times the
// number of arcs on a path.
//
// An undirected edge of capacity c (a full-duplex link: c each way) is one arc u -> v of
// capacity c whose reverse v -> u also has capacity c (add_arc(u, v, c, c)); a directed arc
// has a reverse of capacity 0.
#pragma once
#include <cstddef>
#include <limits>
#include <vector>

namespace icnkit {

class MaxFlow {
public:
  explicit MaxFlow(std::size_t nodes) : first_(nodes, kNone), level_(nodes), next_(nodes) {}

  std::size_t nodes() const { return first_.size(); }
  // An arc u -> v of capacity `cap` with its reverse v -> u of capacity `back`; returns the
  // arc's id (for set_capacity). Capacities are >= 0.
  std::size_t add_arc(std::size_t u, std::size_t v, double cap, double back = 0);
  // Sets the capacity of arc `arc` (not its reverse's), for the next run().
  void set_capacity(std::size_t arc, double cap) { cap_[arc] = cap; }

  // The maximum flow from s to t (s != t), from zero flow; the search stops as soon as the flow
  // reaches `limit` (then it returns at least `limit`, and the flow need not be maximum).
  double run(std::size_t s, std::size_t t, double limit = std::numeric_limits<double>::infinity());
  // After a run() that returned less than its limit: the nodes reachable from s in the residual
  // graph, the source side of a minimum s-t cut (1 = reachable).
  std::vector<char> source_side(std::size_t s) const;

private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  bool levels(std::size_t s, std::size_t t);
  double push(std::size_t u, std::size_t t, double f);

  // Arcs in pairs: arc i and its reverse i ^ 1.
  std::vector<std::size_t> head_, link_; // target, next arc out of the same node
  std::vector<double> cap_, res_;        // capacity, residual capacity
  std::vector<std::size_t> first_;       // first arc out of each node
  std::vector<int> level_;
  std::vector<std::size_t> next_; // the current arc of each node in a blocking-flow search
  double eps_ = 0;
};

} // namespace icnkit
