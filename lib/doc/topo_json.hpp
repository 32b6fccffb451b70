// The topology sections' JSON: context, candidates, candidate, network (with its metrics) and
// faults, each written as the document holds it and read back strictly (unknown keys and
// impossible values are Error(Input) naming the JSON pointer). The types are lib/topo's, which
// knows no JSON text.
#pragma once
#include "core/json_reader.hpp"
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/network.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>

namespace icnkit::topo {

json to_json(const Candidate& c);
Candidate parse_candidate(ObjReader& r);
json to_json(const CandidateList& l);
CandidateList parse_candidates(ObjReader& r);

json to_json(const Context& c);
Context parse_context(ObjReader& r); // strict; validates

// The bandwidth and latency most links of a kind share. Documents write them once per kind, in
// the network's "link_defaults" ({"c2c": {"bandwidth_bytes_per_s", "latency_s"}, ...}), and a
// link writes only the figures that differ from its kind's; the reader accepts links that give
// both (the older form) as well. The most frequent (bandwidth, latency) pair wins, ties going
// to the smaller pair. Indexed by LinkKind; empty for kinds without links.
using LinkDefaults = std::array<std::optional<std::pair<double, double>>, 4>;
LinkDefaults link_defaults(const Network& n);
// The kinds in the order of their names (b2b, c2c, p2p, r2r): JSON's sorted key order.
inline constexpr std::array<LinkKind, 4> kLinkKindsByName = {LinkKind::B2B, LinkKind::C2C,
                                                             LinkKind::P2P, LinkKind::R2R};

json to_json(const Metrics& m);
json to_json(const Network& n);      // append_network_json writes the same text faster
Network parse_network(ObjReader& r); // strict; recomputes and checks the fingerprint later
json to_json(const Faults& f, const Network& n);
Faults parse_faults(ObjReader& r, const Network* n);

// The network section as JSON text, written straight into a string: byte for byte what
// to_json(n).dump() gives (sorted keys, nlohmann's number format), without building the JSON
// tree, which for a network of 100,000 links costs more than generating it.
void append_network_json(std::string& out, const Network& n);

} // namespace icnkit::topo
