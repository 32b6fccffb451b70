#!/usr/bin/python3
"""Packs the package icnkit_plot into the end of scripts/plot, for a copy of scripts/plot that
runs without the package beside it: cmake --install copies scripts/plot alone, as icnkit-plot.

  scripts/icnkit_plot/bundle.py           rewrite scripts/plot's bundle from the package
  scripts/icnkit_plot/bundle.py --check   exit 1 if the bundle is not the package (test_plot)

The bundle is comment lines '#=' (base64 of the zlib-compressed JSON {module: source}) after the
line BEGIN at the end of scripts/plot; scripts/plot reads them only when it finds no package."""
import base64
import json
import os
import sys
import zlib

HERE = os.path.dirname(os.path.realpath(__file__))
ENTRY = os.path.join(os.path.dirname(HERE), "plot")
BEGIN = "# --- icnkit_plot, packed by scripts/icnkit_plot/bundle.py (do not edit) ---"
WIDTH = 98


def sources():
    """{module name: source} of the package (this file left out)."""
    out = {}
    for f in sorted(os.listdir(HERE)):
        if f.endswith(".py") and f != "bundle.py":
            name = "icnkit_plot" if f == "__init__.py" else "icnkit_plot." + f[:-3]
            with open(os.path.join(HERE, f), encoding="utf-8") as fh:
                out[name] = fh.read()
    return out


def encode(src):
    data = base64.b64encode(zlib.compress(json.dumps(src, sort_keys=True).encode(), 9)).decode()
    return [BEGIN] + ["#=" + data[i:i + WIDTH] for i in range(0, len(data), WIDTH)]


def decode(lines):
    """The {module: source} of a bundle's lines (those after BEGIN), None if there is none."""
    data = "".join(l[2:].strip() for l in lines if l.startswith("#="))
    if not data:
        return None
    return json.loads(zlib.decompress(base64.b64decode(data)).decode())


def split(text):
    """scripts/plot's text: (the code, the bundle's lines)."""
    lines = text.split("\n")
    if BEGIN in lines:
        k = lines.index(BEGIN)
        return "\n".join(lines[:k]).rstrip("\n") + "\n", lines[k + 1:]
    return text.rstrip("\n") + "\n", []


def main(argv):
    with open(ENTRY, encoding="utf-8") as f:
        code, packed = split(f.read())
    want = sources()
    if argv == ["--check"]:
        if decode(packed) != want:
            sys.stderr.write("bundle: scripts/plot's bundle is not scripts/icnkit_plot's code: "
                             "run scripts/icnkit_plot/bundle.py\n")
            return 1
        return 0
    if argv:
        sys.stderr.write("usage: scripts/icnkit_plot/bundle.py [--check]\n")
        return 2
    text = code + "\n" + "\n".join(encode(want)) + "\n"
    tmp = ENTRY + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, os.stat(ENTRY).st_mode & 0o7777)
    os.replace(tmp, ENTRY)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
