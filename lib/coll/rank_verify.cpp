#include "coll/rank_verify.hpp"

#include <algorithm>
#include <bit>
#include <vector>

namespace icnkit::coll {

namespace {

using Peer = RankTransfer::Peer;
using Blocks = RankTransfer::Blocks;
using Word = std::uint64_t;

// What the general simulation may hold: the reductions' sets of n bits for as many (rank, block)
// cells as fit in 32 MB at once (every block of 512 ranks of 512 blocks, one block of 16,384
// ranks: blocks never mix, so they are simulated in batches), and two n x n arrays of 32-bit item
// counts (128 MB at 4096 ranks). The batches together touch at most 8 GB of sets, which bounds
// the time. Beyond, only a symmetric schedule is checked (by rank 0 alone).
constexpr std::int64_t kGeneralWords = std::int64_t{1} << 22;
constexpr std::int64_t kGeneralWork = std::int64_t{1} << 30;
constexpr std::int64_t kGeneralRanksAllToAll = 4096;

std::string str(std::int64_t v) {
  return std::to_string(v);
}

std::size_t at(std::int64_t i) {
  return static_cast<std::size_t>(i);
}

// ---- Sets of ranks 0..n-1 as W = ceil(n / 64) words; bits n and above are always zero, so
// that "complete" is a word comparison and rotations need not clean up after themselves.

std::int64_t words_for(std::int64_t n) {
  return (n + 63) / 64;
}

Word last_word_mask(std::int64_t n) {
  return n % 64 ? (Word{1} << (n % 64)) - 1 : ~Word{0};
}

void fill(Word* p, std::int64_t n, std::int64_t w) {
  std::fill(p, p + w, ~Word{0});
  p[w - 1] = last_word_mask(n);
}

bool none(const Word* p, std::int64_t w) {
  return std::all_of(p, p + w, [](Word x) { return x == 0; });
}

std::int64_t first_common(const Word* a, const Word* b, std::int64_t w) {
  for (std::int64_t k = 0; k < w; ++k)
    if (const Word x = a[k] & b[k]) return k * 64 + std::countr_zero(x);
  return -1;
}

std::int64_t first_missing(const Word* p, std::int64_t n, std::int64_t w) {
  for (std::int64_t k = 0; k < w; ++k)
    if (const Word x = ~p[k] & (k == w - 1 ? last_word_mask(n) : ~Word{0}))
      return k * 64 + std::countr_zero(x);
  return -1;
}

// out = in with every member r renamed (r + s) mod n, 0 <= s < n: the members below n - s move
// up by s (a left shift across words), those from n - s wrap round to the bottom (a right shift
// by n - s).
void rotate(const Word* in, Word* out, std::int64_t n, std::int64_t w, std::int64_t s) {
  std::fill(out, out + w, 0);
  const std::int64_t ws = s / 64;
  const int bs = static_cast<int>(s % 64);
  for (std::int64_t k = w - 1; k >= ws; --k) {
    Word v = in[k - ws] << bs;
    if (bs && k - ws - 1 >= 0) v |= in[k - ws - 1] >> (64 - bs);
    out[k] = v;
  }
  out[w - 1] &= last_word_mask(n); // the members that wrap, shifted past n: added below
  const std::int64_t t = n - s;
  const std::int64_t wt = t / 64;
  const int bt = static_cast<int>(t % 64);
  for (std::int64_t k = 0; k + wt < w; ++k) {
    Word v = in[k + wt] >> bt;
    if (bt && k + wt + 1 < w) v |= in[k + wt + 1] << (64 - bt);
    out[k] |= v;
  }
}

// out = in with every member r renamed r XOR x (n a power of two, x < n): bits 6 and up of x
// permute whole words; each of bits 0-5 swaps the adjacent groups of 2^bit bits in every word.
void xor_permute(const Word* in, Word* out, std::int64_t w, std::int64_t x) {
  static constexpr Word kLow[6] = {0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F,
                                   0x00FF00FF00FF00FF, 0x0000FFFF0000FFFF, 0x00000000FFFFFFFF};
  const std::int64_t wx = x >> 6;
  for (std::int64_t k = 0; k < w; ++k) {
    Word v = in[k];
    for (int l = 0; l < 6; ++l)
      if ((x >> l) & 1) {
        const int g = 1 << l;
        v = ((v >> g) & kLow[l]) | ((v & kLow[l]) << g);
      }
    out[k ^ wx] = v;
  }
}

// ---- The run: the schedule, how to fail, and the checks every path makes in the same order
// (so that the paths agree on where a schedule first goes wrong, not only on whether it does).

struct Run {
  const RankSchedule& r;
  const std::string& collective;
  ErrorKind kind;
  const std::string& where;
  std::int64_t n = 0, nb = 0;

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw Error(kind, where + pointer, what);
  }
  bool all_to_all() const { return collective == "all-to-all"; }
};

std::string step_at(std::size_t s) {
  return "/steps/" + std::to_string(s);
}
std::string transfer_at(std::size_t s, std::size_t k) {
  return step_at(s) + "/transfers/" + std::to_string(k);
}

// Steps run in id order, which is only what the network does if each waits for the one before.
void check_order(const Run& u, std::size_t index) {
  const RankStep& st = u.r.steps[index];
  const auto id = static_cast<std::int64_t>(index);
  if (st.id != id)
    u.fail(step_at(index),
           "step ids are 0, 1, 2, ... in order; step " + str(id) + " has id " + str(st.id));
  if (id > 0 && std::find(st.after.begin(), st.after.end(), id - 1) == st.after.end())
    u.fail(step_at(index), "steps must run one after another (step " + str(id) +
                               " does not wait for step " + str(id - 1) + ")");
}

// What the parser guarantees for a document, checked again for schedules built in memory.
void check_transfer(const Run& u, const RankTransfer& t, const std::string& ptr) {
  if (t.peer == Peer::Shift && rank_mod(t.k, u.n) == 0)
    u.fail(ptr, "shift " + str(t.k) + " on " + str(u.n) + " ranks has every rank send to itself");
  if (t.peer == Peer::Xor && t.k <= 0)
    u.fail(ptr, "xor " + str(t.k) + " names no other rank (the amount is positive)");
  if (t.peer == Peer::Switch) {
    if (u.collective != "all-reduce" && u.collective != "reduce-scatter" &&
        u.collective != "all-gather")
      u.fail(ptr, "a transfer via the switch serves all-reduce, reduce-scatter and all-gather, "
                  "not " +
                      u.collective);
    if (t.blocks == Blocks::Mask || t.blocks == Blocks::Bit)
      u.fail(ptr, "a transfer via the switch takes blocks by offset, range or all");
    if (u.collective != "all-reduce" && u.nb != u.n)
      u.fail(ptr, "a transfer via the switch hands block b to rank b mod n: one block a rank");
  }
  if (t.reduce && u.all_to_all())
    u.fail(ptr, "an all-to-all moves items: its transfers copy, they do not reduce");
  if (t.from) {
    if (t.from->empty()) u.fail(ptr, "an empty sender list moves nothing");
    for (std::size_t k = 0; k < t.from->size(); ++k) {
      const std::int64_t f = (*t.from)[k];
      if (f < 0 || f >= u.n || (k > 0 && f <= (*t.from)[k - 1]))
        u.fail(ptr, "senders are ranks 0.." + str(u.n - 1) + ", ascending, each once");
    }
  }
  if (t.blocks == Blocks::Offset &&
      (t.stride < 1 || u.nb % t.stride != 0 || t.start < 0 || t.start >= t.stride))
    u.fail(ptr, "an offset rule's stride divides the " + str(u.nb) +
                    " blocks and its start is below "
                    "it");
  if (t.blocks == Blocks::Offset && (t.count < 1 || t.count > u.nb / t.stride))
    u.fail(ptr,
           "an offset rule takes 1 to " + str(u.nb / t.stride) + " blocks, not " + str(t.count));
  if (t.blocks == Blocks::Range && (t.offset < 0 || t.count < 1 || t.offset + t.count > u.nb))
    u.fail(ptr, "blocks " + str(t.offset) + " to " + str(t.offset + t.count - 1) +
                    " are not a range of blocks 0.." + str(u.nb - 1));
  if (t.blocks == Blocks::Bit) {
    if (!u.all_to_all())
      u.fail(ptr, "the bit rule selects all-to-all items; this is " + u.collective);
    if (t.bit < 0 || t.bit > 62) u.fail(ptr, "bit " + str(t.bit) + " is not a bit of a distance");
  }
}

template <class F> void for_each_sender(const RankTransfer& t, std::int64_t n, F&& f) {
  if (t.from)
    for (std::int64_t i : *t.from) f(i);
  else
    for (std::int64_t i = 0; i < n; ++i) f(i);
}

// Every simulation walks the schedule alike: each step's order, then each of its transfers'
// form and what the simulation does with it (on_transfer(t, where)), then the end of the step
// (end_step(step)), so that the paths agree on where a schedule first goes wrong.
template <class OnTransfer, class EndStep>
void walk(const Run& u, OnTransfer&& on_transfer, EndStep&& end_step) {
  for (std::size_t s = 0; s < u.r.steps.size(); ++s) {
    check_order(u, s);
    const RankStep& st = u.r.steps[s];
    for (std::size_t k = 0; k < st.transfers.size(); ++k) {
      const std::string where = transfer_at(s, k);
      check_transfer(u, st.transfers[k], where);
      on_transfer(st.transfers[k], where);
    }
    end_step(st);
  }
}

// The peer of sender i, -1 when it has none.
std::int64_t peer_of(const Run& u, const RankTransfer& t, std::int64_t i, const std::string& ptr) {
  const std::int64_t q = transfer_peer(u.r, t, i);
  if (q == i) u.fail(ptr, "rank " + str(i) + " would send to itself");
  return q >= 0 && q < u.n ? q : -1;
}

// ---- Reductions: cells (a rank's block) holding the set of ranks whose contribution they sum.

class Holdings {
public:
  Holdings(const Run& u, std::int64_t cells)
      : u_(u), n_(u.n), w_(words_for(u.n)), sets_(at(cells * w_), 0), full_(at(cells), 0),
        pending_of_(at(cells), -1) {}

  std::int64_t words() const { return w_; }
  const Word* set(std::int64_t c) const { return sets_.data() + c * w_; }
  bool full(std::int64_t c) const { return full_[at(c)] != 0; }
  void make_full(std::int64_t c) {
    fill(sets_.data() + c * w_, n_, w_);
    full_[at(c)] = 1;
  }
  void add_member(std::int64_t c, std::int64_t rank) {
    sets_[at(c * w_ + rank / 64)] |= Word{1} << (rank % 64);
    full_[at(c)] = first_missing(set(c), n_, w_) < 0;
  }

  // Block b arrives at cell `to` (rank q's) from rank i in the current step: a copy, which needs
  // the sender's block complete (from_full), or a partial sum `from`, which must not overlap
  // what the receiver holds or what other transfers of the step add to it.
  void receive(std::int64_t to, const Word* from, bool from_full, bool reduce, std::int64_t i,
               std::int64_t q, std::int64_t b, const std::string& ptr) {
    const std::size_t p = pending(to);
    auto both = [&] {
      u_.fail(ptr, "rank " + str(q) + " would receive block " + str(b) +
                       " both complete and as a partial sum in one step");
    };
    if (!reduce) {
      if (!from_full)
        u_.fail(ptr, "rank " + str(i) + " copies block " + str(b) + " to rank " + str(q) +
                         " before it is complete");
      if (touched_[p].reduced) both();
      touched_[p].copied = true;
      return;
    }
    if (none(from, w_))
      u_.fail(ptr, "rank " + str(i) + " sends rank " + str(q) + " a partial sum of block " +
                       str(b) + " that holds no contribution");
    if (touched_[p].copied) both();
    Word* acc = sum_.data() + p * at_w();
    std::int64_t x = first_common(set(to), from, w_);
    if (x < 0) x = first_common(acc, from, w_);
    if (x >= 0)
      u_.fail(ptr, "rank " + str(q) + " would count rank " + str(x) + "'s contribution to block " +
                       str(b) + " twice");
    for (std::int64_t k = 0; k < w_; ++k) acc[k] |= from[k];
    touched_[p].reduced = true;
  }

  // The end of a step: what arrived becomes what the receivers hold.
  void apply() {
    for (std::size_t p = 0; p < touched_.size(); ++p) {
      const std::int64_t c = touched_[p].cell;
      if (touched_[p].copied) {
        if (!full(c)) make_full(c);
      } else {
        Word* s = sets_.data() + c * w_;
        const Word* acc = sum_.data() + p * at_w();
        for (std::int64_t k = 0; k < w_; ++k) s[k] |= acc[k];
        full_[at(c)] = first_missing(s, n_, w_) < 0;
      }
      pending_of_[at(c)] = -1;
    }
    touched_.clear();
    sum_.clear();
  }

private:
  struct Arrival {
    std::int64_t cell = 0;
    bool copied = false, reduced = false;
  };

  std::size_t at_w() const { return static_cast<std::size_t>(w_); }
  std::size_t pending(std::int64_t c) {
    std::int64_t& p = pending_of_[at(c)];
    if (p < 0) {
      p = static_cast<std::int64_t>(touched_.size());
      touched_.push_back({c});
      sum_.resize(sum_.size() + at_w(), 0);
    }
    return static_cast<std::size_t>(p);
  }

  const Run& u_;
  std::int64_t n_, w_;
  std::vector<Word> sets_;
  std::vector<char> full_; // set == every rank, kept so that copies cost no scan
  // The step's arrivals: per touched cell its index in touched_ and the union of the partial
  // sums received (sum_, W words each), applied together at the end of the step.
  std::vector<std::int64_t> pending_of_;
  std::vector<Arrival> touched_;
  std::vector<Word> sum_;
};

void require_complete(const Run& u, const Holdings& h, std::int64_t cell, std::int64_t rank,
                      std::int64_t block) {
  if (h.full(cell)) return;
  const Word* s = h.set(cell);
  if (none(s, h.words())) u.fail("", "rank " + str(rank) + " ends without block " + str(block));
  u.fail("", "rank " + str(rank) + " ends without block " + str(block) + " complete (rank " +
                 str(first_missing(s, u.n, h.words())) + "'s contribution is missing)");
}

// Blocks never mix (a transfer moves block b into block b), so the blocks are simulated in
// batches of `batch`, each over the whole schedule; a step's checks then come in block order
// within a batch. One batch whenever the state fits, as for every schedule the symmetric
// simulation is compared with.
RankCheck general_reductions(const Run& u, std::int64_t batch) {
  const std::int64_t n = u.n, nb = u.nb;
  RankCheck c;
  std::vector<std::int64_t> blocks;
  for (std::int64_t b0 = 0; b0 < nb; b0 += batch) {
    const std::int64_t b1 = std::min(nb, b0 + batch), bw = b1 - b0;
    auto cell = [&](std::int64_t rank, std::int64_t b) { return rank * bw + (b - b0); };
    Holdings h(u, n * bw);
    const std::int64_t k = blocks_per_rank(nb, n); // reduce-scatter, all-gather: block b is b / k's
    if (u.collective == "all-gather") {
      for (std::int64_t b = b0; b < b1; ++b) h.make_full(cell(b / k, b));
    } else if (u.collective == "broadcast") {
      for (std::int64_t b = b0; b < b1; ++b) h.make_full(cell(u.r.root, b));
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t b = b0; b < b1; ++b) h.add_member(cell(i, b), i);
    }
    auto on_transfer = [&](const RankTransfer& t, const std::string& where) {
      if (t.blocks == Blocks::Range && (t.offset >= b1 || t.offset + t.count <= b0)) return;
      // Each (sender, peer) pair counted once: in the batch of a range's first block, else
      // the first batch.
      const bool counted = t.blocks == Blocks::Range ? t.offset >= b0 && t.offset < b1 : b0 == 0;
      if (t.peer == Peer::Switch) {
        // Through the switch: a reduce gives block b's owner (b mod n) every other sender's
        // partial sum, a copy gives every other rank the sender's complete block.
        for_each_sender(t, n, [&](std::int64_t i) {
          c.transfers_checked += counted;
          transfer_blocks(u.r, t, i, blocks);
          for (std::int64_t b : blocks) {
            if (b < b0 || b >= b1) continue;
            const Word* from = h.set(cell(i, b));
            const bool full = h.full(cell(i, b));
            if (t.reduce) {
              if (const std::int64_t o = b % n; o != i)
                h.receive(cell(o, b), from, full, true, i, o, b, where);
            } else {
              for (std::int64_t q = 0; q < n; ++q)
                if (q != i) h.receive(cell(q, b), from, full, false, i, q, b, where);
            }
          }
        });
        return;
      }
      for_each_sender(t, n, [&](std::int64_t i) {
        const std::int64_t q = peer_of(u, t, i, where);
        if (q < 0) return;
        c.transfers_checked += counted;
        transfer_blocks(u.r, t, i, blocks);
        for (std::int64_t b : blocks)
          if (b >= b0 && b < b1)
            h.receive(cell(q, b), h.set(cell(i, b)), h.full(cell(i, b)), t.reduce, i, q, b, where);
      });
    };
    walk(u, on_transfer, [&](const RankStep&) { h.apply(); });
    if (u.collective == "reduce-scatter") {
      for (std::int64_t b = b0; b < b1; ++b) require_complete(u, h, cell(b / k, b), b / k, b);
    } else if (u.collective == "reduce") {
      for (std::int64_t b = b0; b < b1; ++b) require_complete(u, h, cell(u.r.root, b), u.r.root, b);
    } else {
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t b = b0; b < b1; ++b) require_complete(u, h, cell(i, b), i, b);
    }
  }
  c.method = "exact store-and-forward simulation of every rank's blocks, each the set of ranks "
             "whose contribution it sums (n-bit sets)";
  return c;
}

enum class Symmetry { None, Rotation, Xor };

// Rank 0's blocks stand for every rank's (rank_verify.hpp): rank i's block b is rank 0's block
// b - i (b ^ i) with every member renamed + i (^ i). So rank 0 receiving from rank s = -k (k)
// sees rank s's block b as rank 0's block b - s relabelled by s, and a violation at any rank is
// one at rank 0.
RankCheck symmetric_reductions(const Run& u, Symmetry sym) {
  const std::int64_t n = u.n;
  Holdings h(u, n);
  if (u.collective == "all-gather")
    h.make_full(0);
  else
    for (std::int64_t b = 0; b < n; ++b) h.add_member(b, 0);
  RankCheck c;
  std::vector<std::int64_t> blocks;
  std::vector<Word> sender(static_cast<std::size_t>(h.words()));
  const bool rot = sym == Symmetry::Rotation;
  auto on_transfer = [&](const RankTransfer& t, const std::string& where) {
    if (!rot && t.k >= n) return; // xor beyond the ranks: nobody has a peer
    const std::int64_t from = rot ? rank_mod(-t.k, n) : t.k;
    c.transfers_checked += n;
    transfer_blocks(u.r, t, from, blocks);
    for (std::int64_t b : blocks) {
      const std::int64_t own = rot ? rank_mod(b - from, n) : b ^ from;
      if (t.reduce) {
        if (rot)
          rotate(h.set(own), sender.data(), n, h.words(), from);
        else
          xor_permute(h.set(own), sender.data(), h.words(), from);
      }
      h.receive(b, sender.data(), h.full(own), t.reduce, from, 0, b, where);
    }
  };
  walk(u, on_transfer, [&](const RankStep&) { h.apply(); });
  if (u.collective == "reduce-scatter")
    require_complete(u, h, 0, 0, 0);
  else
    for (std::int64_t b = 0; b < n; ++b) require_complete(u, h, b, 0, b);
  c.method = std::string("exact store-and-forward simulation of rank 0's blocks, each the set of "
                         "ranks whose contribution it sums; every transfer sends from every "
                         "rank to ") +
             (rot ? "a shift peer, so every rank's blocks are rank 0's rotated"
                  : "an xor peer, so every rank's blocks are rank 0's with ranks xor-ed");
  return c;
}

// ---- All-to-all: items that move, counted per (holder, destination), since every rule selects
// by destination and a holder's items for one destination therefore always move together.

[[noreturn]] void fail_twice(const Run& u, const std::string& ptr, std::int64_t i, std::int64_t d) {
  u.fail(ptr, "rank " + str(i) + " sends its items for rank " + str(d) +
                  " twice in one step (they would be duplicated)");
}
[[noreturn]] void fail_nothing(const Run& u, const std::string& ptr, std::int64_t i,
                               std::int64_t q) {
  u.fail(ptr, "rank " + str(i) + "'s transfer to rank " + str(q) +
                  " moves nothing: it holds no item the rule selects");
}
[[noreturn]] void fail_left(const Run& u, std::int64_t i, std::int64_t d, std::int64_t count) {
  u.fail("", "rank " + str(i) + " ends holding " + str(count) + (count == 1 ? " item" : " items") +
                 " bound for rank " + str(d));
}

RankCheck general_all_to_all(const Run& u) {
  const std::int64_t n = u.n;
  // held[i*n + d]: rank i's items for rank d; change: the step's moves, applied at its end;
  // taken: the (holder, destination) groups that leave in this step, to catch a second taker.
  std::vector<std::int32_t> held(at(n * n), 1), change(at(n * n), 0);
  std::vector<Word> taken(at(words_for(n * n)), 0);
  auto is_taken = [&](std::int64_t cell) { return (taken[at(cell / 64)] >> (cell % 64)) & 1; };
  RankCheck c;
  std::vector<std::int64_t> dests;
  auto on_transfer = [&](const RankTransfer& t, const std::string& where) {
    for_each_sender(t, n, [&](std::int64_t i) {
      const std::int64_t q = peer_of(u, t, i, where);
      if (q < 0) return;
      ++c.transfers_checked;
      transfer_blocks(u.r, t, i, dests);
      std::int64_t moved = 0;
      for (std::int64_t d : dests) {
        const std::int64_t cell = i * n + d;
        const std::int32_t m = held[at(cell)];
        if (m == 0) continue;
        if (is_taken(cell)) fail_twice(u, where, i, d);
        taken[at(cell / 64)] |= Word{1} << (cell % 64);
        moved += m;
        change[at(cell)] -= m;
        change[at(q * n + d)] += m;
      }
      if (moved == 0) fail_nothing(u, where, i, q);
    });
  };
  // Every move of the step comes from a taken group, so visiting those again finds every
  // changed count (the arrivals at q too) without keeping a list as long as n^2.
  auto end_step = [&](const RankStep& st) {
    for (const RankTransfer& t : st.transfers)
      for_each_sender(t, n, [&](std::int64_t i) {
        const std::int64_t q = transfer_peer(u.r, t, i);
        if (q < 0 || q >= n) return;
        transfer_blocks(u.r, t, i, dests);
        for (std::int64_t d : dests) {
          const std::int64_t cell = i * n + d;
          if (!is_taken(cell)) continue;
          taken[at(cell / 64)] &= ~(Word{1} << (cell % 64));
          for (const std::int64_t x : {cell, q * n + d}) {
            held[at(x)] += change[at(x)];
            change[at(x)] = 0;
          }
        }
      });
  };
  walk(u, on_transfer, end_step);
  // Items are neither created nor lost (each group leaves once, to one peer), so nothing held
  // away from its destination means every item at its destination, once.
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t d = 0; d < n; ++d)
      if (i != d && held[at(i * n + d)] != 0) fail_left(u, i, d, held[at(i * n + d)]);
  c.method = "exact store-and-forward simulation of every rank's all-to-all items, counted per "
             "(holder, destination)";
  return c;
}

// Rank 0's groups stand for every rank's: rank i's items for rank d are as many as rank 0's for
// rank d - i (d ^ i). A group of rank 0 that leaves for rank k therefore reappears, relabelled,
// as rank 0 receiving from rank -k (k) its items for rank d - k (d ^ k).
RankCheck symmetric_all_to_all(const Run& u, Symmetry sym) {
  const std::int64_t n = u.n;
  std::vector<std::int64_t> held(at(n), 1), change(at(n), 0), taken_in(at(n), -1), touched;
  const bool rot = sym == Symmetry::Rotation;
  RankCheck c;
  std::vector<std::int64_t> dests;
  std::int64_t step = 0; // the step being walked, to catch a second taker within it
  auto on_transfer = [&](const RankTransfer& t, const std::string& where) {
    if (!rot && t.k >= n) return;
    c.transfers_checked += n;
    transfer_blocks(u.r, t, 0, dests);
    std::int64_t moved = 0;
    for (std::int64_t d : dests) {
      const std::int64_t m = held[at(d)];
      if (m == 0) continue;
      if (taken_in[at(d)] == step) fail_twice(u, where, 0, d);
      taken_in[at(d)] = step;
      moved += m;
      const std::int64_t to = rot ? rank_mod(d - t.k, n) : d ^ t.k;
      change[at(d)] -= m;
      change[at(to)] += m;
      touched.push_back(d);
      touched.push_back(to);
    }
    if (moved == 0) fail_nothing(u, where, 0, transfer_peer(u.r, t, 0));
  };
  walk(u, on_transfer, [&](const RankStep&) {
    for (std::int64_t x : touched) {
      held[at(x)] += change[at(x)];
      change[at(x)] = 0;
    }
    touched.clear();
    ++step;
  });
  for (std::int64_t d = 1; d < n; ++d)
    if (held[at(d)] != 0) fail_left(u, 0, d, held[at(d)]);
  c.method = std::string("exact store-and-forward simulation of rank 0's all-to-all items, "
                         "counted per destination; every transfer sends from every rank to ") +
             (rot ? "a shift peer, so every rank's items are rank 0's rotated"
                  : "an xor peer, so every rank's items are rank 0's with ranks xor-ed");
  return c;
}

// Whether relabelling ranks maps the schedule onto itself: rotation needs every transfer from
// every rank to a shift peer with a rule that moves along (offset, all, bit); xor needs xor
// peers, rules that commute with xor (mask, all) and n a power of two. Both need an initial
// state that looks the same from every rank, which a root breaks. `why` says what rules them
// out, for the error when the general simulation is too large.
Symmetry classify(const Run& u, std::string& why) {
  if (u.collective == "broadcast" || u.collective == "reduce") {
    why = u.collective + " starts at its root";
    return Symmetry::None;
  }
  if (u.nb != u.n) {
    why = str(u.nb) + " blocks on " + str(u.n) + " ranks are not one per rank";
    return Symmetry::None;
  }
  std::string no_rot, no_xor;
  if (!std::has_single_bit(static_cast<std::uint64_t>(u.n)))
    no_xor = str(u.n) + " ranks is not a power of two";
  for (std::size_t s = 0; s < u.r.steps.size() && (no_rot.empty() || no_xor.empty()); ++s)
    for (std::size_t k = 0; k < u.r.steps[s].transfers.size(); ++k) {
      const RankTransfer& t = u.r.steps[s].transfers[k];
      const std::string place = "step " + str(static_cast<std::int64_t>(s)) + ", transfer " +
                                str(static_cast<std::int64_t>(k)) + " ";
      const bool every = !t.from || static_cast<std::int64_t>(t.from->size()) == u.n;
      if (t.peer == Peer::Switch) {
        why = place + "goes through the switch";
        return Symmetry::None;
      }
      if (no_rot.empty()) {
        if (!every)
          no_rot = place + "sends from listed ranks only";
        else if (t.peer != Peer::Shift)
          no_rot = place + "has an xor peer";
        else if (t.blocks == Blocks::Mask || t.blocks == Blocks::Range)
          no_rot = place + "selects blocks by number";
      }
      if (no_xor.empty()) {
        if (!every)
          no_xor = place + "sends from listed ranks only";
        else if (t.peer != Peer::Xor)
          no_xor = place + "has a shift peer";
        else if (t.blocks == Blocks::Offset || t.blocks == Blocks::Bit)
          no_xor = place + "selects blocks by distance";
        else if (t.blocks == Blocks::Range)
          no_xor = place + "selects blocks by number";
      }
    }
  if (no_rot.empty()) return Symmetry::Rotation;
  if (no_xor.empty()) return Symmetry::Xor;
  why = "rotating ranks: " + no_rot + "; xor-ing ranks: " + no_xor;
  return Symmetry::None;
}

} // namespace

RankCheck verify_rank_semantics(const RankSchedule& r, const std::string& collective,
                                ErrorKind on_failure, const std::string& where,
                                RankSimulation how) {
  Run u{r, collective, on_failure, where, r.ranks(), r.blocks};
  static const char* const kKnown[] = {"all-reduce", "reduce-scatter", "all-gather",
                                       "all-to-all", "broadcast",      "reduce"};
  if (std::find(std::begin(kKnown), std::end(kKnown), collective) == std::end(kKnown))
    u.fail("", "no rank semantics for the collective '" + collective + "'");
  if (u.n < 1) u.fail("/groups", "a schedule needs at least one rank");
  const bool whole = collective == "broadcast" || collective == "reduce";
  if (collective == "all-to-all"     ? u.nb != u.n
      : blocks_are_ranks(collective) ? u.nb < u.n || u.nb % u.n != 0
                                     : u.nb < 1)
    u.fail("/blocks", "is " + str(u.nb) + " but " + collective + " on " + str(u.n) + " ranks has " +
                          (collective == "all-to-all"     ? str(u.n)
                           : blocks_are_ranks(collective) ? "a multiple of " + str(u.n)
                                                          : "at least 1"));
  if (whole && (r.root < 0 || r.root >= u.n))
    u.fail("/root", "is " + str(r.root) + ", not a rank of 0.." + str(u.n - 1));

  std::string why = "the general simulation was asked for";
  const Symmetry sym = how == RankSimulation::General ? Symmetry::None : classify(u, why);
  const std::int64_t per_block = u.n * words_for(u.n); // one block of every rank, in words
  const bool too_large = u.all_to_all()
                             ? u.n > kGeneralRanksAllToAll
                             : per_block > kGeneralWords || per_block * u.nb > kGeneralWork;
  if (sym == Symmetry::None && too_large)
    u.fail("", (u.all_to_all()
                    ? str(u.n) + " ranks are more than the " + str(kGeneralRanksAllToAll) +
                          " that simulating every rank "
                    : str(u.n) + " ranks of " + str(u.nb) + (u.nb == 1 ? " block" : " blocks") +
                          " are more than simulating every rank (2^36 bits) ") +
                   "allows for " + collective +
                   ", and the schedule is not symmetric enough to simulate rank 0 alone (" + why +
                   ")");
  RankCheck c;
  if (u.all_to_all())
    c = sym == Symmetry::None ? general_all_to_all(u) : symmetric_all_to_all(u, sym);
  else
    c = sym == Symmetry::None
            ? general_reductions(u, std::max<std::int64_t>(1, kGeneralWords / per_block))
            : symmetric_reductions(u, sym);
  c.steps_checked = static_cast<std::int64_t>(r.steps.size());
  c.pieces_checked = u.all_to_all() ? u.n * u.n : u.n * u.nb;
  return c;
}

} // namespace icnkit::coll
