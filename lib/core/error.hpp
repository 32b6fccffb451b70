// Typed errors and the exit codes they map to (docs/tools.md, "What every tool guarantees").
// Libraries throw; only main() exits.
//
// The library knows no command line. Where an error (its `where` or its text) or a help text
// must name a parameter the user sets, it writes the parameter in braces, snake_case:
// "{fail_link}", "{hierarchy} dims". A front end spells it: the tools print --fail-link
// (tools/common/tool.hpp, spell_options); a document pointer (/routing/params/vcs) or any
// other `where` is printed as it is.
#pragma once
#include <stdexcept>
#include <string>

namespace icnkit {

enum class ErrorKind : int {
  Runtime = 1,    // I/O failure, internal invariant violated
  Usage = 2,      // bad command line
  Input = 3,      // bad input document: not JSON, wrong schema, failed validation, wrong network
  Infeasible = 4, // valid input, but the request cannot be met
};

class Error : public std::runtime_error {
public:
  Error(ErrorKind kind, std::string where, const std::string& what)
      : std::runtime_error(what), kind_(kind), where_(std::move(where)) {}
  ErrorKind kind() const { return kind_; }
  const std::string& where() const { return where_; }
  int exit_code() const { return static_cast<int>(kind_); }

private:
  ErrorKind kind_;
  std::string where_;
};

[[noreturn]] inline void fail_runtime(std::string where, const std::string& what) {
  throw Error(ErrorKind::Runtime, std::move(where), what);
}
[[noreturn]] inline void fail_usage(std::string where, const std::string& what) {
  throw Error(ErrorKind::Usage, std::move(where), what);
}
[[noreturn]] inline void fail_input(std::string where, const std::string& what) {
  throw Error(ErrorKind::Input, std::move(where), what);
}
[[noreturn]] inline void fail_infeasible(std::string where, const std::string& what) {
  throw Error(ErrorKind::Infeasible, std::move(where), what);
}

} // namespace icnkit
