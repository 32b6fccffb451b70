// Exports of a generated network to other tools' formats (topo-gen --format). The icnkit
// document stays the default and the only format icnkit reads back; these are one-way.
//
//   networkx  node-link JSON as networkx.node_link_data writes a MultiGraph (the "links" key of
//             networkx 2.x..3.5; networkx >= 3.6 reads it with node_link_graph(d, edges="links")):
//             {"directed": false, "multigraph": true,
//              "graph": {"family", "n_chip", "fingerprint"},
//              "nodes": [{"id", "kind", "tier", "board", "rack", "pod", "coord": [..], "role",
//                         "ports", "failed"}],  (role "" and ports 0 for chips)
//              "links": [{"source", "target", "key", "id", "kind", "dim", "dir",
//                         "bandwidth_bytes_per_s", "latency_s", "failed"}]}
//             key numbers the parallel links of a pair 0, 1, ... in link-id order.
//   graphml   Boost.Graph's write_graphml: undirected, node n<i> is node i, parallel edges kept.
//             graph data: family, n_chip, fingerprint; node data: id, kind, tier, board, rack, pod,
//             coord ("x,y,z"), role, ports, failed; edge data: link (the link id; edge e<k> is link
//             k), kind, dim, dir, bandwidth_bytes_per_s, latency_s, failed (booleans as 1/0).
//   dot       Boost.Graph's write_graphviz_dp: "graph G {", nodes named by id with the node data
//             above (except id) plus shape (chip: ellipse, switch: box), color and style; one
//             "a--b" line per link, in link-id order, with the edge data above plus color and
//             style: failed links and chips are dashed red. `dot -Tsvg` renders it.
//   booksim   BookSim 2 anynet network file (network_file = ..., topology = anynet): one line per
//             router, see export_network.
//   simai     SimAI / ns-3 topology text: "nodes gpus_per_server nvswitches switches links
//             gpu_type", the scale-up switches' ids (role scale-up), the other switches' ids, then
//             "a b RATE DELAY 0" per pair of nodes (rate in Gbps, delay in ms): parallel links are
//             one line with their rates summed and the smallest delay (SimAI keeps one per pair).
//             Failed links are left out. gpus_per_server is a composed network's domain, else
//             the board; gpu_type is H100 (SimAI picks its NVLink model from it).
//   astra-sim ASTRA-sim 2's analytical network YAML, where the network is a stack of dimensions:
//             a torus (Ring per dimension), a ring (Ring), a full mesh (FullyConnected), a single
//             switch (Switch), a composed network (its scale-up domain's Ring, FullyConnected or
//             Switch, then Switch for the scale-out network). bandwidth is a chip's GB/s per
//             direction into the dimension (a ring: one link), latency a link's ns. Others are
//             Error(Infeasible); faults are not expressible (Error(Infeasible) too).
#pragma once
#include "topo/network.hpp"

#include <string>
#include <utility>
#include <vector>

namespace icnkit::topo {

enum class ExportFormat { Json, NetworkX, GraphML, Dot, BookSim, SimAI, AstraSim };

// "json" | "networkx" | "graphml" | "dot" | "booksim"; anything else is Error(Usage) at `where`
// listing the formats.
ExportFormat parse_export_format(const std::string& name, const std::string& where = "{format}");
std::string to_string(ExportFormat f);
// Every format's name and one line about it, in order (topo-gen --describe).
std::vector<std::pair<std::string, std::string>> export_formats();

// Clock used to turn link latency into BookSim cycles: cycles = max(1, round(latency_s * Hz)).
inline constexpr double kBookSimClockHz = 1e9;

// The network in format `f` (not Json: that is the icnkit document, which the tools write
// themselves; asking for it here is Error(Runtime)). `faults` may be null. Failed links (and
// every link of a failed chip) are marked failed in networkx / graphml / dot, failed chips too.
//
// booksim: line i is `router i [node i] (router j c)*` for every node i in id order: chips are
// routers with their own terminal node (node id = chip id), switches are routers without one;
// j runs over i's neighbours in ascending id and c is the link latency in cycles at
// kBookSimClockHz. Failed links are left out: BookSim's anynet has no notion of a failed link
// (a failed chip keeps its router and node, so ids stay dense as anynet requires, but loses
// all its links; BookSim's routing assumes a connected network). Anynet keeps one channel per
// router pair (its neighbour table is a map), so parallel links are written once, with the
// smallest latency among them. Self-loops are left out. The file has no comments: anynet's
// parser rejects any line not starting with router/node (booksim2's AnyNet::readFile asserts).
//
// Where the export cannot hold the network as it is, a note says how it differs and is added
// to `notes` (when given; the tool prints them as warnings): booksim's merged parallel links
// (with their count), its single link bandwidth when the links have several, and latencies
// rounded to whole cycles. The other formats carry every link with its bandwidth_bytes_per_s
// and latency_s, and need no notes.
std::string export_network(const Network& n, const Faults* faults, ExportFormat f,
                           std::vector<std::string>* notes = nullptr);

} // namespace icnkit::topo
