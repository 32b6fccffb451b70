// The document that flows down the pipe: envelope (schema, provenance, ext) and typed sections.
// Reading validates everything strictly: unknown keys, the schema version, the topology
// invariants, and that every downstream section was computed for this very network.
#pragma once
#include "coll/schedule.hpp"
#include "core/json_reader.hpp"
#include "route/routing_section.hpp"
#include "sim/report.hpp"
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/network.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit {

inline constexpr const char* kSchema = "icnkit/1";

struct Provenance {
  std::string tool;
  std::string version;
  std::vector<std::string> argv;
  std::optional<std::uint64_t> seed;
};

struct Document {
  std::string source = "stdin"; // where it was read from, for error messages (not written)
  std::vector<Provenance> provenance;
  std::optional<topo::Context> context;
  std::optional<topo::CandidateList> candidates;
  std::optional<topo::Candidate> candidate;
  std::optional<topo::Network> network;
  std::optional<topo::Faults> faults;
  std::optional<route::RoutingSection> routing;
  std::optional<coll::Schedule> schedule;
  std::optional<sim::Report> report;
  std::optional<json> ext;

  // The faults that apply to the network (empty when there is no faults section).
  const topo::Faults& faults_or_none() const;
  // The network, or Error(Input) naming the tool that needs it.
  const topo::Network& require_network(const std::string& who) const;
};

// Reads a document. The network's nodes, links and boards are read straight from the text, one
// element at a time (core/json_stream.hpp): reading costs about the text plus the network, not
// a JSON tree of it (~12x the text).
Document parse_document(const std::string& text, const std::string& source);
// The same reader over a whole JSON tree of the text: the reference parse_document is held to
// (same document, same verdict and message on every input; tests/unit/doc/test_doc_stream.cpp).
Document parse_document_dom(const std::string& text, const std::string& source);
std::string dump_document(const Document& d, bool pretty);

// Sets network.fingerprint from its nodes, links and the faults.
void refresh_fingerprint(Document& d);

} // namespace icnkit
