// The framework around the families: enumerate (warnings for every family, the
// intra_board_topo filter, status order or a metric order, the 50-result cap) and generate
// (invariants on every output).
#pragma once
#include "topo/cost.hpp"
#include "topo/family.hpp"

#include <optional>

namespace icnkit::topo {

inline constexpr std::size_t kDefaultResultCap = 50;
// The most candidates one list may hold when every result is asked for (about 2 KB of JSON
// each in memory): beyond it, --all is refused with the count so the user narrows the request.
inline constexpr std::int64_t kMaxListed = 200000;

// The family for a name: Error(Usage) naming the families if the name is unknown.
const Family& require_family(const std::string& name, const std::string& where);

// What `--sort-by` can order by: the closed-form metrics every family has before generation, and
// cost and power (capex_usd and watts of network.metrics.cost), which need each candidate built
// with the context's link speeds and priced with a cost table.
enum class SortMetric { Diameter, LinkCount, SwitchCount, ChipsPerBoard, NEndpoint, Cost, Power };
struct SortSpec {
  SortMetric metric = SortMetric::Diameter;
  bool descending = false;
  const CostTable* cost_table = nullptr; // cost and power: the table (nullptr: the default one)
};
// "diameter", "link_count", "switch_count", "chips_per_board", "n_endpoint", "cost", "power",
// each optionally followed by ":asc" (the default) or ":desc"; otherwise Error(Usage) at `where`.
SortSpec parse_sort(const std::string& text, const std::string& where);
const std::vector<std::string>& sort_metric_names();

// The warnings the framework adds to a candidate of any family, in the order it adds them:
// non-standard-scope (the scope is not one the family is meant for), dense-pcb-impractical
// (more chips per board than chips_per_board_max).
inline constexpr const char* kNonStandardScope = "non-standard-scope";
inline constexpr const char* kDensePcbImpractical = "dense-pcb-impractical";

// Sorting by cost or power builds every candidate that matches: at most this many nodes and
// links in all (their closed-form counts; about 10 s of generation), else Error(Infeasible)
// before anything is built, naming the count, so the user narrows the list (--where
// status=recommended, a family, a parameter).
inline constexpr std::int64_t kMaxCostSortWork = 50'000'000;

// A post-filter on candidates (the spec's "filter by a parameter value, e.g. only k = 16"):
// every term names a family_attrs key, or n_endpoint / chips_per_board / status
// (recommended or edge-case), and the value the candidate must have there. Filtering makes every
// candidate (slower: about 1 s per million).
struct Where {
  std::vector<std::pair<std::string, json>> terms;
};
// "k=16,osr=1" (integers, or strings); Error(Usage) at `where` for a malformed term.
Where parse_where(const std::string& text, const std::string& where);
bool matches(const Candidate& c, const Where& w);
// Error(Usage) at `where` when a term's key is none of n_endpoint, chips_per_board and the
// attr_keys of the families `fams` (a filter on a key no candidate has would match nothing),
// naming the keys there are.
void check_where_keys(const Where& w, const std::vector<const Family*>& fams,
                      const std::string& where);

// The IntraBoardTopo shape of a board of `chips` chips for intra_board_topo = torus: a cube
// [m, m, m] if chips = m^3 (m >= 2), else a square [m, m] if chips = m^2, else nullopt.
std::optional<std::vector<int>> board_torus_shape(std::int64_t chips);
// Why intra_board_topo cannot be built on boards of `chips` chips, or "" if it can.
std::string intra_board_problem(IntraBoardTopo t, std::int64_t chips);

// All feasible candidates of the given families: recommended first, then fewer warnings,
// then registry order, then each family's order; or recommended first, each status ordered by
// `sort` (ties in the order above: an edge-case never outranks a recommended design). At most
// `cap` (0 = all, refused beyond kMaxListed). Board-leaf candidates the context's
// intra_board_topo cannot be built on are left out; a chip-leaf family with intra_board_topo
// other than none is Error(Infeasible) when asked for alone and skipped in a list of several.
// With `where`, only the candidates it matches are counted and returned.
CandidateList enumerate(const Context& ctx, const std::vector<const Family*>& fams, std::size_t cap,
                        std::optional<SortSpec> sort = std::nullopt, const Where* where = nullptr);

// Generates the candidate's network and checks every invariant on it.
Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o);

} // namespace icnkit::topo
