"""matplotlib (found, set up without pyplot), the figure, and the image written atomically."""
import io
import os
import re
import sys
import tempfile

from .common import PlotError

DPI = 100


def new_figure(a, plt):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(a.width / DPI, a.height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def find_matplotlib(script):
    """matplotlib importable, else this command run again under Debian's python3 (SCRIPT: the
    entry point), else an error."""
    import importlib.util
    if importlib.util.find_spec("matplotlib") is not None:
        return
    # Debian's python3-matplotlib belongs to Debian's python3; another python3 may come first
    # on PATH (pyenv, a venv).
    sysp = "/usr/bin/python3"
    if (os.access(sysp, os.X_OK) and not os.environ.get("ICNKIT_PLOT_REEXEC")
            and os.path.realpath(sys.executable) != os.path.realpath(sysp)):
        os.environ["ICNKIT_PLOT_REEXEC"] = "1"
        os.execv(sysp, [sysp, os.path.abspath(script or sys.argv[0])] + sys.argv[1:])
    raise PlotError(1, "matplotlib", "not installed (Debian: apt-get install "
                                     "python3-matplotlib, or scripts/setup)")


def load_matplotlib():
    import warnings
    warnings.filterwarnings("ignore")
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "icnkit", "svg.fonttype": "none",
                                "figure.dpi": DPI, "savefig.dpi": DPI,
                                "path.simplify": True})
    return None  # no pyplot: a Figure on the Agg canvas (faster to import, no global state)


TEMP = None


def on_signal(signum, _frame):
    if TEMP:
        try:
            os.unlink(TEMP)
        except OSError:
            pass
    os._exit(128 + signum)


def svg_pixels(data, width, height):
    """The root <svg>'s width and height in pixels (matplotlib writes points)."""
    m = re.search(rb"<svg\b[^>]*>", data)
    if not m:
        return data
    tag = m.group(0)
    tag2 = re.sub(rb'\bwidth="[^"]*"', b'width="%dpx"' % width, tag, count=1)
    tag2 = re.sub(rb'\bheight="[^"]*"', b'height="%dpx"' % height, tag2, count=1)
    return data[:m.start()] + tag2 + data[m.end():]


def save(a, fig):
    global TEMP
    out = a.output
    d = os.path.dirname(os.path.abspath(out))
    target = os.path.realpath(out) if os.path.islink(out) else out
    try:
        fd, TEMP = tempfile.mkstemp(prefix=".plot-", suffix="." + a.format,
                                    dir=os.path.dirname(os.path.abspath(target)) or d)
    except OSError as e:
        raise PlotError(1, out, "cannot write: " + (e.strerror or str(e)))
    try:
        buf = io.BytesIO()
        meta = {"Date": None} if a.format == "svg" else {"Software": None}
        fig.savefig(buf, format=a.format, dpi=DPI, metadata=meta)
        data = buf.getvalue()
        if a.format == "svg":
            data = svg_pixels(data, a.width, a.height)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        mode = None
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            um = os.umask(0)
            os.umask(um)
            mode = 0o666 & ~um
        os.chmod(TEMP, mode)
        os.replace(TEMP, target)
        TEMP = None
    except OSError as e:
        raise PlotError(1, out, "cannot write: " + (e.strerror or str(e)))
    finally:
        if TEMP:
            try:
                os.unlink(TEMP)
            except OSError:
                pass
            TEMP = None
