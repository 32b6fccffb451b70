// lib/sim/flit: the engine against a reference written for obviousness (reference_engine.hpp),
// cycle by cycle, on small networks under random traffic: every cycle the same deliveries
// (every field of every record, in the same order) and the same counts of flits in the network
// and of packets not fully injected; at the end the same flits per channel. Meshes and tori
// (DOR, datelines), a ring, a hypercube, fat-trees and a network of dual-homed chips (chips that
// do not route), a dragonfly; adaptive and random routings; failed links and chips; random
// routers (VCs, buffers, delays, iSLIP iterations, VC release), link latencies and loads up to
// past saturation; one or several injection ports. Links are never paced (all equally fast).
#include "route/registry.hpp"
#include "sim/flit/reference_engine.hpp"
#include "support.hpp"
#include "topo/faults.hpp"

#include <algorithm>
#include <array>
#include <sstream>

using namespace icnkit;
using namespace icnkit::sim::flit;

namespace {

// The first candidate of a family that `where` matches, generated.
topo::Network family(const std::string& name, std::int64_t n_chip, const std::string& where,
                     topo::Scope scope = topo::Scope::IntraRack) {
  topo::Context ctx = test::context_for(n_chip);
  ctx.scope = scope;
  topo::Where w;
  if (!where.empty()) w = topo::parse_where(where, "t");
  auto l = topo::enumerate(ctx, {&topo::require_family(name, "t")}, 1, std::nullopt,
                           where.empty() ? nullptr : &w);
  REQUIRE(!l.items.empty());
  return topo::generate(ctx, l.items.front(), {});
}

topo::Faults faults(const topo::Network& n, const std::vector<std::int64_t>& links,
                    const std::vector<std::int64_t>& chips) {
  topo::FaultRequest fr;
  for (std::int64_t l : links) {
    std::string id = "#"; // two steps: GCC 12 warns (-Wrestrict) on "#" + string
    id += std::to_string(l);
    fr.links.push_back(id);
  }
  for (std::int64_t c : chips) fr.chips.push_back(std::to_string(c));
  return topo::make_faults(n, fr);
}

using Record = std::array<std::int64_t, 8>;

Record record(const Delivered& d) {
  return {d.tag, d.src, d.dst, d.created, d.injected, d.arrived, d.hops, d.flits};
}

std::string show(const std::vector<Record>& v) {
  std::ostringstream s;
  for (const Record& r : v) {
    s << "  tag " << r[0] << " " << r[1] << "->" << r[2] << " created " << r[3] << " injected "
      << r[4] << " arrived " << r[5] << " hops " << r[6] << " flits " << r[7] << "\n";
  }
  return s.str();
}

// The traffic and the router of one comparison.
struct Load {
  double rate = 0.3; // offered flits per chip and cycle
  int max_flits = 4; // packet sizes uniform in 1 .. max_flits
  int cycles = 1000; // cycles with traffic, then up to `drain` more without
  int drain = 800;
  bool any_port = false; // offer_routed through a random injection port (flags 0)
};

struct Outcome {
  std::int64_t delivered = 0, offered = 0, refused = 0;
};

// Runs the engine and the reference side by side and stops at the first difference.
Outcome compare(const std::string& what, const topo::Network& n, const topo::Faults& fa,
                const route::RoutingFunction& fn, const RouterParams& p,
                const std::vector<int>& lat, const Load& load, std::uint64_t seed) {
  Fabric f(n, fa, fn, p, lat);
  REQUIRE(f.max_link_period() == 1.0); // the reference does not pace links
  Engine e(f, 1, seed);
  reference::ReferenceEngine r(f, lat, seed);
  SplitMix64 rng(seed * 0x9e3779b97f4a7c15ULL + 12345);
  const std::int64_t N = n.n_chip;
  const double mean_flits = (1.0 + load.max_flits) / 2;
  Outcome out;
  std::int64_t tag = 0;
  for (int c = 0; c < load.cycles + load.drain; ++c) {
    if (c < load.cycles) {
      for (std::int64_t s = 0; s < N; ++s) {
        if (rng.uniform() >= load.rate / mean_flits) continue;
        const int flits =
            1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(load.max_flits)));
        const auto dst = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(N)));
        ++tag;
        ++out.offered;
        if (load.any_port) {
          if (!f.chip_live(s) || !f.chip_live(dst)) continue;
          const int port =
              static_cast<int>(rng.below(static_cast<std::uint64_t>(f.injection_ports(s))));
          e.offer_routed(s, dst, flits, tag, 0, port);
          r.offer_routed(s, dst, flits, tag, 0, port);
        } else {
          const bool a = e.offer(s, dst, flits, tag), b = r.offer(s, dst, flits, tag);
          if (a != b) FAIL(what << ": offer " << s << " -> " << dst << " at cycle " << c);
          out.refused += a ? 0 : 1;
        }
      }
    } else if (e.flits_in_network() == 0 && e.queued_packets() == 0 && r.flits_in_network() == 0 &&
               r.queued_packets() == 0) {
      break;
    }
    e.step();
    r.step();
    std::vector<Record> got, want;
    for (const Delivered& d : e.delivered()) got.push_back(record(d));
    for (const Delivered& d : r.delivered()) want.push_back(record(d));
    e.delivered().clear();
    r.delivered().clear();
    out.delivered += static_cast<std::int64_t>(got.size());
    if (got != want || e.flits_in_network() != r.flits_in_network() ||
        e.queued_packets() != r.queued_packets()) {
      // Tell the same deliveries in another order (reference_engine.hpp, busy_seq_) from
      // different deliveries.
      std::vector<Record> a = got, b = want;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::ostringstream m;
      m << what << ", seed " << seed << ": first difference in cycle " << c
        << (got != want && a == b ? " (the same deliveries in another order)" : "") << "\nengine:\n"
        << show(got) << "reference:\n"
        << show(want) << "in network " << e.flits_in_network() << " / " << r.flits_in_network()
        << ", queued " << e.queued_packets() << " / " << r.queued_packets();
      FAIL(m.str());
    }
  }
  INFO(what << ", seed " << seed);
  REQUIRE(e.channel_flits() == r.channel_flits());
  REQUIRE(e.now() == r.now());
  return out;
}

// A router drawn at random: 2 .. 4 VCs (at least the routing's classes), buffers of 2 .. 8
// flits, short pipelines, 1 .. 3 allocator iterations, either VC release.
RouterParams random_router(SplitMix64& rng, int classes) {
  RouterParams p = booksim_preset();
  p.vcs = std::max(classes, 2 + static_cast<int>(rng.below(3)));
  p.buffer_flits = 2 + static_cast<int>(rng.below(7));
  p.routing_delay = static_cast<int>(rng.below(2));
  p.va_delay = 1 + static_cast<int>(rng.below(2));
  p.sa_delay = 1 + static_cast<int>(rng.below(2));
  p.st_delay = static_cast<int>(rng.below(2));
  p.credit_delay = 1 + static_cast<int>(rng.below(3));
  p.alloc_iters = 1 + static_cast<int>(rng.below(3));
  p.vc_release = rng.below(2) ? VcRelease::Credit : VcRelease::Tail;
  p.injection_latency = 1 + static_cast<int>(rng.below(2));
  return p;
}

std::vector<int> random_latencies(const topo::Network& n, SplitMix64& rng, int max) {
  std::vector<int> lat(n.links.size());
  for (int& l : lat) l = 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(max)));
  return lat;
}

// One network and routing under a few loads (light, moderate, past saturation) and random
// routers and link latencies; every run must deliver something.
void sweep(const std::string& what, const topo::Network& n, const topo::Faults& fa,
           const route::RoutingFunction& fn, std::uint64_t seed, int runs = 3, int cycles = 500,
           bool any_port = false, int endpoint_ports = 1) {
  SplitMix64 rng(seed);
  const double rates[] = {0.1, 0.35, 0.8};
  for (int k = 0; k < runs; ++k) {
    RouterParams p = random_router(rng, fn.vc_count());
    p.endpoint_ports = endpoint_ports;
    const std::vector<int> lat = random_latencies(n, rng, k == 0 ? 1 : 3);
    Load load;
    load.rate = rates[k % 3];
    load.max_flits = k == 0 ? 1 : 8;
    load.cycles = cycles;
    load.any_port = any_port;
    const std::uint64_t s = rng.next();
    std::ostringstream name;
    name << what << " (run " << k << ": " << describe(p) << ", rate " << load.rate << ")";
    const Outcome o = compare(name.str(), n, fa, fn, p, lat, load, s);
    INFO(name.str() << ": " << o.delivered << " delivered of " << o.offered);
    CHECK(o.delivered > 0);
  }
}

// Eight chips that do not route, each on two switches: chips 0-3 on switch 8 and 4-7 on switch
// 9 (joined by two parallel links), and all on switch 10. A packet between chips of one leaf
// has two minimal ways (its source picks one by credits), between leaves one.
topo::Network dual_homed() {
  topo::Network n;
  n.family = "custom";
  n.n_chip = 8;
  n.chip_radix = 2;
  for (std::int64_t v = 0; v < 11; ++v) {
    topo::Node x;
    x.id = v;
    if (v < 8) {
      x.board = v;
    } else {
      x.kind = topo::NodeKind::Switch;
      x.tier = 7;
      x.role = "switch";
      x.ports = 16;
    }
    n.nodes.push_back(x);
  }
  auto link = [&](std::int64_t a, std::int64_t b) {
    topo::Link l;
    l.id = static_cast<std::int64_t>(n.links.size());
    l.a = a;
    l.b = b;
    l.bandwidth_bytes_per_s = 50e9;
    l.latency_s = 1e-8;
    n.links.push_back(l);
  };
  for (std::int64_t c = 0; c < 8; ++c) {
    link(c, 8 + c / 4);
    link(c, 10);
  }
  link(8, 9);
  link(8, 9);
  return n;
}

} // namespace

TEST_CASE("flit reference: iSLIP as written in the test", "[flit]") {
  // Three inputs all asking for outputs 0 and 1; pointers at 0: output 0 and 1 both grant
  // input 0, which accepts output 0; in the second round output 1 grants input 1.
  std::vector<std::uint32_t> g(2, 0), a(3, 0);
  std::vector<reference::IslipRequest> reqs = {{0, 0, 10}, {0, 1, 11}, {1, 0, 12},
                                               {1, 1, 13}, {2, 0, 14}, {2, 1, 15}};
  auto m = reference::plain_islip(reqs, 3, 2, g, a, 2);
  REQUIRE(m.size() == 2);
  CHECK((m[0].in == 0 && m[0].out == 0 && m[0].label == 10));
  CHECK((m[1].in == 1 && m[1].out == 1 && m[1].label == 13));
  CHECK(g == std::vector<std::uint32_t>{1, 0}); // only the first round's match moved them
  CHECK(a == std::vector<std::uint32_t>{1, 0, 0});
  // One iteration: the second match is not made.
  g.assign(2, 0);
  a.assign(3, 0);
  CHECK(reference::plain_islip(reqs, 3, 2, g, a, 1).size() == 1);
}

TEST_CASE("flit reference: meshes and tori with DOR", "[flit]") {
  auto mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  sweep("4x4 mesh dor", mesh, {}, *test::routing::build("dor", mesh), 11);
  auto torus = test::grid_network("torus", {4, 4}, {1, 1});
  sweep("4x4 torus dor (dateline VCs)", torus, {}, *test::routing::build("dor", torus), 12);
  auto t5 = test::grid_network("torus", {5, 3}, {1, 1});
  sweep("5x3 torus dor, whole-dimension datelines", t5, {},
        *test::routing::build("dor", t5, {}, {{"dateline_vc", "whole-dimension"}}), 13);
  auto ring = family("ring", 8, "");
  sweep("8-ring minimal", ring, {}, *test::routing::build("minimal", ring), 14);
  // One injection and ejection port per link: packets offered through any port.
  sweep("4x4 torus dor, a port per link", torus, {}, *test::routing::build("dor", torus), 15, 3,
        500, true, 0);
  // Without datelines and with one VC the torus deadlocks at this load: both stop alike.
  auto fn = test::routing::build("dor", torus, {}, {{"dateline", false}, {"tie", "plus"}});
  RouterParams one = booksim_preset();
  one.vcs = 1;
  one.buffer_flits = 2;
  Load heavy;
  heavy.rate = 0.9;
  heavy.max_flits = 8;
  heavy.cycles = 600;
  heavy.drain = 300;
  const Outcome o = compare("4x4 torus dor, no dateline, 1 VC", torus, {}, *fn, one,
                            std::vector<int>(torus.links.size(), 2), heavy, 17);
  CHECK(o.delivered < o.offered);
  auto t3 = test::grid_network("torus", {3, 3, 3}, {1, 1, 1});
  sweep("3x3x3 torus dor, 2 endpoint ports", t3, {}, *test::routing::build("dor", t3), 16, 2, 500,
        true, 2);
}

TEST_CASE("flit reference: adaptive routings and faults", "[flit]") {
  auto mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  sweep("4x4 mesh odd-even", mesh, {}, *test::routing::build("odd-even", mesh), 21);
  sweep("4x4 mesh minimal (adaptive, hop VCs)", mesh, {}, *test::routing::build("minimal", mesh),
        22);
  const topo::Faults mf = faults(mesh, {}, {5});
  sweep("4x4 mesh fthoe, chip 5 down", mesh, mf, *test::routing::build("fthoe", mesh, mf), 23);
  auto t3 = test::grid_network("torus", {3, 3, 3}, {1, 1, 1});
  const topo::Faults tf = faults(t3, {5}, {});
  sweep("3x3x3 torus wfr, link 5 down", t3, tf, *test::routing::build("wfr", t3, tf), 24);
  auto hc = family("hypercube", 16, "");
  sweep("hypercube 16 minimal", hc, {}, *test::routing::build("minimal", hc), 25);
  const topo::Faults hf = faults(hc, {3, 10}, {});
  sweep("hypercube 16 minimal, links 3 and 10 down", hc, hf,
        *test::routing::build("minimal", hc, hf), 26, 2);
}

TEST_CASE("flit reference: switched networks (chips do not route)", "[flit]") {
  auto ft = family("fat-tree", 32, "k=8,layers=2,chips_per_board=1");
  REQUIRE_FALSE(Fabric(ft, {}, *test::routing::build("dmodk", ft), booksim_preset(),
                       std::vector<int>(ft.links.size(), 1))
                    .chips_route());
  sweep("fat-tree 32 dmodk", ft, {}, *test::routing::build("dmodk", ft), 31);
  sweep("fat-tree 32 minimal, random paths (random choices)", ft, {},
        *test::routing::build("minimal", ft, {}, {{"paths", "random"}, {"vc_scheme", "none"}}), 32);
  sweep("fat-tree 32 minimal ecmp (adaptive)", ft, {},
        *test::routing::build("minimal", ft, {}, {{"vc_scheme", "none"}}), 33, 2);
  const topo::Faults ff = faults(ft, {40}, {});
  sweep("fat-tree 32 minimal ecmp, link 40 down", ft, ff,
        *test::routing::build("minimal", ft, ff, {{"vc_scheme", "none"}}), 34, 2);
  auto dh = dual_homed();
  sweep("dual-homed chips, minimal ecmp (the source picks its link)", dh, {},
        *test::routing::build("minimal", dh, {}, {{"vc_scheme", "none"}}), 36);
  sweep("dual-homed chips, minimal random paths", dh, {},
        *test::routing::build("minimal", dh, {}, {{"paths", "random"}, {"vc_scheme", "none"}}), 37,
        2);
  auto df = family("dragonfly", 72, "p=2,a=4,h=2,g=9,chips_per_board=1", topo::Scope::InterRack);
  sweep("dragonfly 72 dragonfly-min", df, {}, *test::routing::build("dragonfly-min", df), 35, 2);
}

TEST_CASE("flit reference: longer runs, more seeds", "[flit][slow]") {
  // Each of 28 seeds draws a network of the list, a router, link latencies and a load, and runs
  // 2,000 cycles of traffic.
  auto mesh = test::grid_network("mesh", {4, 4}, {1, 1});
  auto torus = test::grid_network("torus", {4, 4}, {1, 1});
  auto t3 = test::grid_network("torus", {3, 3, 3}, {1, 1, 1});
  auto ft = family("fat-tree", 32, "k=8,layers=2,chips_per_board=1");
  auto dh = dual_homed();
  const topo::Faults tf = faults(t3, {5, 20}, {});
  struct Net {
    const char* name;
    const topo::Network* n;
    const topo::Faults* faults;
    std::unique_ptr<route::RoutingFunction> fn;
  };
  const topo::Faults none;
  std::vector<Net> nets;
  nets.push_back({"4x4 mesh dor", &mesh, &none, test::routing::build("dor", mesh)});
  nets.push_back({"4x4 mesh odd-even", &mesh, &none, test::routing::build("odd-even", mesh)});
  nets.push_back({"4x4 torus dor", &torus, &none, test::routing::build("dor", torus)});
  nets.push_back(
      {"3x3x3 torus wfr, links 5 and 20 down", &t3, &tf, test::routing::build("wfr", t3, tf)});
  nets.push_back({"3x3x3 torus minimal", &t3, &none, test::routing::build("minimal", t3)});
  nets.push_back(
      {"fat-tree 32 minimal random", &ft, &none,
       test::routing::build("minimal", ft, {}, {{"paths", "random"}, {"vc_scheme", "none"}})});
  nets.push_back({"dual-homed minimal", &dh, &none,
                  test::routing::build("minimal", dh, {}, {{"vc_scheme", "none"}})});
  SplitMix64 rng(2026);
  std::int64_t delivered = 0;
  for (int k = 0; k < 28; ++k) {
    const Net& net = nets[static_cast<std::size_t>(k) % nets.size()];
    RouterParams p = random_router(rng, net.fn->vc_count());
    const std::vector<int> lat = random_latencies(*net.n, rng, 1 + static_cast<int>(rng.below(4)));
    Load load;
    load.rate = 0.05 + 0.85 * rng.uniform();
    load.max_flits = 1 + static_cast<int>(rng.below(8));
    load.cycles = 2000;
    load.drain = 1500;
    std::ostringstream name;
    name << net.name << " (seed " << k << ": " << describe(p) << ", rate " << load.rate
         << ", up to " << load.max_flits << " flits)";
    delivered +=
        compare(name.str(), *net.n, *net.faults, *net.fn, p, lat, load, rng.next()).delivered;
  }
  CHECK(delivered > 40000);
}
