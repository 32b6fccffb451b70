// lib/route/rail: routing on composed networks. Every pair's paths (every ECMP alternative,
// walked exhaustively) are checked against the definition written independently here from the
// chip and switch ids: a chip is transit at most once, only as the relay the mode names (pxn:
// the source domain's chip at the destination's position; rail-aligned: the destination
// domain's chip on the source's rail), scale-out paths are shortest over the switches; plus
// the checker's verdict (deadlock-free, every pair delivered), with and without a failed plane.
#include "route/rail.hpp"
#include "route/verify.hpp"
#include "topo/composed.hpp"
#include "topo/enumerate.hpp"
#include "topo/faults.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <functional>

using namespace icnkit;
using namespace icnkit::topo;
using route::RailPath;
using route::RailRouting;

namespace {

Network composed(const std::string& up, const std::string& out) {
  auto cc = composed_candidate(parse_composition(up, out), "test");
  return generate(cc.first, cc.second, {});
}

// Walks every path the routing permits from src to dst (depth first over all choices) and calls
// check(path of nodes) on each delivered one; fails on a dead end or a walk over 32 hops.
void walk_all(const route::RoutingFunction& fn, const Network& n, std::int64_t src,
              std::int64_t dst,
              const std::function<void(const std::vector<std::int64_t>&)>& check) {
  std::vector<std::int64_t> nodes{src};
  std::function<void(route::PacketState)> go = [&](route::PacketState p) {
    if (p.node == dst) return check(nodes);
    REQUIRE(nodes.size() < 32);
    auto choices = fn.route(p);
    INFO("from " << src << " to " << dst << " at " << p.node);
    REQUIRE(!choices.empty());
    for (const route::Choice& c : choices) {
      REQUIRE(n.channel_src(c.channel) == p.node);
      route::PacketState q = p;
      q.node = n.channel_dst(c.channel);
      q.in_channel = c.channel;
      q.vc = c.vc;
      q.flags = c.flags;
      nodes.push_back(q.node);
      go(q);
      nodes.pop_back();
    }
  };
  route::PacketState p;
  p.node = src;
  p.src = src;
  p.dst = dst;
  go(p);
}

void check_paths(const Network& n, RailPath mode) {
  const ComposedShape s = composed_shape_of(n, "test");
  const std::int64_t D = s.p.domain_chips;
  const bool up = s.p.scale_up != "none" && D > 1;
  const std::int64_t per_rail = D * s.p.nics / s.p.rails;
  const std::int64_t first_out = n.n_chip + s.up_switch_count;
  auto rails = [&](std::int64_t chip) {
    const std::int64_t j = (chip % D) * s.p.nics;
    return std::pair{j / per_rail, (j + s.p.nics - 1) / per_rail};
  };
  RailRouting fn(n, Faults{}, mode);
  for (std::int64_t a = 0; a < n.n_chip; ++a)
    for (std::int64_t b = 0; b < n.n_chip; ++b) {
      if (a == b) continue;
      walk_all(fn, n, a, b, [&](const std::vector<std::int64_t>& path) {
        INFO("path " << a << " -> " << b);
        std::vector<std::int64_t> transit_chips;
        std::int64_t out_hops = 0;
        for (std::size_t i = 1; i + 1 < path.size(); ++i)
          if (path[i] < n.n_chip) transit_chips.push_back(path[i]);
        for (std::size_t i = 0; i + 1 < path.size(); ++i)
          out_hops += path[i] >= first_out || path[i + 1] >= first_out;
        if (a / D == b / D && up) {
          CHECK(out_hops == 0); // inside the domain only
          return;
        }
        if (!up) {
          CHECK(transit_chips.empty());
          return;
        }
        // Between domains: at most one relay chip, the one the mode names.
        std::int64_t relay = -1;
        if (mode == RailPath::Pxn) {
          relay = (a / D) * D + b % D;
        } else {
          const std::int64_t r = rails(a).first;
          const auto [lo, hi] = rails(b);
          relay = lo <= r && r <= hi ? b : (b / D) * D + r * per_rail / s.p.nics;
        }
        const bool ring = s.p.scale_up == "ring" || s.p.scale_up == "torus"; // chips as transit
        for (std::int64_t c : transit_chips)
          if (!(ring && c / D == (mode == RailPath::Pxn ? a / D : b / D))) CHECK(c == relay);
        CHECK(std::count(path.begin(), path.end(), relay) == 1);
        // The scale-out part: chip, leaf, ..., leaf, chip: 2 hops within a leaf, 4 through a
        // spine, 6 through a core, never more than the tiers allow.
        CHECK(out_hops % 2 == 0);
        CHECK(out_hops <= 2 * s.p.tiers);
      });
    }
  const auto v = route::verify_routing(fn, n, Faults{});
  CHECK(v.deadlock_free);
  CHECK(v.unreachable_pairs == 0);
}

} // namespace

TEST_CASE("rail routing: every path of pxn and rail-aligned is the one the definition names") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8"},
      {"switch:4,switches=2", "rail-only:domains=4,radix=8"},
      {"full-mesh:4", "rail-only:domains=4,unit=1,radix=8,tiers=2"},
      {"ring:4", "rail-only:domains=4,unit=2,radix=8,tiers=2"},
      {"ring:6,board=2,rack=2", "rail-optimized:domains=4,unit=2,radix=8,up=2,tiers=3,rails=3"},
      {"switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8,nics=2,rails=4,planes=2"},
      {"none:2", "rail-optimized:domains=4,unit=2,radix=8,nics=2,rails=2"},
      {"switch:2", "rail-optimized:domains=8,unit=2,radix=4,tiers=3"},
      {"torus:2x3", "rail-optimized:domains=4,unit=2,radix=8,rails=3"},
      {"torus:3x3", "rail-only:domains=2,radix=16,tiers=2,unit=1"},
      {"torus:2x2x2", "rail-optimized:domains=2,radix=16"},
  };
  for (const auto& [up, out] : cases)
    for (RailPath mode : {RailPath::Pxn, RailPath::RailAligned}) {
      INFO(up << " " << out << (mode == RailPath::Pxn ? " pxn" : " rail-aligned"));
      check_paths(composed(up, out), mode);
    }
}

TEST_CASE("rail routing: a rail-only network is connected only through the scale-up domain") {
  const Network n = composed("switch:4,switches=2", "rail-only:domains=4,radix=8");
  // Minimal routing does not forward through chips: the rails never meet.
  auto minimal =
      route::build_routing(*route::find_algorithm("minimal"), json::object(), n, {},
                           {ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }});
  CHECK(route::verify_routing(*minimal.fn, n, {}).unreachable_pairs == 144);
  const RailRouting pxn(n, {}, RailPath::Pxn);
  CHECK(route::verify_routing(pxn, n, {}).unreachable_pairs == 0);
}

TEST_CASE("rail routing: around a failed plane, and refusing networks that are not composed") {
  const Network n = composed("switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8,"
                                                    "planes=2");
  FaultRequest req;
  for (std::int64_t v : plane_switches(n, 0, "test")) req.switches.push_back(std::to_string(v));
  const Faults f = make_faults(n, req);
  for (RailPath mode : {RailPath::Pxn, RailPath::RailAligned}) {
    const RailRouting fn(n, f, mode);
    const auto v = route::verify_routing(fn, n, f);
    CHECK(v.deadlock_free);
    CHECK(v.unreachable_pairs == 0);
    // Every chip leaves the domain on its plane-1 NIC only.
    const auto down = f.down_links(n);
    for (std::int64_t c = 0; c < n.n_chip; ++c) {
      route::PacketState p;
      p.node = p.src = c;
      p.dst = (c + 4) % n.n_chip; // the next domain, same position
      for (const route::Choice& ch : fn.route(p))
        CHECK(!down[static_cast<std::size_t>(link_of_channel(ch.channel))]);
    }
  }
  CHECK(test::kind_of([] { RailRouting(test::torus_of("4x4"), {}, RailPath::Pxn); }) ==
        ErrorKind::Infeasible);
}

TEST_CASE("rail routing: a chip whose NIC or rail failed still sends and receives through its "
          "domain") {
  // 4 domains of 4 chips on 2 switch chips, one NIC per chip, 4 rails: chip c's NIC is on rail
  // c % 4; links 0-31 are the scale-up links, 32 + c chip c's NIC.
  const Network n = composed("switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8");
  REQUIRE(n.links[33].a == 1);
  REQUIRE(n.links[33].kind == LinkKind::B2B);
  struct Case {
    std::vector<std::string> nics;
    std::vector<std::int64_t> rails;
  };
  const std::vector<Case> cases = {{{"1"}, {}}, {{}, {1}}, {{"6"}, {0}}, {{"1", "2", "7"}, {}}};
  for (const Case& k : cases) {
    FaultRequest req;
    req.nics = k.nics;
    for (std::int64_t r : k.rails)
      for (std::int64_t v : rail_switches(n, r, "t")) req.switches.push_back(std::to_string(v));
    const Faults f = make_faults(n, req);
    const auto down = f.down_links(n);
    // The independent definition: chip c has a live NIC iff its NIC link is up.
    auto nic = [&](std::int64_t c) { return !down[static_cast<std::size_t>(32 + c)]; };
    auto first_from = [&](std::int64_t domain, std::int64_t pos,
                          const std::function<bool(std::int64_t)>& ok) {
      for (std::int64_t q = 0; q < 4; ++q)
        if (ok(domain * 4 + (pos + q) % 4)) return domain * 4 + (pos + q) % 4;
      return std::int64_t{-1};
    };
    for (RailPath mode : {RailPath::Pxn, RailPath::RailAligned}) {
      INFO("case " << (&k - cases.data()) << (mode == RailPath::Pxn ? " pxn" : " rail-aligned"));
      const RailRouting fn(n, f, mode);
      CHECK(fn.vc_count() == 2);
      const auto v = route::verify_routing(fn, n, f);
      CHECK(v.deadlock_free);
      CHECK(v.unreachable_pairs == 0);
      for (std::int64_t s = 0; s < 16; ++s)
        for (std::int64_t t = 0; t < 16; ++t) {
          if (s / 4 == t / 4) continue;
          // pxn: entry E = the first chip from t's position in t's domain with a live NIC,
          // relay R = the first from E's position in s's domain with one. rail-aligned: a chip
          // leaves when its NIC and its rail's chip in t's domain are live; the exit X = s if it
          // can, else the first from t's position that can; it lands on its rail's chip.
          std::int64_t out_chip, in_chip;
          if (mode == RailPath::Pxn) {
            in_chip = first_from(t / 4, t % 4, nic);
            out_chip = first_from(s / 4, in_chip % 4, nic);
          } else {
            auto leaves = [&](std::int64_t c) { return nic(c) && nic(t / 4 * 4 + c % 4); };
            out_chip = leaves(s) ? s : first_from(s / 4, t % 4, leaves);
            in_chip = t / 4 * 4 + out_chip % 4;
          }
          std::vector<std::int64_t> want;
          if (out_chip != s) want.push_back(out_chip);
          if (in_chip != t) want.push_back(in_chip);
          walk_all(fn, n, s, t, [&](const std::vector<std::int64_t>& path) {
            std::vector<std::int64_t> transit;
            for (std::size_t h = 1; h + 1 < path.size(); ++h)
              if (path[h] < n.n_chip) transit.push_back(path[h]);
            INFO(s << " -> " << t);
            CHECK(transit == want);
          });
        }
    }
  }
  // Without faults one VC class does.
  CHECK(RailRouting(n, {}, RailPath::Pxn).vc_count() == 1);
}
