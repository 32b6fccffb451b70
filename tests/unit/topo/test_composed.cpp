// lib/topo/composed + presets: composed networks (a scale-up domain inside a rail-optimized or
// rail-only Clos) and the published systems built from them. The counts are checked on the
// built network (switches by role, links by kind) against the vendors' published tables, the
// metrics against brute force, the document round trip against edits.
#include "doc/document.hpp"
#include "topo/composed.hpp"
#include "topo/enumerate.hpp"
#include "topo/metrics.hpp"
#include "topo/presets.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace icnkit;
using namespace icnkit::topo;

namespace {

Network built(const std::pair<Context, Candidate>& cc) {
  Network n = generate(cc.first, cc.second, {});
  n.fingerprint = fingerprint(n, nullptr);
  return n;
}

Network preset_network(const std::string& name, const std::vector<std::string>& settings) {
  bool twist = false;
  auto cc = preset_candidate(name, settings, twist);
  GenerateOptions o;
  o.twist = twist;
  Network n = generate(cc.first, cc.second, o);
  n.fingerprint = fingerprint(n, nullptr);
  return n;
}

Network composed(const std::string& up, const std::string& out) {
  return built(composed_candidate(parse_composition(up, out), "test"));
}

// What a compute-fabric table lists: GPUs, switches by role, cables by the tiers they join.
struct Table {
  std::int64_t gpus = 0, leaf = 0, spine = 0, core = 0, node_leaf = 0, leaf_spine = 0,
               spine_core = 0;
  bool operator==(const Table& o) const {
    return gpus == o.gpus && leaf == o.leaf && spine == o.spine && core == o.core &&
           node_leaf == o.node_leaf && leaf_spine == o.leaf_spine && spine_core == o.spine_core;
  }
};
std::ostream& operator<<(std::ostream& os, const Table& t) {
  return os << "{gpus " << t.gpus << ", leaf " << t.leaf << ", spine " << t.spine << ", core "
            << t.core << ", node-leaf " << t.node_leaf << ", leaf-spine " << t.leaf_spine
            << ", spine-core " << t.spine_core << "}";
}

// Counted on the network by the nodes' roles and the links' ends (not by the kinds the builder
// assigns, which the last check compares with the ends).
Table counted(const Network& n) {
  Table t;
  t.gpus = n.n_chip;
  std::map<std::string, std::int64_t> roles;
  for (const Node& v : n.nodes)
    if (v.kind == NodeKind::Switch) roles[v.role]++;
  t.leaf = roles["leaf"];
  t.spine = roles["spine"];
  t.core = roles["core"];
  auto role = [&](std::int64_t v) {
    const Node& x = n.nodes[static_cast<std::size_t>(v)];
    return x.kind == NodeKind::Chip ? std::string("chip") : x.role;
  };
  for (const Link& l : n.links) {
    std::string a = role(l.a), b = role(l.b);
    if (a > b) std::swap(a, b);
    LinkKind want = LinkKind::C2C;
    if (a == "chip" && b == "leaf") ++t.node_leaf, want = LinkKind::B2B;
    if (a == "leaf" && b == "spine") ++t.leaf_spine, want = LinkKind::R2R;
    if (a == "core" && b == "spine") ++t.spine_core, want = LinkKind::P2P;
    CHECK(l.kind == want);
  }
  return t;
}

} // namespace

namespace {

// NVIDIA DGX SuperPOD reference architecture (DGX B200), compute fabric: SU count -> GPUs,
// leaf / spine / core switches, node-leaf / leaf-spine / spine-core cables.
const std::vector<std::pair<int, Table>> kB200 = {
    {2, {512, 16, 8, 0, 512, 512, 0}},
    {4, {1024, 32, 16, 0, 1024, 1024, 0}},
    {8, {2048, 64, 32, 0, 2048, 2048, 0}},
    {16, {4096, 128, 128, 64, 4096, 4096, 4096}},
    {32, {8192, 256, 256, 128, 8192, 8192, 8192}},
    {64, {16384, 512, 512, 256, 16384, 16384, 16384}},
};
// NVIDIA DGX SuperPOD RA (DGX B300, XDR): SU of 72 nodes; spines 4, 8, 18, 36, 72. The
// published 18-SU GPU count, 9,216, disagrees with its own 1,296 nodes and 10,368 node-leaf
// cables: the table below has nodes x 8.
const std::vector<std::pair<int, Table>> kB300 = {
    {1, {576, 8, 4, 0, 576, 576, 0}},           {2, {1152, 16, 8, 0, 1152, 1152, 0}},
    {4, {2304, 32, 18, 0, 2304, 2304, 0}},      {8, {4608, 64, 36, 0, 4608, 4608, 0}},
    {18, {10368, 144, 72, 0, 10368, 10368, 0}},
};

// The sizes of `table` from `from` up to `to` SU, counted on the built network.
void check_built(const char* preset, const std::vector<std::pair<int, Table>>& table,
                 std::int64_t nodes_per_su, int from, int to) {
  for (const auto& [su, want] : table) {
    if (su < from || su > to) continue;
    INFO(preset << " SU " << su);
    const Network n = preset_network(preset, {"su=" + std::to_string(su)});
    CHECK(static_cast<std::int64_t>(n.boards.size()) == nodes_per_su * su); // nodes
    CHECK(counted(n) == want);
  }
}

} // namespace

TEST_CASE("DGX SuperPOD (B200 and B300 XDR): the published tables, smallest sizes") {
  check_built("dgx-superpod", kB200, 32, 2, 4);
  check_built("dgx-b300-xdr", kB300, 72, 1, 2);
  // 19 B300 SU do not fit two tiers of 144-port switches.
  CHECK(test::kind_of([] { preset_network("dgx-b300-xdr", {"su=19"}); }) == ErrorKind::Usage);
}

TEST_CASE("DGX SuperPOD (B200 and B300 XDR): the published tables, every size", "[slow]") {
  check_built("dgx-superpod", kB200, 32, 8, 64);
  check_built("dgx-b300-xdr", kB300, 72, 4, 18);
}

TEST_CASE("Alibaba HPN: a dual-plane pod of 15 segments of 1,024 GPUs, as published") {
  const Network n = preset_network("alibaba-hpn", {});
  // Per plane: a ToR per rail and segment (8 x 15 = 120), 60 aggregation switches; every host
  // NIC has one 200 Gb/s port on each plane; every ToR has 60 uplinks, one to each aggregation
  // switch of its plane.
  CHECK(counted(n) == Table{15360, 240, 120, 0, 30720, 14400, 0});
  CHECK(n.boards.size() == 1920); // hosts
  std::map<std::int64_t, std::int64_t> down, up;
  std::map<std::int64_t, std::set<std::int64_t>> spine_peers;
  for (const Link& l : n.links) {
    const Node& a = n.nodes[static_cast<std::size_t>(l.a)];
    const Node& b = n.nodes[static_cast<std::size_t>(l.b)];
    if (a.kind == NodeKind::Chip && b.role == "leaf") ++down[l.b];
    if (b.kind == NodeKind::Chip && a.role == "leaf") ++down[l.a];
    if (a.role == "leaf" && b.role == "spine") ++up[l.a], spine_peers[l.b].insert(l.a);
    if (b.role == "leaf" && a.role == "spine") ++up[l.b], spine_peers[l.a].insert(l.b);
    if (l.kind == LinkKind::B2B) CHECK(l.bandwidth_bytes_per_s == 25e9);
    if (l.kind == LinkKind::R2R) CHECK(l.bandwidth_bytes_per_s == 50e9);
  }
  CHECK(down.size() == 240);
  for (const auto& [leaf, d] : down) CHECK((d == 128 && up[leaf] == 60));
  CHECK(spine_peers.size() == 120);
  for (const auto& [spine, peers] : spine_peers) CHECK(peers.size() == 120);
  CHECK(test::kind_of([] { preset_network("alibaba-hpn", {"segments=16"}); }) == ErrorKind::Usage);
  CHECK(test::kind_of([] { preset_network("alibaba-hpn", {"rack=3"}); }) == ErrorKind::Usage);
}

TEST_CASE("GB200 NVL72: 72 GPUs on 18 NVSwitch chips, one link from every GPU to each") {
  const Network n = preset_network("gb200-nvl72", {"racks=2"});
  CHECK(n.n_chip == 144);
  CHECK(n.racks.size() == 2);
  CHECK(n.boards.size() == 36); // compute trays of 4 GPUs
  std::int64_t nvswitch = 0;
  for (const Node& v : n.nodes) nvswitch += v.role == "scale-up";
  CHECK(nvswitch == 36);
  std::vector<std::int64_t> nvlinks(static_cast<std::size_t>(n.n_chip), 0);
  std::vector<std::int64_t> nics(static_cast<std::size_t>(n.n_chip), 0);
  for (const Link& l : n.links) {
    if (l.kind == LinkKind::C2C) {
      nvlinks[static_cast<std::size_t>(l.a)]++;
      const Node& sw = n.nodes[static_cast<std::size_t>(l.b)];
      CHECK(sw.rack == n.nodes[static_cast<std::size_t>(l.a)].rack); // in the GPU's own rack
      CHECK(l.bandwidth_bytes_per_s == 50e9);
    }
    if (l.kind == LinkKind::B2B) nics[static_cast<std::size_t>(l.a)]++;
  }
  for (std::int64_t c = 0; c < n.n_chip; ++c) {
    CHECK(nvlinks[static_cast<std::size_t>(c)] == 18);
    CHECK(nics[static_cast<std::size_t>(c)] == 1);
  }
  CHECK(n.metrics.diameter == 4);
  // Two racks' GPUs of one compute tray position share a leaf: 18 leaves of 8 GPUs.
  CHECK(counted(n).leaf == 18);
}

TEST_CASE("TPU and Trn2 presets: the published torus shapes") {
  const Network v4 = preset_network("tpu-v4", {});
  CHECK(v4.n_chip == 4096); // 64 cubes of 4x4x4
  CHECK(v4.links.size() == 3 * 4096);
  CHECK(v4.metrics.diameter == 24);
  for (const char* shape : {"4x4x8", "4x8x8", "8x8x16", "8x16x16"}) {
    INFO(shape);
    const Network t = preset_network("tpu-v5p", {std::string("shape=") + shape, "twist=1"});
    CHECK(t.metrics.family_attrs["twisted"] == true);
  }
  CHECK(preset_network("tpu-v5p", {}).n_chip == 16 * 16 * 24);
  CHECK(test::kind_of([] { preset_network("tpu-v5p", {"twist=1"}); }) == ErrorKind::Usage);
  CHECK(test::kind_of([] { preset_network("tpu-v4", {"shape=4x4x6"}); }) == ErrorKind::Usage);
  const Network trn2 = preset_network("trn2-ultraserver", {});
  CHECK(trn2.n_chip == 64);
  CHECK(trn2.links.size() == 3 * 64); // 4x4 tori joined in rings of 4: a 4x4x4 torus
}

TEST_CASE("composed networks: diameter and path diversity equal brute force") {
  struct Case {
    const char *up, *out;
  };
  const std::vector<Case> cases = {
      {"switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8"},
      {"switch:4,switches=2,links=2", "rail-optimized:domains=4,unit=2,radix=8,up=1"},
      {"full-mesh:4", "rail-only:domains=4,radix=8"},
      {"ring:4", "rail-only:domains=4,unit=1,radix=8,tiers=2"},
      {"ring:6,board=2,rack=2", "rail-optimized:domains=4,unit=2,radix=8,up=2,tiers=3,rails=3"},
      {"none:2", "rail-optimized:domains=4,unit=2,radix=8,nics=2,rails=2,planes=2"},
      {"switch:2", "rail-optimized:domains=8,unit=2,radix=4,tiers=3"},
      {"torus:2x3", "rail-optimized:domains=4,unit=2,radix=8,rails=3"},
      {"torus:3x3", "rail-only:domains=2,radix=16"},
      {"torus:4x4", "none:domains=1"},
  };
  for (const Case& c : cases) {
    INFO(c.up << " " << c.out);
    const Network n = composed(c.up, c.out);
    CHECK(n.metrics.diameter == exact_chip_diameter(n));
    CHECK(n.metrics.path_diversity == exact_path_diversity(n));
    CHECK(n.metrics.link_count == static_cast<std::int64_t>(n.links.size()));
  }
  // The 3-tier case splits each rail's units into blocks when the spines run out of ports.
  const ComposedShape s = composed_shape(
      parse_composition("switch:2", "rail-optimized:domains=8,unit=2,radix=4,tiers=3"),
      ErrorKind::Usage, "test");
  CHECK(s.block_units * 2 <= s.units);
}

TEST_CASE("a torus scale-up: every chip joined to its +-1 neighbours in each dimension") {
  // Coordinates with the first dimension fastest; a dimension of 2 has one link per pair,
  // of 1 none; L parallel links each.
  struct Case {
    std::vector<std::int64_t> shape;
    std::int64_t links;
  };
  for (const Case& c : std::vector<Case>{{{4, 4, 4}, 1}, {{2, 3}, 2}, {{3, 1, 2}, 1}, {{5}, 1}}) {
    std::string text;
    std::int64_t D = 1;
    for (std::int64_t k : c.shape) {
      if (!text.empty()) text += 'x';
      text += std::to_string(k);
      D *= k;
    }
    INFO(text);
    const Network n =
        composed("torus:" + text + ",links=" + std::to_string(c.links), "none:domains=1");
    auto coords = [&](std::int64_t i) {
      std::vector<std::int64_t> x(c.shape.size());
      for (std::size_t k = 0; k < c.shape.size(); ++k) {
        x[k] = i % c.shape[k];
        i /= c.shape[k];
      }
      return x;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> got, want;
    for (const Link& l : n.links) {
      CHECK(l.kind == LinkKind::C2C);
      ++got[{std::min(l.a, l.b), std::max(l.a, l.b)}];
    }
    for (std::int64_t a = 0; a < D; ++a)
      for (std::int64_t b = a + 1; b < D; ++b) {
        const auto x = coords(a), y = coords(b);
        std::int64_t differ = 0, near = 0;
        for (std::size_t k = 0; k < x.size(); ++k)
          if (x[k] != y[k]) {
            ++differ;
            const std::int64_t d = (y[k] - x[k] + c.shape[k]) % c.shape[k];
            near += d == 1 || d == c.shape[k] - 1;
          }
        if (differ == 1 && near == 1) want[{a, b}] = c.links;
      }
    CHECK(got == want);
    CHECK(n.metrics.link_count == static_cast<std::int64_t>(n.links.size()));
  }
  CHECK(test::kind_of([] { parse_composition("torus:4x0", "none:domains=1"); }) ==
        ErrorKind::Usage);
  CHECK(test::kind_of([] { parse_composition("torus:2x2x2x2x2x2x2", "none:domains=1"); }) ==
        ErrorKind::Usage);
  CHECK(test::kind_of([] { composed("torus:4x4,switches=2", "none:domains=1"); }) ==
        ErrorKind::Usage);
}

TEST_CASE("rail_switches: a rail's leaves, and its spines where a rail has its own") {
  struct Case {
    const char *up, *out;
    bool rail_spines;
  };
  const std::vector<Case> cases = {
      {"switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8", false},
      {"full-mesh:4", "rail-only:domains=4,radix=8", false},
      {"ring:4", "rail-only:domains=4,unit=1,radix=8,tiers=2", true},
      {"ring:6,board=2,rack=2", "rail-optimized:domains=4,unit=2,radix=8,up=2,tiers=3,rails=3",
       true},
      {"none:2", "rail-optimized:domains=4,unit=2,radix=8,nics=2,rails=2,planes=2", false},
      {"switch:8", "rail-optimized:domains=4,unit=2,radix=16,nics=2,rails=4,planes=2", false},
      {"switch:2", "rail-optimized:domains=8,unit=2,radix=4,tiers=3", true},
  };
  for (const Case& c : cases) {
    INFO(c.up << " " << c.out);
    const Network n = composed(c.up, c.out);
    const std::int64_t D = n.metrics.family_attrs["domain_chips"].get<std::int64_t>();
    const std::int64_t nics = n.metrics.family_attrs["nics_per_chip"].get<std::int64_t>();
    const std::int64_t R = n.metrics.family_attrs["rails"].get<std::int64_t>();
    std::vector<std::vector<std::int64_t>> adj(n.nodes.size());
    for (const Link& l : n.links) {
      adj[static_cast<std::size_t>(l.a)].push_back(l.b);
      adj[static_cast<std::size_t>(l.b)].push_back(l.a);
    }
    // Chip c of a domain drives NICs c*nics .. c*nics+nics-1; NIC j is on rail j*R/(D*nics).
    auto on_rail = [&](std::int64_t chip, std::int64_t r) {
      const std::int64_t c = chip % D;
      for (std::int64_t k = 0; k < nics; ++k)
        if ((c * nics + k) * R / (D * nics) == r) return true;
      return false;
    };
    std::size_t failed_total = 0;
    for (std::int64_t r = 0; r < R; ++r) {
      const auto v = rail_switches(n, r, "t");
      const std::set<std::int64_t> set(v.begin(), v.end());
      CHECK(set.size() == v.size());
      failed_total += v.size();
      for (const Node& x : n.nodes) {
        if (x.kind != NodeKind::Switch || x.role == "scale-up") continue;
        const auto& nb = adj[static_cast<std::size_t>(x.id)];
        bool want = false;
        if (x.role == "leaf") {
          want = true;
          for (std::int64_t y : nb)
            if (n.nodes[static_cast<std::size_t>(y)].kind == NodeKind::Chip && !on_rail(y, r))
              want = false;
        } else if (x.role == "spine" && c.rail_spines) {
          // A rail's own spine: every leaf below it is on the rail.
          want = true;
          for (std::int64_t y : nb)
            if (n.nodes[static_cast<std::size_t>(y)].role == "leaf") {
              bool leaf_on = true;
              for (std::int64_t z : adj[static_cast<std::size_t>(y)])
                if (n.nodes[static_cast<std::size_t>(z)].kind == NodeKind::Chip && !on_rail(z, r))
                  leaf_on = false;
              want = want && leaf_on;
            }
        }
        CHECK(set.count(x.id) == (want ? 1u : 0u));
      }
    }
    // Every leaf is on exactly one rail.
    std::size_t leaves = 0;
    for (const Node& x : n.nodes) leaves += x.role == "leaf";
    CHECK(failed_total >= leaves);
  }
  const Network n = composed("switch:4", "rail-optimized:domains=4,unit=2,radix=8");
  CHECK(test::kind_of([&] { rail_switches(n, 4, "--fail-rail"); }) == ErrorKind::Usage);
  CHECK(test::kind_of([&] { rail_switches(composed("switch:4", "none:domains=2"), 0, "x"); }) ==
        ErrorKind::Usage);
}

TEST_CASE("composed networks: a document round trip, and edits the structure check refuses") {
  const Network n = composed("switch:4,switches=2", "rail-optimized:domains=4,unit=2,radix=8");
  Document d;
  d.network = n;
  const std::string text = dump_document(d, false);
  const Document back = parse_document(text, "t");
  CHECK(back.network->fingerprint == n.fingerprint);
  CHECK(back.network->links.size() == n.links.size());

  auto refused = [&](const std::function<void(Network&)>& edit, const std::string& where) {
    Network m = n;
    edit(m);
    m.fingerprint = fingerprint(m, nullptr);
    Document e;
    e.network = m;
    try {
      parse_document(dump_document(e, false), "t");
      FAIL("accepted");
    } catch (const Error& err) {
      CHECK(err.kind() == ErrorKind::Input);
      CHECK(err.where() == where);
    }
  };
  // A NIC moved to another leaf of the same pod (the invariants hold; the composition does not).
  std::size_t nic = 0;
  while (n.links[nic].kind != LinkKind::B2B) ++nic;
  refused(
      [&](Network& m) {
        Link& l = m.links[nic];
        l.b = l.b + 1;
      },
      "t:/network/links/" + std::to_string(nic));
  refused([](Network& m) { m.metrics.family_attrs["spines"] = 3; },
          "t:/network/metrics/family_attrs/spines");
  refused([](Network& m) { m.metrics.family_attrs["radix"] = 6; },
          "t:/network/metrics/family_attrs");
}

TEST_CASE("compositions whose ports do not add up are refused with one line") {
  auto usage = [](const std::string& up, const std::string& out) {
    return test::kind_of([&] { composed_candidate(parse_composition(up, out), "--scale-up"); });
  };
  // A leaf of 32 GPUs' NICs down and 40 up on 64 ports.
  CHECK(usage("switch:8", "rail-optimized:domains=64,unit=32,radix=64,up=40") == ErrorKind::Usage);
  CHECK(usage("switch:8", "rail-optimized:domains=64,unit=32,rails=3") == ErrorKind::Usage);
  CHECK(usage("switch:8", "rail-optimized:domains=64,unit=24") == ErrorKind::Usage);
  CHECK(usage("none:8", "rail-only:domains=4") == ErrorKind::Usage); // rails never meet
  CHECK(usage("switch:8", "rail-optimized:domains=512,unit=32,radix=64,tiers=2") ==
        ErrorKind::Usage); // needs 3 tiers
  CHECK(usage("mesh:8", "rail-optimized:domains=4") == ErrorKind::Usage);
  CHECK(usage("switch:8,planes=2", "rail-optimized:domains=4") == ErrorKind::Usage);
  CHECK(usage("switch:8", "rail-optimized:unit=4") == ErrorKind::Usage);
  bool twist = false;
  CHECK(test::kind_of([&] { preset_candidate("dgx-superpod", {"sus=4"}, twist); }) ==
        ErrorKind::Usage);
  CHECK(test::kind_of([&] {
          preset_candidate("dgx-superpod", {"su=4", "su=8"}, twist);
        }) == ErrorKind::Usage);
  CHECK(test::kind_of([&] { preset_candidate("dgx", {}, twist); }) == ErrorKind::Usage);
  CHECK(test::kind_of([&] { preset_candidate("dgx-superpod", {"gpu=a100"}, twist); }) ==
        ErrorKind::Usage);
}
