"""topology: a network from its document, laid out by family (topology_layout) and drawn
without Graphviz; --boxes writes the drawn boxes for checks."""
import json
import math

from .common import PlotError, bad_input, get, read_input, read_json, usage
from .topology_layout import topology_layout


def load(a):
    if len(a.inputs) != 1:
        usage("INPUT", "topology takes one document")
    where, text = read_input(a.inputs[0])
    d = read_json(where, text)
    net = get(d, where, ["network"], dict, " (not an icnkit document with a network)")
    nodes = get(net, where, ["nodes"], list, base="/network")
    links = get(net, where, ["links"], list, base="/network")

    def integer(v):
        return isinstance(v, int) and not isinstance(v, bool)

    node = {}
    for i, v in enumerate(nodes):
        if not isinstance(v, dict) or not integer(v.get("id")) or v.get("kind") not in (
                "chip", "switch"):
            bad_input(where, "/network/nodes/%d: needs an integer id and kind chip or switch" % i)
        if v["id"] in node:
            bad_input(where, "/network/nodes/%d/id: %d is another node's too" % (i, v["id"]))
        if "coord" in v and not (isinstance(v["coord"], list) and
                                 all(integer(x) and 0 <= x < 1 << 20 for x in v["coord"])):
            bad_input(where, "/network/nodes/%d/coord: must be an array of integers >= 0" % i)
        for k in ("board", "rack", "tier"):
            if k in v and not (integer(v[k]) and v[k] >= -1):
                bad_input(where, "/network/nodes/%d/%s: must be an integer" % (i, k))
        node[v["id"]] = v
    pairs = []
    for i, l in enumerate(links):
        if not isinstance(l, dict) or not all(integer(l.get(k)) for k in ("a", "b")):
            bad_input(where, "/network/links/%d: needs integer a and b" % i)
        for k in ("a", "b"):
            if l[k] not in node:
                bad_input(where, "/network/links/%d/%s: %d is not a node of the network"
                          % (i, k, l[k]))
        pairs.append((l["a"], l["b"], l.get("id", i)))
    failed = set()
    faults = d.get("faults")
    if isinstance(faults, dict):
        for f in faults.get("links", []) or []:
            if isinstance(f, dict) and integer(f.get("link")):
                failed.add(f["link"])
    cand = d.get("candidate") if isinstance(d.get("candidate"), dict) else {}
    family = net.get("family") if isinstance(net.get("family"), str) else ""
    return {"nodes": node, "links": pairs, "failed": failed, "family": family,
            "id": cand.get("id") if isinstance(cand.get("id"), str) else family}


def draw(a, v, plt, fig):
    from matplotlib.patches import Rectangle
    boxes, lines = topology_layout(v)
    if not boxes:
        bad_input(a.inputs[0], "the network has no nodes to draw")
    xs = [b[1] for b in boxes]
    ys = [b[2] for b in boxes]
    # The box side: 70% of the closest distance between two box centres (so none overlap).
    pts = sorted(zip(xs, ys))
    near = float("inf")
    for i in range(len(pts)):  # a sweep over x: only neighbours within `near` in x compare
        for j in range(i + 1, len(pts)):
            if pts[j][0] - pts[i][0] >= near:
                break
            near = min(near, max(abs(pts[j][0] - pts[i][0]), abs(pts[j][1] - pts[i][1])))
    side = 0.7 * (near if near < float("inf") else 1.0)
    ax = fig.add_axes([0.02, 0.02, 0.96, 0.9])
    ax.set_axis_off()
    x0, x1, y0, y1 = min(xs) - side, max(xs) + side, min(ys) - side, max(ys) + side
    # equal scales in x and y, the drawing centred
    W, H = a.width * 0.96, a.height * 0.9
    scale = min(W / (x1 - x0), H / (y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ax.set_xlim(cx - W / scale / 2, cx + W / scale / 2)
    ax.set_ylim(cy - H / scale / 2, cy + H / scale / 2)
    from matplotlib.collections import PathCollection
    from matplotlib.path import Path
    heavy = max((w for w, _ in lines.values()), default=1)
    step = near if near < float("inf") else 1.0

    def path(i, j):
        """A straight line, or, between two boxes of one row or column that are not
        neighbours, an arc bulging off the row (so it passes no box between them)."""
        (x0_, y0_), (x1_, y1_) = (xs[i], ys[i]), (xs[j], ys[j])
        dist = math.hypot(x1_ - x0_, y1_ - y0_)
        aligned = abs(x0_ - x1_) < 1e-9 or abs(y0_ - y1_) < 1e-9
        if not aligned or dist <= 1.5 * step:
            return Path([(x0_, y0_), (x1_, y1_)])
        h = min(0.25 * dist, 1.2 * step)  # the control point's offset: twice the arc's height
        nx, ny = -(y1_ - y0_) / dist, (x1_ - x0_) / dist
        mx, my = (x0_ + x1_) / 2 + nx * h, (y0_ + y1_) / 2 + ny * h
        return Path([(x0_, y0_), (mx, my), (x1_, y1_)], [Path.MOVETO, Path.CURVE3, Path.CURVE3])

    for bad in (False, True):  # the live links, then the failed ones over them
        keys = [k for k, (_, f) in sorted(lines.items()) if f == bad]
        if keys:
            ax.add_collection(PathCollection(
                [path(i, j) for i, j in keys], facecolors="none",
                edgecolors="#d62728" if bad else "#555555",
                linewidths=[0.3 + 1.7 * lines[k][0] / heavy for k in keys],
                linestyles="--" if bad else "-", zorder=1,
                alpha=0.9 if bad else max(0.15, min(0.8, 300.0 / max(1, len(lines))))))
    color = {"chip": "#4c9be8", "switch": "#f5a623", "group": "#9ecae1"}
    px = side * scale  # the box side in pixels
    fs = 7
    drawn = []
    for label, x, y, kind, count in boxes:
        ax.add_patch(Rectangle((x - side / 2, y - side / 2), side, side, facecolor=color[kind],
                               edgecolor="black", linewidth=0.4, zorder=2))
        text = label if count == 1 or kind != "group" else "%s\n%d" % (label, count)
        # a label only where it fits inside its box (never over another)
        lines_ = text.split("\n")
        if max(len(t) for t in lines_) * fs * 0.62 <= px and len(lines_) * fs * 1.25 <= px:
            ax.text(x, y, text, ha="center", va="center", fontsize=fs, zorder=3)
        # pixels from the top left of the figure
        bx0 = a.width * 0.02 + (x - side / 2 - (cx - W / scale / 2)) * scale
        by1 = a.height * 0.08 + ((cy + H / scale / 2) - (y + side / 2)) * scale
        drawn.append({"label": label, "x0": round(bx0, 3), "y0": round(by1, 3),
                      "x1": round(bx0 + px, 3), "y1": round(by1 + px, 3)})
    if a.boxes:
        try:
            with open(a.boxes, "w") as f:
                json.dump(drawn, f)
        except OSError as e:
            raise PlotError(1, a.boxes, "cannot write: " + (e.strerror or str(e)))
    what = {"chip": "blue: chips", "switch": "orange: switches",
            "group": "light blue: groups of nodes (their count inside)"}
    return "%s: %s; %d boxes, %d links%s" % (
        v["id"], ", ".join(what[k] for k in sorted({b[3] for b in boxes})), len(boxes),
        sum(w for w, _ in lines.values()),
        ", failed dashed red" if any(f for _, f in lines.values()) else "")
