#include "core/max_flow.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace icnkit {

std::size_t MaxFlow::add_arc(std::size_t u, std::size_t v, double cap, double back) {
  const std::size_t id = head_.size();
  for (auto [from, to, c] : {std::tuple{u, v, cap}, std::tuple{v, u, back}}) {
    head_.push_back(to);
    link_.push_back(first_[from]);
    first_[from] = head_.size() - 1;
    cap_.push_back(c);
    res_.push_back(c);
  }
  return id;
}

bool MaxFlow::levels(std::size_t s, std::size_t t) {
  std::fill(level_.begin(), level_.end(), -1);
  std::vector<std::size_t> queue{s};
  level_[s] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const std::size_t u = queue[i];
    for (std::size_t a = first_[u]; a != kNone; a = link_[a])
      if (res_[a] > eps_ && level_[head_[a]] < 0) {
        level_[head_[a]] = level_[u] + 1;
        queue.push_back(head_[a]);
      }
  }
  return level_[t] >= 0;
}

// One augmenting path of the level graph from u, carrying at most f; what it carried.
// Recursion depth: the level of t (at most the number of nodes, in practice the diameter).
double MaxFlow::push(std::size_t u, std::size_t t, double f) {
  if (u == t) return f;
  for (std::size_t& a = next_[u]; a != kNone; a = link_[a]) {
    const std::size_t v = head_[a];
    if (res_[a] <= eps_ || level_[v] != level_[u] + 1) continue;
    const double got = push(v, t, std::min(f, res_[a]));
    if (got > 0) {
      res_[a] -= got;
      res_[a ^ 1] += got;
      return got;
    }
  }
  return 0;
}

double MaxFlow::run(std::size_t s, std::size_t t, double limit) {
  double top = 0;
  for (double c : cap_)
    if (c < std::numeric_limits<double>::infinity()) top = std::max(top, c);
  eps_ = 1e-12 * top;
  res_ = cap_;
  double flow = 0;
  while (flow < limit && levels(s, t)) {
    next_ = first_;
    while (flow < limit)
      if (const double f = push(s, t, limit - flow); f > 0)
        flow += f;
      else
        break;
  }
  return flow;
}

std::vector<char> MaxFlow::source_side(std::size_t s) const {
  std::vector<char> seen(first_.size(), 0);
  std::vector<std::size_t> stack{s};
  seen[s] = 1;
  while (!stack.empty()) {
    const std::size_t u = stack.back();
    stack.pop_back();
    for (std::size_t a = first_[u]; a != kNone; a = link_[a])
      if (res_[a] > eps_ && !seen[head_[a]]) {
        seen[head_[a]] = 1;
        stack.push_back(head_[a]);
      }
  }
  return seen;
}

} // namespace icnkit
