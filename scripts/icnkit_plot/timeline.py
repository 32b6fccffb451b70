"""timeline: a schedule's phases and steps against time, from net-sim --step-times."""
from .common import bad_input, get, number, read_input, read_json, short, size_text, usage


def end_time(where, at, v, start):
    """An end time: a time >= 0, not before its START."""
    e = number(where, at, v, 0)
    if e < start:
        bad_input(where, "%s: %g s, before the start %g s" % (at, e, start))
    return e


def load(a):
    if len(a.inputs) != 1:
        usage("INPUT", "timeline takes one document")
    where, text = read_input(a.inputs[0])
    d = read_json(where, text)
    rep = get(d, where, ["report"], dict, " (not a net-sim report)")
    if "phases" not in rep:
        bad_input(where, "/report/phases: missing (a schedule's or a baseline's run: net-sim "
                         "--step-times, not a synthetic-traffic flit run)")
    phases = get(rep, where, ["phases"], list, base="/report")
    steps = get(rep, where, ["step_times"], list, " (run net-sim with --step-times)",
                base="/report")
    ph = []
    for i, p in enumerate(phases):
        at = "/report/phases/%d" % i
        if not isinstance(p, dict):
            bad_input(where, at + ": must be an object")
        s = number(where, at + "/start_s", get(p, where, ["start_s"], base=at), 0)
        e = end_time(where, at + "/end_s", get(p, where, ["end_s"], base=at), s)
        n = int(number(where, at + "/steps", get(p, where, ["steps"], base=at), 0, whole=True))
        ph.append((str(p.get("name", "phase %d" % i)), s, e, n))
    st = []
    for i, x in enumerate(steps):
        at = "/report/step_times/%d" % i
        if not isinstance(x, list) or len(x) != 2:
            bad_input(where, at + ": must be a [start_s, end_s] pair")
        s = number(where, at + "/0", x[0], 0)
        st.append((s, end_time(where, at + "/1", x[1], s)))
    if not ph:
        bad_input(where, "/report/phases: empty")
    if rep.get("bytes_per_node") is not None:
        number(where, "/report/bytes_per_node", rep["bytes_per_node"], 1, whole=True)
    total = sum(p[3] for p in ph)
    if total != len(st):
        bad_input(where, "/report/step_times: %d steps, the phases have %d" % (len(st), total))
    return rep, ph, st


def draw(a, v, plt, fig):
    rep, ph, st = v
    from matplotlib.patches import Rectangle
    ax = fig.add_subplot(1, 1, 1)
    us = 1e6
    k = 0
    for row, (name, s, e, n) in enumerate(ph):
        colour = "C%d" % (row % 10)
        ax.add_patch(Rectangle((s * us, row - 0.42), (e - s) * us, 0.84, facecolor=colour,
                               alpha=0.18, edgecolor=colour, linewidth=0.8))
        # Steps packed into lanes: a step goes to the first lane it does not overlap.
        own = st[k:k + n]
        k += n
        lanes = []
        placed = []
        for s0, e0 in own:
            for j, end in enumerate(lanes):
                if s0 >= end - 1e-15:
                    lanes[j] = e0
                    placed.append(j)
                    break
            else:
                lanes.append(e0)
                placed.append(len(lanes) - 1)
        nl = max(1, len(lanes))
        hgt = 0.76 / nl
        for (s0, e0), j in zip(own, placed):
            ax.add_patch(Rectangle((s0 * us, row - 0.38 + (j + 0.075) * hgt),
                                   max((e0 - s0) * us, 0), hgt * 0.85, facecolor=colour, edgecolor="white",
                                   linewidth=0.4))
    end = max([p[2] for p in ph] + [e for _, e in st]) * us
    ax.set_xlim(0, end * 1.02 if end > 0 else 1)
    ax.set_ylim(len(ph) - 0.5, -0.5)
    ax.set_yticks(range(len(ph)))
    fs = 8 if len(ph) <= 16 else max(3, int(8 * 16 / len(ph)))
    ax.set_yticklabels(["%s (%d)" % (short(p[0], 28), p[3]) for p in ph], fontsize=fs)
    ax.set_xlabel("time (us)")
    ax.set_ylabel("phase (steps)")
    ax.grid(True, axis="x", alpha=0.3)
    title = "Timeline of %s" % rep.get("algorithm", "the schedule")
    if rep.get("dim_scheduling"):
        title += " + %s" % rep["dim_scheduling"]
    if rep.get("bytes_per_node") is not None:
        title += ", %s per node" % size_text(rep["bytes_per_node"])
    title += " (%s)" % rep.get("mode", "?")
    return title
