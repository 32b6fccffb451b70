#include "doc/coll_json.hpp"

#include "coll/registry.hpp"
#include "core/error.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::coll {

json to_json(const Skew& k) {
  if (k.kind == "zipf") return {{"kind", "zipf"}, {"exponent", k.exponent}, {"seed", k.seed}};
  return {{"kind", "matrix"}, {"weights", k.weights}};
}

Skew parse_skew(ObjReader& r) {
  Skew k;
  k.kind = r.string("kind");
  if (k.kind == "zipf") {
    k.exponent = r.number("exponent");
    if (!(k.exponent >= 0 && k.exponent <= 10)) r.fail("exponent", "expected 0 to 10");
    const json& s = r.raw("seed");
    if (!s.is_number_unsigned() && !(s.is_number_integer() && s.get<std::int64_t>() >= 0))
      r.fail("seed", "expected a whole number >= 0");
    k.seed = s.get<std::uint64_t>();
  } else if (k.kind == "matrix") {
    const json& w = r.raw("weights");
    if (!w.is_array() || w.empty()) r.fail("weights", "expected a list of rows");
    for (const json& row : w) {
      if (!row.is_array()) r.fail("weights", "expected a list of rows of numbers");
      std::vector<double> v;
      for (const json& x : row) {
        if (!x.is_number() || !(x.get<double>() >= 0) || !std::isfinite(x.get<double>()))
          r.fail("weights", "sizes are numbers >= 0");
        v.push_back(x.get<double>());
      }
      k.weights.push_back(std::move(v));
    }
  } else {
    r.fail("kind", "expected zipf or matrix, got \"" + k.kind + "\"");
  }
  r.done();
  return k;
}

namespace {

constexpr std::int64_t kMaxRanks = std::int64_t{1} << 22;
constexpr std::int64_t kMaxRankSteps = std::int64_t{1} << 24;

bool all_to_all(const std::string& c) {
  return c == "all-to-all";
}
} // namespace

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

json to_json(const Schedule& s) {
  json phases = json::array();
  for (auto& p : s.phases) {
    json steps = json::array();
    for (auto& st : p.steps) {
      json transfers = json::array();
      for (auto& t : st.transfers) {
        json rings = t.rings ? json(*t.rings) : json("all");
        json tj = {{"direction", t.direction},      {"origin_offset", t.origin_offset},
                   {"dest_offset", t.dest_offset},  {"fraction", to_string(t.fraction)},
                   {"bytes", transfer_bytes(p, t)}, {"rings", rings}};
        if (t.fold_at >= 0) tj["fold_at"] = t.fold_at;
        if (t.via_dim >= 0) tj["via"] = {{"dimension", t.via_dim}, {"side", t.via_side}};
        if (p.op != PhaseOp::AllToAll) tj["part"] = t.part;
        transfers.push_back(std::move(tj));
      }
      json sj = {{"id", st.id},
                 {"after", st.after},
                 {"shared_links", st.shared_links},
                 {"transfers", transfers}};
      if (st.lane != 0) sj["lane"] = st.lane;
      steps.push_back(std::move(sj));
    }
    phases.push_back({{"name", p.name},
                      {"op", to_string(p.op)},
                      {"chunk", p.chunk},
                      {"dimension", p.dimension},
                      {"ring_size", p.ring_size},
                      {"block_bytes", p.block_bytes},
                      {"steps", steps}});
  }
  json j = {{"collective", s.collective},         {"algorithm", s.algorithm},
            {"dim_scheduling", s.dim_scheduling}, {"fault_handling", s.fault_handling},
            {"bytes_per_node", s.bytes_per_node}, {"chunks", s.chunks}};
  if (s.stages) {
    json st = json::array();
    for (const RankStage& g : *s.stages) {
      json parts = json::array();
      for (const RankSchedule& p : g.parts) parts.push_back(to_json(p));
      st.push_back({{"collective", g.collective},
                    {"algorithm", g.algorithm},
                    {"share", to_string(g.share)},
                    {"parts", parts}});
    }
    j["stages"] = std::move(st);
    if (uses_switch(s)) j["assumes"] = kSwitchReduction;
    j["left"] = s.left;
    if (s.skew) j["skew"] = to_json(*s.skew);
  } else {
    j["step_count"] = s.step_count();
    j["phases"] = phases;
  }
  if (s.lanes != 1) j["lanes"] = s.lanes;
  if (s.verification) {
    const Verification& v = *s.verification;
    j["verification"] = {{"delivered", v.delivered},
                         {"method", v.method},
                         {"phases_checked", v.phases_checked},
                         {"steps_checked", v.steps_checked},
                         {"rings_checked", v.rings_checked},
                         {"pieces_checked", v.pieces_checked},
                         {"hop_transfers_checked", v.hop_transfers_checked},
                         {"failed_links_avoided", v.failed_links_avoided}};
  }
  if (s.selection) {
    json c = json::array();
    for (const Candidate& k : s.selection->candidates) {
      json o = {{"algorithm", k.algorithm}};
      if (k.chunks > 0) o["chunks"] = k.chunks;
      o["time_s"] = k.time_s;
      c.push_back(std::move(o));
    }
    j["selection"] = {{"by", s.selection->by}, {"candidates", c}};
  }
  j["network_fingerprint"] = s.network_fingerprint;
  if (!s.verified_digest.empty()) j["verified_digest"] = s.verified_digest;
  return j;
}

namespace {

constexpr std::int64_t kMaxSteps = 10'000'000;
constexpr int kMaxRingSize = 1 << 20;
constexpr int kMaxChunks = 1 << 16;
constexpr int kMaxLanes = 64;

RingTransfer parse_transfer(ObjReader& r, const Phase& p) {
  RingTransfer t;
  t.direction = static_cast<int>(r.integer("direction", -1, 1));
  if (t.direction == 0) r.fail("direction", "must be +1 or -1");
  t.origin_offset = static_cast<int>(r.integer("origin_offset", 0, p.ring_size - 1));
  t.dest_offset = static_cast<int>(r.integer("dest_offset", 0, p.ring_size - 1));
  t.fraction = parse_fraction(r.string("fraction"), r.where("fraction"));
  double bytes = r.number("bytes");
  double want = transfer_bytes(p, t);
  if (!(std::fabs(bytes - want) <= 1e-9 * want))
    r.fail("bytes", "is " + std::to_string(bytes) + " but fraction x block_bytes is " +
                        std::to_string(want));
  const json& rings = r.raw("rings");
  if (rings.is_string()) {
    if (rings.get<std::string>() != "all")
      r.fail("rings", "expected \"all\" or a list of ring ids");
  } else if (rings.is_array()) {
    std::vector<std::int64_t> ids = r.int_list("rings", 0);
    if (ids.empty()) r.fail("rings", "an empty ring list moves nothing; drop the transfer");
    for (std::size_t k = 1; k < ids.size(); ++k)
      if (ids[k] <= ids[k - 1]) r.fail("rings", "ring ids must be ascending and unique");
    t.rings = std::move(ids);
  } else {
    r.fail("rings", "expected \"all\" or a list of ring ids");
  }
  if (auto f = r.integer_opt("fold_at", 0, p.ring_size - 1)) t.fold_at = static_cast<int>(*f);
  if (p.op != PhaseOp::AllToAll) {
    t.part = static_cast<int>(r.integer("part", 0, t.fraction.den - 1));
    if (t.fraction.num != 1) r.fail("fraction", "a reduction slice is 1/P of a block");
    if (t.dest_offset != 0) r.fail("dest_offset", "is 0 in a reduction phase");
  }
  if (auto v = r.object_opt("via")) {
    t.via_dim = static_cast<int>(v->integer("dimension", 0, 63));
    if (t.via_dim == p.dimension) v->fail("dimension", "must differ from the phase's dimension");
    t.via_side = static_cast<int>(v->integer("side", -1, 1));
    if (t.via_side == 0) v->fail("side", "must be +1 or -1");
    v->done();
    if (t.fold_at >= 0) r.fail("via", "a transfer is folded or goes via another ring, not both");
  }
  r.done();
  return t;
}

} // namespace

namespace {

// The torus ring form: phases of ring transfers.
void parse_ring_form(ObjReader& r, Schedule& s) {
  const AlgorithmInfo* entry = find_torus_algorithm(s.algorithm);
  if (!entry)
    r.fail("algorithm", "unknown algorithm \"" + s.algorithm +
                            "\" for a torus (known: " + torus_algorithm_names() + ")");
  const TorusForm* alg = &*entry->torus;
  if (!alg->implements(s.collective))
    r.fail("algorithm", s.algorithm + " does not schedule " + s.collective);
  if (!find_dim_scheduling(s.dim_scheduling))
    r.fail("dim_scheduling", "unknown dimension scheduling \"" + s.dim_scheduling +
                                 "\" (known: " + dim_scheduling_names() + ")");
  if (s.fault_handling != alg->fault_handling)
    r.fail("fault_handling", "is \"" + alg->fault_handling + "\" for " + s.algorithm + ", not \"" +
                                 s.fault_handling + "\"");
  s.bytes_per_node = r.integer("bytes_per_node", 1);
  s.chunks = static_cast<int>(r.integer("chunks", 1, kMaxChunks));
  s.lanes = static_cast<int>(r.integer_opt("lanes", 1, kMaxLanes).value_or(1));
  std::int64_t declared_steps = r.integer("step_count", 0, kMaxSteps);
  std::vector<char> seen_step(static_cast<std::size_t>(declared_steps), 0);
  std::vector<std::string> names;
  for (auto& po : r.objects("phases")) {
    Phase p;
    p.name = po.string("name");
    if (p.name.empty()) po.fail("name", "must not be empty");
    if (std::find(names.begin(), names.end(), p.name) != names.end())
      po.fail("name", "phase name \"" + p.name + "\" is used twice");
    names.push_back(p.name);
    const std::string op = po.string("op");
    if (op == "all-to-all")
      p.op = PhaseOp::AllToAll;
    else if (op == "reduce-scatter")
      p.op = PhaseOp::ReduceScatter;
    else if (op == "all-gather")
      p.op = PhaseOp::AllGather;
    else
      po.fail("op", "expected all-to-all, reduce-scatter or all-gather, got \"" + op + "\"");
    p.chunk = static_cast<int>(po.integer("chunk", 0, s.chunks - 1));
    p.dimension = static_cast<int>(po.integer("dimension", 0, 63));
    p.ring_size = static_cast<int>(po.integer("ring_size", 1, kMaxRingSize));
    p.block_bytes = po.positive("block_bytes");
    std::int64_t prev = -1;
    for (auto& so : po.objects("steps")) {
      Step st;
      st.id = so.integer("id", 0, declared_steps - 1);
      if (st.id <= prev) so.fail("id", "step ids must ascend within a phase");
      prev = st.id;
      if (seen_step[static_cast<std::size_t>(st.id)])
        so.fail("id", "step id " + std::to_string(st.id) + " is used twice");
      seen_step[static_cast<std::size_t>(st.id)] = 1;
      st.after = so.int_list("after", 0, std::max<std::int64_t>(st.id - 1, 0));
      if (st.id == 0 && !st.after.empty()) so.fail("after", "step 0 cannot depend on another step");
      for (std::size_t k = 1; k < st.after.size(); ++k)
        if (st.after[k] <= st.after[k - 1]) so.fail("after", "ids must be ascending and unique");
      st.shared_links = so.boolean("shared_links");
      st.lane = static_cast<int>(so.integer_opt("lane", 0, s.lanes - 1).value_or(0));
      for (auto& to : so.objects("transfers")) st.transfers.push_back(parse_transfer(to, p));
      so.done();
      p.steps.push_back(std::move(st));
    }
    po.done();
    s.phases.push_back(std::move(p));
  }
  for (std::size_t k = 0; k < seen_step.size(); ++k)
    if (!seen_step[k])
      r.fail("step_count", "is " + std::to_string(declared_steps) + " but no phase has step " +
                               std::to_string(k) + " (step ids must be dense)");
}

} // namespace

Schedule parse_schedule(ObjReader& r) {
  Schedule s;
  s.collective = r.string("collective");
  s.algorithm = r.string("algorithm");
  s.dim_scheduling = r.string("dim_scheduling");
  s.fault_handling = r.string("fault_handling");
  // The names are the registry's: a schedule says what made it, and the simulators' reports
  // and tables (net-sim --format nccl's header) print them.
  if (!find_collective(s.collective))
    r.fail("collective",
           "unknown collective \"" + s.collective + "\" (known: " + collective_names() + ")");
  if (r.has("stages")) {
    const AlgorithmInfo* entry = find_rank_algorithm(s.algorithm);
    if (!entry)
      r.fail("algorithm", "unknown algorithm \"" + s.algorithm +
                              "\" for a schedule between ranks (known: " + rank_algorithm_names() +
                              ")");
    if (!entry->ranks->implements(s.collective))
      r.fail("algorithm", s.algorithm + " does not schedule " + s.collective);
    if (s.dim_scheduling != "none") r.fail("dim_scheduling", "is \"none\" between ranks");
    if (s.fault_handling != "routing")
      r.fail("fault_handling", "is \"routing\" between ranks (the routing avoids failed links)");
    s.bytes_per_node = r.integer("bytes_per_node", 1);
    s.chunks = static_cast<int>(r.integer("chunks", 1, 1));
    s.stages.emplace();
    for (auto& so : r.objects("stages")) {
      RankStage g;
      g.collective = so.string("collective");
      if (!find_collective(g.collective))
        so.fail("collective", "unknown collective \"" + g.collective + "\"");
      g.algorithm = so.string("algorithm");
      const AlgorithmInfo* ga = find_rank_algorithm(g.algorithm);
      // A stage names one level's algorithm; hierarchical's all-to-all is itself one stage.
      if (!ga || !ga->ranks->implements(g.collective) ||
          (!ga->ranks->generate && g.collective != "all-to-all"))
        so.fail("algorithm",
                "\"" + g.algorithm + "\" is no algorithm of " + g.collective + " between ranks");
      g.share = parse_fraction(so.string("share"), so.where("share"));
      for (auto& po : so.objects("parts")) g.parts.push_back(parse_rank_schedule(po, g.collective));
      if (g.parts.empty()) so.fail("parts", "a stage has at least one part");
      so.done();
      s.stages->push_back(std::move(g));
    }
    if (s.stages->empty()) r.fail("stages", "at least one stage");
    // Derived from the transfers, and stated so that nobody misses it.
    if (uses_switch(s) != r.has("assumes") ||
        (r.has("assumes") && r.string("assumes") != kSwitchReduction))
      r.fail("assumes", uses_switch(s) ? std::string("is \"") + kSwitchReduction +
                                             "\" for a schedule with transfers via a switch"
                                       : "belongs to schedules with transfers via a switch");
    s.left = r.int_list("left", 0);
    if (auto ko = r.object_opt("skew")) {
      if (s.collective != "all-to-all" || s.stages->size() != 1)
        r.fail("skew", "sizes items of an all-to-all between ranks; this is " + s.collective);
      s.skew = parse_skew(*ko);
    }
  } else {
    parse_ring_form(r, s);
  }
  if (auto vo = r.object_opt("verification")) {
    Verification v;
    v.delivered = vo->boolean("delivered");
    v.method = vo->string("method");
    v.phases_checked = vo->integer("phases_checked", 0);
    v.steps_checked = vo->integer("steps_checked", 0);
    v.rings_checked = vo->integer("rings_checked", 0);
    v.pieces_checked = vo->integer("pieces_checked", 0);
    v.hop_transfers_checked = vo->integer("hop_transfers_checked", 0);
    v.failed_links_avoided = vo->integer("failed_links_avoided", 0);
    vo->done();
    s.verification = v;
  }
  if (auto so = r.object_opt("selection")) {
    Selection sel;
    sel.by = so->string("by");
    if (sel.by != "auto") so->fail("by", "expected \"auto\"");
    for (auto& co : so->objects("candidates")) {
      Candidate k;
      k.algorithm = co.string("algorithm");
      if (auto c = co.integer_opt("chunks", 1, kMaxChunks)) k.chunks = *c;
      k.time_s = co.number("time_s");
      if (!(k.time_s >= 0)) co.fail("time_s", "must be a number >= 0");
      co.done();
      sel.candidates.push_back(std::move(k));
    }
    so->done();
    s.selection = std::move(sel);
  }
  s.network_fingerprint = r.string("network_fingerprint");
  if (auto dg = r.string_opt("verified_digest")) {
    // Whether it matches is net-sim's question (digest.hpp); here only its form.
    if (dg->size() != 16 || dg->find_first_not_of("0123456789abcdef") != std::string::npos)
      r.fail("verified_digest", "expected 16 lower-case hex digits (an XXH3-64 digest)");
    s.verified_digest = *dg;
  }
  r.done();
  return s;
}

} // namespace icnkit::coll
