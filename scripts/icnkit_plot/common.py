"""What every kind shares: the errors (one line, the tools' exit codes), reading the inputs
(CSV, Markdown's cells, JSON documents), the one reader of every number, and text helpers."""
import csv
import json
import math
import re
import sys

csv.field_size_limit(1 << 30)  # a long cell (a label) is no error: the text is in memory already


class PlotError(Exception):
    def __init__(self, code, where, what):
        super().__init__(what)
        self.code, self.where, self.what = code, where, what


def usage(where, what):
    raise PlotError(2, where, what)


def bad_input(where, what):
    raise PlotError(3, where, what)


# Text from the inputs and the command line goes into the figure: control characters (invalid in
# an SVG's XML), lone surrogates (a file name not in UTF-8) become U+FFFD, and '$' is escaped
# (matplotlib would read text between two '$' as mathtext and fail on what is not).
UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def showable(s):
    return UNSHOWABLE.sub("\ufffd", s).replace("$", r"\$")


def read_input(path):
    """(where, text) of one input."""
    if path == "-":
        if sys.stdin.isatty():
            usage("stdin", "no input: pipe it in or name INPUT files")
        try:
            data = sys.stdin.buffer.read()
        except OSError as e:
            raise PlotError(1, "stdin", "read failed: " + (e.strerror or str(e)))
        where = "stdin"
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except IsADirectoryError:
            raise PlotError(1, path, "is a directory")
        except OSError as e:
            raise PlotError(1, path, "cannot open: " + (e.strerror or str(e)))
        where = path
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad_input(where, "not UTF-8 text (byte %d)" % e.start)
    return where, text[1:] if text.startswith("\ufeff") else text


def read_json(where, text):
    try:
        d = json.loads(text, object_pairs_hook=lambda kv: {
            k: showable(v) if isinstance(v, str) else v for k, v in kv})
    except ValueError as e:
        bad_input(where, "not JSON: %s" % e)
    except RecursionError:
        bad_input(where, "not an icnkit document: nested too deep")
    if not isinstance(d, dict):
        bad_input(where, "not an icnkit document (a JSON object)")
    return d


def get(d, where, path, kind=None, hint="", base=""):
    """d[path[0]][path[1]]...; a missing or mistyped key is bad input (exit 3), named by its
    JSON path: d's own (BASE) and then PATH."""
    cur, at = d, base
    for k in path:
        at += "/" + str(k)
        if isinstance(k, int):
            if not isinstance(cur, list) or k >= len(cur):
                bad_input(where, "%s: missing%s" % (at, hint))
        elif not isinstance(cur, dict) or k not in cur:
            bad_input(where, "%s: missing%s" % (at, hint))
        cur = cur[k]
    if kind is not None and (not isinstance(cur, kind) or isinstance(cur, bool)):
        names = {list: "an array", dict: "an object", str: "a string", int: "an integer"}
        bad_input(where, "%s: must be %s" % (at, names.get(kind, "a number")))
    return cur


# A number in a CSV or Markdown cell: decimal, as the tools write it (no inf, nan, hex, '_',
# spaces or non-ASCII digits, all of which Python's float() takes).
NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# Beyond this a value is no measurement and its axis would overflow.
HUGE = 1e100


def value(where, at, raw, low=None, high=None, positive=False, whole=False, cell=True):
    """Every number a plot reads goes through here, a CSV or Markdown cell (text, when cell) or a
    JSON value (a JSON number: not cell) alike: it must be a finite decimal number, no larger in
    magnitude than HUGE, within [low, high], above 0 if positive, a whole number if whole;
    anything else is bad input (exit 3) naming WHERE, AT (the column or the JSON path) and the
    value."""
    v = None
    if isinstance(raw, str):
        if cell and NUMBER_TEXT.fullmatch(raw):
            v = float(raw)
    elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
        try:
            v = float(raw)
        except OverflowError:  # a JSON integer beyond a double
            v = math.inf
    want = "a whole number" if whole else "a finite number"
    if low is not None and high is not None:
        want += " in [%g, %g]" % (low, high)
    elif positive:
        want += " > 0"
    elif low is not None:
        want += " >= %g" % low
    if v is None or not math.isfinite(v) or (whole and v != int(v)) or \
            (low is not None and v < low) or (high is not None and v > high) or \
            (positive and v <= 0):
        bad_input(where, "%s: must be %s, got %s" % (at, want, shown(raw, cell)))
    if abs(v) > HUGE:
        bad_input(where, "%s: %s is out of range (magnitude above %g)"
                  % (at, shown(raw, cell), HUGE))
    return v


def shown(raw, cell=False):
    """A value as an error message shows it: a cell's text quoted, JSON as JSON, cut if long."""
    s = repr(raw) if cell and isinstance(raw, str) else json.dumps(raw)
    return s if len(s) <= 40 else s[:39] + "…"


def number(where, at, v, low=None, **limits):
    """The JSON value V at path AT: value()."""
    return value(where, at, v, low, cell=False, **limits)


def read_csv(where, text, need, what):
    """The first CSV table of text (up to a blank line): its header and (line, row as a dict)
    pairs, the line counted in the input."""
    lines, first = [], 0
    for n, line in enumerate(showable(text).split("\n"), start=1):
        line = line[:-1] if line.endswith("\r") else line
        if not line.strip():
            if lines:
                break
            continue
        if not lines:
            first = n
        lines.append(line)
    if not lines:
        bad_input(where, "empty: no CSV header")
    reader = csv.reader(lines, strict=True)
    rows = []  # (line, cells)
    try:
        at = first
        for r in reader:
            rows.append((at, r))
            at = first + reader.line_num
    except csv.Error as e:
        bad_input("%s:%d" % (where, at), "not CSV: %s" % e)
    header = rows[0][1]
    seen = set()
    for c in header:
        if c in seen:
            bad_input("%s:%d" % (where, first), "column %s twice in the header"
                      % shown(c, cell=True))
        seen.add(c)
    missing = [c for c in need if c not in header]
    if missing:
        bad_input(where, "not %s: no column %s" % (what, ", ".join(missing)))
    out = []
    for i, r in rows[1:]:
        if r == header:  # concatenated files with their headers
            continue
        if len(r) != len(header):
            bad_input("%s:%d" % (where, i), "%d fields, the header has %d" % (len(r), len(header)))
        out.append((i, dict(zip(header, r))))
    if not out:
        bad_input(where, "no rows under the header")
    return header, out


def csv_number(where, line, row, col, low=None, **limits):
    """Column COL of a CSV row at LINE: value()."""
    return value("%s:%d" % (where, line), col, row[col], low, **limits)


def size_text(b):
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= f:
            v = b / f
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.3g %s" % (v, unit))
    return "%d B" % b


def short(s, n=48):
    return s if len(s) <= n else s[: n - 1] + "…"


def legend_label(s):
    """A curve's legend entry: cut to 60 characters; a leading '_' (which would keep the curve
    out of matplotlib's legend) after a space."""
    s = short(s, 60)
    return " " + s if s.startswith("_") else s


def wrap(text, width):
    import textwrap
    return "\n".join(textwrap.wrap(text, width)) or text
