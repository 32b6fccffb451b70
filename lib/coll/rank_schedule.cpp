#include "coll/rank_schedule.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <bit>

namespace icnkit::coll {

namespace {

constexpr std::int64_t kMaxRanks = std::int64_t{1} << 22;
constexpr std::int64_t kMaxRankSteps = std::int64_t{1} << 24;

bool all_to_all(const std::string& c) {
  return c == "all-to-all";
}
} // namespace

bool blocks_are_ranks(const std::string& c) {
  return c == "reduce-scatter" || c == "all-gather" || c == "all-to-all";
}

bool sends(const RankTransfer& t, std::int64_t i) {
  return !t.from || std::binary_search(t.from->begin(), t.from->end(), i);
}

bool uses_switch(const RankSchedule& r) {
  for (const RankStep& s : r.steps)
    for (const RankTransfer& t : s.transfers)
      if (t.peer == RankTransfer::Peer::Switch) return true;
  return false;
}

std::int64_t transfer_peer(const RankSchedule& r, const RankTransfer& t, std::int64_t i) {
  const std::int64_t n = r.ranks();
  if (t.peer == RankTransfer::Peer::Switch) return -1;
  if (t.peer == RankTransfer::Peer::Shift) return rank_mod(i + t.k, n);
  const std::int64_t q = i ^ t.k;
  return q < n ? q : -1;
}

void transfer_blocks(const RankSchedule& r, const RankTransfer& t, std::int64_t i,
                     std::vector<std::int64_t>& out) {
  out.clear();
  const std::int64_t nb = r.blocks, n = r.ranks();
  switch (t.blocks) {
  case RankTransfer::Blocks::All:
    for (std::int64_t b = 0; b < nb; ++b) out.push_back(b);
    break;
  case RankTransfer::Blocks::Offset:
    for (std::int64_t j = 0; j < t.count; ++j)
      out.push_back(t.start + t.stride * rank_mod(i + t.offset + j, nb / t.stride));
    std::sort(out.begin(), out.end());
    break;
  case RankTransfer::Blocks::Range:
    for (std::int64_t j = 0; j < t.count; ++j) out.push_back(t.offset + j);
    break;
  case RankTransfer::Blocks::Mask: {
    // The fixed bits plus every subset of the free ones, in increasing order: testing every
    // block would make a pairwise exchange cost n^3 rather than n^2.
    const auto unb = static_cast<std::uint64_t>(nb);
    const std::uint64_t span = std::bit_ceil(unb) - 1; // every bit some block number has
    const auto mask = static_cast<std::uint64_t>(t.mask);
    const std::uint64_t fixed =
        static_cast<std::uint64_t>(t.match_peer ? transfer_peer(r, t, i) : i) & mask;
    const std::uint64_t free = span & ~mask;
    if (fixed & ~span) break; // a bit no block number has
    std::uint64_t sub = 0;
    do {
      const std::uint64_t b = fixed | sub;
      if (b >= unb) break;
      out.push_back(static_cast<std::int64_t>(b));
      sub = (sub - free) & free;
    } while (sub != 0);
    break;
  }
  case RankTransfer::Blocks::Bit:
    for (std::int64_t d = 0; d < n; ++d)
      if ((rank_mod(d - i, n) >> t.bit) & 1) out.push_back(d);
    break;
  }
}

json to_json(const RankSchedule& r) {
  json steps = json::array();
  for (const RankStep& s : r.steps) {
    json tr = json::array();
    for (const RankTransfer& t : s.transfers) {
      json o;
      if (t.peer == RankTransfer::Peer::Switch)
        o["via"] = "switch";
      else
        o[t.peer == RankTransfer::Peer::Shift ? "shift" : "xor"] = t.k;
      o["op"] = t.reduce ? "reduce" : "copy";
      if (t.from) o["from"] = *t.from;
      switch (t.blocks) {
      case RankTransfer::Blocks::All:
        o["blocks"] = "all";
        break;
      case RankTransfer::Blocks::Offset:
        o["blocks"] = {{"offset", t.offset}, {"count", t.count}};
        if (t.stride != 1) {
          o["blocks"]["stride"] = t.stride;
          o["blocks"]["start"] = t.start;
        }
        break;
      case RankTransfer::Blocks::Range:
        o["blocks"] = {{"first", t.offset}, {"count", t.count}};
        break;
      case RankTransfer::Blocks::Mask:
        o["blocks"] = {{"mask", t.mask}, {"ref", t.match_peer ? "peer" : "self"}};
        break;
      case RankTransfer::Blocks::Bit:
        o["blocks"] = {{"bit", t.bit}};
        break;
      }
      tr.push_back(std::move(o));
    }
    json so = {{"id", s.id}, {"after", s.after}, {"phase", s.phase}};
    so["transfers"] = std::move(tr);
    steps.push_back(std::move(so));
  }
  json o = {{"groups", r.groups}, {"blocks", r.blocks}};
  if (!r.switches.empty()) o["switches"] = r.switches;
  o["root"] = r.root;
  o["phases"] = r.phases;
  o["step_count"] = static_cast<std::int64_t>(r.steps.size());
  o["steps"] = std::move(steps);
  return o;
}

namespace {

RankTransfer parse_transfer(ObjReader& r, std::int64_t n, std::int64_t nb,
                            const std::string& collective) {
  RankTransfer t;
  const bool shift = r.has("shift"), x = r.has("xor"), via = r.has("via");
  if (shift + x + via != 1)
    r.fail("shift", "a transfer names its peer by exactly one of shift, xor and via");
  if (via) {
    if (r.string("via") != "switch") r.fail("via", "expected \"switch\"");
    t.peer = RankTransfer::Peer::Switch;
    t.k = 0;
  } else if (shift) {
    t.peer = RankTransfer::Peer::Shift;
    t.k = r.integer("shift", 1, std::max<std::int64_t>(n - 1, 1));
    if (n < 2) r.fail("shift", "a group of one rank has no peer");
  } else {
    t.peer = RankTransfer::Peer::Xor;
    t.k = r.integer("xor", 1, kMaxRanks);
  }
  const std::string op = r.string("op");
  if (op == "reduce")
    t.reduce = true;
  else if (op != "copy")
    r.fail("op", "expected copy or reduce, got \"" + op + "\"");
  if (t.reduce && all_to_all(collective)) r.fail("op", "an all-to-all moves items: copy");
  if (via && all_to_all(collective))
    r.fail("via", "an all-to-all's items go to their destinations: the switch does not serve it");
  if (r.has("from")) {
    std::vector<std::int64_t> f = r.int_list("from", 0, n - 1);
    if (f.empty()) r.fail("from", "an empty sender list moves nothing; drop the transfer");
    for (std::size_t k = 1; k < f.size(); ++k)
      if (f[k] <= f[k - 1]) r.fail("from", "ranks must be ascending and unique");
    t.from = std::move(f);
  }
  const json& b = r.raw("blocks");
  if (b.is_string()) {
    if (b.get<std::string>() != "all") r.fail("blocks", "expected \"all\" or a block rule");
    t.blocks = RankTransfer::Blocks::All;
  } else if (b.is_object()) {
    ObjReader br = r.object("blocks");
    if (br.has("offset")) {
      t.blocks = RankTransfer::Blocks::Offset;
      t.offset = br.integer("offset", 0, nb - 1);
      if (auto s = br.integer_opt("stride", 1, nb)) {
        if (nb % *s != 0) br.fail("stride", "must divide the " + std::to_string(nb) + " blocks");
        t.stride = *s;
        t.start = br.integer("start", 0, t.stride - 1);
      }
      t.count = br.integer("count", 1, nb / t.stride);
    } else if (br.has("first")) {
      t.blocks = RankTransfer::Blocks::Range;
      t.offset = br.integer("first", 0, nb - 1);
      t.count = br.integer("count", 1, nb - t.offset);
    } else if (br.has("mask")) {
      if (via) br.fail("mask", "a transfer via the switch takes blocks by offset, first or all");
      t.blocks = RankTransfer::Blocks::Mask;
      t.mask = br.integer("mask", 0, kMaxRanks);
      const std::string ref = br.string("ref");
      if (ref != "peer" && ref != "self") br.fail("ref", "expected peer or self");
      t.match_peer = ref == "peer";
    } else if (br.has("bit")) {
      if (via) br.fail("bit", "a transfer via the switch takes blocks by offset, first or all");
      if (!all_to_all(collective))
        br.fail("bit", "Bruck's bit rule selects all-to-all items; this is " + collective);
      t.blocks = RankTransfer::Blocks::Bit;
      t.bit = static_cast<int>(br.integer("bit", 0, 30));
    } else {
      br.fail("offset",
              "expected one of offset (with count), first (with count), mask (with ref) or bit");
    }
    br.done();
  } else {
    r.fail("blocks", "expected \"all\" or a block rule");
  }
  r.done();
  return t;
}

} // namespace

RankSchedule parse_rank_schedule(ObjReader& r, const std::string& collective) {
  RankSchedule s;
  const json& g = r.raw("groups");
  if (!g.is_array() || g.empty()) r.fail("groups", "expected a non-empty list of chip lists");
  std::vector<std::int64_t> all;
  for (std::size_t k = 0; k < g.size(); ++k) {
    const json& one = g[k];
    if (!one.is_array()) r.fail("groups", "group " + std::to_string(k) + " is not a list of chips");
    std::vector<std::int64_t> chips;
    for (const json& c : one) {
      if (!c.is_number_integer() || c.get<std::int64_t>() < 0)
        r.fail("groups", "group " + std::to_string(k) + ": chips are whole numbers >= 0");
      chips.push_back(c.get<std::int64_t>());
    }
    if (chips.empty() || static_cast<std::int64_t>(chips.size()) > kMaxRanks)
      r.fail("groups", "group " + std::to_string(k) + ": expected 1 to 2^22 ranks");
    if (!s.groups.empty() && chips.size() != s.groups.front().size())
      r.fail("groups", "group " + std::to_string(k) + " has " + std::to_string(chips.size()) +
                           " chips, group 0 " + std::to_string(s.groups.front().size()) +
                           " (the steps are the same for every group)");
    all.insert(all.end(), chips.begin(), chips.end());
    s.groups.push_back(std::move(chips));
  }
  std::sort(all.begin(), all.end());
  if (std::adjacent_find(all.begin(), all.end()) != all.end())
    r.fail("groups", "chip " + std::to_string(*std::adjacent_find(all.begin(), all.end())) +
                         " is a rank twice");
  const std::int64_t n = s.ranks();
  if (r.has("switches")) {
    s.switches = r.int_list("switches", 0);
    if (s.switches.size() != s.groups.size())
      r.fail("switches", "names one switch per group: " + std::to_string(s.groups.size()) +
                             " groups, " + std::to_string(s.switches.size()) + " switches");
  }
  s.blocks = r.integer("blocks", 1, kMaxRanks);
  if (blocks_are_ranks(collective) &&
      (collective == "all-to-all" ? s.blocks != n : s.blocks % n != 0))
    r.fail("blocks", collective == "all-to-all"
                         ? "is " + std::to_string(n) + " for all-to-all on " + std::to_string(n) +
                               " ranks (one item per destination)"
                         : "is a multiple of the " + std::to_string(n) + " ranks for " +
                               collective + " (block b is rank b / k's)");
  s.root = r.integer("root", 0, n - 1);
  s.phases = r.string_list("phases");
  if (s.phases.empty()) r.fail("phases", "at least one phase");
  const std::int64_t declared = r.integer("step_count", 0, kMaxRankSteps);
  std::int64_t next = 0;
  for (auto& so : r.objects("steps")) {
    RankStep st;
    st.id = so.integer("id", 0, declared - 1);
    if (st.id != next) so.fail("id", "step ids are 0, 1, 2, ... in order");
    ++next;
    st.after = so.int_list("after", 0, std::max<std::int64_t>(st.id - 1, 0));
    if (st.id == 0 && !st.after.empty()) so.fail("after", "step 0 cannot depend on another step");
    for (std::size_t k = 1; k < st.after.size(); ++k)
      if (st.after[k] <= st.after[k - 1]) so.fail("after", "ids must be ascending and unique");
    st.phase =
        static_cast<int>(so.integer("phase", 0, static_cast<std::int64_t>(s.phases.size()) - 1));
    for (auto& to : so.objects("transfers"))
      st.transfers.push_back(parse_transfer(to, n, s.blocks, collective));
    so.done();
    s.steps.push_back(std::move(st));
  }
  if (next != declared)
    r.fail("step_count",
           "is " + std::to_string(declared) + " but there are " + std::to_string(next) + " steps");
  if (uses_switch(s) != !s.switches.empty())
    r.fail("switches", s.switches.empty()
                           ? "a transfer goes via the switch: name each group's switch"
                           : "names switches, but no transfer goes via one");
  r.done();
  return s;
}

} // namespace icnkit::coll
