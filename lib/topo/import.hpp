// Networks from elsewhere (topo-gen --import FILE): a graph another tool wrote becomes a network
// of the family "custom", routed by the algorithms that need no family structure (minimal) and
// scheduled and simulated like any other.
//
// Formats (--import-format, else by the file's extension: .json networkx, .graphml / .xml
// graphml, anything else edgelist):
//   networkx  node-link JSON (networkx.node_link_data): "nodes" [{"id", ...}] and "links" or
//             "edges" [{"source", "target", ...}]; node ids are numbers or strings.
//   graphml   <key id= for= attr.name=> declarations, <node id=> and <edge source= target=> with
//             <data key=> values (what networkx.write_graphml and topo-gen --format graphml write).
//   edgelist  one link per line, "A B [BANDWIDTH [LATENCY]]" (50GB/s, 400Gbps, 1us, ...; a bare
//             number is bytes/s, resp. seconds); "switch NAME ..." declares switches; '#' starts
//             a comment. Every other node is a chip.
// Attributes read where present (icnkit's own exports write them all): nodes "kind" (chip |
// switch; a node without one is a chip), "tier", "board", "rack", "pod", "coord", "role",
// "ports"; links "kind" (c2c, b2b, r2r, p2p), "bandwidth_bytes_per_s", "latency_s", "dim",
// "dir". Chips are numbered first, then switches, each in the file's order. Without packaging,
// every chip is a board of its own, all in one rack and pod, and switches are tier 9+; links
// without figures take the kind's (--link-bw / --link-latency, else the defaults).
//
// Checked: unique node ids, no edge to a node that is not there, no self-loop, at least two
// chips, boards of one size, then the spec's invariants (connected, switch ports): each
// failure is Error(Input) naming the file and the element (exit 3).
#pragma once
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/network.hpp"

#include <string>

namespace icnkit::topo {

enum class ImportFormat { NetworkX, GraphML, EdgeList };

// "networkx" | "graphml" | "edgelist", or Error(Usage) at `where`.
ImportFormat parse_import_format(const std::string& name, const std::string& where);
// The format a file name's extension suggests.
ImportFormat import_format_of(const std::string& path);
std::string to_string(ImportFormat f);

struct Imported {
  Context context;
  Candidate candidate;
  Network network; // metrics filled, fingerprinted
};

// Reads `text` (named `source` in errors). `bandwidth` / `latency`: the figures of links that
// carry none (--link-bw / --link-latency), per kind.
Imported import_network(const std::string& text, ImportFormat f, const std::string& source,
                        const PerKind& bandwidth, const PerKind& latency);

} // namespace icnkit::topo
