// What every rank ends with under a schedule between ranks (coll/rank_verify.hpp): the textbook
// algorithms verify, the bugs a generator could make are caught with a message that names them,
// the symmetric simulations (rank 0 alone) give the general one's verdicts, and 16,384 ranks are
// cheap. The schedules are built here from the algorithms' definitions, not by the library's
// generators, so that a generator bug cannot hide behind a verifier bug.
#include "coll/rank_schedule.hpp"
#include "coll/rank_verify.hpp"
#include "core/error.hpp"

#include <bit>
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <random>

using namespace icnkit;
using namespace icnkit::coll;

namespace {

using Peer = RankTransfer::Peer;
using Blocks = RankTransfer::Blocks;

std::int64_t mod(std::int64_t a, std::int64_t n) {
  return ((a % n) + n) % n;
}

bool whole_buffer(const std::string& c) {
  return c == "broadcast" || c == "reduce";
}

RankSchedule skeleton(std::int64_t n, const std::string& collective, std::int64_t root = 0) {
  RankSchedule s;
  s.groups.assign(1, std::vector<std::int64_t>(static_cast<std::size_t>(n)));
  std::iota(s.groups[0].begin(), s.groups[0].end(), 0);
  s.blocks = whole_buffer(collective) ? 1 : n;
  s.root = root;
  s.phases = {collective};
  return s;
}

// Ids 0, 1, 2, ... and every step waiting for the one before (after steps were added, removed
// or reordered).
void rechain(RankSchedule& s) {
  for (std::size_t k = 0; k < s.steps.size(); ++k) {
    s.steps[k].id = static_cast<std::int64_t>(k);
    s.steps[k].after.clear();
    if (k > 0) s.steps[k].after.push_back(static_cast<std::int64_t>(k) - 1);
  }
}

RankStep& add_step(RankSchedule& s) {
  RankStep& st = s.steps.emplace_back();
  st.id = static_cast<std::int64_t>(s.steps.size()) - 1;
  if (st.id > 0) st.after.push_back(st.id - 1);
  return st;
}

RankTransfer shift(std::int64_t k, bool reduce, std::int64_t offset, std::int64_t count = 1) {
  RankTransfer t;
  t.peer = Peer::Shift;
  t.k = k;
  t.reduce = reduce;
  t.blocks = Blocks::Offset;
  t.offset = offset;
  t.count = count;
  return t;
}

RankTransfer xor_mask(std::int64_t k, bool reduce, std::int64_t mask, bool match_peer) {
  RankTransfer t;
  t.peer = Peer::Xor;
  t.k = k;
  t.reduce = reduce;
  t.blocks = Blocks::Mask;
  t.mask = mask;
  t.match_peer = match_peer;
  return t;
}

RankTransfer bruck_bit(std::int64_t k, int bit) {
  RankTransfer t;
  t.peer = Peer::Shift;
  t.k = k;
  t.blocks = Blocks::Bit;
  t.bit = bit;
  return t;
}

bool reduces(const std::string& c) {
  return c == "all-reduce" || c == "reduce-scatter";
}
bool gathers(const std::string& c) {
  return c == "all-reduce" || c == "all-gather";
}

// Ring: in reduce-scatter step s rank i adds its partial sum of block i-s-1 into rank i+1's
// (which after n-1 steps leaves rank b with block b complete: the last block i+1 receives is
// i+1); in all-gather step s it passes on block i-s, which it completed (s = 0) or received in
// the step before.
RankSchedule ring(std::int64_t n, const std::string& c) {
  RankSchedule s = skeleton(n, c);
  if (reduces(c))
    for (std::int64_t k = 0; k + 1 < n; ++k)
      add_step(s).transfers.push_back(shift(1, true, mod(-(k + 1), n)));
  if (gathers(c))
    for (std::int64_t k = 0; k + 1 < n; ++k)
      add_step(s).transfers.push_back(shift(1, false, mod(-k, n)));
  return s;
}

// Recursive halving then doubling (n a power of two): at distance d a rank exchanges with rank
// XOR d the half of its remaining blocks that agree with the peer (halving) or with itself
// (doubling) on every bit from d up.
RankSchedule halving_doubling(std::int64_t n, const std::string& c) {
  RankSchedule s = skeleton(n, c);
  if (reduces(c))
    for (std::int64_t d = n / 2; d >= 1; d /= 2)
      add_step(s).transfers.push_back(xor_mask(d, true, (n - 1) & ~(d - 1), true));
  if (gathers(c))
    for (std::int64_t d = 1; d < n; d *= 2)
      add_step(s).transfers.push_back(xor_mask(d, false, (n - 1) & ~(d - 1), false));
  return s;
}

// Bruck: all-gather sends the blocks i .. i+c-1 that rank i holds to rank i-d (d = 1, 2, 4, ...,
// c = min(d, n-d)); reduce-scatter runs it backwards (rank i adds its partial sums of blocks
// i+d .. i+d+c-1 into rank i+d); all-to-all moves at distance 2^t the items whose remaining
// distance has bit t.
RankSchedule bruck(std::int64_t n, const std::string& c) {
  RankSchedule s = skeleton(n, c);
  std::vector<std::int64_t> ds;
  for (std::int64_t d = 1; d < n; d *= 2) ds.push_back(d);
  if (c == "all-to-all") {
    for (std::size_t t = 0; t < ds.size(); ++t)
      add_step(s).transfers.push_back(bruck_bit(ds[t], static_cast<int>(t)));
    return s;
  }
  if (reduces(c))
    for (auto it = ds.rbegin(); it != ds.rend(); ++it)
      add_step(s).transfers.push_back(shift(*it, true, *it, std::min(*it, n - *it)));
  if (gathers(c))
    for (std::int64_t d : ds)
      add_step(s).transfers.push_back(shift(n - d, false, 0, std::min(d, n - d)));
  return s;
}

// Direct: one step per phase with a transfer per distance k: all-to-all sends item (i, i+k);
// reduce-scatter adds the partial sum of block i+k into rank i+k's (n-1 reduces into every
// block in one step); all-gather sends the own block everywhere.
RankSchedule direct(std::int64_t n, const std::string& c) {
  RankSchedule s = skeleton(n, c);
  if (c == "all-to-all") {
    RankStep& st = add_step(s);
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, false, k));
    return s;
  }
  if (reduces(c)) {
    RankStep& st = add_step(s);
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, true, k));
  }
  if (gathers(c)) {
    RankStep& st = add_step(s);
    for (std::int64_t k = 1; k < n; ++k) st.transfers.push_back(shift(k, false, 0));
  }
  return s;
}

// Pairwise all-to-all: in step k rank i sends rank i+k (or i XOR k) its item for it.
RankSchedule pairwise(std::int64_t n, bool use_xor) {
  RankSchedule s = skeleton(n, "all-to-all");
  for (std::int64_t k = 1; k < n; ++k)
    add_step(s).transfers.push_back(use_xor ? xor_mask(k, false, n - 1, true) : shift(k, false, k));
  return s;
}

// Binomial tree at `root`: broadcast doubles the holders each step (ranks root+j, j < d, send to
// root+j+d), reduce runs it backwards (root+j, d <= j < 2d, add into root+j-d).
RankSchedule binomial(std::int64_t n, const std::string& c, std::int64_t root) {
  RankSchedule s = skeleton(n, c, root);
  std::vector<std::int64_t> ds;
  for (std::int64_t d = 1; d < n; d *= 2) ds.push_back(d);
  auto senders = [&](std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> f;
    for (std::int64_t j = lo; j < hi; ++j) f.push_back(mod(root + j, n));
    std::sort(f.begin(), f.end());
    return f;
  };
  auto whole = [](std::int64_t k, bool reduce, std::vector<std::int64_t> from) {
    RankTransfer t;
    t.k = k;
    t.reduce = reduce;
    t.blocks = Blocks::All;
    t.from = std::move(from);
    return t;
  };
  if (c == "broadcast")
    for (std::int64_t d : ds)
      add_step(s).transfers.push_back(whole(d, false, senders(0, std::min(d, n - d))));
  else
    for (auto it = ds.rbegin(); it != ds.rend(); ++it)
      add_step(s).transfers.push_back(whole(n - *it, true, senders(*it, std::min(2 * *it, n))));
  return s;
}

struct Verdict {
  bool ok = false;
  ErrorKind kind = ErrorKind::Runtime;
  std::string where, what;
  RankCheck check;
};

Verdict run(const RankSchedule& s, const std::string& c,
            RankSimulation how = RankSimulation::Automatic) {
  Verdict v;
  try {
    v.check = verify_rank_semantics(s, c, ErrorKind::Input, "/s", how);
    v.ok = true;
  } catch (const Error& e) {
    v.kind = e.kind();
    v.where = e.where();
    v.what = e.what();
  }
  return v;
}

bool symmetric(const RankCheck& c) {
  return c.method.find("rank 0's") != std::string::npos;
}

// Both simulations agree: the same verdict, the same first offending step and transfer, the
// same counts; and the automatic choice is the symmetric one.
void same_verdicts(const RankSchedule& s, const std::string& c, const std::string& name) {
  INFO(name << " on " << s.ranks() << " ranks");
  const Verdict a = run(s, c), g = run(s, c, RankSimulation::General);
  INFO("automatic: " << a.where << ": " << a.what << "; general: " << g.where << ": " << g.what);
  REQUIRE(a.ok == g.ok);
  CHECK(a.where == g.where);
  if (!a.ok) {
    CHECK(a.kind == ErrorKind::Input);
    return;
  }
  CHECK(symmetric(a.check));
  CHECK_FALSE(symmetric(g.check));
  CHECK(a.check.steps_checked == g.check.steps_checked);
  CHECK(a.check.transfers_checked == g.check.transfers_checked);
  CHECK(a.check.pieces_checked == g.check.pieces_checked);
}

// Schedules a step away from `s`: without it, doubled, swapped with the next, with every
// transfer's peer or rule moved by one, or with copy and reduce exchanged; at the first, the
// middle and the last step.
std::vector<std::pair<std::string, RankSchedule>> mutants(const RankSchedule& s) {
  std::vector<std::pair<std::string, RankSchedule>> out;
  const std::size_t S = s.steps.size();
  if (S == 0) return out;
  std::vector<std::size_t> at = {0, S / 2, S - 1};
  at.erase(std::unique(at.begin(), at.end()), at.end());
  const std::int64_t n = s.ranks();
  for (std::size_t k : at) {
    const std::string tag = " at step " + std::to_string(k);
    RankSchedule m = s;
    m.steps.erase(m.steps.begin() + static_cast<std::ptrdiff_t>(k));
    rechain(m);
    out.emplace_back("dropped" + tag, m);
    m = s;
    m.steps.insert(m.steps.begin() + static_cast<std::ptrdiff_t>(k), s.steps[k]);
    rechain(m);
    out.emplace_back("repeated" + tag, m);
    if (k + 1 < S) {
      m = s;
      std::swap(m.steps[k], m.steps[k + 1]);
      rechain(m);
      out.emplace_back("swapped" + tag, m);
    }
    m = s;
    for (RankTransfer& t : m.steps[k].transfers)
      t.k = t.peer == Peer::Shift ? t.k % n + 1 : t.k + 1;
    out.emplace_back("peer moved" + tag, m);
    m = s;
    for (RankTransfer& t : m.steps[k].transfers) {
      if (t.blocks == Blocks::Offset) t.offset = (t.offset + 1) % n;
      if (t.blocks == Blocks::Mask) t.match_peer = !t.match_peer;
      if (t.blocks == Blocks::Bit) t.bit += 1;
    }
    out.emplace_back("rule moved" + tag, m);
    m = s;
    for (RankTransfer& t : m.steps[k].transfers) t.reduce = !t.reduce;
    out.emplace_back("op flipped" + tag, m);
  }
  return out;
}

void all_same_verdicts(const RankSchedule& s, const std::string& c, const std::string& name) {
  same_verdicts(s, c, name);
  for (const auto& [what, m] : mutants(s)) same_verdicts(m, c, name + ", " + what);
}

std::int64_t rule_count(const RankSchedule& s) {
  std::int64_t k = 0;
  for (const RankStep& st : s.steps) k += static_cast<std::int64_t>(st.transfers.size());
  return k;
}

// Recursive doubling with whole buffers: rank i adds everything it holds into rank i + d (or
// i XOR d), d = 1, 2, 4, ...; right on a power of two, a double count on any other n.
RankSchedule doubling(std::int64_t n, bool use_xor) {
  RankSchedule s = skeleton(n, "all-reduce");
  for (std::int64_t d = 1; d < n; d *= 2) {
    RankTransfer t = use_xor ? xor_mask(d, true, 0, true) : shift(d, true, 0);
    t.blocks = Blocks::All;
    add_step(s).transfers.push_back(t);
  }
  return s;
}

// An independent reference for small n, written apart from the library's simulation: every
// contribution counted with its multiplicity (a double count is a 2, not an overlap of sets) and
// every all-to-all item tracked by name. It only says at which step the schedule first goes
// wrong (-1: never; the step count: at the end), and takes the steps as chained and the
// transfers as well formed.
std::int64_t reference_failure(const RankSchedule& s, const std::string& c) {
  const std::int64_t n = s.ranks(), nb = s.blocks;
  const auto S = static_cast<std::int64_t>(s.steps.size());
  const auto N = static_cast<std::size_t>(n);
  std::vector<std::int64_t> blocks;
  auto selected = [&](std::int64_t b) {
    return std::find(blocks.begin(), blocks.end(), b) != blocks.end();
  };
  if (c == "all-to-all") {
    std::vector<std::int64_t> holder(N * N); // item o*n + d
    for (std::size_t x = 0; x < N * N; ++x) holder[x] = static_cast<std::int64_t>(x / N);
    for (std::int64_t step = 0; step < S; ++step) {
      const RankStep& st = s.steps[static_cast<std::size_t>(step)];
      std::vector<std::int64_t> next = holder;
      std::vector<int> picked(N * N, 0);
      for (const RankTransfer& t : st.transfers)
        for (std::int64_t i = 0; i < n; ++i) {
          if (!sends(t, i)) continue;
          const std::int64_t q = transfer_peer(s, t, i);
          if (q == -1) continue;
          if (q == i || t.reduce) return step;
          transfer_blocks(s, t, i, blocks);
          int moved = 0;
          for (std::size_t x = 0; x < N * N; ++x)
            if (holder[x] == i && selected(static_cast<std::int64_t>(x % N))) {
              if (++picked[x] > 1) return step;
              next[x] = q;
              ++moved;
            }
          if (moved == 0) return step;
        }
      holder = next;
    }
    for (std::size_t x = 0; x < N * N; ++x)
      if (holder[x] != static_cast<std::int64_t>(x % N)) return S;
    return -1;
  }
  const auto NB = static_cast<std::size_t>(nb);
  // times[(q * nb + b) * n + x]: how often rank q's block b holds rank x's contribution.
  std::vector<int> times(N * NB * N, 0);
  auto cell = [&](std::int64_t q, std::int64_t b) { return static_cast<std::size_t>(q * nb + b); };
  auto complete = [&](std::size_t k) {
    return std::all_of(times.begin() + static_cast<std::ptrdiff_t>(k * N),
                       times.begin() + static_cast<std::ptrdiff_t>((k + 1) * N),
                       [](int m) { return m == 1; });
  };
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t b = 0; b < nb; ++b) {
      const bool own = c == "all-gather" ? b == i : c == "broadcast" ? i == s.root : true;
      if (!own) continue;
      for (std::size_t x = 0; x < N; ++x)
        if (c == "all-gather" || c == "broadcast" || x == static_cast<std::size_t>(i))
          times[cell(i, b) * N + x] = 1;
    }
  for (std::int64_t step = 0; step < S; ++step) {
    const RankStep& st = s.steps[static_cast<std::size_t>(step)];
    std::vector<int> added(times.size(), 0);
    std::vector<char> copied(N * NB, 0), reduced(N * NB, 0);
    for (const RankTransfer& t : st.transfers)
      for (std::int64_t i = 0; i < n; ++i) {
        if (!sends(t, i)) continue;
        const std::int64_t q = transfer_peer(s, t, i);
        if (q == -1) continue;
        if (q == i) return step;
        transfer_blocks(s, t, i, blocks);
        for (std::int64_t b : blocks) {
          const std::size_t from = cell(i, b), to = cell(q, b);
          if (!t.reduce) {
            if (!complete(from)) return step;
            copied[to] = 1;
            continue;
          }
          bool any = false;
          for (std::size_t x = 0; x < N; ++x) {
            added[to * N + x] += times[from * N + x];
            any = any || times[from * N + x] > 0;
          }
          if (!any) return step;
          reduced[to] = 1;
        }
      }
    for (std::size_t k = 0; k < N * NB; ++k) {
      if (copied[k] && reduced[k]) return step;
      for (std::size_t x = 0; x < N; ++x)
        times[k * N + x] = copied[k] ? 1 : times[k * N + x] + added[k * N + x];
    }
    if (std::any_of(times.begin(), times.end(), [](int m) { return m > 1; })) return step;
  }
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t b = 0; b < nb; ++b) {
      const bool needed = c == "reduce-scatter" ? b == i : c == "reduce" ? i == s.root : true;
      if (needed && !complete(cell(i, b))) return S;
    }
  return -1;
}

// The step a verdict blames, as reference_failure() counts it.
std::int64_t failing_step(const Verdict& v, const RankSchedule& s) {
  if (v.ok) return -1;
  if (v.where == "/s") return static_cast<std::int64_t>(s.steps.size());
  REQUIRE(v.where.rfind("/s/steps/", 0) == 0);
  return std::stoll(v.where.substr(9));
}

} // namespace

TEST_CASE("rank verify: the textbook schedules deliver", "[rank-verify]") {
  for (std::int64_t n = 1; n <= 17; ++n) {
    INFO("n = " << n);
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      INFO(c);
      for (const RankSchedule& s : {ring(n, c), bruck(n, c), direct(n, c)}) {
        const Verdict v = run(s, c);
        REQUIRE(v.ok);
        CHECK(symmetric(v.check));
        CHECK(v.check.pieces_checked == n * n);
        CHECK(v.check.transfers_checked == n * rule_count(s));
        REQUIRE(run(s, c, RankSimulation::General).ok);
      }
    }
    for (const RankSchedule& s :
         {direct(n, "all-to-all"), bruck(n, "all-to-all"), pairwise(n, false)}) {
      const Verdict v = run(s, "all-to-all");
      REQUIRE(v.ok);
      CHECK(symmetric(v.check));
      CHECK(v.check.pieces_checked == n * n);
      REQUIRE(run(s, "all-to-all", RankSimulation::General).ok);
    }
    for (std::int64_t root = 0; root < n; ++root)
      for (const char* c : {"broadcast", "reduce"}) {
        INFO(c << " from " << root);
        const Verdict v = run(binomial(n, c, root), c);
        REQUIRE(v.ok);
        CHECK_FALSE(symmetric(v.check)); // a root is no symmetry
        CHECK(v.check.pieces_checked == n);
      }
  }
  for (std::int64_t n = 2; n <= 64; n *= 2) { // (one rank has no steps: any path will do)
    INFO("n = " << n);
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      const Verdict v = run(halving_doubling(n, c), c);
      REQUIRE(v.ok);
      CHECK(v.check.method.find("xor") != std::string::npos);
    }
    const Verdict v = run(pairwise(n, true), "all-to-all");
    REQUIRE(v.ok);
    CHECK(v.check.method.find("xor") != std::string::npos);
  }
  // The ring on 8 ranks, counted: 14 steps of one transfer from each of 8 ranks.
  const Verdict v = run(ring(8, "all-reduce"), "all-reduce");
  CHECK(v.check.steps_checked == 14);
  CHECK(v.check.transfers_checked == 14 * 8);
}

// Two rings, one each way, on 2n blocks: the even blocks clockwise, the odd ones anticlockwise
// (block 2j + h is rank j's half h), built from the definition with strided offset rules.
RankSchedule two_rings(std::int64_t n, const std::string& c, std::int64_t start_back = 1) {
  RankSchedule s = skeleton(n, c);
  s.blocks = 2 * n;
  auto half = [&](std::int64_t k, bool reduce, std::int64_t offset, std::int64_t start) {
    RankTransfer t = shift(k, reduce, offset);
    t.stride = 2;
    t.start = start;
    return t;
  };
  const bool rs = c != "all-gather", ag = c != "reduce-scatter";
  if (rs)
    for (std::int64_t st = 0; st + 1 < n; ++st)
      add_step(s).transfers = {half(1, true, mod(-(st + 1), n), 0),
                               half(n - 1, true, mod(st + 1, n), start_back)};
  if (ag)
    for (std::int64_t st = 0; st + 1 < n; ++st)
      add_step(s).transfers = {half(1, false, mod(-st, n), 0),
                               half(n - 1, false, mod(st, n), start_back)};
  return s;
}

TEST_CASE("rank verify: two rings each way on halves of the blocks (strided offsets, k blocks a "
          "rank)",
          "[rank-verify]") {
  for (std::int64_t n = 2; n <= 12; ++n)
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      INFO("n = " << n << ", " << c);
      const Verdict v = run(two_rings(n, c), c);
      REQUIRE(v.ok);
      CHECK(v.check.pieces_checked == n * 2 * n);
      CHECK_FALSE(symmetric(v.check)); // two blocks a rank: no rotation of one
      // Both rings on the even blocks: the odd ones never move, the even ones reduce twice.
      if (n > 2) CHECK_FALSE(run(two_rings(n, c, 0), c).ok);
    }
  // Reduce-scatter leaves rank j blocks 2j and 2j+1: a schedule that keeps n blocks is refused
  // by the header check, and a stride that does not divide the blocks by the rule check.
  RankSchedule s = two_rings(4, "reduce-scatter");
  s.blocks = 6;
  CHECK_FALSE(run(s, "reduce-scatter").ok);
  s = two_rings(4, "all-reduce");
  s.steps[0].transfers[0].stride = 3;
  const Verdict bad = run(s, "all-reduce");
  CHECK_FALSE(bad.ok);
  CHECK(bad.what.find("stride") != std::string::npos);
}

TEST_CASE("rank verify: the bugs a generator could make are caught and named", "[rank-verify]") {
  auto expect = [](const RankSchedule& s, const std::string& c, const std::string& where,
                   const std::string& what) {
    for (RankSimulation how : {RankSimulation::Automatic, RankSimulation::General}) {
      const Verdict v = run(s, c, how);
      INFO(v.where << ": " << v.what);
      REQUIRE_FALSE(v.ok);
      CHECK(v.kind == ErrorKind::Input);
      CHECK(v.where == where);
      CHECK_THAT(v.what, Catch::Contains(what));
    }
  };

  SECTION("a step missing leaves the all-reduce incomplete") {
    RankSchedule s = ring(6, "all-reduce");
    s.steps.pop_back();
    expect(s, "all-reduce", "/s", "ends without block");
    expect(s, "all-reduce", "/s", "complete (rank ");
  }
  SECTION("a reduce applied twice counts contributions twice") {
    RankSchedule s = ring(6, "all-reduce");
    s.steps.insert(s.steps.begin() + 2, s.steps[2]);
    rechain(s);
    expect(s, "all-reduce", "/s/steps/3/transfers/0", "would count rank ");
    expect(s, "all-reduce", "/s/steps/3/transfers/0", "contribution to block");
    // Halving-doubling, its first exchange repeated.
    s = halving_doubling(8, "all-reduce");
    s.steps.insert(s.steps.begin(), s.steps[0]);
    rechain(s);
    expect(s, "all-reduce", "/s/steps/1/transfers/0", "twice");
    // Two reduces into the same block in one step overlap.
    s = direct(5, "reduce-scatter");
    s.steps[0].transfers.push_back(s.steps[0].transfers[1]);
    expect(s, "reduce-scatter", "/s/steps/0/transfers/4", "twice");
  }
  SECTION("a copy of a block that is not complete yet") {
    RankSchedule s = ring(6, "all-reduce");
    std::swap(s.steps[4], s.steps[5]); // the all-gather starts a step early
    rechain(s);
    expect(s, "all-reduce", "/s/steps/4/transfers/0", "before it is complete");
    s = binomial(6, "broadcast", 2);
    std::swap(s.steps[0], s.steps[1]);
    rechain(s);
    CHECK(run(s, "broadcast").where == "/s/steps/0/transfers/0");
    CHECK_THAT(run(s, "broadcast").what, Catch::Contains("copies block 0 to rank 5 before it is "
                                                         "complete"));
  }
  SECTION("an all-to-all item left at the wrong rank") {
    RankSchedule s = direct(6, "all-to-all");
    s.steps[0].transfers.erase(s.steps[0].transfers.begin() + 2); // distance 3
    expect(s, "all-to-all", "/s", "rank 0 ends holding 1 item bound for rank 3");
    s = bruck(6, "all-to-all");
    s.steps.pop_back();
    expect(s, "all-to-all", "/s", "bound for rank 4");
  }
  SECTION("an all-to-all transfer that moves nothing, or the same items twice") {
    RankSchedule s = bruck(8, "all-to-all");
    s.steps.insert(s.steps.begin() + 1, s.steps[1]);
    rechain(s);
    expect(s, "all-to-all", "/s/steps/2/transfers/0", "moves nothing");
    s = direct(8, "all-to-all");
    s.steps[0].transfers.push_back(shift(2, false, 3));
    expect(s, "all-to-all", "/s/steps/0/transfers/7", "sends its items for rank 3 twice");
  }
  SECTION("a step that does not wait for the one before") {
    RankSchedule s = ring(6, "all-reduce");
    s.steps[2].after.clear();
    expect(s, "all-reduce", "/s/steps/2",
           "steps must run one after another (step 2 does not wait for step 1)");
    s = direct(4, "all-reduce");
    s.steps[1].after.clear();
    expect(s, "all-reduce", "/s/steps/1", "does not wait for step 0");
  }
  SECTION("partial sums that hold nothing, copies mixed with reduces") {
    RankSchedule s = ring(5, "all-gather");
    s.steps[1].transfers[0].reduce = true; // rank i's block i+2, which it has not received
    s.steps[1].transfers[0].offset = 2;
    expect(s, "all-gather", "/s/steps/1/transfers/0", "that holds no contribution");
    s = ring(5, "all-reduce");
    RankTransfer t = s.steps[4].transfers[0]; // all-gather's first: copy block i to i+1
    t.reduce = true;
    t.offset = 0;
    s.steps[4].transfers.push_back(t);
    expect(s, "all-reduce", "/s/steps/4/transfers/1", "both complete and as a partial sum");
  }
  SECTION("transfers and headers that do not fit the collective") {
    RankSchedule s = ring(4, "all-reduce");
    s.steps[1].transfers[0].k = 4;
    expect(s, "all-reduce", "/s/steps/1/transfers/0", "every rank send to itself");
    s = ring(4, "all-reduce");
    s.steps[0].transfers[0].from = std::vector<std::int64_t>{2, 1};
    expect(s, "all-reduce", "/s/steps/0/transfers/0", "ascending");
    s = ring(4, "all-reduce");
    s.steps[0].transfers[0].count = 5;
    expect(s, "all-reduce", "/s/steps/0/transfers/0", "1 to 4 blocks");
    s = ring(4, "all-reduce");
    s.steps[0].transfers[0] = bruck_bit(1, 0);
    expect(s, "all-reduce", "/s/steps/0/transfers/0", "bit rule");
    s = direct(4, "all-to-all");
    s.steps[0].transfers[0].reduce = true;
    expect(s, "all-to-all", "/s/steps/0/transfers/0", "copy");
    s = ring(4, "all-gather"); // an all-reduce may have any number of blocks
    s.blocks = 1;
    expect(s, "all-gather", "/s/blocks", "has a multiple of 4");
    s = binomial(4, "broadcast", 0);
    s.root = 4;
    expect(s, "broadcast", "/s/root", "not a rank");
    s.steps[1].id = 7;
    s.root = 0;
    expect(s, "broadcast", "/s/steps/1", "step 1 has id 7");
    expect(ring(4, "all-reduce"), "scatter", "/s", "no rank semantics");
  }
  SECTION("xor peers beyond the ranks") {
    // On 6 ranks xor 8 gives no rank a peer: nothing moves, and nothing is an error.
    RankSchedule s = skeleton(6, "all-to-all");
    add_step(s).transfers.push_back(xor_mask(8, false, 7, true));
    expect(s, "all-to-all", "/s", "rank 0 ends holding 1 item bound for rank 1");
    // Xor 4 gives ranks 0 and 1 the peers 4 and 5 and the others none; mask 0 is every block.
    s = skeleton(6, "all-gather");
    add_step(s).transfers.push_back(xor_mask(4, false, 0, true));
    expect(s, "all-gather", "/s/steps/0/transfers/0", "rank 0 copies block 1 to rank 4");
  }
}

TEST_CASE("rank verify: rotation-symmetric simulation = general, n = 1..40 and multi-word",
          "[rank-verify]") {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 1; n <= 40; ++n) sizes.push_back(n);
  for (std::int64_t n : {63, 64, 65, 100, 127, 128, 130}) sizes.push_back(n);
  for (std::int64_t n : sizes) {
    const bool big = n > 40; // fewer mutants where every verify costs more
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      all_same_verdicts(ring(n, c), c, std::string("ring ") + c);
      all_same_verdicts(bruck(n, c), c, std::string("bruck ") + c);
      if (!big) all_same_verdicts(direct(n, c), c, std::string("direct ") + c);
    }
    all_same_verdicts(direct(n, "all-to-all"), "all-to-all", "direct all-to-all");
    all_same_verdicts(bruck(n, "all-to-all"), "all-to-all", "bruck all-to-all");
    if (!big) all_same_verdicts(pairwise(n, false), "all-to-all", "pairwise all-to-all");
    all_same_verdicts(doubling(n, false), "all-reduce", "shift doubling");
  }
}

TEST_CASE("rank verify: xor-symmetric simulation = general, powers of two to 256",
          "[rank-verify]") {
  for (std::int64_t n = 1; n <= 256; n *= 2) {
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"})
      all_same_verdicts(halving_doubling(n, c), c, std::string("halving-doubling ") + c);
    all_same_verdicts(pairwise(n, true), "all-to-all", "pairwise xor all-to-all");
    all_same_verdicts(doubling(n, true), "all-reduce", "xor doubling");
  }
}

TEST_CASE("rank verify: verdicts = an independent reference, n = 1..12", "[rank-verify]") {
  int right = 0, wrong = 0;
  auto compare = [&](const RankSchedule& base, const std::string& c, const std::string& name) {
    std::vector<std::pair<std::string, RankSchedule>> cases = mutants(base);
    cases.emplace_back("as built", base);
    for (const auto& [what, s] : cases) {
      INFO(name << ", " << what << ", on " << s.ranks() << " ranks");
      const std::int64_t ref = reference_failure(s, c);
      (ref < 0 ? right : wrong) += 1;
      CHECK(failing_step(run(s, c), s) == ref);
      CHECK(failing_step(run(s, c, RankSimulation::General), s) == ref);
    }
  };
  for (std::int64_t n = 1; n <= 12; ++n) {
    for (const char* c : {"all-reduce", "reduce-scatter", "all-gather"}) {
      compare(ring(n, c), c, std::string("ring ") + c);
      compare(bruck(n, c), c, std::string("bruck ") + c);
      compare(direct(n, c), c, std::string("direct ") + c);
      if (std::has_single_bit(static_cast<std::uint64_t>(n)))
        compare(halving_doubling(n, c), c, std::string("halving-doubling ") + c);
    }
    compare(doubling(n, false), "all-reduce", "shift doubling");
    compare(doubling(n, true), "all-reduce", "xor doubling");
    compare(direct(n, "all-to-all"), "all-to-all", "direct all-to-all");
    compare(bruck(n, "all-to-all"), "all-to-all", "bruck all-to-all");
    compare(pairwise(n, false), "all-to-all", "pairwise all-to-all");
    compare(pairwise(n, true), "all-to-all", "pairwise xor all-to-all");
    for (std::int64_t root : {std::int64_t{0}, n / 2, n - 1})
      for (const char* c : {"broadcast", "reduce"})
        compare(binomial(n, c, root), c, std::string("binomial ") + c);
  }
  // Both verdicts occur often enough for the comparison to mean something.
  CHECK(right > 300);
  CHECK(wrong > 1000);
}

TEST_CASE("rank verify: random schedules, verdicts = the reference", "[rank-verify]") {
  // Every rule with arbitrary parameters (masks that no algorithm uses, sender lists, mixed
  // peers), mostly wrong, blamed on the same step as the reference does. Peers are mostly of
  // one kind and senders mostly everyone, so that the symmetric paths take many of them.
  std::mt19937_64 rng(20240611);
  auto pick = [&](std::int64_t lo, std::int64_t hi) { // the same draws with every library
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  const char* const collectives[] = {"all-reduce", "reduce-scatter", "all-gather",
                                     "all-to-all", "broadcast",      "reduce"};
  std::map<std::int64_t, int> blamed;
  for (int k = 0; k < 4000; ++k) {
    const std::string c = collectives[pick(0, 5)];
    const std::int64_t n = pick(2, 10);
    RankSchedule s = skeleton(n, c, pick(0, n - 1));
    const bool a2a = c == "all-to-all", xor_peers = pick(0, 1) == 1;
    for (std::int64_t steps = pick(1, 4); steps > 0; --steps) {
      RankStep& st = add_step(s);
      for (std::int64_t m = pick(1, 2); m > 0; --m) {
        RankTransfer t;
        t.peer = (pick(0, 4) == 0) != xor_peers ? Peer::Xor : Peer::Shift;
        t.k = t.peer == Peer::Shift ? pick(1, n - 1) : pick(1, 2 * n);
        t.reduce = !a2a && pick(0, 1) == 1;
        if (pick(0, 4) == 0) {
          std::vector<std::int64_t> from;
          for (std::int64_t i = 0; i < n; ++i)
            if (pick(0, 1)) from.push_back(i);
          if (!from.empty()) t.from = from;
        }
        switch (pick(0, a2a ? 3 : 2)) {
        case 0:
          t.blocks = Blocks::Offset;
          t.offset = pick(0, n - 1);
          t.count = pick(1, s.blocks);
          break;
        case 1:
          t.blocks = Blocks::Mask;
          t.mask = pick(0, 2 * n);
          t.match_peer = pick(0, 1) == 1;
          break;
        case 2:
          t.blocks = Blocks::All;
          break;
        default:
          t.blocks = Blocks::Bit;
          t.bit = static_cast<int>(pick(0, 3));
        }
        st.transfers.push_back(t);
      }
    }
    const std::int64_t ref = reference_failure(s, c);
    const Verdict a = run(s, c), g = run(s, c, RankSimulation::General);
    INFO("case " << k << ": " << c << " on " << n << " ranks; " << a.where << ": " << a.what
                 << "; general: " << g.where << ": " << g.what);
    CHECK(failing_step(a, s) == ref);
    CHECK(failing_step(g, s) == ref);
    CHECK(a.where == g.where);
    ++blamed[ref];
  }
  // Right ones, and wrong ones blamed on every step, the last (the end state) included.
  for (std::int64_t step = -1; step <= 4; ++step) CHECK(blamed[step] >= 20);
}

TEST_CASE("rank verify: limits of the general simulation", "[rank-verify]") {
  // Xor peers on 5000 ranks (no power of two): no symmetry, and 5000 ranks of n blocks of n bits
  // are 1.25e11 bits to simulate, beyond the general simulation's 2^36 (6.9e10).
  RankSchedule s = skeleton(5000, "all-reduce");
  add_step(s).transfers.push_back(xor_mask(1, true, 0, true));
  Verdict v = run(s, "all-reduce");
  REQUIRE_FALSE(v.ok);
  CHECK(v.where == "/s");
  CHECK_THAT(v.what, Catch::Contains("5000 ranks of 5000 blocks are more than"));
  CHECK_THAT(v.what, Catch::Contains("5000 ranks is not a power of two"));
  // Listed senders on an all-to-all of 5000 ranks.
  s = skeleton(5000, "all-to-all");
  RankTransfer t = shift(1, false, 1);
  t.from = std::vector<std::int64_t>{0};
  add_step(s).transfers.push_back(t);
  v = run(s, "all-to-all");
  CHECK_THAT(v.what, Catch::Contains("the 4096"));
  CHECK_THAT(v.what, Catch::Contains("step 0, transfer 0 sends from listed ranks only"));
  // The general simulation itself refuses beyond its limit even for a symmetric schedule.
  CHECK_THAT(run(ring(5000, "all-gather"), "all-gather", RankSimulation::General).what,
             Catch::Contains("5000 ranks of 5000 blocks are more than"));
}

// Both sizes take well under a second in Release (0.08 s for the ring on 512 ranks in full,
// 0.05 s for it on 16,384 by symmetry), so they run with the fast tests.
TEST_CASE("rank verify: 512 ranks in full", "[rank-verify]") {
  const Verdict v = run(ring(512, "all-reduce"), "all-reduce", RankSimulation::General);
  REQUIRE(v.ok);
  CHECK(v.check.transfers_checked == 1022 * 512);
  REQUIRE(run(halving_doubling(512, "all-reduce"), "all-reduce", RankSimulation::General).ok);
}

TEST_CASE("rank verify: 16,384 ranks by symmetry", "[rank-verify]") {
  constexpr std::int64_t n = 16384;
  auto verified = [](const RankSchedule& s, const std::string& c, const std::string& name) {
    const Verdict v = run(s, c);
    INFO(name << ": " << v.where << ": " << v.what);
    REQUIRE(v.ok);
    return v.check;
  };
  const RankCheck ring_check = verified(ring(n, "all-reduce"), "all-reduce", "ring all-reduce");
  CHECK(symmetric(ring_check));
  CHECK(ring_check.steps_checked == 2 * (n - 1));
  CHECK(ring_check.pieces_checked == n * n);
  CHECK(symmetric(verified(halving_doubling(n, "all-reduce"), "all-reduce", "halving-doubling")));
  CHECK(symmetric(verified(bruck(n, "all-gather"), "all-gather", "bruck all-gather")));
  CHECK(symmetric(verified(bruck(n, "all-to-all"), "all-to-all", "bruck all-to-all")));
  CHECK(symmetric(verified(direct(n, "all-to-all"), "all-to-all", "direct all-to-all")));
  // Broadcast has a root, but one block of n bits per rank is cheap to hold in full.
  CHECK_FALSE(symmetric(verified(binomial(n, "broadcast", 77), "broadcast", "binomial broadcast")));

  // The ring with a step missing at this size: caught at rank 0, with the rank named.
  RankSchedule s = ring(n, "all-reduce");
  s.steps.pop_back();
  const Verdict v = run(s, "all-reduce");
  REQUIRE_FALSE(v.ok);
  CHECK_THAT(v.what, Catch::Contains("rank 0 ends without block"));
}

namespace {

// A pipelined all-reduce over a chain, written with range rules: P chunks reduce along ranks
// 0 -> 1 -> ... -> n-1 (chunk k leaves rank i in step k + i) and come back complete from rank
// n-1 down to 0 (chunk k leaves rank n-1-j in step k + n - 1 + j).
RankSchedule chain_all_reduce(std::int64_t n, std::int64_t P) {
  RankSchedule s = skeleton(n, "all-reduce");
  s.blocks = P;
  const std::int64_t steps = P + 2 * (n - 1) - 1;
  for (std::int64_t t = 0; t < steps; ++t) {
    RankStep& st = add_step(s);
    for (std::int64_t i = 0; i + 1 < n; ++i) {
      const std::int64_t up = t - i, down = t - (n - 1) - i;
      for (auto [k, reduce, from] : {std::tuple{up, true, i}, std::tuple{down, false, n - 1 - i}}) {
        if (k < 0 || k >= P) continue;
        RankTransfer x;
        x.peer = Peer::Shift;
        x.k = reduce ? 1 : n - 1;
        x.reduce = reduce;
        x.blocks = Blocks::Range;
        x.offset = k;
        x.count = 1;
        x.from = std::vector<std::int64_t>{from};
        st.transfers.push_back(x);
      }
    }
  }
  return s;
}

// The step and transfer in which rank `from` sends chunk k (reduce or copy).
std::pair<std::size_t, std::size_t> find_send(const RankSchedule& s, std::int64_t from,
                                              std::int64_t k, bool reduce) {
  for (std::size_t t = 0; t < s.steps.size(); ++t)
    for (std::size_t x = 0; x < s.steps[t].transfers.size(); ++x) {
      const RankTransfer& r = s.steps[t].transfers[x];
      if (r.offset == k && r.reduce == reduce && r.from->front() == from) return {t, x};
    }
  FAIL("no such send");
  return {};
}

} // namespace

TEST_CASE("rank verify: pipelined chunks by range rule, in batches of blocks", "[rank-verify]") {
  // 3,000 ranks of 64 chunks do not fit one batch (3,000 x 3,000 bits a block: 29 blocks a
  // batch), so the large cases check the batches, the small ones the single batch.
  for (auto [n, P] : {std::pair<std::int64_t, std::int64_t>{2, 1}, {3, 4}, {9, 5}, {3000, 64}}) {
    INFO(n << " ranks, " << P << " chunks");
    const RankSchedule s = chain_all_reduce(n, P);
    const Verdict ok = run(s, "all-reduce");
    INFO(ok.where << ": " << ok.what);
    REQUIRE(ok.ok);
    CHECK_FALSE(symmetric(ok.check));
    CHECK(ok.check.steps_checked == static_cast<std::int64_t>(s.steps.size()));
    CHECK(ok.check.transfers_checked == 2 * (n - 1) * P);
    CHECK(ok.check.pieces_checked == n * P);
    if (n < 3) continue;
    // A rank that does not pass chunk P-1 on: the end of the chain copies it back incomplete,
    // in the step where it first sends it down.
    RankSchedule dropped = s;
    const auto [t, x] = find_send(s, 1, P - 1, true);
    auto& tr = dropped.steps[t].transfers;
    tr.erase(tr.begin() + static_cast<std::ptrdiff_t>(x));
    const auto [bt, bx] = find_send(s, n - 1, P - 1, false);
    const std::size_t bx_after = bt == t && bx > x ? bx - 1 : bx;
    const Verdict v = run(dropped, "all-reduce");
    REQUIRE_FALSE(v.ok);
    CHECK(v.where == "/s/steps/" + std::to_string(bt) + "/transfers/" + std::to_string(bx_after));
    CHECK_THAT(v.what, Catch::Contains("copies block " + std::to_string(P - 1)) &&
                           Catch::Contains("before it is complete"));
    // The same chunk reduced into rank 2 twice in one step (rank 1's partial sum holds rank 0's
    // contribution and its own).
    RankSchedule twice = s;
    const auto [t2, x2] = find_send(s, 1, 0, true);
    twice.steps[t2].transfers.push_back(twice.steps[t2].transfers[x2]);
    const Verdict w = run(twice, "all-reduce");
    REQUIRE_FALSE(w.ok);
    CHECK_THAT(w.what,
               Catch::Contains("rank 2 would count rank 0's contribution to block 0 twice"));
  }
  // A range past the last block, and blocks not a multiple of the ranks where ranks own them.
  RankSchedule s = chain_all_reduce(4, 3);
  s.steps[0].transfers[0].count = 4;
  CHECK_THAT(run(s, "all-reduce").what, Catch::Contains("are not a range of blocks 0..2"));
  RankSchedule rs = skeleton(4, "reduce-scatter");
  rs.blocks = 6;
  CHECK(run(rs, "reduce-scatter").where == "/s/blocks");
}
