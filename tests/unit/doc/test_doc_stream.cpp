// The streaming document reader (parse_document: the network's nodes, links and boards read
// element by element from the text, core/json_stream.hpp) against the reference that parses the
// whole text into a JSON tree first (parse_document_dom): on the documents every stage writes
// for small networks of every family, and on seeded edits of them (a key deleted, added or
// retyped, ids out of range, keys reordered, a NUL byte, deep nesting, numbers beyond a double,
// duplicate keys, truncation), both readers give the same document or the same error, word for
// word.
#include "coll/expand.hpp"
#include "coll/generate.hpp"
#include "core/json_stream.hpp"
#include "doc/document.hpp"
#include "route/registry.hpp"
#include "route/verify.hpp"
#include "sim/analytic.hpp"
#include "sim/report.hpp"
#include "topo/enumerate.hpp"
#include "topo/family.hpp"
#include "topo/faults.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <random>
#include <set>

using namespace icnkit;

namespace {

// What reading a text gives: the document written back (compact), or the error.
struct Outcome {
  bool ok = false;
  std::string text; // the re-dumped document, or "kind|where|what"
  bool operator==(const Outcome&) const = default;
};

template <class Read> Outcome outcome(Read read, const std::string& text) {
  Outcome o;
  try {
    const Document d = read(text, "doc");
    o.ok = true;
    o.text = dump_document(d, false);
  } catch (const Error& e) {
    o.text = std::to_string(static_cast<int>(e.kind())) + "|" + e.where() + "|" + e.what();
  } catch (const std::exception& e) {
    o.text = std::string("not an icnkit::Error: ") + e.what(); // a crash in a tool
  }
  return o;
}

void same_reading(const std::string& text, const std::string& what) {
  const Outcome dom = outcome(parse_document_dom, text);
  const Outcome stream = outcome(parse_document, text);
  INFO(what);
  INFO("DOM:       " << dom.text.substr(0, 300));
  INFO("streaming: " << stream.text.substr(0, 300));
  CHECK(dom.text.rfind("not an icnkit::Error", 0) == std::string::npos);
  CHECK(stream == dom);
}

// A torus's links in faults (chip coordinates as topo-gen --fail-link takes them).
topo::Faults link_faults(const topo::Network& n, std::vector<std::string> links) {
  topo::FaultRequest r;
  r.links = std::move(links);
  return topo::make_faults(n, r);
}

// The routing section topo-route writes with `algorithm` (its default parameters).
route::RoutingSection routing_of(const std::string& algorithm, const topo::Network& n,
                                 const topo::Faults& f) {
  const route::Algorithm* a = route::find_algorithm(algorithm);
  REQUIRE(a != nullptr);
  route::ParamErrors errors{ErrorKind::Usage, [](const route::ParamSpec& p) { return p.name; }};
  route::Built b = route::build_routing(*a, json::object(), n, f, errors);
  route::RoutingSection s;
  s.algorithm = a->name;
  s.params = b.params;
  s.vc_count = b.fn->vc_count();
  s.verification = route::verify_routing(*b.fn, n, f);
  s.network_fingerprint = n.fingerprint;
  return s;
}

// The report net-sim writes for the document's schedule (analytic).
sim::Report report_of(const coll::Schedule& s, const topo::Network& n, const topo::Faults& f) {
  coll::ScheduleProgram p(s, n);
  const auto down = f.down_links(n);
  sim::AnalyticOptions o;
  o.down_links = &down;
  const sim::AnalyticResult r = sim::simulate_analytic(p, n, o);
  return sim::make_analytic_report(r, "schedule", s.collective, s.algorithm, n.n_chip,
                                   s.bytes_per_node, n.fingerprint, true);
}

Document network_doc(const topo::Context& ctx, const topo::Candidate& c,
                     const topo::Faults* faults_of_net = nullptr) {
  Document d;
  d.provenance.push_back({"topo-gen", "0", {"topo-gen", "--n-chip", "x"}, std::nullopt});
  d.context = ctx;
  d.candidate = c;
  d.network = topo::generate(ctx, c, {});
  if (faults_of_net) d.faults = *faults_of_net;
  refresh_fingerprint(d);
  return d;
}

// Every stage's document for small networks of every family (compact text), with a name.
std::vector<std::pair<std::string, std::string>> corpus() {
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const std::string& name, const Document& d) {
    out.emplace_back(name, dump_document(d, false));
  };
  // The torus pipeline: with a failed link, DOR, MATEe on DimRotation, its report.
  {
    const topo::Context ctx = test::context_for(64, 8);
    const topo::Candidate c = test::grid_candidate("torus", {4, 4, 4}, {2, 2, 2});
    Document d = network_doc(ctx, c);
    d.faults = link_faults(*d.network, {"(1,1,0)-(2,1,0)"});
    refresh_fingerprint(d);
    add("torus 4x4x4 + fault: topo-gen", d);
    d.routing = routing_of("dor", *d.network, *d.faults);
    add("torus 4x4x4 + fault: topo-route", d);
    coll::Request req;
    req.algorithm = "matee";
    req.dim_scheduling = "dimrotation";
    req.bytes_per_node = 1 << 20;
    d.schedule = coll::generate(req, *d.network, *d.faults);
    add("torus 4x4x4 + fault: coll-sched", d);
    d.report = report_of(*d.schedule, *d.network, *d.faults);
    d.ext = json{{"note", "kept"}, {"nested", {{"a", {1, 2, 3}}}}};
    add("torus 4x4x4 + fault: net-sim", d);
  }
  // A healthy 2D torus: ring schedule and report.
  {
    const topo::Context ctx = test::context_for(16, 4);
    Document d = network_doc(ctx, test::grid_candidate("torus", {4, 4}, {2, 2}));
    coll::Request req;
    req.bytes_per_node = 1 << 16;
    d.schedule = coll::generate(req, *d.network, {});
    d.report = report_of(*d.schedule, *d.network, {});
    add("torus 4x4: coll-sched + net-sim", d);
  }
  add("mesh 4x3",
      network_doc(test::context_for(12, 4), test::grid_candidate("mesh", {4, 3}, {2, 1})));
  // One network per other family (the first candidate that generates), routed where it can be.
  std::set<std::string> done = {"torus", "mesh"};
  for (const topo::Family* f : topo::families()) {
    if (done.count(f->name())) continue;
    for (std::int64_t n : {16, 32, 64}) {
      if (done.count(f->name())) break;
      for (topo::Scope scope : {topo::Scope::IntraRack, topo::Scope::InterRack}) {
        topo::Context ctx = test::context_for(n, 4);
        ctx.scope = scope;
        topo::CandidateList l;
        try {
          l = topo::enumerate(ctx, {f}, 4);
        } catch (const Error&) {
          continue;
        }
        for (const topo::Candidate& c : l.items) {
          Document d;
          try {
            d = network_doc(ctx, c);
          } catch (const Error&) {
            continue;
          }
          add(f->name() + " " + c.id, d);
          for (const route::Algorithm& a : route::algorithms()) {
            try {
              d.routing = routing_of(a.name, *d.network, {});
              add(f->name() + " " + c.id + ": " + a.name, d);
              break;
            } catch (const Error&) {
            }
          }
          done.insert(f->name());
          break;
        }
        if (done.count(f->name())) break;
      }
    }
  }
  // topo-enum's document: the context and its candidates.
  {
    Document d;
    d.context = test::context_for(64, 8);
    d.candidates = topo::enumerate(*d.context, topo::families(), 30);
    add("topo-enum 64", d);
  }
  return out;
}

// A text with the keys of every object in a random order (nlohmann's trees keep them sorted):
// "links" before "link_defaults", "nodes" before "n_chip", as a hand-edited document may have.
void dump_shuffled(const json& j, std::mt19937_64& rng, std::string& out) {
  if (j.is_object()) {
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    std::shuffle(keys.begin(), keys.end(), rng);
    out += '{';
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i) out += ',';
      out += json(keys[i]).dump() + ':';
      dump_shuffled(j.at(keys[i]), rng, out);
    }
    out += '}';
  } else if (j.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i) out += ',';
      dump_shuffled(j[i], rng, out);
    }
    out += ']';
  } else {
    out += j.dump();
  }
}

// The JSON pointers of every value of `j` (streamed arrays' elements and members included).
void pointers_of(const json& j, const std::string& at, std::vector<std::string>& out) {
  out.push_back(at);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      pointers_of(it.value(), at + "/" + pointer_token(it.key()), out);
  else if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) pointers_of(j[i], at + "/" + std::to_string(i), out);
}

std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + "1" +
         std::string(static_cast<std::size_t>(depth), ']');
}

// One seeded edit of a document: its text and what was done.
std::pair<std::string, std::string> edit(const std::string& text, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  json j = json::parse(text);
  std::vector<std::string> all;
  pointers_of(j, "", all);
  // Half the edits land in the network's streamed arrays, where the new reader differs most.
  std::vector<std::string> streamed;
  for (auto& p : all)
    for (const char* s : {"/network/nodes", "/network/links", "/network/boards"})
      if (p.rfind(s, 0) == 0) streamed.push_back(p);
  const std::vector<std::string>& from = !streamed.empty() && rng() % 2 ? streamed : all;
  const std::string at = from[pick(from.size())];
  const json::json_pointer ptr(at);
  std::string what;
  std::string raw; // a value that only text can hold, put where "@@RAW@@" is
  switch (pick(11)) {
  case 0: { // delete a key
    if (at.empty()) return {text.substr(0, text.size() / 2), "truncated at half"};
    const auto parent = ptr.parent_pointer();
    if (j[parent].is_object())
      j[parent].erase(ptr.back());
    else
      j[parent].erase(static_cast<std::size_t>(std::stoul(ptr.back())));
    what = "deleted " + at;
    break;
  }
  case 1: // an unknown key
    if (j[ptr].is_object()) {
      j[ptr]["zz_unknown"] = 1;
      what = "unknown key in " + at;
    } else {
      j[ptr] = json::array();
      what = "array at " + at;
    }
    break;
  case 2: { // another type
    const json others[] = {"x", 1.5, nullptr, true, json::array(), json::object(), -3, 7};
    j[ptr] = others[pick(std::size(others))];
    what = "retyped " + at + " as " + j[ptr].dump();
    break;
  }
  case 3: { // an id or count out of range
    const std::int64_t values[] = {-1, 1 << 20, 0, 1, 63, 64, 65, 4096, 9007199254740993};
    j[ptr] = values[pick(std::size(values))];
    what = "set " + at + " to " + j[ptr].dump();
    break;
  }
  case 4: { // a NUL byte
    std::string t = text;
    const std::size_t i = pick(t.size());
    t.insert(i, 1, '\0');
    return {t, "NUL byte at " + std::to_string(i)};
  }
  case 5: { // truncated
    const std::size_t i = pick(text.size());
    return {text.substr(0, i), "truncated at " + std::to_string(i)};
  }
  case 6: { // deep nesting: refused past 256 levels, read (and, in "ext", kept) below
    const int depth = rng() % 2 ? 300 : 200;
    j[ptr] = "@@RAW@@";
    raw = nested(depth);
    what = "nesting of " + std::to_string(depth) + " at " + at;
    break;
  }
  case 7: { // a number a double cannot hold, or an integer past 64 bits
    const char* big[] = {"1e400", "-1e400", "18446744073709551616", "1e-400", "-0"};
    j[ptr] = "@@RAW@@";
    raw = big[pick(std::size(big))];
    what = "number " + raw + " at " + at;
    break;
  }
  case 8: { // a repeated key (the last one counts)
    if (!j[ptr].is_object() || j[ptr].empty()) {
      j[ptr] = "@@RAW@@";
      raw = "{\"k\":1,\"k\":[2]}";
      what = "object with a repeated key at " + at;
      break;
    }
    auto it = j[ptr].begin();
    std::advance(it, static_cast<std::ptrdiff_t>(pick(j[ptr].size())));
    const std::string key = it.key();
    j[ptr]["@@DUP@@"] = rng() % 2 ? json(it.value()) : json("dup");
    std::string t = rng() % 2 ? j.dump() : [&] {
      std::string s;
      dump_shuffled(j, rng, s);
      return s;
    }();
    t.replace(t.find("\"@@DUP@@\""), 9, json(key).dump());
    return {t, "repeated key " + key + " in " + at};
  }
  case 9: { // a byte changed
    std::string t = text;
    const std::size_t i = pick(t.size());
    const char bytes[] = "0123456789{}[],:\"-.eE ax\\";
    t[i] = bytes[pick(sizeof bytes - 1)];
    return {t, "byte " + std::to_string(i) + " changed"};
  }
  default: // keys reordered, nothing else changed
    what = "keys reordered";
    break;
  }
  std::string t;
  if (rng() % 2 || what == "keys reordered")
    dump_shuffled(j, rng, t);
  else
    t = j.dump();
  if (!raw.empty()) t.replace(t.find("\"@@RAW@@\""), 9, raw);
  return {t, what};
}

} // namespace

TEST_CASE("streaming reader: every stage's document of every family reads as the DOM's",
          "[doc][doc-stream]") {
  const auto docs = corpus();
  std::set<std::string> families;
  for (auto& [name, text] : docs) {
    INFO(name);
    families.insert(name.substr(0, name.find(' ')));
    const Document dom = parse_document_dom(text, "doc");
    const Document stream = parse_document(text, "doc");
    for (bool pretty : {false, true})
      CHECK(dump_document(stream, pretty) == dump_document(dom, pretty));
    const std::string again = dump_document(stream, false);
    const auto diff = std::mismatch(again.begin(), again.end(), text.begin(), text.end());
    INFO("first difference: " << again.substr(
             static_cast<std::size_t>(std::max<std::ptrdiff_t>(diff.first - again.begin() - 60, 0)),
             140));
    // And the document is the one written (a routing section's parameters are written in their
    // canonical form by topo-route, not by routing_of() here).
    if (!dom.routing) CHECK(again == text);
    // Pretty and key-shuffled texts read the same.
    same_reading(dump_document(dom, true), name + " (pretty)");
    std::mt19937_64 rng(7);
    std::string shuffled;
    dump_shuffled(json::parse(text), rng, shuffled);
    same_reading(shuffled, name + " (keys shuffled)");
    CHECK(outcome(parse_document, shuffled).text == dump_document(dom, false));
  }
  for (const char* f : {"torus", "mesh", "fat-tree", "dragonfly", "hyperx", "ring", "hypercube"})
    CHECK(families.count(f) == 1);
}

TEST_CASE("streaming reader: seeded edits give the DOM reader's verdict and message",
          "[doc][doc-stream]") {
  const auto docs = corpus();
  std::mt19937_64 rng(20240611);
  int edits = 0, accepted = 0;
  for (auto& [name, text] : docs) {
    const int n = name.find("torus 4x4x4") == 0 ? 60 : 20;
    for (int i = 0; i < n; ++i, ++edits) {
      auto [t, what] = edit(text, rng);
      same_reading(t, name + ": " + what);
      accepted += outcome(parse_document, t).ok;
    }
  }
  INFO(edits << " edits, " << accepted << " accepted");
  CHECK(edits >= 300);
  CHECK(accepted > 0);
  CHECK(accepted < edits);
}

TEST_CASE("streaming reader: errors inside the streamed arrays, and their order",
          "[doc][doc-stream]") {
  Document d = network_doc(test::context_for(16, 4), test::grid_candidate("torus", {4, 4}, {2, 2}));
  const json base = json::parse(dump_document(d, false));
  auto both = [&](const json& j, const std::string& expect) {
    const std::string t = j.dump();
    same_reading(t, expect);
    const Outcome o = outcome(parse_document, t);
    CHECK_FALSE(o.ok);
    CHECK_THAT(o.text, Catch::Contains(expect));
  };
  json j = base;
  j["network"]["links"][17]["kind"] = "x2x";
  both(j, "doc:/network/links/17/kind|expected c2c, b2b, r2r or p2p");
  // Every element must be an object before any is read (as the DOM reader's objects()).
  j["network"]["links"][20] = 5;
  both(j, "doc:/network/links/20|expected an object");
  j = base;
  j["network"]["links"][3]["a"] = 16;
  both(j, "doc:/network/links/3/a|value 16 out of range [0, 15]");
  j = base;
  j["network"]["nodes"][2]["zz"] = 1;
  both(j, "doc:/network/nodes/2/zz|unknown key \"zz\"");
  j = base;
  j["network"]["boards"][1]["chips"][0] = 99;
  both(j, "doc:/network/boards/1/chips/0|value 99 out of range [0, 15]");
  j = base;
  j["network"]["nodes"] = json::object();
  both(j, "doc:/network/nodes|expected an array");
  j = base;
  j["network"].erase("links");
  both(j, "doc:/network|missing key \"links\"");
  j = base;
  j["network"]["n_chip"] = 15; // read after the nodes in the text: checked on them all the same
  both(j, "doc:/network/nodes/15/kind|chips must be nodes 0..14 and switches follow");
  // link_defaults after the links in the text: the links still take their figures from it.
  j = base;
  std::mt19937_64 rng(1);
  for (int i = 0; i < 5; ++i) {
    std::string t;
    dump_shuffled(j, rng, t);
    CHECK(outcome(parse_document, t).text == dump_document(d, false));
  }
  // What the fast scan of an array leaves to the JSON parser reads the same: escapes, bytes past
  // ASCII, a float that underflows, an integer past 64 bits.
  const std::string text = base.dump();
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"\"kind\":\"chip\"", "\"kind\":\"\\u0063hip\""},
           {"\"kind\":\"chip\"", "\"kind\":\"ch\u00e9p\""},
           {"\"kind\":\"c2c\"", "\"kind\":\"c2c\",\"latency_s\":1e-400"},
           {"\"kind\":\"c2c\"", "\"kind\":\"c2c\",\"latency_s\":2.5e-7"},
           {"\"id\":3,", "\"id\":18446744073709551616,"},
           {"\"id\":3,", "\"id\":3.0,"},
           {"\"id\":3,", "\"id\" :\t3\n,"},
           {"\"a\":1,", "\"a\":01,"},
           {"\"a\":1,", "\"a\":1,,"},
           {"\"a\":1,", "\"a\":-,"},
           {"\"a\":1,", "\"a\":tru,"},
           {"\"a\":1,", "\"a\":\"\\x\","},
           {"\"a\":1,", "\"a\":\"\x01\","}}) {
    std::string t = text;
    for (std::size_t at = t.find(from); at != std::string::npos; at = t.find(from, at + to.size()))
      t.replace(at, from.size(), to);
    same_reading(t, "every " + from + " as " + to);
  }
  same_reading(text.substr(0, text.size() - 1) + "\n,\"zz\": tru}", "an error after the arrays");
  CHECK_THAT(outcome(parse_document, text.substr(0, text.size() - 1) + "\n,\"zz\": tru}").text,
             Catch::Contains("line 2, column"));
  // A document of a network only in the arrays' places is no document, read or not.
  same_reading("{\"network\":{\"nodes\":[1,2],\"links\":[{},[]]}}", "arrays of scalars");
  same_reading("[{\"network\":{\"nodes\":[]}}]", "an array");
  same_reading("{\"network\":{\"nodes\":[{\"id\":0}]},\"network\":5,\"schema\":\"icnkit/1\"}",
               "repeated network");
  same_reading("{\"schema\":\"icnkit/1\",\"network\":{\"nodes\":[{\"id\":0}],\"nodes\":7}}",
               "repeated nodes");
}

TEST_CASE("streaming reader: the JSON text's own errors at their line and column",
          "[doc][doc-stream]") {
  const std::string ok = "{\"schema\":\"icnkit/1\",\"network\":{\"links\":[{\"a\":1}]}}";
  for (const std::string& t : std::vector<std::string>{
           std::string("{\"schema\":\"icnkit/1\",\"network\":{\"links\":[{\"a\":1e400}]}}"),
           std::string("{\"network\":{\"links\":[{\"a\":1}\n,{\"a\":]}}"),
           std::string("{\"network\":{\"links\":[{\"a\":1},{\"a\":2}]}} x"),
           std::string("{\"network\":{\"links\":[{\"a\":1},{\"a\":2,\"a\":\"") + '\0' + "\"}]}}",
           "{\"network\":{\"links\":[" + nested(260) + "]}}", "{\"network\":{\"links\":[{\"a\":1}",
           ok.substr(0, 30)}) {
    same_reading(t, t.substr(0, 80));
    const Outcome o = outcome(parse_document, t);
    CHECK_FALSE(o.ok);
    CHECK(o.text.rfind("3|doc|", 0) == 0);
  }
  CHECK_THAT(outcome(parse_document, "{\"network\":{\"links\":[1e400]}}").text,
             Catch::Contains("number '1e400' is out of range"));
  CHECK_THAT(outcome(parse_document, "{\"network\":{\"links\":[1,\n2 3]}}").text,
             Catch::Contains("line 2, column 3"));
}

TEST_CASE("streaming reader: an array left in the text, read whole or element by element",
          "[doc][doc-stream]") {
  const std::string text = "{\"a\":{\"b\":[{\"x\":1},{\"x\":2,\"x\":3}],\"c\":[1]},\"b\":[{\"y\":[["
                           "]]}],\"d~/e\":{\"f\":[{}]}}";
  StreamedArrays s(text, {"/a/b", "/b", "/d~0~1e/f", "/a/c/0"});
  const json j = s.parse("t");
  CHECK(s.size() == 3);
  CHECK(s.is_placeholder(j["a"]["b"]));
  CHECK(s.is_placeholder(j["b"]));
  CHECK(s.is_placeholder(j["d~/e"]["f"]));
  CHECK(j["a"]["c"] == json::array({1}));
  CHECK(s.tree(j["a"]["b"]) == json::parse("[{\"x\":1},{\"x\":3}]"));
  ObjReader r(j, "t", "", &s);
  ObjReader a = r.object("a");
  std::vector<std::int64_t> xs;
  std::size_t n = 0;
  a.for_each_object(
      "b", [&](std::size_t c) { n = c; },
      [&](ObjReader& o, std::size_t i) {
        CHECK(o.where("x") == "t:/a/b/" + std::to_string(i) + "/x");
        xs.push_back(o.integer("x"));
        o.done();
      });
  CHECK(n == 2);
  CHECK(xs == std::vector<std::int64_t>{1, 3});
  // Read whole through the ordinary accessors, the array is the same.
  CHECK(r.raw("b") == json::parse("[{\"y\":[[]]}]"));
}
