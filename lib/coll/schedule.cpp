#include "coll/schedule.hpp"

#include "coll/rank_algorithms.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace icnkit::coll {

namespace {

constexpr std::int64_t kMaxDen = std::int64_t{1} << 31;

bool parse_digits(const std::string& s, std::int64_t& out) {
  if (s.empty() || s.size() > 12) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

} // namespace

Fraction parse_fraction(const std::string& text, const std::string& where) {
  std::int64_t num = 0, den = 1;
  auto slash = text.find('/');
  bool ok = slash == std::string::npos ? parse_digits(text, num)
                                       : parse_digits(text.substr(0, slash), num) &&
                                             parse_digits(text.substr(slash + 1), den);
  if (!ok) fail_input(where, "expected a fraction like \"1/2\", got \"" + text + "\"");
  if (den == 0 || num == 0 || num > den || den > kMaxDen)
    fail_input(where, "fraction \"" + text + "\" must lie in (0, 1] with a denominator <= 2^31");
  std::int64_t g = std::gcd(num, den);
  return {num / g, den / g};
}

std::string to_string(const Fraction& f) {
  return f.den == 1 ? std::to_string(f.num) : std::to_string(f.num) + "/" + std::to_string(f.den);
}

Fraction make_fraction(std::int64_t num, std::int64_t den) {
  if (den <= 0 || num <= 0 || num > den)
    fail_runtime("coll",
                 "fraction " + std::to_string(num) + "/" + std::to_string(den) + " outside (0, 1]");
  std::int64_t g = std::gcd(num, den);
  if (den / g > kMaxDen) fail_runtime("coll", "fraction denominator above 2^31");
  return {num / g, den / g};
}

std::string to_string(PhaseOp op) {
  switch (op) {
  case PhaseOp::ReduceScatter:
    return "reduce-scatter";
  case PhaseOp::AllGather:
    return "all-gather";
  case PhaseOp::AllToAll:
    break;
  }
  return "all-to-all";
}

bool uses_switch(const Schedule& s) {
  if (!s.stages) return false;
  for (const RankStage& g : *s.stages)
    for (const RankSchedule& r : g.parts)
      if (uses_switch(r)) return true;
  return false;
}

std::int64_t Schedule::step_count() const {
  if (stages) {
    std::int64_t n = 0;
    for (const RankStage& st : *stages)
      for (const RankSchedule& p : st.parts) n += static_cast<std::int64_t>(p.steps.size());
    return n;
  }
  std::int64_t n = 0;
  for (auto& p : phases) n += static_cast<std::int64_t>(p.steps.size());
  return n;
}

Schedule with_bytes(const Schedule& s, std::int64_t bytes) {
  Schedule t = s;
  const double k = static_cast<double>(bytes) / static_cast<double>(s.bytes_per_node);
  t.bytes_per_node = bytes;
  t.verified_digest.clear();
  for (Phase& p : t.phases) p.block_bytes *= k;
  return t;
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

} // namespace icnkit::coll
