// Regression tests of what the fuzz targets found (tests/fuzz, scripts/fuzz), one case per
// finding, each with an input that reproduced it. The inputs also stay in the seed corpora.
#include "doc/document.hpp"
#include "topo/faults.hpp"
#include "topo/torus.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>

using namespace icnkit;

TEST_CASE("fuzz: a seed above 2^63 is written and read back (provenance, faults)", "[fuzz]") {
  // The command line takes any unsigned 64-bit seed; the reader took only int64's.
  Document d;
  d.provenance.push_back({"topo-gen",
                          "0",
                          {"topo-gen", "--seed", "18446744073709551615"},
                          std::uint64_t{18446744073709551615u}});
  d.network = test::torus_of("4x4");
  topo::FaultRequest r;
  r.random_links = 1;
  r.seed = 18446744073709551615u;
  d.faults = topo::make_faults(*d.network, r);
  refresh_fingerprint(d);
  const std::string text = dump_document(d, false);
  REQUIRE_THAT(text, Catch::Contains("\"random_seed\":18446744073709551615"));
  Document back;
  REQUIRE_NOTHROW(back = parse_document(text, "t"));
  CHECK(back.provenance.at(0).seed == std::uint64_t{18446744073709551615u});
  CHECK(back.faults->random_seed == std::uint64_t{18446744073709551615u});
  CHECK(dump_document(back, false) == text);
  // Negative and fractional seeds are still refused.
  for (const char* bad : {"-1", "1.5", "18446744073709551616"}) {
    std::string t = text;
    t.replace(t.find("18446744073709551615}"), 20, bad);
    INFO(t.substr(0, 120));
    CHECK(test::kind_of([&] { parse_document(t, "t"); }) == ErrorKind::Input);
  }
}

TEST_CASE("fuzz: a fault's coordinate past an int's range is a usage error, not stoi's throw",
          "[fuzz]") {
  // fuzz_options: --fail-chip '(32,10,5,11444444444)' threw std::out_of_range from std::stoi.
  const topo::Network n = test::torus_of("4x4x4");
  for (const char* spec : {"(32,10,5,11444444444)", "(1,1,99999999999)", "(1,2147483648,0)"}) {
    INFO(spec);
    topo::FaultRequest chip;
    chip.chips.push_back(spec);
    CHECK(test::kind_of([&] { topo::make_faults(n, chip); }) == ErrorKind::Usage);
    topo::FaultRequest link;
    link.links.push_back(std::string(spec) + "-(0,0,0)");
    CHECK(test::kind_of([&] { topo::make_faults(n, link); }) == ErrorKind::Usage);
  }
}

TEST_CASE("fuzz: a torus board shape whose product overflows is a usage error", "[fuzz]") {
  // fuzz_options: --torus '45055x8/b2x272755x27x44x82x227x44x82x227x2x2' multiplied the board's
  // sizes past int64 (undefined behaviour) before any check.
  for (const char* shape :
       {"45055x8/b2x272755x27x44x82x227x44x82x227x2x2", "4x4/b5x5", "4x4/b4x4x4"}) {
    INFO(shape);
    CHECK(test::kind_of([&] { topo::torus_from_shape(shape, "--torus"); }) == ErrorKind::Usage);
  }
  CHECK_NOTHROW(topo::torus_from_shape("4x4/b4x4", "--torus"));
}
