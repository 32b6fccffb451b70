// The routing-algorithm registry: one explicit list, each entry describing itself (name, summary,
// paper reference, parameters with meaning, default and allowed values) and building its routing
// function. It is the one source of truth for the command line's routing options and the
// description of the algorithms, for validating parameters (from the command line or from a
// document) and for make_routing(). It names no command-line option: a tool derives its options
// from the parameters (topo-route: tools/route/options.hpp).
#pragma once
#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "route/routing.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace icnkit::route {

enum class ParamType { Bool, Choice, IntList };

struct ParamSpec {
  std::string name; // key in routing.params
  ParamType type = ParamType::Bool;
  std::string meaning;
  json default_value;               // null: the default depends on the network (see default_text)
  std::string default_text;         // the default as people read it
  std::vector<std::string> choices; // ParamType::Choice
  std::string allowed;              // allowed values as people read them
  // ParamType::Bool defaulting to true: what turning it off does, as a help text says it (no
  // option name in it; a command line's switch that clears the parameter shows it).
  std::string off_help;
};

// Where parameter errors are reported: the command line (Error(Usage) at the option the tool
// derives from the parameter) or a document (Error(Input) at the JSON pointer).
struct ParamErrors {
  ErrorKind kind = ErrorKind::Input;
  std::function<std::string(const ParamSpec&)> where;
  [[noreturn]] void fail(const ParamSpec& p, const std::string& what) const {
    throw Error(kind, where(p), what);
  }
};

struct Built {
  std::unique_ptr<RoutingFunction> fn;
  json params; // complete and canonical, as the routing section records them
};

struct Algorithm {
  std::string name;
  std::string summary;
  std::string reference;
  std::vector<ParamSpec> params;
  // Checks the (type-checked, defaults-filled) parameters against the network, fills the
  // defaults that depend on it, and builds the routing function. Error(Infeasible) when the
  // algorithm cannot route this kind of network.
  std::function<Built(const json& params, const topo::Network&, const topo::Faults&,
                      const ParamErrors&)>
      build;

  const ParamSpec* param(const std::string& name) const;
};

// The registered algorithms, in registry order.
const std::vector<Algorithm>& algorithms();
const Algorithm* find_algorithm(const std::string& name);
// The algorithm of that name, or Error(kind) at `where` listing the known names.
const Algorithm& require_algorithm(const std::string& name, ErrorKind kind,
                                   const std::string& where);
// "dor, ..." for messages and help.
std::string algorithm_names();

// Reads a params object strictly (types, choices, unknown keys) and fills the defaults.
json read_params(const Algorithm& a, ObjReader& r);
// Fills the defaults of params given on the command line; a parameter the algorithm does not
// have is an error at errors.where of a ParamSpec with only its name.
json complete_params(const Algorithm& a, const json& given, const ParamErrors& errors);
// Builds through the registry: complete_params + the entry's build.
Built build_routing(const Algorithm& a, const json& params, const topo::Network& n,
                    const topo::Faults& f, const ParamErrors& errors);

// The registry as one JSON object (for --describe): every algorithm with its summary, reference
// and parameters (name, summary, allowed, default).
json describe();

// Every parameter of the registry once, in registry order (the first algorithm that has it
// gives the spec), with the algorithms that have it: what a command line declares options for.
struct ParamUse {
  const ParamSpec* spec = nullptr;
  std::vector<std::string> algorithms;
};
std::vector<ParamUse> parameters();

} // namespace icnkit::route
