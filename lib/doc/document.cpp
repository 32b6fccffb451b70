#include "doc/document.hpp"

#include "core/json_stream.hpp"
#include "doc/coll_json.hpp"
#include "doc/route_json.hpp"
#include "doc/sim_json.hpp"
#include "doc/topo_json.hpp"
#include "topo/invariants.hpp"

#include <algorithm>
#include <cctype>

namespace icnkit {

namespace {

void check_schema(const std::string& schema, const std::string& where) {
  const std::string prefix = "icnkit/";
  std::string major;
  if (schema.rfind(prefix, 0) == 0) {
    major = schema.substr(prefix.size());
    major = major.substr(0, major.find('.'));
  }
  if (major != "1")
    fail_input(where, "schema \"" + schema + "\" is not supported: this tool reads " + kSchema);
}

void check_section_network(const std::string& section, const std::string& fp, const Document& d,
                           const std::string& source) {
  if (!d.network)
    fail_input(source + ":/" + section, "section present but the document has no network");
  if (fp != d.network->fingerprint)
    fail_input(source + ":/" + section + "/network_fingerprint",
               "the " + section + " section was computed for network " + fp +
                   ", but this document's network is " + d.network->fingerprint);
}

// What a text that is not an icnkit document is, when it is one of the formats the tools write
// or read elsewhere ("" if it is none of them): a user who pipes an export into a tool learns
// what it is instead of "not JSON" or "missing key schema".
std::string foreign_format(const std::string& text, const json* j) {
  const std::string tail =
      ", not an icnkit document: the tools read the JSON document topo-gen writes by default";
  if (j) {
    if (j->is_object() && !j->contains("schema") && j->contains("nodes") &&
        (j->contains("links") || j->contains("edges")))
      return "a NetworkX node-link graph (topo-gen {format} networkx)" + tail;
    return "";
  }
  // The first line that is not blank or a comment.
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t b = l.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    l = l.substr(b);
    if (l.rfind("//", 0) == 0 || l.rfind("#", 0) == 0) continue;
    line = l;
    break;
  }
  if (line.empty()) return "";
  auto starts = [&](const char* word) {
    std::size_t n = std::char_traits<char>::length(word);
    return line.compare(0, n, word) == 0 &&
           (line.size() == n || !std::isalnum(static_cast<unsigned char>(line[n])));
  };
  if (line.rfind("<?xml", 0) == 0 || line.rfind("<graphml", 0) == 0) {
    if (text.find("<graphml", 0) != std::string::npos)
      return "a GraphML graph (topo-gen {format} graphml)" + tail;
    return "XML" + tail;
  }
  if (starts("graph") || starts("digraph") || starts("strict"))
    return "a Graphviz DOT graph (topo-gen {format} dot)" + tail;
  if (starts("router")) return "a BookSim anynet file (topo-gen {format} booksim)" + tail;
  if (line.front() != '{' && line.front() != '[' && std::count(line.begin(), line.end(), ',') >= 2)
    return "a CSV table (net-sim {format} csv)" + tail;
  return "";
}

} // namespace

const topo::Faults& Document::faults_or_none() const {
  static const topo::Faults none;
  return faults ? *faults : none;
}

const topo::Network& Document::require_network(const std::string& who) const {
  if (!network)
    fail_input(source + ":/network", who + " needs a network section (run topo-gen first)");
  return *network;
}

namespace {

// The arrays the streaming reader leaves in the text: a network's big ones (a torus has one node,
// three links and one board per chip; everything else in a network document is small).
const std::vector<std::string> kStreamedArrays = {"/network/nodes", "/network/links",
                                                  "/network/boards"};

Document read_document(const std::string& text, const std::string& source, bool stream) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    fail_input(source, "empty input: expected an icnkit JSON document");
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (text[first] != '{' && text[first] != '[')
    if (std::string f = foreign_format(text, nullptr); !f.empty()) fail_input(source, f);
  StreamedArrays streamed(text, stream ? kStreamedArrays : std::vector<std::string>{});
  const json j = stream ? streamed.parse(source) : parse_json(text, source);
  if (std::string f = foreign_format(text, &j); !f.empty()) fail_input(source, f);
  ObjReader r(j, source, "", stream ? &streamed : nullptr);
  Document d;
  d.source = source;
  auto schema = r.string("schema");
  check_schema(schema, r.where("schema"));
  if (r.has("provenance")) {
    for (auto& o : r.objects("provenance")) {
      Provenance p;
      p.tool = o.string("tool");
      p.version = o.string("version");
      p.argv = o.string_list("argv");
      p.seed = o.uint64_opt("seed");
      o.done();
      d.provenance.push_back(std::move(p));
    }
  }
  if (auto o = r.object_opt("context")) d.context = topo::parse_context(*o);
  if (auto o = r.object_opt("candidates")) d.candidates = topo::parse_candidates(*o);
  if (auto o = r.object_opt("candidate")) d.candidate = topo::parse_candidate(*o);
  if (auto o = r.object_opt("network")) {
    d.network = topo::parse_network(*o);
    topo::check_invariants(*d.network, ErrorKind::Input, source + ":/network");
    topo::check_family_structure(*d.network, source, "/network");
  }
  if (auto o = r.object_opt("faults")) {
    if (!d.network) fail_input(r.where("faults"), "faults given but the document has no network");
    d.faults = topo::parse_faults(*o, &*d.network);
  }
  if (d.network) {
    std::string fp = topo::fingerprint(*d.network, d.faults ? &*d.faults : nullptr);
    if (fp != d.network->fingerprint)
      fail_input(source + ":/network/fingerprint",
                 "fingerprint " + d.network->fingerprint + " does not match the content (" + fp +
                     "): the network or its faults were edited after topo-gen");
  }
  if (auto o = r.object_opt("routing")) {
    d.routing = route::parse_routing(*o);
    check_section_network("routing", d.routing->network_fingerprint, d, source);
  }
  if (auto o = r.object_opt("schedule")) {
    d.schedule = coll::parse_schedule(*o);
    check_section_network("schedule", d.schedule->network_fingerprint, d, source);
  }
  if (auto o = r.object_opt("report")) {
    d.report = sim::parse_report(*o);
    check_section_network("report", d.report->network_fingerprint, d, source);
  }
  if (const json* e = r.ext()) d.ext = *e;
  r.done();
  return d;
}

} // namespace

Document parse_document(const std::string& text, const std::string& source) {
  return read_document(text, source, true);
}

Document parse_document_dom(const std::string& text, const std::string& source) {
  return read_document(text, source, false);
}

std::string dump_document(const Document& d, bool pretty) {
  json j = {{"schema", kSchema}};
  if (!d.provenance.empty()) {
    json p = json::array();
    for (auto& e : d.provenance) {
      json x = {{"tool", e.tool}, {"version", e.version}, {"argv", e.argv}};
      if (e.seed) x["seed"] = *e.seed;
      p.push_back(x);
    }
    j["provenance"] = p;
  }
  if (d.context) j["context"] = topo::to_json(*d.context);
  if (d.candidates) j["candidates"] = topo::to_json(*d.candidates);
  if (d.candidate) j["candidate"] = topo::to_json(*d.candidate);
  // The compact form writes the network straight to text (doc/topo_json.hpp): the
  // sections are dumped one by one in the object's own (sorted) key order, the network by the
  // fast writer. The pretty form goes through the JSON tree.
  if (d.network) j["network"] = pretty ? topo::to_json(*d.network) : json(nullptr);
  if (d.faults && d.network) j["faults"] = topo::to_json(*d.faults, *d.network);
  if (d.routing) j["routing"] = route::to_json(*d.routing);
  if (d.schedule) j["schedule"] = coll::to_json(*d.schedule);
  if (d.report) j["report"] = sim::to_json(*d.report);
  if (d.ext) j["ext"] = *d.ext;
  if (pretty) return j.dump(2) + "\n";
  std::string text = "{";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (text.size() > 1) text += ',';
    text += json(it.key()).dump();
    text += ':';
    if (it.key() == "network" && d.network)
      topo::append_network_json(text, *d.network);
    else
      text += it.value().dump();
  }
  return text + "}\n";
}

void refresh_fingerprint(Document& d) {
  if (d.network)
    d.network->fingerprint = topo::fingerprint(*d.network, d.faults ? &*d.faults : nullptr);
}

} // namespace icnkit
