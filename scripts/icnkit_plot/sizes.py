"""sizes: busbw (or algbw, time) against message size, a curve per configuration, from
net-sim --sizes ... --format csv."""
import math
import os

from .columns import SIZES_CONFIG, SIZES_NEED
from .common import bad_input, csv_number, legend_label, read_csv, read_input, showable, size_text

# How a configuration column that varies is named in a curve's label (its value follows).
SIZES_LABEL = {"candidate": "", "family": "", "n_chip": "chips ", "n_nodes": "nodes ",
               "link_bw_GBps": "GB/s ", "link_latency_us": "us ", "failed_links": "failed links ",
               "failed_chips": "failed chips ", "faults_digest": "faults ", "routing": "routing ",
               "chunks": "chunks ", "latency": "latency ", "mode": "", "source": "",
               "collective": "", "network_fingerprint": "network "}


def load(a):
    metric = a.metric or "busbw"
    col = {"busbw": "busbw_GBps", "algbw": "algbw_GBps", "time": "time_us"}[metric]
    rows = []  # (input index, where, line, row)
    points = []  # (size, value of the metric) of each row
    for i, path in enumerate(a.inputs):
        where, text = read_input(path)
        _, rs = read_csv(where, text, SIZES_NEED,
                         "net-sim's CSV (net-sim --sizes ... --format csv)")
        for line, r in rs:
            size = csv_number(where, line, r, "bytes_per_node", 1, whole=True)
            got = {c: csv_number(where, line, r, c, 0, positive=(c == "time_us"))
                   for c in ("time_us", "algbw_GBps", "busbw_GBps")}
            rows.append((i, where, line, r))
            points.append((size, got[col]))
    # What varies between the rows names the curves.
    config = [c for c in SIZES_CONFIG if c in rows[0][3]]
    # A label names what varies between rows of one algorithm (so not the chunks or the source
    # that come with the algorithm, but the candidates, faults, bandwidths ...).
    # Greedily, in SIZES_CONFIG's order: a column joins the label when it still tells rows apart
    # that the algorithm and the columns already chosen do not (n_chip says nothing more once the
    # candidate is named).
    varying = []
    for c in config:
        groups = {}
        for _, _, _, r in rows:
            k = (r["algorithm"], r.get("dim_scheduling", ""), r.get("traffic", "")) + tuple(
                r.get(v, "") for v in varying)
            groups.setdefault(k, set()).add(r.get(c, ""))
        if any(len(g) > 1 for g in groups.values()):
            varying.append(c)

    def key(i, r):
        return (r["algorithm"], r.get("dim_scheduling", ""), r.get("traffic", "")) + tuple(
            r.get(c, "") for c in config)

    seen = {}
    # Rows of one configuration and size in several inputs: a curve per input.
    by_input = len({key(i, r) + (p[0],) for (i, _, _, r), p in zip(rows, points)}) < len(rows)
    series = {}
    first = {}  # (curve, size): the line of its row
    for (i, where, line, r), (size, y) in zip(rows, points):
        k = key(i, r) + ((i,) if by_input else ())
        if (k, size) in first:
            bad_input("%s:%d" % (where, line), "a second row of the same configuration at "
                      "bytes_per_node %d (the first: line %d)" % (size, first[(k, size)]))
        first[(k, size)] = line
        series.setdefault(k, []).append((size, y))
        if k not in seen:
            seen[k] = (i, r)
    return dict(metric=metric, rows=rows, varying=varying, series=series, seen=seen,
                by_input=by_input)


def draw(a, v, plt, fig):
    metric, rows, varying, series = v["metric"], v["rows"], v["varying"], v["series"]
    seen, by_input = v["seen"], v["by_input"]
    ax = fig.add_subplot(1, 1, 1)
    used_sizes = set()
    for k, pts in series.items():
        i, r = seen[k]
        pts.sort()
        if a.label and i < len(a.label):
            label = a.label[i]
        else:
            alg = r["algorithm"]
            if r.get("source") == "traffic" and r.get("traffic"):
                alg = r["traffic"] + (" (%s)" % r["routing"] if r.get("routing") else "")
            elif r.get("dim_scheduling"):
                alg += " + " + r["dim_scheduling"]
            parts = [alg]
            for c in varying:
                if c in ("dim_scheduling", "traffic"):
                    continue
                if c == "routing" and r.get("source") == "traffic":
                    continue
                v = r.get(c, "")
                if c == "network_fingerprint" or c == "faults_digest":
                    v = v[:8]
                parts.append(SIZES_LABEL.get(c, c + " ") + v if v else c + " -")
            if by_input:
                parts.append("stdin" if a.inputs[i] == "-" else
                             showable(os.path.basename(a.inputs[i])))
            label = ", ".join(parts)
        xs = [p[0] for p in pts]
        used_sizes.update(xs)
        ax.plot(xs, [p[1] for p in pts], marker="o", markersize=4, linewidth=1.5,
                label=legend_label(label))
    ax.set_xscale("log", base=2)
    if metric == "time":
        ax.set_yscale("log")
    ticks = sorted(used_sizes)
    if len(ticks) > 10:
        step = math.ceil(len(ticks) / 10)
        ticks = ticks[::step]
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: size_text(v)))
    ax.set_xlabel("size per node")
    ax.set_ylabel({"busbw": "bus bandwidth (GB/s)", "algbw": "algorithm bandwidth (GB/s)",
                   "time": "time (us)"}[metric])
    if metric != "time":
        ax.set_ylim(bottom=0)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small", loc="best")
    r0 = rows[0][3]
    what = r0.get("collective", "") or "collective"
    nodes = r0.get("n_nodes", "")
    title = "%s %s against message size" % (what, metric)
    def same(c):
        return len({r.get(c, "") for _, _, _, r in rows}) == 1

    if same("n_nodes") and nodes:
        title += ", %s nodes" % nodes
    if same("candidate") and r0.get("candidate"):
        title += " (%s)" % r0["candidate"]
    return title
