// Fuzz target: the document reader (lib/doc, lib/core's JSON reader), as every tool runs it on
// its input, then what every tool does last: write the document. Properties: the reader refuses
// with a typed error or accepts; what it accepted is written, and what was written reads back
// and is written again byte for byte (compact and pretty). A topo-gen replay builds the networks
// of a document's candidates (small ones) from its context.
#include "doc/document.hpp"
#include "fuzz.hpp"
#include "topo/enumerate.hpp"

using namespace icnkit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::text_of(data, size);
  Document d;
  if (!fuzz::attempt([&] { d = parse_document(text, "fuzz"); })) return 0;
  for (bool pretty : {false, true}) {
    std::string out, again;
    fuzz::must("writing an accepted document", [&] { out = dump_document(d, pretty); });
    fuzz::must("reading back a written document",
               [&] { again = dump_document(parse_document(out, "written"), pretty); });
    if (again != out) fuzz::finding("a written document changes when read and written again");
  }
  // topo-gen: a candidate of the document, generated with its context.
  if (d.context && d.context->n_chip <= 256) {
    std::vector<topo::Candidate> cands;
    if (d.candidate) cands.push_back(*d.candidate);
    if (d.candidates)
      for (std::size_t i = 0; i < d.candidates->items.size() && i < 4; ++i)
        cands.push_back(d.candidates->items[i]);
    for (const auto& c : cands)
      fuzz::attempt([&] {
        Document out;
        out.context = d.context;
        out.candidate = c;
        out.network = topo::generate(*d.context, c, {});
        refresh_fingerprint(out);
        const std::string written = dump_document(out, false);
        fuzz::must("reading back a generated network", [&] { parse_document(written, "gen"); });
      });
  }
  return 0;
}
