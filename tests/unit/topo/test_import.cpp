// lib/topo/import, the simulator exports and the cost model: a network exported and imported again
// is the same graph (ids, kinds, packaging, link figures) under the family custom, whatever the
// format (NetworkX node-link JSON with "links" or "edges", GraphML, an edge list); bad graphs are
// refused as bad input naming the element; SimAI and ASTRA-sim exports hold what the network
// has.
#include "topo/composed.hpp"
#include "topo/cost.hpp"
#include "topo/enumerate.hpp"
#include "topo/export.hpp"
#include "topo/import.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <map>
#include <sstream>

using namespace icnkit;
using namespace icnkit::topo;

namespace {

Imported imported(const std::string& text, ImportFormat f) {
  return import_network(text, f, "g", {}, {});
}

// The graph of `a` and `b` agree node by node and link by link.
void same_graph(const Network& a, const Network& b) {
  REQUIRE(a.nodes.size() == b.nodes.size());
  REQUIRE(a.links.size() == b.links.size());
  CHECK(a.n_chip == b.n_chip);
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Node &x = a.nodes[i], &y = b.nodes[i];
    INFO("node " << i);
    CHECK((x.kind == y.kind && x.tier == y.tier && x.board == y.board && x.rack == y.rack &&
           x.pod == y.pod && x.coord == y.coord && x.role == y.role && x.ports == y.ports));
  }
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    const Link &x = a.links[i], &y = b.links[i];
    INFO("link " << i);
    CHECK((x.a == y.a && x.b == y.b && x.kind == y.kind && x.dim == y.dim && x.dir == y.dir &&
           x.bandwidth_bytes_per_s == y.bandwidth_bytes_per_s && x.latency_s == y.latency_s));
  }
  CHECK(a.boards.size() == b.boards.size());
  CHECK(a.racks.size() == b.racks.size());
  CHECK(a.pods.size() == b.pods.size());
}

ErrorKind refused(const std::string& text, ImportFormat f, const std::string& needle) {
  try {
    imported(text, f);
  } catch (const Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains(needle));
    return e.kind();
  }
  FAIL("accepted");
  return ErrorKind::Runtime;
}

} // namespace

TEST_CASE("import: NetworkX and GraphML exports come back as the same graph") {
  std::vector<Network> nets;
  nets.push_back(test::torus_of("4x4x2/b2x2x1", 25e9, 2e-7));
  {
    auto cc = composed_candidate(
        parse_composition("switch:4,switches=2,links=2",
                          "rail-optimized:domains=4,unit=2,radix=8,nics=2,rails=4"),
        "test");
    GenerateOptions o;
    o.link_bandwidth.kind[static_cast<std::size_t>(LinkKind::C2C)] = 450e9;
    nets.push_back(generate(cc.first, cc.second, o));
  }
  for (const Network& n : nets) {
    INFO(n.family);
    const Imported a =
        imported(export_network(n, nullptr, ExportFormat::NetworkX), ImportFormat::NetworkX);
    same_graph(a.network, n);
    CHECK(a.network.family == "custom");
    CHECK(a.network.metrics.diameter == n.metrics.diameter);
    CHECK(a.network.metrics.path_diversity == n.metrics.path_diversity);
    CHECK(a.network.chip_radix == n.chip_radix);
    // Import -> export -> import: the same fingerprint.
    const Imported b = imported(export_network(a.network, nullptr, ExportFormat::NetworkX),
                                ImportFormat::NetworkX);
    CHECK(b.network.fingerprint == a.network.fingerprint);
    const Imported c =
        imported(export_network(n, nullptr, ExportFormat::GraphML), ImportFormat::GraphML);
    CHECK(c.network.fingerprint == a.network.fingerprint);
    // networkx >= 3.4 writes "edges" instead of "links".
    json nx = json::parse(export_network(n, nullptr, ExportFormat::NetworkX));
    nx["edges"] = nx["links"];
    nx.erase("links");
    CHECK(imported(nx.dump(), ImportFormat::NetworkX).network.fingerprint == a.network.fingerprint);
  }
}

TEST_CASE("import: an edge list of named chips and switches") {
  const std::string text = "# two leaves, one spine\n"
                           "switch L0 L1 S\n"
                           "a L0 50GB/s 1us\n"
                           "b L0 50GB/s 1us\n"
                           "c L1 400Gbps 500ns\n"
                           "d L1\n"
                           "L0 S 100GB/s\n"
                           "L1 S 100GB/s\n"
                           "L1 S 100GB/s  # a parallel link\n";
  const Imported g = import_network(text, ImportFormat::EdgeList, "g.txt", {}, {});
  const Network& n = g.network;
  CHECK(n.n_chip == 4);
  CHECK(n.nodes.size() == 7);
  CHECK(n.links.size() == 7);
  CHECK(n.nodes[4].kind == NodeKind::Switch);
  CHECK(n.nodes[4].ports == 3); // its degree
  CHECK(n.links[2].bandwidth_bytes_per_s == 50e9);
  CHECK(n.links[2].latency_s == 5e-7);
  CHECK(n.links[3].bandwidth_bytes_per_s == kDefaultLinkParams.bandwidth_bytes_per_s);
  CHECK(n.metrics.diameter == 4);
  CHECK(n.metrics.path_diversity == 1);
  CHECK(g.candidate.family == "custom");
}

TEST_CASE("import: bad graphs are bad input naming what is wrong") {
  const std::string nodes = R"("nodes": [{"id": 0}, {"id": 1}, {"id": "s", "kind": "switch"}])";
  auto nx = [&](const std::string& links) { return "{" + nodes + ", \"links\": [" + links + "]}"; };
  CHECK(imported(nx(R"({"source": 0, "target": "s"}, {"source": 1, "target": "s"})"),
                 ImportFormat::NetworkX)
            .network.n_chip == 2);
  CHECK(refused(nx(R"({"source": 0, "target": "s"}, {"source": 1, "target": 7})"),
                ImportFormat::NetworkX, "not a node") == ErrorKind::Input);
  CHECK(refused(nx(R"({"source": 0, "target": 0}, {"source": 1, "target": "s"})"),
                ImportFormat::NetworkX, "self-loop") == ErrorKind::Input);
  CHECK(refused(nx(R"({"source": 0, "target": "s"})"), ImportFormat::NetworkX, "no link") ==
        ErrorKind::Input);
  CHECK(refused(R"({"nodes": [{"id": 0}, {"id": 0}], "links": []})", ImportFormat::NetworkX,
                "twice") == ErrorKind::Input);
  CHECK(refused(R"({"nodes": [{"id": 0}, {"id": "s", "kind": "switch"}], "links": [{"source": 0,
    "target": "s"}]})",
                ImportFormat::NetworkX, "at least 2") == ErrorKind::Input);
  CHECK(refused(nx(R"({"source": 0, "target": "s", "bandwidth_bytes_per_s": -1})"),
                ImportFormat::NetworkX, "positive") == ErrorKind::Input);
  CHECK(refused("{", ImportFormat::NetworkX, "not JSON") == ErrorKind::Input);
  CHECK(refused("<graphml><graph edgedefault=\"directed\"></graph></graphml>",
                ImportFormat::GraphML, "directed") == ErrorKind::Input);
  CHECK(refused("<graphml><graph><node id=\"a\"/><edge source=\"a\" target=\"b\"/></graph>"
                "</graphml>",
                ImportFormat::GraphML, "not a node") == ErrorKind::Input);
  CHECK(refused("a b c d e\n", ImportFormat::EdgeList, "expected") == ErrorKind::Input);
  CHECK(refused("a b fast\n", ImportFormat::EdgeList, "") != ErrorKind::Runtime);
  // A switch with more links than its ports.
  CHECK(refused(R"({"nodes": [{"id": 0}, {"id": 1}, {"id": "s", "kind": "switch", "ports": 1}],
    "links": [{"source": 0, "target": "s"}, {"source": 1, "target": "s"}]})",
                ImportFormat::NetworkX, "ports") == ErrorKind::Input);
}

TEST_CASE("exports for SimAI and ASTRA-sim") {
  auto cc = composed_candidate(
      parse_composition("switch:4,switches=2,links=2", "rail-optimized:domains=4,unit=2,radix=8"),
      "test");
  GenerateOptions o;
  o.link_bandwidth.every = 50e9;
  o.link_bandwidth.kind[static_cast<std::size_t>(LinkKind::C2C)] = 100e9;
  const Network n = generate(cc.first, cc.second, o);
  std::vector<std::string> notes;
  std::istringstream in(export_network(n, nullptr, ExportFormat::SimAI, &notes));
  std::int64_t nodes, per_server, nvswitches, switches, pairs;
  std::string gpu;
  in >> nodes >> per_server >> nvswitches >> switches >> pairs >> gpu;
  CHECK(nodes == static_cast<std::int64_t>(n.nodes.size()));
  CHECK(per_server == 4);
  CHECK(nvswitches == 8);
  CHECK(switches == static_cast<std::int64_t>(n.nodes.size()) - 16 - 8);
  std::int64_t id;
  for (std::int64_t i = 0; i < nvswitches + switches; ++i) in >> id;
  // One line per node pair; the rates add up to the network's bandwidth.
  double total_gbps = 0, want_gbps = 0;
  for (const Link& l : n.links) want_gbps += l.bandwidth_bytes_per_s * 8 / 1e9;
  std::int64_t lines = 0;
  std::string a, b, rate, delay, err;
  while (in >> a >> b >> rate >> delay >> err) {
    ++lines;
    CHECK(rate.substr(rate.size() - 4) == "Gbps");
    total_gbps += std::stod(rate);
  }
  CHECK(lines == pairs);
  CHECK(total_gbps == Approx(want_gbps).epsilon(1e-12));
  CHECK(notes.size() == 1); // the chip-switch pairs have 2 links each
  // ASTRA-sim: a composed network is a scale-up Switch dimension and a scale-out one.
  const std::string yaml = export_network(n, nullptr, ExportFormat::AstraSim);
  CHECK_THAT(yaml, Catch::Contains("topology: [ Switch, Switch ]"));
  CHECK_THAT(yaml, Catch::Contains("npus_count: [ 4, 4 ]"));
  CHECK_THAT(yaml, Catch::Contains("bandwidth: [ 400, 50 ]")); // 2 switches x 2 links x 100
  CHECK_THAT(export_network(test::torus_of("4x2x3"), nullptr, ExportFormat::AstraSim),
             Catch::Contains("npus_count: [ 4, 2, 3 ]"));
  CHECK(test::kind_of([] {
          auto m = test::grid_network("mesh", {4, 4}, {1, 1});
          export_network(m, nullptr, ExportFormat::AstraSim);
        }) == ErrorKind::Infeasible);
}

TEST_CASE("cost: a fat-tree priced by hand from a small table") {
  // 32 chips on 8 leaves of k = 8 (4 down, 4 up) under 4 spines: 32 chip-leaf links inside the
  // leaves' racks (copper, a NIC port each), the leaf-spine links across racks (optic), every
  // switch's ports bought. Links at 400 Gb/s.
  Context ctx = test::context_for(32);
  ctx.scope = Scope::InterRack;
  Where w = parse_where("k=8,layers=2,chips_per_board=1", "t");
  auto l = enumerate(ctx, {&require_family("fat-tree", "t")}, 1, std::nullopt, &w);
  REQUIRE(l.items.size() == 1);
  GenerateOptions o;
  o.link_bandwidth.every = 50e9;
  const Network n = generate(ctx, l.items[0], o);
  const CostTable t = parse_cost_table("item,gbps,usd,watts,source\n"
                                       "switch_port,400,10,1,assumed\n"
                                       "switch_port,100,1,0.5,assumed\n"
                                       "nic_port,400,100,2,assumed\n"
                                       "trace,400,0,0,assumed\n"
                                       "copper,400,1000,0,assumed\n"
                                       "optic,400,10000,3,assumed\n",
                                       "t.csv");
  std::int64_t chip_links = 0, fabric = 0;
  for (const Link& k : n.links) (k.a < n.n_chip || k.b < n.n_chip ? chip_links : fabric)++;
  REQUIRE(chip_links == 32);
  const Cost c = network_cost(n, t);
  std::int64_t ports = 0;
  for (const Node& v : n.nodes) ports += v.kind == NodeKind::Switch ? v.ports : 0;
  CHECK(c.switch_ports == ports);
  CHECK(c.switches_usd == 10.0 * static_cast<double>(ports));
  CHECK(c.nic_ports == 32);
  CHECK(c.copper == 32);
  CHECK(c.optics == fabric);
  CHECK(c.capex_usd == 10.0 * static_cast<double>(ports) + 32 * 100 + 32 * 1000 +
                           10000.0 * static_cast<double>(fabric));
  CHECK(c.watts == 1.0 * static_cast<double>(ports) + 32 * 2 + 3.0 * static_cast<double>(fabric));
  // A link faster than every row is bought as several of the fastest.
  GenerateOptions fast;
  fast.link_bandwidth.every = 125e9; // 1 Tb/s: 3 x 400G
  const Cost f = network_cost(generate(ctx, l.items[0], fast), t);
  CHECK(f.nic_ports == 3 * 32);
  CHECK(f.copper == 3 * 32);
  // A table without an item, a bad figure, an unknown item: bad input naming the table.
  CHECK(test::kind_of([] { parse_cost_table("switch_port,400,1,1,x\n", "t.csv"); }) ==
        ErrorKind::Input);
  CHECK(test::kind_of([] { parse_cost_table("cable,400,1,1,x\n", "t.csv"); }) == ErrorKind::Input);
  CHECK(test::kind_of([] { parse_cost_table("optic,fast,1,1,x\n", "t.csv"); }) == ErrorKind::Input);
  CHECK(default_cost_table().rows.size() >= 5);
}
