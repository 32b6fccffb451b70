"""topology's layout by family: boxes (chips, switches, groups of them) in layout units and the
lines between them."""
import math


COLLAPSE = 256  # beyond this many chips in a row, draw boards or racks instead


def grid_xy(coord, sizes):
    """A coordinate's place on a 2-D sheet: dimensions 0 and 1 as x and y, each further
    dimension's planes as tiles, alternately across and down."""
    x, y = coord[0], coord[1] if len(coord) > 1 else 0
    w, h = sizes[0] + 1, (sizes[1] if len(sizes) > 1 else 1) + 1
    if len(coord) == 3:  # one more dimension: its planes as a square of tiles
        cols = math.ceil(math.sqrt(sizes[2]))
        return float(x + (coord[2] % cols) * w), float(y + (coord[2] // cols) * h)
    for k in range(2, len(coord)):
        if k % 2 == 0:
            x += coord[k] * w
            w *= sizes[k]
        else:
            y += coord[k] * h
            h *= sizes[k]
    return float(x), float(y)


def topology_layout(v):
    """Boxes (label, x, y, kind, members) in layout units and the lines between them (i, j,
    failed, weight), by family."""
    node, fam = v["nodes"], v["family"]
    chips = [n for n in node.values() if n["kind"] == "chip"]
    switches = [n for n in node.values() if n["kind"] == "switch"]
    boxes, at = [], {}  # at: node id -> box index

    def box(label, x, y, kind, members):
        for m in members:
            at[m] = len(boxes)
        boxes.append([label, x, y, kind, len(members)])

    def grouped(ns, key):
        g = {}
        for n in sorted(ns, key=lambda n: n["id"]):
            g.setdefault(n.get(key, -1), []).append(n)
        return g

    def collapsed(ns):
        """(label, members) for many chips: their boards, else racks, when that gives 2 to
        COLLAPSE boxes; else runs of consecutive chips, 64 boxes."""
        for most in (64, COLLAPSE):  # the fewest readable boxes first
            for key in ("board", "rack"):
                g = grouped(ns, key)
                if 2 <= len(g) <= most:
                    return [("%s%d" % (key[0], k), [n["id"] for n in m])
                            for k, m in sorted(g.items())]
        ns = sorted(ns, key=lambda n: n["id"])
        step = -(-len(ns) // 64)
        return [("%d-%d" % (ns[k]["id"], ns[min(k + step, len(ns)) - 1]["id"]),
                 [n["id"] for n in ns[k:k + step]]) for k in range(0, len(ns), step)]

    many = len(chips) > COLLAPSE
    has_coord = chips and all("coord" in n for n in chips)
    sw_coord = switches and all("coord" in n for n in switches)
    if not switches and has_coord and fam in ("torus", "mesh", "custom"):
        sizes = [max(n["coord"][k] for n in chips) + 1 for k in range(len(chips[0]["coord"]))]
        for n in chips:
            x, y = grid_xy(n["coord"], sizes)
            box(str(n["id"]), x, y, "chip", [n["id"]])
    elif fam == "hyperx" and sw_coord:
        sizes = [max(n["coord"][k] for n in switches) + 1 for k in range(len(switches[0]["coord"]))]
        # routers on their grid; the chips of each router beside it, or (many) counted in it
        per = {}
        for a_, b_, _ in v["links"]:
            for c, r in ((a_, b_), (b_, a_)):
                if node[c]["kind"] == "chip" and node[r]["kind"] == "switch":
                    per.setdefault(r, []).append(c)
        for n in switches:
            x, y = grid_xy(n["coord"], sizes)
            mine = per.get(n["id"], [])
            if many or not mine:
                box("r%d" % n["id"], 2 * x, 2 * y, "switch", [n["id"]] + (mine if many else []))
            else:
                box("r%d" % n["id"], 2 * x, 2 * y, "switch", [n["id"]])
                for k, c in enumerate(mine):
                    box(str(c), 2 * x + 0.9, 2 * y + 0.9 * (k + 1) / len(mine), "chip", [c])
    elif fam in ("dragonfly", "dragonfly+"):
        groups = grouped(switches, "rack")
        chip_of = {}
        for a_, b_, _ in v["links"]:
            for c, r in ((a_, b_), (b_, a_)):
                if node[c]["kind"] == "chip" and node[r]["kind"] == "switch":
                    chip_of.setdefault(r, []).append(c)
        G = len(groups)
        big = many or G > 32
        R = max(3.0, G * (1.2 if big else 2.6) / (2 * math.pi))
        for gi, (g, rs) in enumerate(sorted(groups.items())):
            t = 2 * math.pi * gi / G
            cx, cy = R * math.cos(t), R * math.sin(t)
            if big:
                members = [n["id"] for n in rs] + [c for n in rs for c in chip_of.get(n["id"], [])]
                box("g%d" % g, cx, cy, "group", members)
                continue
            r_in = 0.55 + 0.06 * len(rs)
            for k, n in enumerate(rs):
                u = t + 2 * math.pi * k / len(rs)
                x, y = cx + 0.5 * r_in * math.cos(u), cy + 0.5 * r_in * math.sin(u)
                mine = chip_of.get(n["id"], [])
                box("r%d" % n["id"], x, y, "switch", [n["id"]] + mine)
    elif switches:
        # levels: chips (or their boards / racks) at the bottom, switches by tier above
        rows = {}
        for n in switches:
            rows.setdefault(n.get("tier", 8), []).append(n)
        if len(chips) > COLLAPSE:
            base = [(label, members, "group") for label, members in collapsed(chips)]
        else:
            base = [(str(n["id"]), [n["id"]], "chip") for n in sorted(chips, key=lambda n: n["id"])]
        levels = [base] + [[("s%d" % n["id"], [n["id"]], "switch")
                            for n in sorted(rows[t], key=lambda n: n["id"])]
                           for t in sorted(rows)]
        out = [levels[0]]
        for l in levels[1:]:  # too many switches in a tier (a domain's scale-up switches)
            if len(l) > 64:
                l = [(label, members, "group")
                     for label, members in collapsed([node[m[1][0]] for m in l])]
            out.append(l)
        levels = out
        width = max(len(l) for l in levels)
        gap = max(2.0, 0.7 * width / max(1, len(levels) - 1) * 0.75)  # rows fill the height
        for li, l in enumerate(levels):
            for k, (label, members, kind) in enumerate(l):
                box(label, (k + 0.5) * width / len(l), li * gap, kind, members)
    else:
        # a circle: rings, full meshes, hypercubes, graphs without coordinates
        items = [(str(n["id"]), [n["id"]]) for n in sorted(chips, key=lambda n: n["id"])]
        if many:
            items = collapsed(chips)
        N = len(items)
        R = max(2.0, N * 1.3 / (2 * math.pi))
        for k, (label, members) in enumerate(items):
            t = math.pi / 2 - 2 * math.pi * k / N
            box(label, R * math.cos(t), R * math.sin(t), "chip" if len(members) == 1 else "group",
                members)
    lines = {}
    for a_, b_, lid in v["links"]:
        i, j = at.get(a_), at.get(b_)
        if i is None or j is None or i == j:
            continue
        key = (min(i, j), max(i, j))
        w, f = lines.get(key, (0, False))
        lines[key] = (w + 1, f or lid in v["failed"])
    return boxes, lines
