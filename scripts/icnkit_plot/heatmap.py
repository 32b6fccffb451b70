"""heatmap: per-link utilisation from a net-sim document run with --link-stats; the layouts
(grid, levels, matrix) are drawn by heatmap_layouts."""
from .common import bad_input, get, number, read_input, read_json, usage
from .heatmap_layouts import DIM_NAMES, heat_grid, heat_levels, heat_matrix, parse_slices


def link_channels(d, where, point):
    """(channels, what they measure, where they were found)."""
    rep = get(d, where, ["report"], dict, " (not a net-sim report: run net-sim --link-stats)")
    hint = " (run net-sim with --link-stats)"
    if rep.get("mode") == "flit" and rep.get("source") == "traffic" and "replay" not in rep:
        unit = "flits per cycle"
        if isinstance(rep.get("points"), list):
            pts = rep["points"]
            if not pts:
                bad_input(where, "/report/points: empty")
            if point is None:
                ok = [i for i, p in enumerate(pts) if isinstance(p, dict) and
                      p.get("status") == "ok"]
                point = ok[-1] if ok else len(pts) - 1
            if point < 0 or point >= len(pts):
                usage("--point", "%d: the sweep has points 0 .. %d" % (point, len(pts) - 1))
            p = get(rep, where, ["points", point], dict, base="/report")
            at = "/report/points/%d" % point
            ch = get(p, where, ["channels"], list, hint, base=at)
            rate = number(where, at + "/offered_flits_per_node_cycle",
                          get(p, where, ["offered_flits_per_node_cycle"], base=at), 0)
            return ch, unit, at + "/channels", rate
        if point is not None:
            usage("--point", "the report is one run, not a sweep")
        rate = number(where, "/report/offered_flits_per_node_cycle",
                      get(rep, where, ["offered_flits_per_node_cycle"], base="/report"), 0)
        return get(rep, where, ["channels"], list, hint, base="/report"), unit, \
            "/report/channels", rate
    if point is not None:
        usage("--point", "applies to flit sweeps")
    lu = get(rep, where, ["link_utilisation"], dict, hint, base="/report")
    ch = get(lu, where, ["channels"], list, hint, base="/report/link_utilisation")
    unit = "flits per cycle" if rep.get("mode") == "flit" else "fraction of the run busy"
    return ch, unit, "/report/link_utilisation/channels", None


def load(a):
    if len(a.inputs) != 1:
        usage("INPUT", "heatmap takes one document")
    where, text = read_input(a.inputs[0])
    d = read_json(where, text)
    net = get(d, where, ["network"], dict, " (not an icnkit document with a network)")
    nodes = get(net, where, ["nodes"], list, base="/network")
    links = get(net, where, ["links"], list, base="/network")
    ch, unit, at, rate = link_channels(d, where, a.point)

    def integer(v):
        return isinstance(v, int) and not isinstance(v, bool)

    node = {}
    for i, v in enumerate(nodes):
        if not isinstance(v, dict) or not integer(v.get("id")):
            bad_input(where, "/network/nodes/%d: needs an integer id" % i)
        if v["id"] in node:
            bad_input(where, "/network/nodes/%d/id: %d is another node's too" % (i, v["id"]))
        node[v["id"]] = v
    link = {}
    for i, l in enumerate(links):
        if not isinstance(l, dict) or not all(integer(l.get(k)) for k in ("id", "a", "b")):
            bad_input(where, "/network/links/%d: needs integer id, a and b" % i)
        if l["id"] in link:
            bad_input(where, "/network/links/%d/id: %d is another link's too" % (i, l["id"]))
        for k in ("a", "b"):
            if l[k] not in node:
                bad_input(where, "/network/links/%d/%s: %d is not a node of the network"
                          % (i, k, l[k]))
        if "dim" in l and not (integer(l["dim"]) and l["dim"] >= 0):
            bad_input(where, "/network/links/%d/dim: must be an integer >= 0" % i)
        if "dir" in l and not (integer(l["dir"]) and -1 <= l["dir"] <= 1):
            bad_input(where, "/network/links/%d/dir: must be -1, 0 or 1" % i)
        link[l["id"]] = l
    uses = []  # (link, from, to, utilisation)
    for i, c in enumerate(ch):
        w = "%s/%d" % (at, i)
        if not isinstance(c, dict):
            bad_input(where, w + ": must be an object")
        for k in ("link", "from", "to"):
            if not integer(c.get(k)):
                bad_input(where, "%s/%s: must be an integer" % (w, k))
        u = number(where, w + "/utilisation", get(c, where, ["utilisation"], base=w), 0)
        l = link.get(c["link"])
        if l is None:
            bad_input(where, "%s/link: %d is not a link of the network" % (w, c["link"]))
        if {c["from"], c["to"]} != {l["a"], l["b"]}:
            bad_input(where, "%s: %d -> %d is not link %d's ends" % (w, c["from"], c["to"],
                                                                      c["link"]))
        uses.append((l, c["from"], c["to"], u))
    if not uses:
        bad_input(where, at + ": empty (no live channels)")
    family = net.get("family", "")
    family = family if isinstance(family, str) else ""
    chips = [v for v in nodes if v.get("kind") == "chip"]
    for i, v in enumerate(nodes):  # a chip's place in a grid
        if v.get("kind") == "chip" and "coord" in v and not (
                isinstance(v["coord"], list) and all(integer(x) and x >= 0 for x in v["coord"])):
            bad_input(where, "/network/nodes/%d/coord: must be an array of integers >= 0" % i)
    has_grid = bool(chips) and all(isinstance(v.get("coord"), list) and
                                   2 <= len(v["coord"]) <= 8 for v in chips) and all(
        isinstance(l.get("dim"), int) for l, _, _, _ in uses)
    has_switch = any(v.get("kind") == "switch" for v in nodes)
    layout = a.layout or "auto"
    if layout == "auto":
        layout = "grid" if has_grid and family in ("torus", "mesh") else (
            "levels" if has_switch else ("grid" if has_grid else "matrix"))
    if layout == "grid" and not has_grid:
        usage("--layout", "grid needs chips with coordinates of 2 to 8 dimensions and links "
                          "with a dim (tori, meshes); this network is a " + (family or "?"))
    if layout == "levels" and not has_switch:
        usage("--layout", "levels needs switches; this network is a " + (family or "?"))
    if a.slice and layout != "grid":
        usage("--slice", "applies to the grid layout")
    if layout == "grid":
        ndim = min(len(v["coord"]) for v in chips)
        shape = [max(v["coord"][k] for v in chips) + 1 for k in range(ndim)]
        # A torus's or a mesh's chips fill their grid (failed chips stay nodes): coordinates
        # far beyond that are no grid's and would make panels of millions of empty cells.
        if shape[0] * shape[1] > 4 * len(chips):
            bad_input(where, "/network/nodes: the chips' coordinates span %d x %d cells for %d "
                             "chips: not a grid" % (shape[0], shape[1], len(chips)))
        fixed = parse_slices(a, ndim)
        for k in range(2, ndim):
            fixed.setdefault(k, 0)
            if fixed[k] >= shape[k]:
                usage("--slice", "%s=%d: dimension %d has coordinates 0 .. %d"
                      % (DIM_NAMES[k] if k < 6 else "d%d" % k, fixed[k], k, shape[k] - 1))
        grid = (ndim, shape, fixed)
    else:
        grid = None
    return dict(d=d, node=node, chips=chips, uses=uses, unit=unit, rate=rate, family=family,
                layout=layout, grid=grid)


def draw(a, v, plt, fig):
    d, node, chips, uses, unit = v["d"], v["node"], v["chips"], v["uses"], v["unit"]
    rate, family, layout = v["rate"], v["family"], v["layout"]
    vmax = max(u for _, _, _, u in uses)
    vmax = vmax if vmax > 0 else 1.0
    import matplotlib
    cmap = matplotlib.colormaps["viridis"].copy()
    cmap.set_bad("#d9d9d9")
    norm = matplotlib.colors.Normalize(vmin=0, vmax=vmax)
    if layout == "grid":
        desc = heat_grid(fig, node, v["grid"], uses, cmap, norm)
    elif layout == "levels":
        desc = heat_levels(fig, node, uses, cmap, norm)
    else:
        desc = heat_matrix(fig, node, uses, cmap, norm)
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    cb = fig.colorbar(sm, ax=fig.axes, shrink=0.9, pad=0.02)
    cb.set_label("link utilisation (%s)" % unit)
    name = (d.get("candidate") or {}).get("id") if isinstance(d.get("candidate"), dict) else None
    what = name or family or "network"
    title = "Per-link utilisation, %s%s" % (what, desc)
    rep = d.get("report", {})
    if rate is not None:
        title += ", %s traffic at %.3g flits/node/cycle" % (rep.get("traffic", "?"), rate)
    elif rep.get("algorithm"):
        title += ", %s" % rep.get("algorithm")
        if rep.get("dim_scheduling"):
            title += " + %s" % rep["dim_scheduling"]
    return title
