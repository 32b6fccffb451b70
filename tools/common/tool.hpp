// What every icnkit tool shares: the common options, reading and writing the document with
// provenance, warnings, and turning library errors into one line on stderr and an exit code.
#pragma once
#include "core/error.hpp"
#include "core/io.hpp"
#include "core/progress.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "doc/document.hpp"
#include "doc/summary.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace icnkit::tool {

// The library names a command-line parameter in braces, {fail_link} (core/error.hpp); a tool
// spells it as its option, --fail-link. Braces around anything else are left as they are.
inline std::string spell_options(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  auto lower = [](char ch) { return ch >= 'a' && ch <= 'z'; };
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i + 1;
    if (text[i] == '{' && j < text.size() && lower(text[j])) {
      while (j < text.size() &&
             (lower(text[j]) || (text[j] >= '0' && text[j] <= '9') || text[j] == '_'))
        ++j;
      if (j < text.size() && text[j] == '}') {
        out += "--";
        for (std::size_t k = i + 1; k < j; ++k) out += text[k] == '_' ? '-' : text[k];
        i = j + 1;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

// Every string of a JSON value spelled for this command line (spell_options).
inline void spell_options(json& j) {
  if (j.is_string())
    j = spell_options(j.get<std::string>());
  else if (j.is_structured())
    for (json& v : j) spell_options(v);
}

struct Common {
  std::string name;
  std::vector<std::string> argv;
  std::string input = "-";
  std::string output = "-";
  bool no_provenance = false;
  bool quiet = false;
  bool pretty = false;
  bool strict = false; // --strict (add_strict): a failed verdict is an error, not a warning
  // --describe (add_describe): the tool's registry, as text or (--format json) as JSON.
  bool describe = false;
  std::string describe_format;         // the --format add_describe adds where a tool has none
  std::function<json()> describe_json; // the registry; the text is rendered from it
  bool format_given = false;           // --format was on the command line
  // Write this section's summary for people instead of the document (--format table, or
  // standard output a terminal): see table_format().
  std::optional<SummarySection> table;
};

// --format table, and the terminal default. A tool calls this with its --format value before
// it writes: "table" asks for the summary of section `s` (and the value becomes "json", the
// path that builds the document); without --format, standard output a terminal and no -o, the
// summary is written too (a person is reading). A pipe or a file gets the JSON document.
inline void table_format(Common& c, std::string& format, SummarySection s) {
  if (format == "table") {
    c.table = s;
    format = "json";
  } else if (!c.format_given && c.output == "-" && isatty(STDOUT_FILENO)) {
    c.table = s;
  }
}

inline void warn(const Common& c, const std::string& msg) {
  std::fprintf(stderr, "%s: warning: %s\n", c.name.c_str(),
               escape_control(spell_options(msg)).c_str());
}

// --- Verdicts and --strict -------------------------------------------------------------------
// A verdict is what a tool found out about a valid input and records in its section: the routing
// deadlocks, pairs are unreachable, a verification failed, a simulation saturated. By default a
// failed verdict is a warning (`TOOL: warning: WHAT`) and the document is written (exit 0), so it
// can be inspected; with --strict it is an error: one line `TOOL: error: --strict: WHAT`, nothing
// on stdout, -o untouched, exit 4. 4 because the input was valid and the requirement --strict
// states (deadlock-free, everything delivered, verified) is not met: the exit code of an infeasible
// request (ErrorKind::Infeasible); 1 would blame the machine, 2 the command line, 3 the document.
inline void add_strict(CLI::App& app, Common& c) {
  app.add_flag("--strict", c.strict,
               "Fail (exit 4, nothing written) instead of warning when a verification fails: "
               "for Makefiles and CI");
}

// Reports a verdict. Call it for every verdict before writing the output: under --strict the
// first failed one throws Error(Infeasible) at "--strict" and nothing is written.
inline void verdict(const Common& c, bool ok, const std::string& what) {
  if (ok) return;
  if (c.strict) fail_infeasible("--strict", what);
  warn(c, what);
}

// --- --describe -------------------------------------------------------------------------------
// Every tool describes what it can do from its registries: `--describe` prints it as text for
// people, `--describe --format json` as JSON for programs (one object: "tool" and the registry's
// lists). The text is rendered from the JSON, so the two never disagree. Call after the tool's
// own --format (if it has one); a tool without one gets `--format json`.
inline void add_describe(CLI::App& app, Common& c, const std::string& what,
                         std::function<json()> registry) {
  app.add_flag("--describe", c.describe,
               "Print " + what + " (text; with --format json as JSON) and exit");
  if (!app.get_option_no_throw("--format"))
    app.add_option("--format", c.describe_format,
                   "Output format: json (the document; with --describe, JSON instead of text) "
                   "or table (a summary for people; the default when stdout is a terminal)")
        ->check(CLI::IsMember({"json", "table"}));
  c.describe_json = std::move(registry);
}

namespace detail {
inline std::string describe_scalar(const json& v) {
  if (v.is_string()) return v.get<std::string>().empty() ? "none" : v.get<std::string>();
  if (v.is_array()) {
    std::string s;
    for (const json& x : v) s += (s.empty() ? "" : ", ") + describe_scalar(x);
    return s.empty() ? "none" : s;
  }
  return v.dump();
}
inline bool is_list_of_objects(const json& v) {
  return v.is_array() && !v.empty() && v.front().is_object();
}
// One entry: its name on a line of its own, then its fields (describe_fields), indented.
inline void describe_item(std::string& out, const json& item, const std::string& indent);
// An entry's fields: its summary, its other fields as `key: value`, then its objects (an
// algorithm's forms) and its lists of entries (parameters) under their keys, indented.
inline void describe_fields(std::string& out, const json& item, const std::string& indent) {
  if (item.contains("summary")) out += indent + describe_scalar(item["summary"]) + "\n";
  auto nested = [](const json& v) { return is_list_of_objects(v) || v.is_object(); };
  for (auto it = item.begin(); it != item.end(); ++it)
    if (it.key() != "name" && it.key() != "summary" && !nested(it.value()))
      out += indent + it.key() + ": " + describe_scalar(it.value()) + "\n";
  for (auto it = item.begin(); it != item.end(); ++it)
    if (it.value().is_object() && it.key() != "parameters") {
      out += indent + it.key() + ":\n";
      describe_fields(out, it.value(), indent + "  ");
    } else if (it.value().is_object()) { // parameters by name: "name: what it is"
      if (it.value().empty()) continue;
      out += indent + it.key() + ":\n";
      for (auto p = it.value().begin(); p != it.value().end(); ++p)
        out += indent + "  " + p.key() + ": " + describe_scalar(p.value()) + "\n";
    } else if (is_list_of_objects(it.value())) {
      out += indent + it.key() + ":\n";
      for (const json& sub : it.value()) describe_item(out, sub, indent + "  ");
    }
}
inline void describe_item(std::string& out, const json& item, const std::string& indent) {
  out += indent + (item.contains("name") ? describe_scalar(item["name"]) : "?") + "\n";
  describe_fields(out, item, indent + "  ");
}
} // namespace detail

// The text form of a --describe object, like a manual page: top-level fields as `key: value`,
// then each list under its key in capitals, one entry per paragraph (name on a line of its own,
// summary, other fields as `key: value`, nested lists indented).
inline std::string describe_text(const json& d) {
  std::string out;
  for (auto it = d.begin(); it != d.end(); ++it)
    if (it.key() != "tool" && !detail::is_list_of_objects(it.value()))
      out += it.key() + ": " + detail::describe_scalar(it.value()) + "\n";
  for (auto it = d.begin(); it != d.end(); ++it) {
    if (!detail::is_list_of_objects(it.value())) continue;
    if (!out.empty()) out += "\n";
    std::string heading = it.key();
    for (char& ch : heading) ch = ch == '_' ? ' ' : static_cast<char>(std::toupper(ch));
    out += heading + "\n";
    for (const json& item : it.value()) {
      out += "\n";
      detail::describe_item(out, item, "");
    }
  }
  return out;
}

// Prints the --describe object of a tool that asked for it (run() calls this).
inline void print_description(CLI::App& app, const Common& c) {
  const CLI::Option* f = app.get_option_no_throw("--format");
  const bool as_json = f && f->count() > 0;
  if (as_json && f->as<std::string>() != "json")
    fail_usage("--format", "--describe prints text, or JSON with --format json; not '" +
                               f->as<std::string>() + "'");
  json d = {{"tool", c.name}};
  json reg = c.describe_json();
  for (auto it = reg.begin(); it != reg.end(); ++it) d[it.key()] = it.value();
  spell_options(d);
  write_output(c.output, as_json ? d.dump(2) + "\n" : describe_text(d));
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
  if (c.table) {
    write_output(c.output, summary_text(d, *c.table));
    return;
  }
  if (!c.no_provenance)
    d.provenance.push_back(
        {c.name, std::string(kVersion) + " (git " + kGitRevision + ")", c.argv, seed});
  write_output(c.output, dump_document(d, c.pretty));
}

namespace detail {
// Every integer option (CLI11 type INT or UINT, vectors included) takes plain decimal only:
// CLI11 alone would read '' as 0, '0100' as octal, '0x40' as hex and '-1' into an unsigned as
// 2^64-1. Applied by run() to every option a tool declares.
inline std::string strict_integer(const std::string& v, bool is_unsigned) {
  const std::size_t digits = !is_unsigned && !v.empty() && v[0] == '-' ? 1 : 0;
  const bool ok = v.size() > digits &&
                  v.find_first_not_of("0123456789", digits) == std::string::npos &&
                  (v[digits] != '0' || v.size() == digits + 1) && v != "-0";
  if (!ok)
    return "'" + v + "' is not " +
           (is_unsigned ? "a non-negative integer (write it in decimal: digits, no sign"
                        : "an integer (write it in decimal: an optional '-', digits") +
           ", no leading zeros)";
  const char* end = v.data() + v.size();
  std::errc ec;
  if (is_unsigned) {
    std::uint64_t x;
    ec = std::from_chars(v.data(), end, x).ec;
  } else {
    std::int64_t x;
    ec = std::from_chars(v.data(), end, x).ec;
  }
  if (ec != std::errc()) return "'" + v + "' is out of range";
  return "";
}

inline void make_integers_strict(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    std::string type = o->get_type_name();
    type = type.substr(0, type.find(':'));
    if (type != "INT" && type != "UINT") continue;
    const bool is_unsigned = type == "UINT";
    o->check(
        CLI::Validator([is_unsigned](std::string& v) { return strict_integer(v, is_unsigned); }, "",
                       "strict-integer"));
  }
}

// An option given an empty value ('--sizes ""', '--link-bw='): refused, never read as "not
// given" or as 0. Applied by run() to every option that takes a value.
inline void refuse_empty_values(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_type_size_max() == 0 || o->count() == 0) continue; // a flag, or not given
    for (const std::string& v : o->results())
      if (v.empty()) fail_usage(o->get_name(), "empty value (give one, or leave the option out)");
  }
}

// The error for arguments no option took: an unknown option names the closest one.
inline std::string extras_error(const CLI::App& app, const std::vector<std::string>& extras) {
  for (const std::string& arg : extras) {
    if (arg.size() < 2 || arg[0] != '-' || std::isdigit(static_cast<unsigned char>(arg[1])))
      continue;
    std::string name = arg.substr(0, arg.find('='));
    std::vector<std::string> known;
    for (const CLI::Option* o : app.get_options())
      for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
    std::string best = closest_name(name, known);
    return name + ": unknown option" + (best.empty() ? "" : "; did you mean " + best + "?");
  }
  return "unexpected argument '" + extras.front() + "'";
}
} // namespace detail

// Runs a tool: `setup` declares options on the app, `body` does the work once they are parsed.
inline int run(const char* name, const char* description, int argc, char** argv,
               const std::function<void(CLI::App&, Common&)>& setup,
               const std::function<void(Common&)>& body) {
  Common c;
  c.name = name;
  for (int i = 1; i < argc; ++i) c.argv.emplace_back(argv[i]);
  // Error lines echo user text: control characters are escaped so each stays one line.
  auto error_line = [&](const std::string& where, const std::string& what) {
    std::string line = std::string(name) + ": error: ";
    if (!where.empty()) line += escape_control(where) + ": ";
    line += escape_control(what) + "\n";
    std::fputs(line.c_str(), stderr);
  };
  struct Discard { // the temporary of -o FILE goes, whichever way run() ends
    ~Discard() { discard_output(); }
  } discard;
  try {
    CLI::App app(description, name);
    app.set_version_flag("--version",
                         std::string(name) + " " + kVersion + " (git " + kGitRevision + ")");
    app.get_formatter()->column_width(34);
    // Documents are UTF-8 JSON and record the command line (provenance): an argument that is
    // not UTF-8 text is refused here, not mangled or failed on when the document is written.
    for (std::size_t k = 0; k < c.argv.size(); ++k)
      if (!is_utf8(c.argv[k])) fail_usage("argument " + std::to_string(k + 1), "is not UTF-8 text");
    setup(app, c);
    // Help texts that come from the library's registries name parameters in braces.
    app.description(spell_options(app.get_description()));
    app.footer(spell_options(app.get_footer()));
    for (CLI::Option* o : app.get_options()) o->description(spell_options(o->get_description()));
    detail::make_integers_strict(app);
    app.allow_extras(); // collected below, to suggest the option a typo meant
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      error_line("", std::string(e.what()) + " (see " + name + " --help)");
      return static_cast<int>(ErrorKind::Usage);
    }
    if (!app.remaining().empty()) {
      error_line("", detail::extras_error(app, app.remaining()) + " (see " + name + " --help)");
      return static_cast<int>(ErrorKind::Usage);
    }
    detail::refuse_empty_values(app);
    if (const CLI::Option* f = app.get_option_no_throw("--format")) c.format_given = f->count() > 0;
    Progress::set_quiet(c.quiet);
    prepare_output(c.output);
    if (c.describe) {
      print_description(app, c);
      return 0;
    }
    body(c);
    return 0;
  } catch (const Error& e) {
    error_line(spell_options(e.where()), spell_options(e.what()));
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    error_line("", "out of memory");
    return static_cast<int>(ErrorKind::Runtime);
  } catch (const std::exception& e) {
    error_line("", std::string("internal error: ") + e.what());
    return static_cast<int>(ErrorKind::Runtime);
  }
}

} // namespace icnkit::tool
