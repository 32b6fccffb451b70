"""Plots of icnkit's results, one command per picture.

Usage: scripts/plot KIND [INPUT ...] -o FILE.png|FILE.svg [--width PX] [--height PX] [--title T]
  (INPUT: files, or '-' / nothing for stdin; needs Debian's python3-matplotlib, scripts/setup)

Kinds:
  sizes         busbw (or --metric algbw|time) against message size, one curve per algorithm
                (and per anything else that varies between the rows: candidate, faults, ...),
                from net-sim --sizes ... --format csv (one or several CSV files)
  speedup       bars of scripts/reproduce-micro25's speedups per configuration beside the
                paper's (its --csv output or its Markdown table; --flit's tables too)
  latency-load  packet latency against offered load, one curve per input, the saturation
                marked, from net-sim --mode flit --sweep/--find-saturation (its JSON document or
                its --format csv)
  heatmap       per-link utilisation from a net-sim document run with --link-stats: tori and
                meshes as a grid of chips per dimension and direction (a 2-D slice, --slice),
                switched networks by levels (chips, then switches by tier), any network as a
                from x to matrix (--layout)
  timeline      the phases and steps of a schedule against time, from net-sim --step-times
  topology      a network from its document (topo-gen's output), laid out by family: tori and
                meshes on their coordinates (3-D and wider as tiles of 2-D planes), HyperX
                routers on their grid, dragonflies as groups on a circle with the global links
                between them, switched networks (fat-trees, single switches, composed, imported)
                in levels (chips below, switches by tier), rings, full meshes and hypercubes on a
                circle; beyond 256 chips the chips of a level are drawn as their boards or racks
                and a dragonfly's groups as one box each; failed links dashed red
  pareto        cost against a collective's time, one point per design, from scripts/explore
                --format csv: the Pareto front of the two (cheaper and faster) drawn and
                labelled; --collective picks the time column (default the first)

Examples (PATH holding the tools, e.g. export PATH=$PWD/build:$PATH):
  topo-gen --torus 4x4x4 --link-bw 56GiB/s --link-latency 100ns | topo-route > t.json
  for a in ring halfring; do coll-sched -i t.json --algorithm $a --dims dimrotation \\
    --bytes 1MiB | net-sim --sizes 8KiB:16MiB:x4 --format csv --csv-header auto >> sizes.csv; done
  scripts/plot sizes sizes.csv -o sizes.png
  scripts/reproduce-micro25 --csv > micro25.csv
  scripts/plot speedup micro25.csv -o speedup.svg
  net-sim -i t.json --mode flit --traffic uniform --sweep 0.1:0.5:0.1 > sweep.json
  scripts/plot latency-load sweep.json -o latency.png
  net-sim -i t.json --mode flit --traffic uniform --rate 0.3 --link-stats > links.json
  scripts/plot heatmap links.json --slice z=1 -o links.png
  coll-sched -i t.json --algorithm halfring --dims dimrotation --bytes 1MiB \\
    | net-sim --step-times > steps.json
  scripts/plot timeline steps.json -o timeline.png
  topo-enum -n 64 --family dragonfly | topo-gen --pick 0 > df.json
  scripts/plot topology df.json -o df.png
  scripts/explore -n 64 --format csv > designs.csv
  scripts/plot pareto designs.csv --collective all-to-all:64MiB -o pareto.png

Output: PNG or SVG by the extension of -o (nothing else), WIDTH x HEIGHT pixels at 100 dpi
(default 800 x 500; speedup 1000 x 800), the SVG's width and height in pixels too; the same
input gives the same bytes (no dates, no random ids). FILE is written atomically: a temporary
beside it, renamed over it at the end, so a failed run leaves no partial file.
Errors are one line, 'plot: error: WHERE: WHAT', with the tools' exit codes: 1 I/O or a missing
matplotlib, 2 a bad command line, 3 bad input (not the expected CSV or document, or without the
section the plot needs, or a value it cannot draw). Every number read, in every column or field
a kind uses, must be a finite decimal (no inf or nan) of magnitude up to 1e100 within its range:
sizes whole numbers >= 1 byte; times > 0 (sizes) or >= 0 (timeline, with no end before its
start); bandwidths, utilisations, loads and latencies >= 0; speedups > 0; rates (asked for, and
the saturation's) within [0, 1] flits/node/cycle. The error names the file, its line and column
(CSV, Markdown) or the JSON path, and the value. A sizes input may not repeat a configuration's
size (the same file given twice is a curve per file).
"""
import argparse
import os
import re
import signal
import subprocess
import sys
from importlib import import_module

from . import KINDS, output
from .common import PlotError, short, showable, usage, wrap

DEFAULT_SIZE = {"speedup": (1000, 800), "topology": (1000, 800)}
SIZE_DEFAULT = (800, 500)
# Set by run(): the command's name ("plot", or "icnkit-plot" installed), its version (filled in
# when installed; from the repository, git is asked) and the entry point's path.
PROG = "plot"
VERSION = None
SCRIPT = None


def version():
    if VERSION:
        return VERSION
    try:
        rev = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(SCRIPT or __file__)),
                              "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev = ""
    return "(git %s)" % rev if rev else "(revision unknown)"


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise PlotError(2, "command line", message)


def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 50 or v > 10000:
        raise argparse.ArgumentTypeError("must be a whole number of pixels, 50 .. 10000, got %r"
                                         % text)
    return v


def parse_args(argv):
    doc = __doc__.split("\n\n", 2)
    p = Parser(prog=PROG, description=doc[0] + "\n\n" + doc[2],
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version="%s %s" % (PROG, version()))
    p.add_argument("kind", choices=list(KINDS), metavar="KIND",
                   help="one of: " + ", ".join(KINDS))
    p.add_argument("inputs", nargs="*", metavar="INPUT",
                   help="input files ('-' or none: stdin)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the image: FILE.png or FILE.svg")
    p.add_argument("--width", type=positive_int, metavar="PX", help="width in pixels")
    p.add_argument("--height", type=positive_int, metavar="PX", help="height in pixels")
    p.add_argument("--title", help="the figure's title (default: one said by the input)")
    p.add_argument("--label", action="append", metavar="TEXT",
                   help="sizes, latency-load: the legend label of the next input, in order "
                        "(repeat per input)")
    g = p.add_argument_group("sizes")
    g.add_argument("--metric", choices=["busbw", "algbw", "time"],
                   help="what to plot against size (default busbw, GB/s; time in us, log axis)")
    g = p.add_argument_group("speedup")
    g.add_argument("--largest", action="store_true",
                   help="the largest size's speedups instead of the means over sizes")
    g = p.add_argument_group("latency-load")
    g.add_argument("--latency", choices=["mean", "p50", "p99"],
                   help="which packet latency (default mean)")
    g = p.add_argument_group("heatmap")
    g.add_argument("--layout", choices=["auto", "grid", "levels", "matrix"],
                   help="grid: one panel per dimension and direction (tori, meshes); levels: "
                        "chips below switches by tier, up and down channels (switched "
                        "networks); matrix: from x to, any network (default auto)")
    g.add_argument("--slice", metavar="DIM=K", action="append",
                   help="grid: the coordinate of a dimension beyond the first two, as z=K, "
                        "d2=K or 2=K (default 0); repeat for 4-D and wider")
    g.add_argument("--point", metavar="I", type=int,
                   help="a flit sweep's point by index (default: the highest rate whose run "
                        "is ok)")
    g = p.add_argument_group("topology")
    g.add_argument("--boxes", metavar="FILE",
                   help="also write the drawn boxes as JSON, in pixels from the top left: "
                        "[{\"label\", \"x0\", \"y0\", \"x1\", \"y1\"}, ...] (for checks)")
    g = p.add_argument_group("pareto")
    g.add_argument("--collective", metavar="NAME",
                   help="the time column's collective, as explore names it (all-reduce:1GiB)")
    a = p.parse_intermixed_args(argv)
    own = {"metric": "sizes", "largest": "speedup", "latency": "latency-load",
           "layout": "heatmap", "slice": "heatmap", "point": "heatmap", "collective": "pareto",
           "boxes": "topology"}
    for opt, kind in own.items():
        v = getattr(a, opt)
        if v not in (None, False) and a.kind != kind:
            usage("--" + opt, "applies to %s, not %s" % (kind, a.kind))
    if a.label and a.kind not in ("sizes", "latency-load"):
        usage("--label", "applies to sizes and latency-load, not " + a.kind)
    ext = os.path.splitext(a.output)[1].lower()
    if ext not in (".png", ".svg"):
        usage("-o", "%s: the image must be FILE.png or FILE.svg" % a.output)
    a.format = ext[1:]
    w, h = DEFAULT_SIZE.get(a.kind, SIZE_DEFAULT)
    a.width = a.width or w
    a.height = a.height or h
    if not a.inputs:
        a.inputs = ["-"]
    if a.inputs.count("-") > 1:
        usage("INPUT", "stdin ('-') can be read only once")
    if a.label and len(a.label) > len(a.inputs):
        usage("--label", "%d labels for %d inputs" % (len(a.label), len(a.inputs)))
    if a.title is not None:
        a.title = showable(a.title)
    if a.label:
        a.label = [showable(t) for t in a.label]
    return a


def main(argv):
    a = parse_args(argv)
    if os.path.isdir(a.output):
        raise PlotError(1, a.output, "is a directory")
    # before stdin is read: it may run the entry point again under /usr/bin/python3
    output.find_matplotlib(SCRIPT)
    kind = import_module("." + KINDS[a.kind], __package__)
    data = kind.load(a)
    plt = output.load_matplotlib()
    fig = output.new_figure(a, plt)
    title = kind.draw(a, data, plt, fig)
    fig.suptitle(wrap(short(a.title if a.title is not None else title, 400),
                      max(40, a.width // 7)), fontsize=10)
    if a.kind in ("heatmap",):
        fig.set_layout_engine("constrained")
    elif a.kind != "topology":  # the topology's axes are placed by hand, in pixels
        fig.set_layout_engine("tight")
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, output.on_signal)
    output.save(a, fig)


def run(argv, prog="plot", version=None, script=None):
    """The command: main(argv), its errors one line with the tools' exit codes (the return)."""
    global PROG, VERSION, SCRIPT
    PROG, VERSION, SCRIPT = prog, version, script
    try:
        main(argv)
    except PlotError as e:
        line = "%s: error: %s: %s" % (PROG, e.where, e.what)
        sys.stderr.write(re.sub(r"[\r\n]", " ", line) + "\n")
        return e.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as e:  # never a traceback
        sys.stderr.write("%s: error: internal: %s: %s\n"
                         % (PROG, type(e).__name__, str(e).replace("\n", " ")))
        return 1
    return 0
