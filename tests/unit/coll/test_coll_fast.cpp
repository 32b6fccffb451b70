// verify()'s shortcuts against the straightforward computation, verify_all_rings(): one ring
// simulated per class of rings the same transfers serve, hops proven clean per step without a
// walk, tabulated neighbours, lane overlaps as bitmasks. On small and medium tori, with and
// without faults, for every algorithm and dimension scheduler, both must give the same
// statistics on the generated schedules and the same error (kind, pointer, message) on
// schedules broken on purpose. And the digest coll-sched seals a verified schedule with
// (coll/digest.hpp): stable through the document, changed by an edit of any field.
#include "coll/digest.hpp"
#include "coll/generate.hpp"
#include "coll/verify.hpp"
#include "doc/document.hpp"
#include "topo/faults.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <functional>
#include <random>

using namespace icnkit;
using namespace icnkit::coll;

namespace {

topo::Faults link_faults(const topo::Network& net, const std::vector<std::string>& links) {
  topo::FaultRequest fr;
  fr.links = links;
  return topo::make_faults(net, fr);
}

// The outcome of a verification: the statistics, or the error as "kind where: what".
std::string outcome(const std::function<Verification()>& f) {
  try {
    const Verification v = f();
    return "ok " + std::to_string(v.delivered) + " " + v.method + " " +
           std::to_string(v.phases_checked) + " " + std::to_string(v.steps_checked) + " " +
           std::to_string(v.rings_checked) + " " + std::to_string(v.pieces_checked) + " " +
           std::to_string(v.hop_transfers_checked) + " " + std::to_string(v.failed_links_avoided);
  } catch (const Error& e) {
    return "error " + std::to_string(static_cast<int>(e.kind())) + " " + e.where() + ": " +
           e.what();
  }
}

void same_verdict(const Schedule& s, const topo::Network& net, const topo::Faults& f) {
  const std::string fast = outcome([&] { return verify(s, net, f, ErrorKind::Input); });
  const std::string all = outcome([&] { return verify_all_rings(s, net, f, ErrorKind::Input); });
  CHECK(fast == all);
}

struct Case {
  std::string shape;
  std::vector<std::string> faults;
};

// Tori small enough for the reference, with no fault, one, two on different rings of one
// dimension, and two in different dimensions; odd, even and size-2 dimensions.
const std::vector<Case> kCases = {
    {"4x4x4", {}},
    {"4x4x4", {"(1,1,1)-(1,2,1)"}},
    {"5x4x3", {"(0,0,0)-(1,0,0)"}},
    {"6x6x4", {"(1,1,1)-(1,2,1)", "(3,4,2)-(3,5,2)"}},
    {"4x6x5", {"(1,1,1)-(2,1,1)", "(2,2,3)-(2,2,4)"}},
    {"8x8", {"(2,3)-(2,4)"}},
    {"6x4x2", {}},
};

std::vector<std::string> algorithms() {
  return {"ring", "halfring", "foldedring", "mate", "matee"};
}
std::vector<std::string> schedulers() {
  return {"sequential", "pipeline", "dimrotation"};
}

// Every schedule the generator makes on the cases (the infeasible requests skipped).
template <class F> void for_each_schedule(F&& f) {
  for (const Case& c : kCases) {
    const topo::Network net = test::torus_of(c.shape);
    const topo::Faults faults = link_faults(net, c.faults);
    for (const std::string collective :
         {"all-to-all", "all-reduce", "reduce-scatter", "all-gather"})
      for (const std::string& alg : algorithms())
        for (const std::string& dims : schedulers()) {
          Request req;
          req.collective = collective;
          req.algorithm = alg;
          req.dim_scheduling = dims;
          req.bytes_per_node = 1 << 20;
          Schedule s;
          try {
            s = generate(req, net, faults);
          } catch (const Error& e) {
            // Infeasible or not implemented; a verification failure would be Runtime.
            REQUIRE(e.kind() != ErrorKind::Runtime);
            continue;
          }
          INFO(c.shape << " faults " << c.faults.size() << " " << collective << " " << alg << " + "
                       << dims);
          f(s, net, faults);
        }
  }
}

} // namespace

TEST_CASE("verify() equals verify_all_rings() on every generated schedule", "[coll][coll-fast]") {
  int schedules = 0;
  for_each_schedule([&](const Schedule& s, const topo::Network& net, const topo::Faults& f) {
    ++schedules;
    const Verification all = verify_all_rings(s, net, f, ErrorKind::Input);
    CHECK(*s.verification == all); // generate() ran verify()
    CHECK(verify(s, net, f, ErrorKind::Input) == all);
  });
  CHECK(schedules > 140);
}

TEST_CASE("verify() and verify_all_rings() refuse broken schedules with the same message",
          "[coll][coll-fast]") {
  // Seeded random edits of one field each: most break delivery, links, order or lanes; all must
  // be judged alike, to the letter.
  std::mt19937_64 rng(15);
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  int refused = 0, edits = 0;
  for_each_schedule([&](const Schedule& s, const topo::Network& net, const topo::Faults& f) {
    for (int trial = 0; trial < 6; ++trial) {
      Schedule m = s;
      Phase& ph = m.phases[pick(m.phases.size())];
      if (ph.steps.empty()) continue;
      Step& st = ph.steps[pick(ph.steps.size())];
      if (st.transfers.empty()) continue;
      RingTransfer& t = st.transfers[pick(st.transfers.size())];
      const std::int64_t rings = net.n_chip / ph.ring_size;
      switch (pick(9)) {
      case 0:
        t.direction = -t.direction;
        break;
      case 1:
        t.origin_offset = (t.origin_offset + 1) % ph.ring_size;
        break;
      case 2: // serve one more ring, or one fewer
        if (t.rings && t.rings->size() > 1) {
          t.rings->erase(t.rings->begin() + static_cast<long>(pick(t.rings->size())));
        } else if (t.rings) {
          const std::int64_t r = static_cast<std::int64_t>(pick(static_cast<std::size_t>(rings)));
          if (r != t.rings->front())
            t.rings->insert(r < t.rings->front() ? t.rings->begin() : t.rings->end(), r);
        } else {
          std::vector<std::int64_t> all;
          for (std::int64_t r = 0; r < rings; ++r)
            if (r != 1) all.push_back(r);
          t.rings = all;
        }
        break;
      case 3: // a second copy of the transfer on the same links
        st.transfers.push_back(st.transfers.front());
        break;
      case 4:
        t.fold_at =
            t.via_dim >= 0 ? -1 : static_cast<int>(pick(static_cast<std::size_t>(ph.ring_size)));
        t.via_dim = -1;
        break;
      case 5: // all rings, whatever it served
        t.rings.reset();
        break;
      case 6: // lanes no longer ordered
        if (!st.after.empty()) st.after.erase(st.after.begin());
        break;
      case 7:
        st.lane = static_cast<int>(pick(static_cast<std::size_t>(m.lanes)));
        break;
      default:
        t.dest_offset = (t.dest_offset + ph.ring_size - 1) % ph.ring_size;
        break;
      }
      ++edits;
      const std::string fast = outcome([&] { return verify(m, net, f, ErrorKind::Input); });
      CHECK(fast == outcome([&] { return verify_all_rings(m, net, f, ErrorKind::Input); }));
      refused += fast.rfind("error", 0) == 0;
    }
  });
  CHECK(edits > 500);
  CHECK(refused > edits / 2);
}

TEST_CASE("faults a schedule was not made for: the same failed hop named", "[coll][coll-fast]") {
  // A fault-free schedule checked against faulty networks: the step proven clean must not hide
  // the failed link or chip, and the walk that finds it must name the first hop the reference
  // names.
  const topo::Network net = test::torus_of("5x4x4");
  for (const std::string alg : {"ring", "halfring"})
    for (const std::string& dims : schedulers()) {
      Request req;
      req.algorithm = alg;
      req.dim_scheduling = dims;
      req.bytes_per_node = 1 << 20;
      const Schedule s = generate(req, net, {});
      for (const std::string link : {"(1,1,1)-(1,2,1)", "(4,3,3)-(0,3,3)", "(2,0,3)-(2,0,0)"})
        same_verdict(s, net, link_faults(net, {link}));
      topo::FaultRequest chip;
      chip.chips = {"(3,2,1)"};
      same_verdict(s, net, topo::make_faults(net, chip));
      CHECK(outcome([&] {
              return verify(s, net, link_faults(net, {"0-1"}), ErrorKind::Input);
            }).find("over failed link") != std::string::npos);
    }
}

TEST_CASE("medium tori: the shortcuts at work, the same statistics", "[coll][coll-fast]") {
  // 8x8x8 with one fault: rings_to_simulate simulates a handful of rings per group and most steps
  // are proven clean; the figures must still be the reference's.
  const topo::Network net = test::torus_of("8x8x8");
  const topo::Faults f = link_faults(net, {"(1,1,1)-(1,2,1)"});
  for (const std::string alg : {"foldedring", "mate", "matee"})
    for (const std::string& dims : schedulers()) {
      INFO(alg << " + " << dims);
      Request req;
      req.algorithm = alg;
      req.dim_scheduling = dims;
      req.bytes_per_node = 64 << 20;
      const Schedule s = generate(req, net, f);
      CHECK(*s.verification == verify_all_rings(s, net, f, ErrorKind::Input));
    }
  Request req;
  req.algorithm = "halfring";
  req.dim_scheduling = "dimrotation";
  req.bytes_per_node = 64 << 20;
  const Schedule s = generate(req, net, {});
  CHECK(*s.verification == verify_all_rings(s, net, {}, ErrorKind::Input));
}

TEST_CASE("the verified digest: sealed by generate(), stable through the document",
          "[coll][coll-fast]") {
  const topo::Network plain = test::torus_of("4x4x4");
  const topo::Faults f = link_faults(plain, {"(1,1,1)-(1,2,1)"});
  topo::Network net = plain;
  net.fingerprint = topo::fingerprint(net, &f);
  Request req;
  req.algorithm = "matee";
  req.dim_scheduling = "dimrotation";
  req.bytes_per_node = 8 << 20;
  const Schedule s = generate(req, net, f);
  CHECK(s.verified_digest.size() == 16);
  CHECK(s.verified_digest == schedule_digest(s));
  CHECK(sealed(s));

  Document d;
  d.network = net;
  d.faults = f;
  d.schedule = s;
  const std::string text = dump_document(d, false);
  CHECK(json::parse(text)["schedule"]["verified_digest"] == s.verified_digest);
  const Document back = parse_document(text, "test");
  REQUIRE(back.schedule);
  CHECK(*back.schedule == s);
  CHECK(sealed(*back.schedule));

  // Older documents carry none: not sealed, so net-sim verifies them.
  Schedule old = s;
  old.verified_digest.clear();
  CHECK_FALSE(sealed(old));
  CHECK(json::parse([&] {
          Document o = d;
          o.schedule = old;
          return dump_document(o, false);
        }())["schedule"]
            .count("verified_digest") == 0);
  // A schedule at another size is another content.
  CHECK(with_bytes(s, 1 << 10).verified_digest.empty());
  // Only a verified schedule can be sealed.
  Schedule unverified = s;
  unverified.verification.reset();
  CHECK(test::kind_of([&] { seal(unverified); }) == ErrorKind::Runtime);

  // The key is strict: 16 lower-case hex digits.
  for (const std::string bad : {"0123", "0123456789ABCDEF", "0123456789abcdeg", ""}) {
    json j = json::parse(text);
    j["schedule"]["verified_digest"] = bad;
    CHECK(test::kind_of([&] { parse_document(j.dump(), "test"); }) == ErrorKind::Input);
  }
  json j = json::parse(text);
  j["schedule"]["verified_digest"] = 7;
  CHECK(test::kind_of([&] { parse_document(j.dump(), "test"); }) == ErrorKind::Input);
}

TEST_CASE("the verified digest changes with every field of the schedule", "[coll][coll-fast]") {
  const topo::Network net = test::torus_of("4x4x4");
  const topo::Faults f = link_faults(net, {"(1,1,1)-(1,2,1)"});
  Request req;
  req.algorithm = "mate";
  req.dim_scheduling = "sequential";
  req.bytes_per_node = 8 << 20;
  const Schedule s = generate(req, net, f);
  // A folded, a via and a plain transfer to edit.
  auto find = [&](const std::function<bool(const RingTransfer&)>& want) {
    for (std::size_t p = 0; p < s.phases.size(); ++p)
      for (std::size_t k = 0; k < s.phases[p].steps.size(); ++k)
        for (std::size_t t = 0; t < s.phases[p].steps[k].transfers.size(); ++t)
          if (want(s.phases[p].steps[k].transfers[t])) return std::array<std::size_t, 3>{p, k, t};
    FAIL("no such transfer");
    return std::array<std::size_t, 3>{};
  };
  const auto via = find([](const RingTransfer& t) { return t.via_dim >= 0; });
  const auto fold = find([](const RingTransfer& t) { return t.fold_at >= 0; });
  auto tr = [](Schedule& m, std::array<std::size_t, 3> at) -> RingTransfer& {
    return m.phases[at[0]].steps[at[1]].transfers[at[2]];
  };
  auto step = [](Schedule& m) -> Step& { return m.phases[1].steps[1]; };
  const std::vector<std::pair<std::string, std::function<void(Schedule&)>>> edits = {
      {"collective", [](Schedule& m) { m.collective = "all-reduce"; }},
      {"algorithm", [](Schedule& m) { m.algorithm = "matee"; }},
      {"dim_scheduling", [](Schedule& m) { m.dim_scheduling = "pipeline"; }},
      {"fault_handling", [](Schedule& m) { m.fault_handling = "none"; }},
      {"bytes_per_node", [](Schedule& m) { m.bytes_per_node += 1; }},
      {"chunks", [](Schedule& m) { m.chunks += 1; }},
      {"lanes", [](Schedule& m) { m.lanes += 1; }},
      {"phase name", [](Schedule& m) { m.phases[0].name += "x"; }},
      {"phase op", [](Schedule& m) { m.phases[0].op = PhaseOp::AllGather; }},
      {"phase chunk", [](Schedule& m) { m.phases[0].chunk = 1; }},
      {"phase dimension", [](Schedule& m) { m.phases[0].dimension = 2; }},
      {"phase ring_size", [](Schedule& m) { m.phases[0].ring_size = 5; }},
      {"phase block_bytes", [](Schedule& m) { m.phases[0].block_bytes *= 1.0000001; }},
      {"phase dropped", [](Schedule& m) { m.phases.pop_back(); }},
      {"step id", [&](Schedule& m) { step(m).id += 1; }},
      {"step after", [&](Schedule& m) { step(m).after.clear(); }},
      {"step shared_links", [&](Schedule& m) { step(m).shared_links = true; }},
      {"step lane", [&](Schedule& m) { step(m).lane = step(m).lane == 0 ? 1 : 0; }},
      {"step dropped", [](Schedule& m) { m.phases[1].steps.pop_back(); }},
      {"transfer direction", [&](Schedule& m) { tr(m, via).direction *= -1; }},
      {"transfer origin", [&](Schedule& m) { tr(m, via).origin_offset ^= 1; }},
      {"transfer dest", [&](Schedule& m) { tr(m, via).dest_offset ^= 1; }},
      {"transfer fraction", [&](Schedule& m) { tr(m, via).fraction.den += 1; }},
      {"transfer rings: all", [&](Schedule& m) { tr(m, via).rings.reset(); }},
      {"transfer rings: other",
       [&](Schedule& m) { tr(m, via).rings = {{tr(m, via).rings->front() + 1}}; }},
      {"transfer fold_at", [&](Schedule& m) { tr(m, fold).fold_at ^= 1; }},
      {"transfer via dimension", [&](Schedule& m) { tr(m, via).via_dim ^= 3; }},
      {"transfer via side", [&](Schedule& m) { tr(m, via).via_side *= -1; }},
      {"transfer part", [&](Schedule& m) { tr(m, via).part = 1; }},
      {"transfer dropped",
       [&](Schedule& m) { m.phases[via[0]].steps[via[1]].transfers.pop_back(); }},
      {"verification", [](Schedule& m) { m.verification.reset(); }},
      {"verification delivered", [](Schedule& m) { m.verification->delivered = false; }},
      {"verification method", [](Schedule& m) { m.verification->method += "."; }},
      {"verification phases", [](Schedule& m) { m.verification->phases_checked += 1; }},
      {"verification steps", [](Schedule& m) { m.verification->steps_checked += 1; }},
      {"verification rings", [](Schedule& m) { m.verification->rings_checked += 1; }},
      {"verification pieces", [](Schedule& m) { m.verification->pieces_checked += 1; }},
      {"verification hops", [](Schedule& m) { m.verification->hop_transfers_checked += 1; }},
      {"verification failed links", [](Schedule& m) { m.verification->failed_links_avoided += 1; }},
      {"network fingerprint", [](Schedule& m) { m.network_fingerprint = "0123456789abcdef"; }},
  };
  for (const auto& [name, edit] : edits) {
    INFO(name);
    Schedule m = s;
    edit(m);
    REQUIRE_FALSE(m == s);
    CHECK(schedule_digest(m) != s.verified_digest);
    CHECK_FALSE(sealed(m));
  }
  // Fields moved between neighbours (length prefixes): not the same content, not the same digest.
  Schedule a = s, b = s;
  a.collective = "ab";
  a.algorithm = "c";
  b.collective = "a";
  b.algorithm = "bc";
  CHECK(schedule_digest(a) != schedule_digest(b));
}
