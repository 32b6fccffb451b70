#include "topo/enumerate.hpp"

#include "topo/invariants.hpp"

#include <algorithm>

namespace icnkit::topo {

const Family& require_family(const std::string& name, const std::string& where) {
  if (const Family* f = find_family(name)) return *f;
  std::string all;
  for (auto* f : families()) all += (all.empty() ? "" : ", ") + f->name();
  fail_usage(where, "unknown family '" + name + "' (the families: " + all + ", or all)");
}

const std::vector<std::string>& sort_metric_names() {
  static const std::vector<std::string> names = {
      "diameter", "link_count", "switch_count", "chips_per_board", "n_endpoint", "cost", "power"};
  return names;
}

SortSpec parse_sort(const std::string& text, const std::string& where) {
  SortSpec s;
  std::string name = text;
  auto colon = text.find(':');
  if (colon != std::string::npos) {
    std::string dir = text.substr(colon + 1);
    name = text.substr(0, colon);
    if (dir == "desc")
      s.descending = true;
    else if (dir != "asc")
      fail_usage(where, "'" + text + "': the direction after ':' is asc or desc");
  }
  const auto& names = sort_metric_names();
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::string all;
    for (auto& n : names) all += (all.empty() ? "" : ", ") + n;
    fail_usage(where, "cannot sort by '" + name + "' (metrics: " + all + ")");
  }
  s.metric = static_cast<SortMetric>(it - names.begin());
  return s;
}

Where parse_where(const std::string& text, const std::string& where) {
  Where w;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string term = text.substr(start, end - start);
    auto eq = term.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == term.size())
      fail_usage(where, "'" + term + "' is not KEY=VALUE (e.g. k=16,osr=1)");
    std::string key = term.substr(0, eq), value = term.substr(eq + 1);
    json v = value;
    if (value.find_first_not_of("0123456789") == std::string::npos && value.size() <= 15)
      v = std::stoll(value);
    w.terms.emplace_back(key, v);
    start = end + 1;
  }
  return w;
}

bool matches(const Candidate& c, const Where& w) {
  for (auto& [key, value] : w.terms) {
    json have;
    if (key == "status")
      have = c.status();
    else if (key == "n_endpoint")
      have = c.n_endpoint;
    else if (key == "chips_per_board")
      have = c.derived_chips_per_board;
    else if (c.family_attrs.contains(key))
      have = c.family_attrs[key];
    else
      return false;
    if (have != value) return false;
  }
  return true;
}

void check_where_keys(const Where& w, const std::vector<const Family*>& fams,
                      const std::string& where) {
  std::vector<std::string> keys;
  for (const Family* f : fams)
    for (auto& k : f->attr_keys())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  keys.push_back("n_endpoint");
  keys.push_back("chips_per_board");
  keys.push_back("status");
  for (auto& [key, value] : w.terms) {
    if (key == "status" && value != "recommended" && value != "edge-case")
      fail_usage(where, "status is recommended or edge-case, not '" +
                            (value.is_string() ? value.get<std::string>() : value.dump()) + "'");
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    std::string names;
    for (const Family* f : fams) names += (names.empty() ? "" : ", ") + f->name();
    std::string all;
    for (auto& k : keys) all += (all.empty() ? "" : ", ") + k;
    fail_usage(where, "'" + key + "' is not a key of " +
                          (fams.size() == 1 ? "the " + names + " family" : "any family asked for") +
                          " (keys: " + all + ")");
  }
}

std::optional<std::vector<int>> board_torus_shape(std::int64_t chips) {
  for (int dims : {3, 2})
    for (std::int64_t m = 2;; ++m) {
      std::int64_t p = dims == 3 ? m * m * m : m * m;
      if (p > chips) break;
      if (p == chips) return std::vector<int>(static_cast<std::size_t>(dims), static_cast<int>(m));
    }
  return std::nullopt;
}

std::string intra_board_problem(IntraBoardTopo t, std::int64_t chips) {
  if (t == IntraBoardTopo::None) return "";
  if (chips <= 1)
    return "intra_board_topo " + to_string(t) +
           " needs boards of more than one chip; this candidate has 1 chip per board";
  if (t == IntraBoardTopo::Torus && !board_torus_shape(chips))
    return "intra_board_topo torus needs a cube or a square number of chips per board, not " +
           std::to_string(chips) + " (use ring or full-mesh)";
  return "";
}

namespace {

int bits(std::uint32_t x) {
  int n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
}

// What the framework knows of each run besides the family's parameters.
struct Meta {
  std::uint16_t family; // index into the requested families
  bool non_standard;
  bool dense;
  int nwarn;
};

double metric_of(const Family& f, const Context& ctx, const CandidateRun& r, std::int64_t i,
                 SortMetric m) {
  switch (m) {
  case SortMetric::ChipsPerBoard:
    return static_cast<double>(r.chips_per_board);
  case SortMetric::NEndpoint:
    return static_cast<double>(ctx.n_chip / r.chips_per_board);
  default:
    break;
  }
  Estimate e = f.estimate(ctx, r, i);
  if (m == SortMetric::Diameter) return static_cast<double>(e.diameter);
  if (m == SortMetric::LinkCount) return static_cast<double>(e.link_count);
  return static_cast<double>(e.switch_count);
}

Candidate materialise(const Context& ctx, const Family& f, const CandidateRun& r, const Meta& m,
                      std::int64_t i) {
  Candidate c = f.make(ctx, r, i);
  c.family = f.name();
  c.derived_chips_per_board = r.chips_per_board;
  c.warnings = warnings_of(f, r.warnings);
  // Warnings that apply to every family (@tbl-spec-topo-20 scope rule, the dense-pcb rule).
  if (m.non_standard) c.warnings.push_back(kNonStandardScope);
  if (m.dense) c.warnings.push_back(kDensePcbImpractical);
  const Estimate e = f.estimate(ctx, r, i);
  c.est_diameter = e.diameter, c.est_link_count = e.link_count, c.est_switch_count = e.switch_count;
  return c;
}

} // namespace

namespace {

// A run the framework keeps, with its place in the default order.
struct Kept {
  CandidateRun run;
  Meta meta;
  std::int64_t seq;   // emission order: registry order, then the family's order
  std::int64_t first; // candidates first .. first + count - 1 of the run
  std::int64_t count;
};

// Receives every family's runs: filters them, counts them, and keeps what can be returned:
// for the default order, per number of warnings the first runs holding `want` candidates;
// for a metric order, the `want` best candidates (a heap).
class Collector : public RunSink {
public:
  Collector(const Context& ctx, std::int64_t want, std::optional<SortSpec> sort, const Where* where)
      : ctx_(ctx), want_(want), sort_(sort), where_(where) {}

  void start_family(const Family* f, std::uint16_t index) {
    family_ = f;
    index_ = index;
    auto scopes = f->scopes();
    non_standard_ = std::find(scopes.begin(), scopes.end(), ctx_.scope) == scopes.end();
  }

  void push_back(const CandidateRun& r) override {
    if (r.count <= 0) return;
    if (family_->leaf() == Leaf::Board && ctx_.intra_board_topo != IntraBoardTopo::None &&
        !intra_board_problem(ctx_.intra_board_topo, r.chips_per_board).empty())
      return; // the board topology cannot be built on these boards
    const bool dense = r.chips_per_board > ctx_.chips_per_board_max;
    Meta m{index_, non_standard_, dense,
           bits(r.warnings) + (non_standard_ ? 1 : 0) + (dense ? 1 : 0)};
    const std::int64_t seq = seq_++;
    for (std::int64_t i = 0; i < r.count;) {
      // A stretch of the run: all of it, or (filtered) the one candidate that matches.
      std::int64_t n = r.count;
      if (where_) {
        n = 1;
        if (!quick_match(r, i, m)) {
          ++i;
          continue;
        }
      }
      total_ += n;
      if (!sort_) {
        auto w = static_cast<std::size_t>(m.nwarn);
        if (buckets_.size() <= w) buckets_.resize(w + 1), held_.resize(w + 1, 0);
        if (held_[w] < want_) {
          buckets_[w].push_back({r, m, seq, i, n});
          held_[w] += n;
        }
      } else if (priced()) {
        // Cost and power need the networks: count what building them takes, keep them for
        // finish() while that stays within kMaxCostSortWork.
        for (std::int64_t j = i; j < i + n && work_ <= kMaxCostSortWork; ++j) {
          const Estimate e = family_->estimate(ctx_, r, j);
          work_ += e.link_count + e.switch_count + ctx_.n_chip;
          if (work_ <= kMaxCostSortWork) pending_.push_back({0, m.nwarn, seq, j, r, m});
        }
      } else {
        for (std::int64_t j = i; j < i + n; ++j)
          offer({metric_of(*family_, ctx_, r, j, sort_->metric), m.nwarn, seq, j, r, m});
      }
      i += n;
    }
  }

  std::int64_t total() const { return total_; }

  // The filter on candidate i of a run, from the family's cheap attributes where it has them.
  bool quick_match(const CandidateRun& r, std::int64_t i, const Meta& m) const {
    bool need_candidate = false;
    for (auto& [key, value] : where_->terms) {
      std::optional<std::int64_t> have;
      if (key == "n_endpoint")
        have = ctx_.n_chip / r.chips_per_board;
      else if (key == "chips_per_board")
        have = r.chips_per_board;
      else
        have = family_->attr(r, i, key);
      if (key == "status") {
        if (value != (m.nwarn == 0 ? "recommended" : "edge-case")) return false;
        continue;
      }
      if (!have) {
        need_candidate = true;
        continue;
      }
      if (!value.is_number_integer() || value.get<std::int64_t>() != *have) return false;
    }
    return !need_candidate || matches(materialise(ctx_, *family_, r, m, i), *where_);
  }

  CandidateList finish(const std::vector<const Family*>& fams) {
    CandidateList out;
    out.total = total_;
    const std::int64_t want = std::min(want_, total_);
    out.items.reserve(static_cast<std::size_t>(want));
    if (!sort_) {
      for (auto& b : buckets_)
        for (auto& k : b)
          for (std::int64_t i = k.first; i < k.first + k.count; ++i) {
            if (static_cast<std::int64_t>(out.items.size()) >= want) return out;
            out.items.push_back(materialise(ctx_, *fams[k.meta.family], k.run, k.meta, i));
          }
      return out;
    }
    if (priced()) {
      if (work_ > kMaxCostSortWork)
        fail_infeasible("{sort_by}",
                        "sorting by " +
                            sort_metric_names()[static_cast<std::size_t>(sort_->metric)] +
                            " builds every candidate: these " + std::to_string(total_) +
                            " candidates" + " hold more than " + std::to_string(kMaxCostSortWork) +
                            " nodes and links; narrow them ({where} status=recommended, one "
                            "family, a parameter)");
      const CostTable& table = sort_->cost_table ? *sort_->cost_table : default_cost_table();
      for (Key k : pending_) {
        const Family& f = *fams[k.meta.family];
        const Cost c = network_cost(
            f.generate(ctx_, materialise(ctx_, f, k.run, k.meta, k.i), GenerateOptions{}), table);
        k.value = sort_->metric == SortMetric::Cost ? c.capex_usd : c.watts;
        offer(k);
      }
    }
    std::sort_heap(heap_.begin(), heap_.end(), less);
    for (auto& k : heap_) {
      out.items.push_back(materialise(ctx_, *fams[k.meta.family], k.run, k.meta, k.i));
      out.items.back().sorted_by = sort_metric_names()[static_cast<std::size_t>(sort_->metric)];
      out.items.back().sort_value = sort_->descending ? -k.value : k.value;
    }
    return out;
  }

private:
  struct Key {
    double value;
    int nwarn;
    std::int64_t seq;
    std::int64_t i;
    CandidateRun run;
    Meta meta;
  };
  bool priced() const {
    return sort_ && (sort_->metric == SortMetric::Cost || sort_->metric == SortMetric::Power);
  }
  // Keeps k if it is among the `want_` best so far.
  void offer(Key k) {
    if (sort_->descending) k.value = -k.value;
    if (static_cast<std::int64_t>(heap_.size()) < want_) {
      heap_.push_back(k);
      std::push_heap(heap_.begin(), heap_.end(), less);
    } else if (less(k, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), less);
      heap_.back() = k;
      std::push_heap(heap_.begin(), heap_.end(), less);
    }
  }
  static bool less(const Key& a, const Key& b) {
    if ((a.nwarn == 0) != (b.nwarn == 0)) return a.nwarn == 0; // recommended first
    if (a.value != b.value) return a.value < b.value;
    if (a.nwarn != b.nwarn) return a.nwarn < b.nwarn;
    if (a.seq != b.seq) return a.seq < b.seq;
    return a.i < b.i;
  }

  const Context& ctx_;
  std::int64_t want_;
  std::optional<SortSpec> sort_;
  const Where* where_;
  const Family* family_ = nullptr;
  std::uint16_t index_ = 0;
  bool non_standard_ = false;
  std::int64_t total_ = 0, seq_ = 0, work_ = 0;
  std::vector<Key> pending_; // cost and power: the candidates to build
  std::vector<std::vector<Kept>> buckets_;
  std::vector<std::int64_t> held_;
  std::vector<Key> heap_;
};

} // namespace

CandidateList enumerate(const Context& ctx, const std::vector<const Family*>& fams, std::size_t cap,
                        std::optional<SortSpec> sort, const Where* where) {
  // With every result asked for, keep at most kMaxListed + 1: past that the list is refused.
  const std::int64_t want = cap == 0 ? kMaxListed + 1 : static_cast<std::int64_t>(cap);
  Collector col(ctx, want, sort, where);
  for (std::size_t fi = 0; fi < fams.size(); ++fi) {
    const Family* f = fams[fi];
    if (f->leaf() == Leaf::Chip && ctx.intra_board_topo != IntraBoardTopo::None) {
      if (fams.size() == 1)
        fail_infeasible("intra_board_topo", f->name() +
                                                " links already connect the chips of a board: "
                                                "intra_board_topo must be none for the " +
                                                f->name() + " family");
      continue; // the family cannot be built with an intra-board topology
    }
    col.start_family(f, static_cast<std::uint16_t>(fi));
    f->enumerate(ctx, col);
  }
  if (cap == 0 && col.total() > kMaxListed) {
    std::string keys;
    for (const std::string& k : fams.front()->attr_keys()) keys += (keys.empty() ? "" : ", ") + k;
    fail_infeasible("{all}", "the list would hold " + std::to_string(col.total()) +
                                 " candidates (at most " + std::to_string(kMaxListed) +
                                 " are listed at once); use {limit} N, or narrow it with "
                                 "{where} (status=recommended" +
                                 (fams.size() == 1
                                      ? ", or " + fams.front()->name() + "'s parameters: " + keys
                                      : std::string(", or one {family}")) +
                                 ")");
  }
  return col.finish(fams);
}

Network generate(const Context& ctx, const Candidate& c, const GenerateOptions& o) {
  const Family& f = require_family(c.family, "/candidate/family");
  if (f.leaf() == Leaf::Chip && ctx.intra_board_topo != IntraBoardTopo::None)
    fail_infeasible("/context/intra_board_topo", "intra_board_topo must be none for the " +
                                                     f.name() +
                                                     " family (its links connect the chips)");
  if (f.leaf() == Leaf::Board) {
    auto why = intra_board_problem(ctx.intra_board_topo, c.derived_chips_per_board);
    if (!why.empty()) fail_infeasible("/context/intra_board_topo", why);
  }
  if (o.twist && f.name() != "torus")
    fail_infeasible("{twist}", "only a torus can be twisted, not a " + f.name());
  Network n = f.generate(ctx, c, o);
  check_invariants(n, ErrorKind::Runtime, "generate " + c.id);
  return n;
}

} // namespace icnkit::topo
