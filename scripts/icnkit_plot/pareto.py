"""pareto: cost against a collective's time, a point per design of scripts/explore --format csv,
the Pareto front (cheaper and faster) drawn and labelled."""
from .columns import PARETO_NEED
from .common import bad_input, csv_number, legend_label, read_csv, read_input, short, shown, usage


def load(a):
    """The designs of scripts/explore's CSV with a time for the chosen collective: (family,
    design, cost, time) each, the budget, the collective."""
    if len(a.inputs) != 1:
        usage("INPUT", "pareto reads one explore CSV")
    where, text = read_input(a.inputs[0])
    header, rows = read_csv(where, text, PARETO_NEED, "scripts/explore's CSV")
    cols = [c[: -len(":time_s")] for c in header if c.endswith(":time_s")]
    if not cols:
        bad_input(where, "not scripts/explore's CSV: no COLLECTIVE:time_s column")
    coll = a.collective or cols[0]
    if coll not in cols:
        usage("--collective", "%s is not in the CSV (it has %s)" % (shown(coll), ", ".join(cols)))
    designs, budgets = [], set()
    for line, r in rows:
        budgets.add(r["budget"])
        if r[coll + ":time_s"] == "":  # a design that failed a stage has no time
            continue
        cost = csv_number(where, line, r, "capex_usd", 0)
        t = csv_number(where, line, r, coll + ":time_s", 0, positive=True)
        designs.append((r["family"], r["design"], cost, t))
    if not designs:
        bad_input(where, "no design has a time for " + coll)
    return {"designs": designs, "collective": coll, "budget": ", ".join(sorted(budgets))}


def pareto_front(points):
    """Indices of the points no other point beats on both (cost, time): cheaper or as cheap and
    faster or as fast, strictly better in one."""
    front = []
    for i, (c, t) in enumerate(points):
        if not any((c2 <= c and t2 <= t) and (c2 < c or t2 < t) for c2, t2 in points):
            front.append(i)
    return front


def draw(a, v, plt, fig):
    ax = fig.add_subplot(1, 1, 1)
    d = v["designs"]
    families = sorted({f for f, _, _, _ in d})
    import matplotlib
    colors = matplotlib.colormaps["tab10" if len(families) <= 10 else "tab20"]
    for k, fam in enumerate(families):
        xs = [c for f, _, c, _ in d if f == fam]
        ys = [t * 1e3 for f, _, _, t in d if f == fam]
        ax.scatter(xs, ys, s=28, color=colors(k % colors.N), label=legend_label(fam), zorder=3)
    front = sorted(pareto_front([(c, t) for _, _, c, t in d]), key=lambda i: (d[i][2], d[i][3]))
    fx = [d[i][2] for i in front]
    fy = [d[i][3] * 1e3 for i in front]
    ax.step(fx, fy, where="post", color="black", linewidth=1, zorder=2, label="Pareto front")
    for n, i in enumerate(front):  # labels alternate above and below the front to keep apart
        ax.annotate(short(d[i][1], 32), (d[i][2], d[i][3] * 1e3), fontsize=7,
                    xytext=(4, 6 if n % 2 == 0 else -10), textcoords="offset points", zorder=4)
    ax.set_xlabel("capex (USD, the shipped cost table)")
    ax.set_ylabel("%s time (ms)" % v["collective"])
    costs = [c for _, _, c, _ in d]
    if min(costs) > 0 and max(costs) / min(costs) > 20:
        ax.set_xscale("log")
    times = [t for _, _, _, t in d]
    if max(times) / min(times) > 20:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    return "Designs at budget %s: cost against %s time" % (v["budget"], v["collective"])
