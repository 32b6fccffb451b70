// The family interface and its registry: one entry per topology family, describing itself
// (name, summary, reference, applicable scopes) and enumerating and generating its networks.
#pragma once
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/network.hpp"

#include <optional>
#include <string>
#include <vector>

namespace icnkit::topo {

// Overrides for every link the family builds (otherwise the context's per-kind defaults).
struct GenerateOptions {
  std::optional<double> link_bandwidth_bytes_per_s;
  std::optional<double> link_latency_s;
};

class Family {
public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual std::string reference() const = 0;
  virtual std::vector<Scope> scopes() const = 0;
  // Every parameter set that meets the correctness constraints, with the family's own
  // usability warnings, in the family's preferred order. The framework adds the warnings
  // that apply to every family and applies the status order and the cap.
  virtual std::vector<Candidate> enumerate(const Context& ctx) const = 0;
  // Builds the network of one candidate: nodes, links, hierarchy and metrics.
  // Throws Error(Input) when the candidate's attributes are not the family's.
  virtual Network generate(const Context& ctx, const Candidate& c,
                           const GenerateOptions& o) const = 0;
};

// The families that are implemented, in registry order.
const std::vector<const Family*>& families();
// The implemented family of that name, or nullptr.
const Family* find_family(const std::string& name);
// Every family name the spec defines (implemented or not), for clear "not yet" messages.
const std::vector<std::string>& spec_family_names();

// Link kind from the smallest container both ends share: board c2c, rack b2b, pod r2r, else p2p.
LinkKind link_kind_between(const Network& n, std::int64_t a, std::int64_t b);
// Bandwidth and latency of a link of that kind, from the options or the context.
LinkParams link_params(const Context& ctx, const GenerateOptions& o, LinkKind k);

} // namespace icnkit::topo
