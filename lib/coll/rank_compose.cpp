#include "coll/rank_compose.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace icnkit::coll {

namespace {

// An exact fraction of the buffer, num/den in lowest terms.
struct Q {
  std::int64_t num = 0, den = 1;
  friend bool operator==(const Q&, const Q&) = default;
};
Q make_q(std::int64_t num, std::int64_t den) {
  const std::int64_t g = std::gcd(num, den);
  return {num / g, den / g};
}
Q add(Q a, Q b) {
  return make_q(a.num * b.den + b.num * a.den, a.den * b.den);
}
Q sub(Q a, Q b) {
  return make_q(a.num * b.den - b.num * a.den, a.den * b.den);
}
Q scale(Q a, std::int64_t num, std::int64_t den) {
  return make_q(a.num * num, a.den * den);
}

struct State {
  Q lo, hi;
  std::vector<std::uint64_t> from; // contributors, one bit per chip index
};

} // namespace

std::int64_t check_stages(const Schedule& s, ErrorKind on_failure, const std::string& where) {
  const std::vector<RankStage>& stages = *s.stages;
  auto fail = [&](std::size_t g, const std::string& what) {
    throw Error(on_failure, where + "/stages/" + std::to_string(g), what);
  };
  // Chips of a stage, each once across its parts and groups.
  auto members = [&](std::size_t g) {
    std::vector<std::int64_t> all;
    for (const RankSchedule& r : stages[g].parts)
      for (const auto& grp : r.groups) all.insert(all.end(), grp.begin(), grp.end());
    std::sort(all.begin(), all.end());
    if (auto d = std::adjacent_find(all.begin(), all.end()); d != all.end())
      fail(g, "chip " + std::to_string(*d) + " is in two groups of the stage");
    return all;
  };
  const std::vector<std::int64_t> chips = members(0);
  if (stages.size() == 1) {
    const RankStage& st = stages[0];
    if (st.collective != s.collective)
      fail(0, "the stage runs " + st.collective + ", the schedule is a " + s.collective);
    if (!(st.share == Fraction{1, 1})) fail(0, "a schedule of one stage works on the whole buffer");
    return static_cast<std::int64_t>(chips.size());
  }
  const std::string& whole = s.collective;
  if (whole != "all-reduce" && whole != "reduce-scatter" && whole != "all-gather")
    fail(0, "stages compose an all-reduce, reduce-scatter or all-gather (hierarchical); this is "
            "a " +
                whole);
  // A stage's chips in their ranks' order: parts, groups, members.
  auto in_order = [&](std::size_t g) {
    std::vector<std::int64_t> all;
    for (const RankSchedule& r : stages[g].parts)
      for (const auto& grp : r.groups) all.insert(all.end(), grp.begin(), grp.end());
    return all;
  };
  std::unordered_map<std::int64_t, std::size_t> index;
  for (std::size_t k = 0; k < chips.size(); ++k) index[chips[k]] = k;
  const std::size_t P = chips.size(), W = (P + 63) / 64;
  const auto n = static_cast<std::int64_t>(P);
  std::vector<std::uint64_t> everyone(W, ~std::uint64_t{0});
  if (P % 64) everyone[W - 1] = (std::uint64_t{1} << (P % 64)) - 1;
  std::vector<State> st(P);
  for (std::size_t k = 0; k < P; ++k) {
    st[k].lo = {0, 1};
    st[k].hi = {1, 1};
    st[k].from.assign(W, 0);
    st[k].from[k / 64] |= std::uint64_t{1} << (k % 64);
  }
  if (whole == "all-gather") {
    // The k-th chip of the first stage's ranks starts with block k, complete.
    const std::vector<std::int64_t> first = in_order(0);
    for (std::size_t k = 0; k < first.size(); ++k) {
      State& m = st[index.at(first[k])];
      m.lo = make_q(static_cast<std::int64_t>(k), n);
      m.hi = make_q(static_cast<std::int64_t>(k) + 1, n);
      m.from = everyone;
    }
  }
  std::int64_t checked = 0;
  std::vector<std::uint64_t> acc(W);
  for (std::size_t g = 0; g < stages.size(); ++g) {
    const RankStage& stage = stages[g];
    if (members(g) != chips) fail(g, "every stage of a hierarchical schedule has the same chips");
    const std::string& c = stage.collective;
    if (whole == "all-reduce" ? c != "reduce-scatter" && c != "all-reduce" && c != "all-gather"
                              : c != whole)
      fail(g, "a hierarchical " + whole + " composes " +
                  (whole == "all-reduce" ? std::string("reduce-scatter, all-reduce and all-gather")
                                         : whole) +
                  ", not " + c);
    for (const RankSchedule& r : stage.parts)
      for (const auto& grp : r.groups) {
        const auto n = static_cast<std::int64_t>(grp.size());
        std::vector<std::size_t> ix;
        for (std::int64_t chip : grp) ix.push_back(index.at(chip));
        const State& first = st[ix[0]];
        const std::string gname = "the group of chip " + std::to_string(grp[0]);
        if (c == "all-gather") {
          // Member p holds part p of the parent [lo0, lo0 + n (hi0 - lo0)).
          const Q part = sub(first.hi, first.lo);
          if (!(scale(part, n, 1) == make_q(stage.share.num, stage.share.den)))
            fail(g, gname + " gathers parts of " + std::to_string(part.num) + "/" +
                        std::to_string(part.den) + " of the buffer, not " + to_string(stage.share) +
                        " in total");
          for (std::int64_t p = 0; p < n; ++p) {
            const State& m = st[ix[static_cast<std::size_t>(p)]];
            if (!(m.lo == add(first.lo, scale(part, p, 1))) || !(sub(m.hi, m.lo) == part))
              fail(g, gname + ": rank " + std::to_string(p) +
                          " does not hold the part of its position");
            if (m.from != first.from)
              fail(g, gname + ": rank " + std::to_string(p) + "'s part sums other chips");
          }
          const Q lo = first.lo, hi = add(first.lo, scale(part, n, 1));
          for (std::size_t k : ix) st[k].lo = lo, st[k].hi = hi;
        } else {
          // The same interval of the stage's share everywhere, disjoint contributions.
          if (!(sub(first.hi, first.lo) == make_q(stage.share.num, stage.share.den)))
            fail(g, gname + " holds a part of the buffer other than the stage's share " +
                        to_string(stage.share));
          std::fill(acc.begin(), acc.end(), 0);
          for (std::size_t k : ix) {
            if (!(st[k].lo == first.lo) || !(st[k].hi == first.hi))
              fail(g, gname + ": chip " + std::to_string(chips[k]) +
                          " holds another part of the buffer than its group");
            for (std::size_t w = 0; w < W; ++w) {
              if (acc[w] & st[k].from[w]) fail(g, gname + ": a contribution would be summed twice");
              acc[w] |= st[k].from[w];
            }
          }
          // By value: the loop below overwrites the first member's state.
          const Q lo0 = first.lo, width = sub(first.hi, first.lo);
          for (std::size_t p = 0; p < ix.size(); ++p) {
            State& m = st[ix[p]];
            m.from = acc;
            if (c == "reduce-scatter") {
              m.lo = add(lo0, scale(width, static_cast<std::int64_t>(p), n));
              m.hi = add(m.lo, scale(width, 1, n));
            }
          }
        }
        checked += n;
      }
  }
  if (whole == "reduce-scatter") {
    // The k-th chip of the last stage's ranks ends with block k, summed over every chip.
    const std::vector<std::int64_t> last = in_order(stages.size() - 1);
    for (std::size_t k = 0; k < last.size(); ++k) {
      const State& m = st[index.at(last[k])];
      if (!(m.lo == make_q(static_cast<std::int64_t>(k), n)) ||
          !(m.hi == make_q(static_cast<std::int64_t>(k) + 1, n)))
        fail(stages.size() - 1, "chip " + std::to_string(last[k]) + " (rank " + std::to_string(k) +
                                    " of the last stage) ends without block " + std::to_string(k));
      if (m.from != everyone)
        fail(stages.size() - 1,
             "chip " + std::to_string(last[k]) + " ends without every chip's contribution");
    }
    return checked;
  }
  for (std::size_t k = 0; k < P; ++k) {
    if (!(st[k].lo == Q{0, 1}) || !(st[k].hi == Q{1, 1}))
      fail(stages.size() - 1,
           "chip " + std::to_string(chips[k]) + " ends without the whole buffer");
    for (std::size_t w = 0; w < W; ++w) {
      const std::uint64_t want =
          w + 1 < W || P % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (P % 64)) - 1;
      if (st[k].from[w] != want)
        fail(stages.size() - 1,
             "chip " + std::to_string(chips[k]) + " ends without every chip's contribution");
    }
  }
  return checked;
}

} // namespace icnkit::coll
