"""heatmap's layouts: a torus's or mesh's grid of chips per dimension and direction (a 2-D
slice), a switched network's levels (up and down channels), any network's from x to matrix."""
import re

from .common import short, usage


DIM_NAMES = "xyzuvw"


def parse_slices(a, ndim):
    fixed = {}
    for s in a.slice or []:
        m = re.fullmatch(r"\s*(?:([xyzuvw])|d?(\d+))\s*=\s*(\d+)\s*", s)
        if not m:
            usage("--slice", "%r: must be DIM=K, DIM x/y/z/u/v/w, dN or N" % s)
        dim = DIM_NAMES.index(m.group(1)) if m.group(1) else int(m.group(2))
        if dim < 2 or dim >= ndim:
            usage("--slice", "%r: the grid shows dimensions 0 and 1; a slice fixes one of 2 .. %d"
                  % (s, ndim - 1) if ndim > 2 else "%r: the network has 2 dimensions, "
                  "no slice to choose" % s)
        fixed[dim] = int(m.group(3))
    return fixed


def heat_grid(fig, node, grid, uses, cmap, norm):
    import numpy as np
    ndim, shape, fixed = grid
    panels = []  # (dim, sign)
    for dmn in range(ndim):
        for sign in (1, -1):
            panels.append((dmn, sign))
    grids = {p: np.full((shape[1], shape[0]), np.nan) for p in panels}

    def in_slice(c):
        return all(c[k] == v for k, v in fixed.items())

    for l, f, t, u in uses:
        cf = node[f].get("coord")
        if node[f].get("kind") != "chip" or not isinstance(cf, list) or not in_slice(cf):
            continue
        dm = l["dim"]
        if dm >= ndim:
            continue
        ldir = l.get("dir", 1) if isinstance(l.get("dir"), int) else 1
        sign = ldir if f == l["a"] else -ldir
        if l["a"] == l["b"]:
            sign = ldir
        g = grids[(dm, 1 if sign >= 0 else -1)]
        y, x = cf[1], cf[0]
        g[y, x] = u if np.isnan(g[y, x]) else max(g[y, x], u)
    cols = ndim
    axes = fig.subplots(2, cols, squeeze=False)
    for (dm, sign), g in grids.items():
        ax = axes[0 if sign > 0 else 1][dm]
        ax.imshow(g, cmap=cmap, norm=norm, origin="lower", interpolation="nearest",
                  aspect="equal")
        name = DIM_NAMES[dm] if dm < 6 else "d%d" % dm
        ax.set_title("%s%s channels" % (name, "+" if sign > 0 else "\u2212"), fontsize=9)
        ax.set_xticks(range(shape[0]))
        ax.set_yticks(range(shape[1]))
        ax.tick_params(labelsize=6, length=2)
        if shape[0] > 16:
            ax.set_xticks(range(0, shape[0], max(1, shape[0] // 8)))
        if shape[1] > 16:
            ax.set_yticks(range(0, shape[1], max(1, shape[1] // 8)))
        if dm == 0:
            ax.set_ylabel("y", fontsize=8)
        if sign < 0:
            ax.set_xlabel("x", fontsize=8)
    desc = ""
    if fixed:
        desc += " (slice " + ", ".join("%s=%d" % (DIM_NAMES[k] if k < 6 else "d%d" % k, v)
                                       for k, v in sorted(fixed.items())) + ")"
    fig.supxlabel("a cell: the chip's outgoing channel in that dimension and direction; "
                  "grey: none (failed, or a mesh's edge)", fontsize=8)
    return desc


def heat_levels(fig, node, uses, cmap, norm):
    from matplotlib.collections import LineCollection

    def raw_level(v):
        tier = v.get("tier", 0)
        return 0 if v.get("kind") == "chip" else 1 + (tier if isinstance(tier, int) else 0)

    rank = {lv: k for k, lv in enumerate(sorted({raw_level(v) for v in node.values()}))}

    def level(v):  # chips 0, then the switches' tiers, without gaps
        return rank[raw_level(v)]

    levels = {}
    for v in node.values():
        levels.setdefault(level(v), []).append(v["id"])
    pos = {}
    top = max(levels)
    for lv, ids in levels.items():
        ids.sort()
        n = len(ids)
        for j, i in enumerate(ids):
            pos[i] = ((j + 0.5) / n, lv)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, up in zip(axes, (True, False)):
        segs, vals = [], []
        for l, f, t, u in uses:
            lf, lt = level(node[f]), level(node[t])
            if lf == lt:
                if not up:
                    continue  # same-level channels (dragonfly locals, boards) in the up panel
            elif (lt > lf) != up:
                continue
            segs.append([pos[f], pos[t]])
            vals.append(u)
        order = sorted(range(len(vals)), key=lambda k: vals[k])  # busiest drawn last
        lc = LineCollection([segs[k] for k in order], cmap=cmap, norm=norm,
                            linewidths=1.2 if len(segs) < 400 else 0.6)
        lc.set_array([vals[k] for k in order])
        ax.add_collection(lc)
        for lv, ids in levels.items():
            xs = [pos[i][0] for i in ids]
            ax.scatter(xs, [lv] * len(xs), s=14 if len(ids) <= 64 else 4,
                       c="black" if lv else "white", edgecolors="black", linewidths=0.5,
                       zorder=3)
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.4, top + 0.4)
        ax.set_xticks([])
        ax.set_title("up channels" if up else "down channels", fontsize=9)
    names = {}
    for v in node.values():
        lv = level(v)
        if lv and v.get("role"):
            names.setdefault(lv, set()).add(str(v["role"]))
    axes[0].set_yticks(sorted(levels))
    axes[0].set_yticklabels(["chips" if lv == 0 else
                             short("/".join(sorted(names.get(lv, []))), 30) or
                             "tier %d" % (lv - 1) for lv in sorted(levels)], fontsize=8)
    return " by level"


def heat_matrix(fig, node, uses, cmap, norm):
    import numpy as np
    ids = sorted(node)
    index = {i: k for k, i in enumerate(ids)}
    m = np.full((len(ids), len(ids)), np.nan)
    for _, f, t, u in uses:
        cur = m[index[f], index[t]]
        m[index[f], index[t]] = u if np.isnan(cur) else max(cur, u)
    ax = fig.add_subplot(1, 1, 1)
    ax.imshow(m, cmap=cmap, norm=norm, interpolation="nearest", aspect="equal")
    ax.set_xlabel("to (node)")
    ax.set_ylabel("from (node)")
    return ", channel from x to"
