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
        const bool ring = s.p.scale_up == "ring";
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
                           {ErrorKind::Usage, [](const route::ParamSpec& p) { return p.option; }});
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

TEST_CASE("rail routing: pxn moves its relay when the chip at the destination's position has lost "
          "its NIC") {
  // 4 domains of 4 chips on 2 switch chips; links 0-31 are the scale-up links, 32 + c chip c's
  // NIC. Chip 1's NIC fails: it can only be reached inside its domain.
  const Network n = composed("switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8");
  REQUIRE(n.links[33].a == 1);
  REQUIRE(n.links[33].kind == LinkKind::B2B);
  FaultRequest req;
  req.nics.push_back("1");
  const Faults f = make_faults(n, req);
  REQUIRE(f.links.size() == 1);
  CHECK(f.links[0].link == 33);
  CHECK(f.links[0].cause == "nic");
  const RailRouting pxn(n, f, RailPath::Pxn);
  const auto v = route::verify_routing(pxn, n, f);
  CHECK(v.deadlock_free);
  CHECK(v.unreachable_pairs == 12); // the 12 chips of other domains to chip 1
  for (const auto& u : v.unreachable) CHECK(u.dst == 1);
  // Chip 0 to chip 5 (position 1 of domain 1) relays through chip 2 now, not chip 1.
  route::PacketState p;
  p.node = p.src = 0;
  p.dst = 5;
  const auto first = pxn.route(p);
  REQUIRE(!first.empty());
  for (const route::Choice& c : first) {
    route::PacketState q = p;
    q.node = n.channel_dst(c.channel);
    q.in_channel = c.channel;
    for (const route::Choice& d : pxn.route(q)) CHECK(n.channel_dst(d.channel) == 2);
  }
  // rail-aligned needs the source's own NIC and, in the destination's domain, the chip on the
  // source's rail: chip 1 reaches no other domain (12 pairs), and the position-1 chips of the
  // other domains reach none of domain 0 (3 x 4 pairs: their rail ends at chip 1).
  const RailRouting aligned(n, f, RailPath::RailAligned);
  CHECK(route::verify_routing(aligned, n, f).unreachable_pairs == 12 + 3 * 4);
}
