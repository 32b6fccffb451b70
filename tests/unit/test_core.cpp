// lib/core: units, strict JSON reading, fingerprints, atomic output.
#include "core/error.hpp"
#include "core/fingerprint.hpp"
#include "core/io.hpp"
#include "core/json_reader.hpp"
#include "core/units.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace icnkit;
using icnkit::test::kind_of;

TEST_CASE("sizes parse in decimal and binary units", "[core]") {
  CHECK(parse_bytes("64MiB", "x") == 64ull * 1024 * 1024);
  CHECK(parse_bytes("8KB", "x") == 8000);
  CHECK(parse_bytes("2GB", "x") == 2000000000ull);
  CHECK(parse_bytes("4096", "x") == 4096);
  CHECK(parse_bytes("1.5KiB", "x") == 1536);
  for (auto bad : {"12XB", "-5", "0", "abc", "", "1.5B", "1e30"})
    CHECK(kind_of([&] { parse_bytes(bad, "--bytes"); }) == ErrorKind::Usage);
}

TEST_CASE("bandwidths parse in bytes and bits per second", "[core]") {
  CHECK(parse_bandwidth("50GB/s", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("400Gb/s", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("400Gbps", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("1e9", "x") == 1e9);
  for (auto bad : {"0GB/s", "-1GB/s", "50GB", "fast"})
    CHECK(kind_of([&] { parse_bandwidth(bad, "--link-bw"); }) == ErrorKind::Usage);
}

TEST_CASE("times parse to seconds", "[core]") {
  CHECK(parse_time("1us", "x") == Approx(1e-6).epsilon(1e-15));
  CHECK(parse_time("100ns", "x") == Approx(1e-7).epsilon(1e-15));
  CHECK(parse_time("2ms", "x") == Approx(2e-3).epsilon(1e-15));
  CHECK(parse_time("0", "x") == 0);
  for (auto bad : {"-1us", "1 hour", "us"})
    CHECK(kind_of([&] { parse_time(bad, "--link-latency"); }) == ErrorKind::Usage);
}

TEST_CASE("the strict reader rejects unknown keys and names the JSON pointer", "[core]") {
  json j = json::parse(R"({"a": 1, "b": {"c": "x", "typo": 2}, "ext": {"mine": true}})");
  ObjReader r(j, "doc.json", "");
  CHECK(r.integer("a") == 1);
  auto b = r.object("b");
  CHECK(b.string("c") == "x");
  try {
    b.done();
    FAIL("unknown key accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Input);
    CHECK(e.where() == "doc.json:/b/typo");
  }
  CHECK_NOTHROW(r.done()); // "ext" is the users' own
}

TEST_CASE("the strict reader checks types and ranges", "[core]") {
  json j = json::parse(R"({"n": "abc", "m": -1, "f": 2.5, "big": 1e300})");
  ObjReader r(j, "stdin", "/context");
  CHECK(kind_of([&] { r.integer("n"); }) == ErrorKind::Input);
  CHECK(kind_of([&] { r.integer("m", 0); }) == ErrorKind::Input);
  CHECK(kind_of([&] { r.integer("f"); }) == ErrorKind::Input);
  CHECK(kind_of([&] { r.integer("big"); }) == ErrorKind::Input);
  CHECK(kind_of([&] { r.integer("missing"); }) == ErrorKind::Input);
}

TEST_CASE("fingerprints are XXH3-64", "[core]") {
  // Published XXH3_64bits test vector: the empty input with seed 0.
  CHECK(fingerprint_hex("") == "2d06800538d394c2");
  CHECK(fingerprint_hex("a") != fingerprint_hex("b"));
  CHECK(fingerprint_hex("network").size() == 16);
}

TEST_CASE("output to a file is atomic and complete", "[core]") {
  std::string path = "icnkit-test-output.json";
  write_output(path, "{\"x\": 1}\n");
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == "{\"x\": 1}\n");
  std::remove(path.c_str());
  CHECK(kind_of([] { write_output("/nonexistent-dir/x.json", "{}"); }) == ErrorKind::Runtime);
}
