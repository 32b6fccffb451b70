// What every icnkit tool shares: the common options, reading and writing the document with
// provenance, warnings, and turning library errors into one line on stderr and an exit code.
#pragma once
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/progress.hpp"
#include "core/version.hpp"
#include "doc/document.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <new>
#include <string>
#include <vector>

namespace icnkit::tool {

struct Common {
  std::string name;
  std::vector<std::string> argv;
  std::string input = "-";
  std::string output = "-";
  bool no_provenance = false;
  bool quiet = false;
  bool pretty = false;
};

inline void warn(const Common& c, const std::string& msg) {
  std::fprintf(stderr, "%s: warning: %s\n", c.name.c_str(), msg.c_str());
}

inline void add_input(CLI::App& app, Common& c) {
  app.add_option("-i,--input", c.input, "Read the document from FILE ('-' = stdin)")
      ->default_str("-");
}

inline void add_output(CLI::App& app, Common& c) {
  app.add_option("-o,--output", c.output, "Write to FILE atomically ('-' = stdout)")
      ->default_str("-");
  app.add_flag("--no-provenance", c.no_provenance, "Do not record this run in the provenance list");
  app.add_flag("--pretty", c.pretty, "Indent the JSON output");
  app.add_flag("-q,--quiet", c.quiet, "No progress display on stderr");
}

inline Document load(const Common& c) {
  return parse_document(read_input(c.input), source_name(c.input));
}

inline void store(const Common& c, Document& d, std::optional<std::uint64_t> seed = std::nullopt) {
  if (!c.no_provenance) d.provenance.push_back({c.name, std::string(kVersion), c.argv, seed});
  write_output(c.output, dump_document(d, c.pretty));
}

// Runs a tool: `setup` declares options on the app, `body` does the work once they are parsed.
inline int run(const char* name, const char* description, int argc, char** argv,
               const std::function<void(CLI::App&, Common&)>& setup,
               const std::function<void(Common&)>& body) {
  Common c;
  c.name = name;
  for (int i = 1; i < argc; ++i) c.argv.emplace_back(argv[i]);
  try {
    CLI::App app(description, name);
    app.set_version_flag("--version",
                         std::string(name) + " " + kVersion + " (git " + kGitRevision + ")");
    app.get_formatter()->column_width(34);
    setup(app, c);
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::string msg = e.what();
      for (char& ch : msg)
        if (ch == '\n') ch = ' ';
      std::fprintf(stderr, "%s: error: %s (see %s --help)\n", name, msg.c_str(), name);
      return static_cast<int>(ErrorKind::Usage);
    }
    Progress::set_quiet(c.quiet);
    body(c);
    return 0;
  } catch (const Error& e) {
    if (e.where().empty())
      std::fprintf(stderr, "%s: error: %s\n", name, e.what());
    else
      std::fprintf(stderr, "%s: error: %s: %s\n", name, e.where().c_str(), e.what());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", name);
    return static_cast<int>(ErrorKind::Runtime);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: internal error: %s\n", name, e.what());
    return static_cast<int>(ErrorKind::Runtime);
  }
}

} // namespace icnkit::tool
