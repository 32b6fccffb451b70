"""latency-load: packet latency against offered load, a curve per input, the saturation marked,
from net-sim --mode flit --sweep / --find-saturation (its JSON document or its CSV)."""
import os

from .columns import FLIT_CSV, FLIT_STATUS
from .common import (bad_input, csv_number, get, legend_label, number, read_csv, read_input,
                     read_json, showable, shown)


# An asked-for rate is within [0, 1] flits per node per cycle (net-sim --rate refuses others);
# the measured offered and accepted loads only >= 0: a window's random arrivals of multi-flit
# packets can offer a little more than 1.
RATE = dict(low=0, high=1)


def flit_status(where, at, st):
    if st not in FLIT_STATUS:
        bad_input(where, "%s: must be %s, got %s" % (at, ", ".join(FLIT_STATUS),
                                                      shown(st, cell=True)))
    return st


def flit_curve(where, text, which):
    """(label, points [(rate, latency, status)], saturation rate or None, zero-load or None)."""
    s = text.lstrip()
    if s.startswith("{"):
        d = read_json(where, text)
        rep = get(d, where, ["report"], dict, " (not a net-sim report)")
        if rep.get("mode") != "flit" or rep.get("source") != "traffic" or "replay" in rep:
            bad_input(where, "/report: not a flit run under synthetic traffic (net-sim --mode "
                             "flit --traffic PATTERN --sweep ...)")
        pts = []
        src = rep.get("points")
        items = [(p, "/report/points/%d" % i) for i, p in enumerate(src)] if isinstance(
            src, list) else [(rep, "/report")]
        if not items:
            bad_input(where, "/report/points: empty")
        for p, at in items:
            if not isinstance(p, dict):
                bad_input(where, at + ": must be an object")
            number(where, at + "/rate_flits_per_node_cycle",
                   get(p, where, ["rate_flits_per_node_cycle"], base=at), **RATE)
            number(where, at + "/accepted_flits_per_node_cycle",
                   get(p, where, ["accepted_flits_per_node_cycle"], base=at), 0)
            rate = number(where, at + "/offered_flits_per_node_cycle",
                          get(p, where, ["offered_flits_per_node_cycle"], base=at), 0)
            lat = {c: number(where, at + "/latency_cycles/" + c,
                             get(p, where, ["latency_cycles", c], base=at), 0)
                   for c in ("mean", "p50", "p99")}[which]
            st = flit_status(where, at + "/status", get(p, where, ["status"], str, base=at))
            pts.append((rate, lat, st))
        sat = None
        if "saturation" in rep:
            get(rep, where, ["saturation"], dict, base="/report")
            sat = number(where, "/report/saturation/rate_flits_per_node_cycle",
                         get(rep, where, ["saturation", "rate_flits_per_node_cycle"],
                             base="/report"), **RATE)
        z = rep.get("zero_load_latency_cycles")
        if z is not None:
            z = number(where, "/report/zero_load_latency_cycles", z, 0)
        label = "%s, %s" % (rep.get("traffic", "?"), rep.get("routing", "?"))
        return label, pts, sat, z
    _, rows = read_csv(where, text, FLIT_CSV, "net-sim --mode flit's CSV")
    pts = []
    for line, r in rows:
        csv_number(where, line, r, "rate", **RATE)
        csv_number(where, line, r, "accepted", 0)
        lat = {c: csv_number(where, line, r, "latency_" + c, 0) for c in ("mean", "p50", "p99")}
        pts.append((csv_number(where, line, r, "offered", 0), lat[which],
                    flit_status("%s:%d" % (where, line), "status", r["status"])))
    label = showable(os.path.splitext(os.path.basename(where))[0]) if where != "stdin" \
        else "stdin"
    return label, pts, None, None


def load(a):
    which = a.latency or "mean"
    curves = []
    for i, path in enumerate(a.inputs):
        where, text = read_input(path)
        label, pts, sat, z = flit_curve(where, text, which)
        if a.label and i < len(a.label):
            label = a.label[i]
        curves.append((label, sorted(pts), sat, z))
    return which, curves


def draw(a, v, plt, fig):
    which, curves = v
    ax = fig.add_subplot(1, 1, 1)
    ok_lat = [p[1] for c in curves for p in c[1] if p[2] == "ok"]
    all_lat = [p[1] for c in curves for p in c[1]]
    top = max(ok_lat) * 2.5 if ok_lat else max(all_lat) * 1.1
    top = max(top, 1.0)
    clipped = False
    for n, (label, pts, sat, z) in enumerate(curves):
        colour = "C%d" % (n % 10)
        xs = [p[0] for p in pts]
        ys = [min(p[1], top) for p in pts]
        ax.plot(xs, ys, color=colour, linewidth=1.5, label=legend_label(label))
        ok = [(x, y) for (x, y), p in zip(zip(xs, ys), pts) if p[2] == "ok"]
        bad = [(x, y) for (x, y), p in zip(zip(xs, ys), pts) if p[2] == "saturated"]
        dead = [(x, y) for (x, y), p in zip(zip(xs, ys), pts) if p[2] == "deadlock"]
        clipped = clipped or any(p[1] > top for p in pts)
        if ok:
            ax.plot(*zip(*ok), linestyle="none", marker="o", markersize=4, color=colour)
        if bad:
            ax.plot(*zip(*bad), linestyle="none", marker="o", markersize=6,
                    markerfacecolor="white", color=colour)
        if dead:
            ax.plot(*zip(*dead), linestyle="none", marker="x", markersize=7, color="red")
        mark = sat
        text = "saturation %.3g" % sat if sat is not None else None
        if mark is None:
            first_bad = next((p[0] for p in pts if p[2] != "ok"), None)
            if first_bad is not None:
                mark, text = first_bad, "%s from %.3g" % (
                    "saturated" if any(p[2] == "saturated" for p in pts) else "deadlock",
                    first_bad)
        if mark is not None:
            ax.axvline(mark, color=colour, linestyle="--", linewidth=1)
            ax.annotate(text, xy=(mark, top), xytext=(3, -12 - 11 * n),
                        textcoords="offset points", fontsize=7, color=colour)
    # Legend entries for the markers.
    from matplotlib.lines import Line2D
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], linestyle="none", marker="o", markerfacecolor="white",
                          color="gray"))
    labels.append("saturated run")
    if any(p[2] == "deadlock" for c in curves for p in c[1]):
        handles.append(Line2D([], [], linestyle="none", marker="x", color="red"))
        labels.append("deadlock")
    handles.append(Line2D([], [], linestyle="--", color="gray"))
    labels.append("saturation")
    ax.legend(handles, labels, fontsize="small", loc="upper left")
    ax.set_xlim(left=0)
    ax.set_ylim(0, top * 1.05)
    ax.set_xlabel("offered load (flits/node/cycle)")
    ax.set_ylabel("packet latency, %s (cycles)%s" % (which, ", clipped" if clipped else ""))
    ax.grid(True, alpha=0.3)
    return "Latency against offered load"
