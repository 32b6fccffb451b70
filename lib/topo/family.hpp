// The family interface and its registry: one entry per topology family, describing itself
// (name, summary, reference, applicable scopes, where its endpoints sit) and enumerating and
// generating its networks.
#pragma once
#include "topo/candidate.hpp"
#include "topo/context.hpp"
#include "topo/network.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace icnkit::topo {

class NetworkSite;

// Overrides for every link the family builds (otherwise the context's per-kind defaults).
struct GenerateOptions {
  PerKind link_bandwidth; // bytes/s per direction
  PerKind link_latency;   // s per hop
  bool twist = false;     // torus only: the TPU v4 twisted wrap-around links
};

// Where a family's endpoints sit in the spec's hardware model (@tbl-spec-topo-11): chips
// (Tier 6: torus, mesh, hypercube; one endpoint = one chip) or boards (Tier 7: every other
// family; one endpoint = one board of derived_chips_per_board chips, expanded by the framework).
enum class Leaf { Chip, Board };

// Metrics a candidate has before its network is built, from the family's closed forms: what
// `topo-enum --sort-by` orders by. Generation computes the same figures on the built graph and
// the tests hold the two equal.
struct Estimate {
  std::int64_t diameter = 0; // chip-to-chip hops
  std::int64_t link_count = 0;
  std::int64_t switch_count = 0;
};

// A run of candidates of one family that share their derived chips_per_board and their family
// warnings: `count` of them, made on demand from the family's parameters `p` (family-defined)
// and an index in [0, count). Runs keep enumeration cheap where a parameter sweeps a range
// (a dragonfly's group count): the framework counts them all but makes only those it returns.
struct CandidateRun {
  std::int64_t count = 1;
  std::int64_t chips_per_board = 1;
  std::uint32_t warnings = 0;      // bit i: the family's warning_names()[i]
  std::array<std::int64_t, 8> p{}; // the family's parameters
};

// Where a family hands its runs, one at a time and in its order (the framework counts, filters
// and keeps only what it returns, so a family with millions of candidates costs no memory).
class RunSink {
public:
  virtual ~RunSink() = default;
  virtual void push_back(const CandidateRun& r) = 0;
};

class Family {
public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;
  virtual std::string summary() const = 0;
  virtual std::string reference() const = 0;
  virtual std::vector<Scope> scopes() const = 0;
  virtual Leaf leaf() const = 0;
  // The parameter space the family enumerates, with its ranges (for --describe).
  virtual std::string parameters() const = 0;
  // The keys of its candidates' family_attrs (what --where can filter on besides n_endpoint
  // and chips_per_board).
  virtual std::vector<std::string> attr_keys() const = 0;
  // The family's own usability warnings, in the order a candidate lists them.
  virtual const std::vector<std::string>& warning_names() const = 0;
  // Every parameter set that meets the correctness constraints, as runs in the family's
  // preferred order (the order inside a status). The framework adds the warnings that apply
  // to every family, filters by intra_board_topo, and applies the status order and the cap.
  virtual void enumerate(const Context& ctx, RunSink& out) const = 0;
  // False for a family whose candidates come from elsewhere (the command line: composed
  // networks), whose enumerate() returns nothing.
  virtual bool enumerated() const { return true; }
  // Candidate i of a run (family_attrs, n_endpoint, derived_chips_per_board, family warnings).
  virtual Candidate make(const Context& ctx, const CandidateRun& run, std::int64_t i) const = 0;
  // An integer family attribute of candidate i of a run without making the candidate (for
  // --where on families with millions of candidates); nullopt: make it and look.
  virtual std::optional<std::int64_t> attr(const CandidateRun&, std::int64_t,
                                           const std::string&) const {
    return std::nullopt;
  }
  // Closed-form metrics of candidate i of a run.
  virtual Estimate estimate(const Context& ctx, const CandidateRun& run, std::int64_t i) const = 0;
  // Builds the network of one candidate: nodes, links, hierarchy and metrics. Board-leaf
  // families build it through expand_boards (topo/boards.hpp). Throws Error(Input) when the
  // candidate's attributes are not the family's or break its constraints.
  virtual Network generate(const Context& ctx, const Candidate& c,
                           const GenerateOptions& o) const = 0;
  // Checks a network of this family read from a document against what generate builds, where
  // downstream code relies on it (topo/structure.hpp): family_attrs (the family's keys only,
  // well-formed, agreeing with the network), coordinates, the links' dim/dir, the switches.
  // Runs after the invariants; throws Error(Input) naming the JSON pointer `at` locates.
  virtual void check_network(const Network& n, const NetworkSite& at) const = 0;
};

// The families that are implemented, in registry order.
const std::vector<const Family*>& families();
// The implemented family of that name, or nullptr.
const Family* find_family(const std::string& name);

// Link kind from the smallest container both ends share: board c2c, rack b2b, pod r2r, else p2p.
LinkKind link_kind_between(const Network& n, std::int64_t a, std::int64_t b);
// Bandwidth and latency of a link of that kind (a NIC link: is_nic_link), from the options or the
// context.
LinkParams link_params(const Context& ctx, const GenerateOptions& o, LinkKind k,
                       bool nic_link = false);
// Appends a link a-b with the kind and parameters the hierarchy gives it; returns its id.
std::int64_t add_link(Network& n, const Context& ctx, const GenerateOptions& o, std::int64_t a,
                      std::int64_t b, int dim = -1, int dir = 0);

// The warning names of a run's mask, in the family's order.
std::vector<std::string> warnings_of(const Family& f, std::uint32_t mask);

// Switch radix above which a switch is not buildable with 2024's mainstream parts: the spec's
// fat-tree bound (k <= 64) and single-switch rule (N_endpoint > 64 -> radix-too-large), applied
// to every switch of every family.
inline constexpr std::int64_t kMaxSwitchRadix = 64;

} // namespace icnkit::topo
