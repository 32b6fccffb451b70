#include "coll/schedule_parse.hpp"

#include "coll/registry.hpp"

#include <algorithm>
#include <cmath>

namespace icnkit::coll {

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
