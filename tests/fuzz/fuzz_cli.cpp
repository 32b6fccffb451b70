// Fuzz target: every tool's whole command line, as a user types it. The five tools' mains are
// compiled in under other names (tests/fuzz/CMakeLists.txt: main -> icnkit_main_<tool>) and run
// in this process with stdin, stdout and stderr redirected to files. An input is: byte 0 picks
// the tool, byte 1 the document on stdin (none, candidates, a network, routed, scheduled, with a
// report; a torus or a fat-tree), the rest the arguments, one per line.
// Findings, besides crashes, sanitizer reports and hangs: an exit status other than 0, 2, 3 or 4
// (1 only for a file the arguments name that cannot be opened or made: any other exit 1 is an
// internal invariant); on an error, stderr that is not exactly one line `TOOL: error: ...`, or
// anything on stdout.
// Guard rails (not findings): arguments naming paths outside the scratch directory (a leading
// '/', '..') and numbers of more than four digits (a request for hours of work is not a hang)
// are skipped; the tools run in a scratch directory of their own, removed at exit.
#include "fuzz.hpp"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

int icnkit_main_topo_enum(int argc, char** argv);
int icnkit_main_topo_gen(int argc, char** argv);
int icnkit_main_topo_route(int argc, char** argv);
int icnkit_main_coll_sched(int argc, char** argv);
int icnkit_main_net_sim(int argc, char** argv);

namespace {

struct Tool {
  const char* name;
  int (*main)(int, char**);
};
const Tool kTools[] = {{"topo-enum", icnkit_main_topo_enum},
                       {"topo-gen", icnkit_main_topo_gen},
                       {"topo-route", icnkit_main_topo_route},
                       {"coll-sched", icnkit_main_coll_sched},
                       {"net-sim", icnkit_main_net_sim}};

std::string scratch; // the tools' working directory

// Runs one tool with fd 0 from `in` (empty: /dev/null) and fds 1, 2 to files; returns the exit
// status and what went to stdout and stderr.
struct Run {
  int status = 0;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::string s;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[65536];
    std::size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
    std::fclose(f);
  }
  return s;
}

Run run(const Tool& t, const std::string& in, std::vector<std::string> args) {
  std::fflush(stdout);
  std::fflush(stderr);
  const int saved[3] = {dup(0), dup(1), dup(2)};
  const std::string out_path = scratch + "/.stdout", err_path = scratch + "/.stderr";
  const int fds[3] = {open(in.empty() ? "/dev/null" : in.c_str(), O_RDONLY),
                      open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600),
                      open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600)};
  for (int k = 0; k < 3; ++k) {
    if (fds[k] < 0 || saved[k] < 0) icnkit::fuzz::finding("harness: cannot redirect fd");
    dup2(fds[k], k);
    close(fds[k]);
  }
  args.insert(args.begin(), t.name);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The tool runs in the scratch directory (what it writes stays there); libFuzzer, which reads
  // its corpus by relative paths between runs, in the directory it was started in.
  char here[4096];
  if (!getcwd(here, sizeof here) || chdir(scratch.c_str()) != 0)
    icnkit::fuzz::finding("harness: chdir");
  Run r;
  r.status = t.main(static_cast<int>(args.size()), argv.data());
  std::fflush(stdout);
  std::fflush(stderr);
  if (chdir(here) != 0) icnkit::fuzz::finding("harness: chdir back");
  for (int k = 0; k < 3; ++k) {
    dup2(saved[k], k);
    close(saved[k]);
  }
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

// The documents on stdin: made once by the tools themselves.
std::vector<std::string> documents;

void make(const char* tool, const std::string& in, std::vector<std::string> args,
          const std::string& name) {
  for (const Tool& t : kTools)
    if (std::string(t.name) == tool) {
      args.push_back("-o");
      args.push_back(scratch + "/" + name);
      const Run r = run(t, in.empty() ? "" : scratch + "/" + in, args);
      if (r.status != 0) icnkit::fuzz::finding("harness: " + name + ": " + r.err);
      documents.push_back(scratch + "/" + name);
    }
}

void init() {
  char tmpl[] = "/tmp/icnkit-fuzz-cli-XXXXXX";
  if (!mkdtemp(tmpl)) icnkit::fuzz::finding("harness: mkdtemp");
  scratch = tmpl;
  std::atexit([] { std::filesystem::remove_all(scratch); });
  documents.push_back(""); // no stdin
  make("topo-enum", "", {"-n", "16", "--no-provenance"}, "cands.json");
  make("topo-gen", "cands.json", {"--pick", "torus:4x4/b2x2"}, "net.json");
  make("topo-route", "net.json", {}, "routed.json");
  make("coll-sched", "routed.json", {"--collective", "all-to-all", "--bytes", "64KiB"},
       "sched.json");
  make("net-sim", "sched.json", {}, "report.json");
  make("topo-enum", "",
       {"-n", "16", "--family", "fat-tree", "--where", "k=8,layers=2,chips_per_board=1"},
       "ft-cands.json");
  make("topo-gen", "ft-cands.json", {"--fail-link", "#20"}, "ft.json");
  make("topo-route", "ft.json", {"--algorithm", "minimal"}, "ft-routed.json");
}

// A number with more than four digits, a path out of the scratch directory: not a question
// for this target.
bool skipped(const std::string& a) {
  if (!a.empty() && a[0] == '/') return true;
  if (a.find("..") != std::string::npos) return true;
  int run = 0;
  for (char c : a) {
    run = c >= '0' && c <= '9' ? run + 1 : 0;
    if (run > 4) return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool ready = (init(), true);
  (void)ready;
  if (size < 2) return 0;
  const Tool& t = kTools[data[0] % 5];
  const std::string& in = documents[data[1] % documents.size()];
  std::vector<std::string> args;
  std::string cur;
  for (std::size_t k = 2; k < size; ++k) {
    const char c = static_cast<char>(data[k]);
    if (c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (size > 2) args.push_back(cur);
  if (args.size() > 24) return 0;
  for (const std::string& a : args)
    if (skipped(a)) return 0;
  const Run r = run(t, in, args);
  const std::string what = std::string(t.name) + " exit " + std::to_string(r.status);
  if (r.status == 0) return 0;
  // Exit 1 is a runtime failure: here only a file the arguments name that cannot be opened,
  // created or read (the fuzzer makes names up); anything else is an internal invariant.
  bool io = false;
  for (const char* phrase :
       {": cannot open: ", ": cannot create temporary file: ", ": is a directory",
        ": cannot write: ", ": read failed: ", ": path too long", ": too many levels of symbolic"})
    io = io || r.err.find(phrase) != std::string::npos;
  if (r.status != 2 && r.status != 3 && r.status != 4 && !(r.status == 1 && io))
    icnkit::fuzz::finding(what + ": " + r.err.substr(0, 300));
  if (!r.out.empty()) icnkit::fuzz::finding(what + ": wrote to stdout on error");
  const std::string head = std::string(t.name) + ": error: ";
  if (r.err.compare(0, head.size(), head) != 0 || r.err.empty() || r.err.back() != '\n' ||
      r.err.find('\n') != r.err.size() - 1)
    icnkit::fuzz::finding(what + ": stderr is not one error line: " + r.err.substr(0, 300));
  return 0;
}
