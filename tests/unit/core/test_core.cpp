// lib/core: units, strict JSON reading, fingerprints, atomic output.
#include "core/error.hpp"
#include "core/fingerprint.hpp"
#include "core/io.hpp"
#include "core/json_reader.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "doc/document.hpp"

#include "support.hpp"
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

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

TEST_CASE("is_utf8: well-formed UTF-8 only", "[core]") {
  for (std::string ok : {"", "abc", "1\xC2\xB5s", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                         "\xED\x9F\xBF", "\xF4\x8F\xBF\xBF"})
    CHECK(is_utf8(ok));
  for (std::string bad :
       {"\x80", "\xC0\xAF", "\xC1\xBF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
        "\xF5\x80\x80\x80", "\xC2", "\xE2\x82", "a\x9E", "\xFF"})
    CHECK_FALSE(is_utf8(bad));
}

TEST_CASE("nccl-tests' K, M, G, T are binary; spaces never join digits; µs is us", "[core]") {
  CHECK(parse_bytes("8K", "x") == 8192);
  CHECK(parse_bytes("64M", "x") == 64ull << 20);
  CHECK(parse_bytes("1G", "x") == 1ull << 30);
  CHECK(parse_bytes("2T", "x") == 2ull << 40);
  CHECK(parse_sizes("8K:1G:x2", "x") == parse_sizes("8KiB:1GiB:x2", "x"));
  // Spaces around the value and between number and unit are allowed, nowhere else.
  CHECK(parse_bytes(" 64 MiB ", "x") == 64ull << 20);
  CHECK(parse_bandwidth("50 GB/s", "x") == parse_bandwidth("50GB/s", "x"));
  for (auto bad : {"1 2", "6 4MiB", "64 Mi B", "1\t2"})
    CHECK(kind_of([&] { parse_bytes(bad, "--bytes"); }) == ErrorKind::Usage);
  CHECK(kind_of([&] { parse_bandwidth("5 0GB/s", "--link-bw"); }) == ErrorKind::Usage);
  CHECK(kind_of([&] { parse_time("1 00ns", "--link-latency"); }) == ErrorKind::Usage);
  CHECK(parse_time("1\xC2\xB5s", "x") == parse_time("1us", "x")); // micro sign
  CHECK(parse_time("2\xCE\xBCs", "x") == parse_time("2us", "x")); // Greek mu
  CHECK(kind_of([&] { parse_time("1\xC2\xB5", "x"); }) == ErrorKind::Usage);
  try {
    parse_bytes("1Q", "--bytes");
    FAIL("1Q accepted");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("K, M, G, T (powers of 1024)"));
  }
}

TEST_CASE("bandwidths parse in bytes and bits per second", "[core]") {
  CHECK(parse_bandwidth("50GB/s", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("400Gb/s", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("400Gbps", "x") == Approx(5.0e10).epsilon(1e-15));
  CHECK(parse_bandwidth("1e9B/s", "x") == 1e9);
  CHECK(parse_bandwidth("1.5PB/s", "x", 1e3, 2e15) == 1.5e15);
  for (auto bad : {"0GB/s", "-1GB/s", "50GB", "fast", "0x10GB/s", "infGB/s", "nanB/s", "GB/s"})
    CHECK(kind_of([&] { parse_bandwidth(bad, "--link-bw"); }) == ErrorKind::Usage);
}

TEST_CASE("bandwidth and time need a unit, and the error names the accepted ones", "[core]") {
  for (auto bare : {"50", "5e10", "1"}) {
    try {
      parse_bandwidth(bare, "--link-bw");
      FAIL("a bandwidth without unit was accepted: " << bare);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK(e.where() == "--link-bw");
      std::string what = e.what();
      for (auto unit : {"B/s", "KB/s", "GB/s", "Gb/s", "Gbps", "GiB/s"})
        CHECK(what.find(unit) != std::string::npos);
    }
  }
  for (auto bare : {"1", "1e-6", "0.5"}) {
    try {
      parse_time(bare, "--link-latency");
      FAIL("a time without unit was accepted: " << bare);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK(std::string(e.what()).find("s, ms, us, ns, ps") != std::string::npos);
    }
  }
  // Zero is zero in every unit.
  CHECK(parse_time("0", "x") == 0);
  CHECK(!std::signbit(parse_time("-0us", "x")));
}

TEST_CASE("link bandwidth and latency lie within physical bounds", "[core]") {
  // 1 KB/s .. 1 PB/s and 0 .. 1 s, bounds included.
  CHECK(parse_bandwidth("1KB/s", "x") == 1e3);
  CHECK(parse_bandwidth("8Kb/s", "x") == 1e3);
  CHECK(parse_bandwidth("1PB/s", "x") == 1e15);
  CHECK(parse_bandwidth("1000TB/s", "x") == 1e15);
  CHECK(parse_time("1s", "x") == 1.0);
  CHECK(parse_time("1000ms", "x") == 1.0);
  CHECK(parse_time("1ps", "x") == Approx(1e-12).epsilon(1e-15));
  for (auto bad : {"999B/s", "1e-300B/s", "1.000001PB/s", "1e308B/s", "1e400GB/s"})
    CHECK(kind_of([&] { parse_bandwidth(bad, "--link-bw"); }) == ErrorKind::Usage);
  for (auto bad : {"1.001s", "1e308s", "1e400s", "2000ms"})
    CHECK(kind_of([&] { parse_time(bad, "--link-latency"); }) == ErrorKind::Usage);
  try {
    parse_bandwidth("2PB/s", "--link-bw");
    FAIL("2 PB/s accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "bandwidth '2PB/s' is outside 1KB/s .. 1PB/s");
  }
  try {
    parse_time("2s", "--link-latency");
    FAIL("2 s accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "time '2s' is outside 0 .. 1s");
  }
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
  CHECK(r.ext() != nullptr); // the document's reader asks for "ext": the users' own
  CHECK_NOTHROW(r.done());
}

TEST_CASE("\"ext\" is kept where a reader asks for it and refused anywhere else", "[core]") {
  json j = json::parse(R"({"a": 1, "b": {"c": "x", "ext": {"note": 1}}, "ext": {"mine": true}})");
  ObjReader r(j, "doc.json", "");
  CHECK(r.integer("a") == 1);
  REQUIRE(r.ext() != nullptr);
  CHECK((*r.ext())["mine"] == true);
  auto b = r.object("b");
  CHECK(b.string("c") == "x");
  try {
    b.done(); // b never asked for its "ext": it would be dropped, so it is an error
    FAIL("a nested ext accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Input);
    CHECK(e.where() == "doc.json:/b/ext");
    CHECK_THAT(e.what(), Catch::Contains("top level"));
  }
  CHECK_NOTHROW(r.done());
  json unread = json::parse(R"({"ext": {}})");
  ObjReader u(unread, "doc.json", "/context");
  CHECK_THROWS_AS(u.done(), Error);
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

namespace {
// The Error `f` throws (the test fails when it throws none, or something else).
Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no icnkit::Error thrown");
  return Error(ErrorKind::Runtime, "", "");
}
std::string nested(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']');
}
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// Files in `dir` whose name starts with `prefix`.
int count_files(const std::string& dir, const std::string& prefix) {
  int n = 0;
  DIR* d = opendir(dir.c_str());
  REQUIRE(d);
  while (dirent* e = readdir(d))
    if (std::string(e->d_name).rfind(prefix, 0) == 0) ++n;
  closedir(d);
  return n;
}
// A fresh scratch directory.
std::string scratch() {
  std::string t = "/tmp/icnkit-core-XXXXXX";
  REQUIRE(mkdtemp(t.data()));
  return t;
}
} // namespace

TEST_CASE("JSON nesting is bounded: 256 levels pass, 257 are bad input", "[core]") {
  CHECK(parse_json(nested(256), "doc.json").is_array());
  CHECK(parse_json("{\"a\":" + nested(255) + "}", "doc.json").is_object());
  Error e = error_of([] { parse_json(nested(257), "doc.json"); });
  CHECK(e.kind() == ErrorKind::Input);
  CHECK(e.where() == "doc.json");
  CHECK(std::string(e.what()) == "nesting deeper than 256 levels at line 1, column 257");
  // 70,000 levels (the stack overflow of the issue), open or closed, and brackets in strings.
  CHECK(kind_of([] { parse_json(nested(70000), "x"); }) == ErrorKind::Input);
  CHECK(kind_of([] { parse_json(std::string(70000, '{'), "x"); }) == ErrorKind::Input);
  const std::string in_string = "[\"" + std::string(1000, '[') + "\\\"\"]";
  CHECK(parse_json(in_string, "x")[0].get<std::string>() == std::string(1000, '[') + "\"");
}

TEST_CASE("numbers beyond a double, NUL bytes and broken JSON are bad input", "[core]") {
  for (auto text : {"[1e400]", "{\"a\": -1e999}", "1e999999999999"}) {
    Error e = error_of([&] { parse_json(text, "stdin"); });
    CHECK(e.kind() == ErrorKind::Input);
    CHECK(std::string(e.what()).find("out of range") != std::string::npos);
  }
  const std::string nul = std::string("{\"a\": 1}") + '\0' + "garbage";
  Error e = error_of([&] { parse_json(nul, "stdin"); });
  CHECK(e.kind() == ErrorKind::Input);
  CHECK(std::string(e.what()) == "NUL byte at line 1, column 9: not a JSON text");
  CHECK(kind_of([] { parse_json(std::string("{}\n") + '\0', "stdin"); }) == ErrorKind::Input);
  CHECK(kind_of([] { parse_json("{\"a\": }", "stdin"); }) == ErrorKind::Input);
  CHECK(parse_json("{\"a\": 1e-400}", "stdin")["a"].get<double>() == 0.0); // underflow is 0
}

TEST_CASE("control characters are escaped, everything else passes", "[core]") {
  CHECK(escape_control("a\nb") == "a\\nb");
  CHECK(escape_control(std::string("\r\t\x1b[2K\x7f") + '\0') == "\\r\\t\\x1b[2K\\x7f\\x00");
  CHECK(escape_control("plain: (1,2)-(3,4) µs") == "plain: (1,2)-(3,4) µs");
}

TEST_CASE("the closest name to a typo", "[core]") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("ab", "ba") == 1); // a transposition
  CHECK(edit_distance("--nchip", "--n-chip") == 1);
  const std::vector<std::string> opts = {"--n-chip", "--family", "--chips-per-board-max",
                                         "--chip-radix", "--limit"};
  CHECK(closest_name("--nchip", opts) == "--n-chip");
  CHECK(closest_name("--N-CHIP", opts) == "--n-chip");
  CHECK(closest_name("--famliy", opts) == "--family");
  CHECK(closest_name("--chip-radx", opts) == "--chip-radix");
  CHECK(closest_name("--zzzzzzzz", opts).empty());
  CHECK(closest_name("--x", opts).empty());
}

TEST_CASE("a network export piped into a tool is named as such", "[core]") {
  const std::string tail = "not an icnkit document";
  auto what = [](const std::string& text) {
    return std::string(error_of([&] { parse_document(text, "stdin"); }).what());
  };
  CHECK(what(R"({"directed": false, "multigraph": true, "graph": {}, "nodes": [], "links": []})")
            .find("NetworkX") != std::string::npos);
  CHECK(what("<?xml version=\"1.0\"?>\n<graphml>\n</graphml>\n").find("GraphML") !=
        std::string::npos);
  CHECK(what("graph G {\n0 -- 1;\n}\n").find("DOT") != std::string::npos);
  CHECK(what("// a comment\nrouter 0 node 0 router 1 1000\n").find("BookSim") != std::string::npos);
  CHECK(what("collective,algorithm,n_nodes\nall-to-all,ring,4\n").find("CSV") != std::string::npos);
  CHECK(what("graph G {}").find(tail) != std::string::npos);
  // Other JSON and other text keep their messages.
  CHECK(what(R"({"nodes": []})") == "missing key \"schema\"");
  CHECK(what("hello").rfind("not JSON", 0) == 0);
}

TEST_CASE("output through a symbolic link replaces its target and keeps the link", "[core]") {
  const std::string dir = scratch();
  std::ofstream(dir + "/target.json") << "old";
  REQUIRE(symlink("target.json", (dir + "/link.json").c_str()) == 0);
  write_output(dir + "/link.json", "new\n");
  struct stat st;
  REQUIRE(lstat((dir + "/link.json").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  CHECK(slurp(dir + "/target.json") == "new\n");
  // A dangling link: its target is created.
  REQUIRE(symlink("made.json", (dir + "/dangling.json").c_str()) == 0);
  write_output(dir + "/dangling.json", "made\n");
  CHECK(slurp(dir + "/made.json") == "made\n");
  REQUIRE(lstat((dir + "/dangling.json").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  CHECK(count_files(dir, "target.json.tmp") + count_files(dir, "made.json.tmp") == 0);
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("output keeps an existing file's mode; a new file gets the umask's", "[core]") {
  const std::string dir = scratch();
  const std::string p = dir + "/private.json";
  std::ofstream(p) << "old";
  REQUIRE(chmod(p.c_str(), 0600) == 0);
  write_output(p, "new\n");
  struct stat st;
  REQUIRE(stat(p.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
  CHECK(slurp(p) == "new\n");
  mode_t old = umask(027);
  write_output(dir + "/fresh.json", "x");
  umask(old);
  REQUIRE(stat((dir + "/fresh.json").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("output to a FIFO is written through, not replaced", "[core]") {
  const std::string dir = scratch();
  const std::string fifo = dir + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  write_output(fifo, "through the pipe\n");
  reader.join();
  CHECK(got == "through the pipe\n");
  struct stat st;
  REQUIRE(lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(count_files(dir, "fifo.tmp") == 0);
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("a prepared output holds its temporary until written or discarded", "[core]") {
  const std::string dir = scratch();
  const std::string p = dir + "/out.json";
  prepare_output(p);
  CHECK(count_files(dir, "out.json.tmp.") == 1);
  CHECK(count_files(dir, "out.json") == 1); // only the temporary
  discard_output();
  CHECK(count_files(dir, "out.json") == 0);
  prepare_output(p);
  write_output(p, "done\n");
  CHECK(count_files(dir, "out.json") == 1);
  CHECK(slurp(p) == "done\n");
  CHECK(kind_of([] { prepare_output("/nonexistent-dir/x.json"); }) == ErrorKind::Runtime);
  CHECK(kind_of([&] { prepare_output(dir); }) == ErrorKind::Runtime); // a directory
  REQUIRE(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("parse_sizes: nccl-tests' ranges and lists", "[core]") {
  using V = std::vector<std::uint64_t>;
  CHECK(parse_sizes("8KiB:64KiB:x2", "x") == V{8192, 16384, 32768, 65536});
  CHECK(parse_sizes("8KiB:100KiB:x4", "x") == V{8192, 32768}); // stops before passing TO
  CHECK(parse_sizes("1MiB:3MiB:+1MiB", "x") == V{1 << 20, 2 << 20, 3 << 20});
  CHECK(parse_sizes("4KiB,1MiB,4KiB", "x") == V{4096, 1 << 20, 4096}); // a list as given
  CHECK(parse_sizes("1GiB", "x") == V{1ull << 30});
  // Up to the largest size without wrapping round.
  CHECK(parse_sizes("1:1000000000000000000:x1000", "x").size() == 7);
  for (const char* bad : {"8KiB:1MiB", "1MiB:8KiB:x2", "8KiB:1MiB:x1", "8KiB:1MiB:x",
                          "8KiB:1MiB:*2", "8KiB::x2", "a:b:x2", "8KiB,,1MiB", "1:1000000:+1", ""})
    CHECK(test::kind_of([&] { parse_sizes(bad, "--sizes"); }) == ErrorKind::Usage);
}
