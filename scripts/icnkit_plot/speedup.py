"""speedup: scripts/reproduce-micro25's speedups per configuration beside the paper's, from its
--csv table or its Markdown table (--flit's tables too)."""
import re

from .common import bad_input, csv_number, read_csv, read_input, short, showable, usage, value, wrap


def parse_markdown(where, text):
    """The first Markdown table of text: header and (line, cells) rows, cells stripped."""
    header, rows = None, []
    for n, line in enumerate(showable(text).split("\n"), start=1):
        s = line.strip()
        if not s.startswith("|"):
            if header:
                break
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if header is None:
            header = cells
        elif all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        else:
            rows.append((n, cells))
    return header, rows


def load(a):
    if len(a.inputs) != 1:
        usage("INPUT", "speedup takes one input, scripts/reproduce-micro25's table")
    where, text = read_input(a.inputs[0])
    first = next((l for l in text.splitlines() if l.strip()), "")
    series_names = []  # legend names, in bar order
    configs = []  # (configuration, [value per series])
    # A speedup (and the paper's) is a ratio of times: a number > 0.
    if first.startswith("configuration,"):
        header, rows = read_csv(where, text, ["configuration", "paper"],
                                "scripts/reproduce-micro25 --csv's table")
        if "ours" in header:
            cols = [("ours_largest_size" if a.largest else "ours", "icnkit"),
                    ("paper", "paper (mean over sizes)" if a.largest else "paper")]
        elif "flit" in header and "analytic" in header:
            cols = [("flit_largest_size" if a.largest else "flit", "icnkit flit"),
                    ("analytic_largest_size" if a.largest else "analytic", "icnkit analytic"),
                    ("paper", "paper (mean over sizes)" if a.largest else "paper")]
        else:
            bad_input(where, "not scripts/reproduce-micro25 --csv's table: no column ours or "
                             "flit and analytic")
        for c, _ in cols:
            if c not in header:
                bad_input(where, "not scripts/reproduce-micro25 --csv's table: no column " + c)
        series_names = [n for _, n in cols]
        for line, r in rows:
            configs.append((r["configuration"],
                            [csv_number(where, line, r, c, positive=True) for c, _ in cols]))
    elif first.startswith("|"):
        header, rows = parse_markdown(where, text)
        low = [h.lower() for h in header]
        if not low or not low[0].startswith("configuration") or "paper" not in low:
            bad_input(where, "not scripts/reproduce-micro25's table: its header is "
                             "'| configuration | ... | paper | ...'")
        want = "largest" if a.largest else "mean"

        def col_of(prefix):
            for j, h in enumerate(low):
                if h.startswith(prefix) and want in h:
                    return j
            return None

        # the --flit table names its largest size, e.g. "flit (16 MiB)"
        sized = {p: [j for j, h in enumerate(low) if h.startswith(p + " (") and "mean" not in h]
                 for p in ("flit", "analytic")}
        if col_of("ours") is not None:
            cols = [(col_of("ours"), "icnkit")]
        elif col_of("flit") is not None and col_of("analytic") is not None:
            cols = [(col_of("flit"), "icnkit flit"), (col_of("analytic"), "icnkit analytic")]
        elif a.largest and sized["flit"] and sized["analytic"]:
            cols = [(sized["flit"][0], "icnkit flit"), (sized["analytic"][0], "icnkit analytic")]
        elif a.largest and sized["flit"]:
            bad_input(where, "not scripts/reproduce-micro25 --flit's table: a column '%s' but "
                             "no 'analytic (SIZE)' beside it" % header[sized["flit"][0]])
        elif col_of("flit") is not None or col_of("analytic") is not None:
            bad_input(where, "not scripts/reproduce-micro25 --flit's table: no column "
                             "'%s (%s...)' beside '%s'" % (
                                 "analytic" if col_of("flit") is not None else "flit", want,
                                 header[col_of("flit") if col_of("flit") is not None
                                        else col_of("analytic")]))
        else:
            bad_input(where, "not scripts/reproduce-micro25's table: no column 'ours (%s...)'"
                      % want)
        cols.append((low.index("paper"), "paper (mean over sizes)" if a.largest else "paper"))
        series_names = [n for _, n in cols]
        if not rows:
            bad_input(where, "no rows under the table's header")
        for line, r in rows:
            if len(r) != len(header):
                bad_input("%s:%d" % (where, line), "%d cells, the table's header has %d"
                          % (len(r), len(header)))
            # "*" marks a ratio outside the tolerance
            configs.append((r[0], [value("%s:%d" % (where, line), header[j],
                                         r[j].rstrip(" *").strip(), positive=True)
                                   for j, _ in cols]))
    else:
        bad_input(where, "not scripts/reproduce-micro25's output: neither its CSV "
                         "('configuration,...') nor its Markdown table")
    # Bandwidth rows (GB/s) are not speedups: they would dwarf the bars.
    configs = [c for c in configs if "GB/s" not in c[0]]
    if not configs:
        bad_input(where, "no speedup rows (only bandwidths)")
    return series_names, configs


def draw(a, v, plt, fig):
    series_names, configs = v
    import numpy as np
    ax = fig.add_subplot(1, 1, 1)
    n, k = len(configs), len(series_names)
    y = np.arange(n)
    h = 0.8 / k
    colours = {"icnkit": "C0", "icnkit flit": "C0", "icnkit analytic": "C2", "paper": "C1",
               "paper (mean over sizes)": "C1"}
    for s, name in enumerate(series_names):
        vals = [c[1][s] for c in configs]
        bars = ax.barh(y - 0.4 + h * (s + 0.5), vals, height=h, label=name,
                       color=colours.get(name, "C%d" % s))
        if n * k <= 80:
            ax.bar_label(bars, fmt="%.2f", fontsize=6, padding=2)
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.set_yticks(y)
    ax.set_yticklabels([wrap(short(c[0], 144), 48) for c in configs], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speedup (%s)" % ("largest size" if a.largest else "mean over sizes; "
                                    "1 = the baseline"))
    ax.set_xlim(0, max(max(c[1]) for c in configs) * 1.12)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize="small", loc="lower right")
    return "MICRO'25 reproduction: speedups, icnkit beside the paper"
