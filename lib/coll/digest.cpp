#include "coll/digest.hpp"

#include "core/error.hpp"
#include "core/fingerprint.hpp"

namespace icnkit::coll {

std::string schedule_digest(const Schedule& s) {
  // Field by field in a fixed order; every list is preceded by its length and every optional
  // by a marker, so that no two different schedules feed the same sequence.
  Fingerprinter f;
  f.add_text("icnkit schedule digest 1");
  f.add_text(s.collective);
  f.add_text(s.algorithm);
  f.add_text(s.dim_scheduling);
  f.add_text(s.fault_handling);
  f.add_int(s.bytes_per_node);
  f.add_int(s.chunks);
  f.add_int(s.lanes);
  f.add_int(static_cast<std::int64_t>(s.phases.size()));
  for (const Phase& p : s.phases) {
    f.add_text(p.name);
    f.add_int(static_cast<std::int64_t>(p.op));
    f.add_int(p.chunk);
    f.add_int(p.dimension);
    f.add_int(p.ring_size);
    f.add_real(p.block_bytes);
    f.add_int(static_cast<std::int64_t>(p.steps.size()));
    for (const Step& st : p.steps) {
      f.add_int(st.id);
      f.add_int(static_cast<std::int64_t>(st.after.size()));
      for (std::int64_t a : st.after) f.add_int(a);
      f.add_int(st.shared_links ? 1 : 0);
      f.add_int(st.lane);
      f.add_int(static_cast<std::int64_t>(st.transfers.size()));
      for (const RingTransfer& t : st.transfers) {
        f.add_int(t.direction);
        f.add_int(t.origin_offset);
        f.add_int(t.dest_offset);
        f.add_int(t.fraction.num);
        f.add_int(t.fraction.den);
        f.add_int(t.rings ? static_cast<std::int64_t>(t.rings->size()) : -1);
        if (t.rings)
          for (std::int64_t r : *t.rings) f.add_int(r);
        f.add_int(t.fold_at);
        f.add_int(t.via_dim);
        f.add_int(t.via_side);
        f.add_int(t.part);
      }
    }
  }
  f.add_int(s.verification ? 1 : 0);
  if (s.verification) {
    const Verification& v = *s.verification;
    f.add_int(v.delivered ? 1 : 0);
    f.add_text(v.method);
    f.add_int(v.phases_checked);
    f.add_int(v.steps_checked);
    f.add_int(v.rings_checked);
    f.add_int(v.pieces_checked);
    f.add_int(v.hop_transfers_checked);
    f.add_int(v.failed_links_avoided);
  }
  f.add_text(s.network_fingerprint);
  // The newer parts, only when present, so the torus schedules' digests stay what they were.
  if (s.stages) {
    f.add_text("stages");
    f.add_int(static_cast<std::int64_t>(s.stages->size()));
    for (const RankStage& g : *s.stages) {
      f.add_text(g.collective);
      f.add_text(g.algorithm);
      f.add_int(g.share.num);
      f.add_int(g.share.den);
      f.add_int(static_cast<std::int64_t>(g.parts.size()));
      for (const RankSchedule& r : g.parts) {
        f.add_int(static_cast<std::int64_t>(r.groups.size()));
        for (const auto& grp : r.groups) {
          f.add_int(static_cast<std::int64_t>(grp.size()));
          for (std::int64_t c : grp) f.add_int(c);
        }
        if (!r.switches.empty()) { // absent from the digests of schedules without them
          f.add_text("switches");
          f.add_int(static_cast<std::int64_t>(r.switches.size()));
          for (std::int64_t w : r.switches) f.add_int(w);
        }
        f.add_int(r.blocks);
        f.add_int(r.root);
        f.add_int(static_cast<std::int64_t>(r.phases.size()));
        for (const std::string& p : r.phases) f.add_text(p);
        f.add_int(static_cast<std::int64_t>(r.steps.size()));
        for (const RankStep& st : r.steps) {
          f.add_int(st.id);
          f.add_int(st.phase);
          f.add_int(static_cast<std::int64_t>(st.after.size()));
          for (std::int64_t a : st.after) f.add_int(a);
          f.add_int(static_cast<std::int64_t>(st.transfers.size()));
          for (const RankTransfer& t : st.transfers) {
            f.add_int(static_cast<std::int64_t>(t.peer));
            f.add_int(t.k);
            f.add_int(t.reduce ? 1 : 0);
            f.add_int(t.from ? static_cast<std::int64_t>(t.from->size()) : -1);
            if (t.from)
              for (std::int64_t i : *t.from) f.add_int(i);
            f.add_int(static_cast<std::int64_t>(t.blocks));
            f.add_int(t.offset);
            f.add_int(t.count);
            f.add_int(t.stride);
            f.add_int(t.start);
            f.add_int(t.mask);
            f.add_int(t.match_peer ? 1 : 0);
            f.add_int(t.bit);
          }
        }
      }
    }
    f.add_int(static_cast<std::int64_t>(s.left.size()));
    for (std::int64_t c : s.left) f.add_int(c);
  }
  if (s.selection) {
    f.add_text("selection");
    f.add_text(s.selection->by);
    f.add_int(static_cast<std::int64_t>(s.selection->candidates.size()));
    for (const Candidate& k : s.selection->candidates) {
      f.add_text(k.algorithm);
      f.add_int(k.chunks);
      f.add_real(k.time_s);
    }
  }
  if (s.skew) {
    f.add_text("skew");
    f.add_text(s.skew->kind);
    f.add_real(s.skew->exponent);
    f.add_int(static_cast<std::int64_t>(s.skew->seed));
    f.add_int(static_cast<std::int64_t>(s.skew->weights.size()));
    for (const auto& row : s.skew->weights) {
      f.add_int(static_cast<std::int64_t>(row.size()));
      for (double x : row) f.add_real(x);
    }
  }
  return f.hex();
}

void seal(Schedule& s) {
  if (!s.verification || !s.verification->delivered)
    fail_runtime("coll", "only a verified schedule can be sealed");
  s.verified_digest = schedule_digest(s);
}

bool sealed(const Schedule& s) {
  return !s.verified_digest.empty() && s.verification && s.verification->delivered &&
         s.verified_digest == schedule_digest(s);
}

} // namespace icnkit::coll
