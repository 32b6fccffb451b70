// The routing-algorithm registry: one explicit list, each entry describing itself (name, summary,
// paper reference, parameters with meaning, default and allowed values) and building its routing
// function. It is the one source of truth for topo-route's --help and --describe, for validating
// parameters (from the command line or from a document) and for make_routing().
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
  std::string name;   // key in routing.params
  std::string option; // topo-route's option that sets it
  ParamType type = ParamType::Bool;
  std::string meaning;
  json default_value;               // null: the default depends on the network (see default_text)
  std::string default_text;         // the default as people read it
  std::vector<std::string> choices; // ParamType::Choice
  std::string allowed;              // allowed values as people read them
  std::string flag_help;            // ParamType::Bool: help of the --no-* option that clears it
};

// Where parameter errors are reported: the command line (Error(Usage) at the option) or a
// document (Error(Input) at the JSON pointer).
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
// have is an error at its option.
json complete_params(const Algorithm& a, const json& given, const ParamErrors& errors);
// Builds through the registry: complete_params + the entry's build.
Built build_routing(const Algorithm& a, const json& params, const topo::Network& n,
                    const topo::Faults& f, const ParamErrors& errors);

// The registry as one JSON object (topo-route --describe): every algorithm with its summary,
// reference and parameters.
json describe();
// Help text of the option that sets parameter `name` (meaning, allowed values, default, and the
// algorithms that have it).
std::string param_help(const std::string& name);
// The allowed values of a choice parameter (for the command line's checks).
std::vector<std::string> param_choices(const std::string& name);

} // namespace icnkit::route
