// topo-enum: every feasible topology for a chip count, with derived board size and warnings.
#include "common/tool.hpp"
#include "doc/topo_json.hpp"
#include "topo/describe.hpp"
#include "topo/enumerate.hpp"

using namespace icnkit;

int main(int argc, char** argv) {
  std::string family = "torus";
  std::string sort_by, where_text, cost_table;
  std::string context_file;
  std::int64_t n_chip = 0;
  std::string scope;
  std::int64_t cpb_max = 16, chip_radix = 1;
  std::string ibt = "none";
  bool all = false;
  std::int64_t limit = static_cast<std::int64_t>(topo::kDefaultResultCap);
  CLI::Option *o_n = nullptr, *o_ctx = nullptr, *o_scope = nullptr, *o_cpb = nullptr,
              *o_radix = nullptr, *o_ibt = nullptr;
  return tool::run(
      "topo-enum",
      "topo-enum: enumerate the feasible topologies of a family for a chip count.\n"
      "Writes a candidates document: each candidate has an id, family_attrs, the derived\n"
      "chips per board, a status (recommended / edge-case) and its warnings; recommended\n"
      "first, at most 50 (total counts them all).\n\n"
      "Examples:\n"
      "  topo-enum --n-chip 64 --family torus | topo-gen --pick 'torus:4x4x4/b2x2x2' | "
      "topo-route\n"
      "  topo-enum --n-chip 1024 --family dragonfly --limit 5\n"
      "  topo-enum --n-chip 256 --family all --sort-by diameter --limit 20\n"
      "  topo-enum --n-chip 1024 --family all --where status=recommended "
      "--sort-by cost --limit 10\n"
      "  topo-enum --n-chip 64 --family fat-tree --where k=8,layers=2 --all\n",
      argc, argv,
      [&](CLI::App& app, tool::Common& c) {
        o_n = app.add_option("-n,--n-chip", n_chip, "Number of chips (2 .. 1048576)");
        std::string names;
        for (auto* f : topo::families()) names += (names.empty() ? "" : ", ") + f->name();
        app.add_option("-f,--family", family, "Topology family: " + names + ", or all")
            ->default_str("torus");
        std::string metrics;
        for (auto& m : topo::sort_metric_names()) metrics += (metrics.empty() ? "" : ", ") + m;
        app.add_option("--sort-by", sort_by,
                       "Order by a metric instead of status: " + metrics +
                           " (append :desc for descending; cost and power build each "
                           "candidate and price it, at the context's link speeds)");
        app.add_option("--cost-table", cost_table,
                       "Price and power table for --sort-by cost/power (CSV item,gbps,usd,"
                       "watts,source; default: the shipped data/cost-table.csv)");
        app.add_option("--where", where_text,
                       "Keep only candidates with these parameter values, e.g. k=16,osr=1 "
                       "(family_attrs keys, n_endpoint, chips_per_board, "
                       "status=recommended|edge-case)");
        o_scope = app.add_option("--scope", scope,
                                 "intra-rack or inter-rack (default: intra-rack up to " +
                                     std::to_string(topo::kRackChipsMax) +
                                     " chips, the most one rack holds, inter-rack beyond)");
        o_cpb = app.add_option("--chips-per-board-max", cpb_max,
                               "Boards above this many chips get dense-pcb-impractical")
                    ->default_str("16");
        o_radix =
            app.add_option("--chip-radix", chip_radix, "c2c ports per chip")->default_str("1");
        o_ibt = app.add_option("--intra-board-topo", ibt, "none, full-mesh, ring or torus")
                    ->default_str("none");
        o_ctx = app.add_option("--context", context_file,
                               "Read the EnumerationContext from a JSON FILE (--scope, "
                               "--chips-per-board-max, --chip-radix and --intra-board-topo "
                               "given with it override its values)");
        app.add_flag("--all", all, "Return every result, not only the first 50");
        app.add_option("--limit", limit, "Return at most this many results")->default_str("50");
        o_ctx->excludes(o_n);
        tool::add_describe(app, c, "the families (registry): parameters, scopes, warnings",
                           topo::describe_families);
        tool::add_output(app, c);
      },
      [&](tool::Common& c) {
        tool::table_format(c, c.describe_format, SummarySection::Candidates);
        topo::Context ctx;
        if (!context_file.empty()) {
          auto text = read_input(context_file);
          const json j = parse_json(text, context_file);
          if (j.is_object() && j.contains("schema")) {
            Document d = parse_document(text, context_file);
            if (!d.context) fail_input(context_file, "the document has no context section");
            ctx = *d.context;
          } else {
            ObjReader r(j, context_file, "");
            ctx = topo::parse_context(r);
          }
        } else {
          if (!*o_n) fail_usage("--n-chip", "required (or give --context FILE)");
          ctx.n_chip = n_chip;
        }
        // The options (given with --context: only those given, overriding the file's values).
        const bool file = !context_file.empty();
        if (!file && !*o_scope) {
          ctx.scope = topo::default_scope(ctx.n_chip);
        } else if (*o_scope) {
          auto s = topo::parse_scope(scope);
          if (!s) fail_usage("--scope", "must be intra-rack or inter-rack, got '" + scope + "'");
          ctx.scope = *s;
        }
        if (!file || *o_cpb) ctx.chips_per_board_max = cpb_max;
        if (!file || *o_radix) ctx.chip_radix = chip_radix;
        if (!file || *o_ibt) {
          auto t = topo::parse_intra_board_topo(ibt);
          if (!t)
            fail_usage("--intra-board-topo",
                       "must be none, full-mesh, ring or torus, got '" + ibt + "'");
          ctx.intra_board_topo = *t;
        }
        topo::validate(ctx, ErrorKind::Usage, "");
        if (limit < 1) fail_usage("--limit", "must be at least 1");
        std::vector<const topo::Family*> fams;
        if (family == "all")
          fams = topo::families();
        else
          fams.push_back(&topo::require_family(family, "--family"));
        if (!fams.front()->enumerated())
          fail_usage("--family",
                     family + " networks are not enumerated: topo-gen builds them (" +
                         (family == "custom" ? "--import" : "--scale-up/--scale-out or --preset") +
                         ")");
        Document d;
        d.context = ctx;
        std::optional<topo::SortSpec> sort;
        std::optional<topo::CostTable> table;
        if (!cost_table.empty()) {
          if (sort_by.empty()) fail_usage("--cost-table", "prices --sort-by cost or power");
          table = topo::parse_cost_table(read_input(cost_table), cost_table);
        }
        if (!sort_by.empty()) {
          sort = topo::parse_sort(sort_by, "--sort-by");
          if (table) sort->cost_table = &*table;
        }
        std::optional<topo::Where> where;
        if (!where_text.empty()) {
          where = topo::parse_where(where_text, "--where");
          topo::check_where_keys(*where, fams, "--where");
        }
        d.candidates = topo::enumerate(ctx, fams, all ? 0 : static_cast<std::size_t>(limit), sort,
                                       where ? &*where : nullptr);
        tool::store(c, d);
      });
}
