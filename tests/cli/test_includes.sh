#!/usr/bin/env bash
# The library's include graph has no circle. A unit is a header with its source file
# (lib/route/verify.hpp + lib/route/verify.cpp = route/verify); unit A depends on unit B when one
# of A's files has `#include "B.hpp"`. Two checks:
# - files: no header includes itself through other headers (everywhere in lib/);
# - units: no circle of units anywhere in lib/; a circle fails with the #include lines that
#   close it.
# docs/architecture.md ("Fast paths and reference paths") says how lib/route was made acyclic.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

cat >"$T/includes.py" <<'EOF'
import os, re, sys

root = sys.argv[1]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
EXTS = (".hpp.in", ".hpp", ".h", ".cpp")


def unit(path):
    for e in EXTS:
        if path.endswith(e):
            return path[: -len(e)]
    return path


files = {}  # path relative to root -> [(line, included path)]
for d, _, names in os.walk(root):
    for name in sorted(names):
        if not name.endswith(EXTS):
            continue
        p = os.path.join(d, name)
        rel = os.path.relpath(p, root)
        text = open(p, encoding="utf-8").read()
        files[rel] = [(text.count("\n", 0, m.start()) + 1, m.group(1))
                      for m in INCLUDE.finditer(text)]


def cycles(graph):
    """Strongly connected components of more than one vertex (Tarjan, iterative)."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = n
        n += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in graph[v]:
                    out.append(sorted(comp))
    return out


def report(comp, edges):
    s = set(comp)
    print("  circle: " + " ".join(comp))
    for (a, b), where in sorted(edges.items()):
        if a in s and b in s:
            for w in where:
                print(f"    {a} -> {b}: {w}")


mode = sys.argv[2]
failed = False
if mode == "files":
    graph = {p: set() for p in files}
    edges = {}
    for p, incs in files.items():
        if not p.endswith((".hpp", ".h", ".hpp.in")):
            continue
        for line, inc in incs:
            if inc in files:
                graph[p].add(inc)
                edges.setdefault((p, inc), []).append(f"{p}:{line}")
    for comp in cycles(graph):
        print("headers include each other:")
        report(comp, edges)
        failed = True
else:
    units = {unit(p) for p in files}
    graph = {u: set() for u in units}
    edges = {}
    for p, incs in files.items():
        for line, inc in incs:
            a, b = unit(p), unit(inc)
            if inc in files and a != b:
                graph[a].add(b)
                edges.setdefault((a, b), []).append(f"{p}:{line} #include \"{inc}\"")
    found = cycles(graph)
    for comp in found:
        print("include circle:")
        report(comp, edges)
        failed = True
    print(f"{len(units)} units, {len(found)} circles")
sys.exit(1 if failed else 0)
EOF

check "lib/: no header includes itself through other headers" \
  python3 "$T/includes.py" "$ICNKIT_SRC/lib" files
check "lib/: no include circle of units" \
  python3 "$T/includes.py" "$ICNKIT_SRC/lib" units

# The checker itself, on a small tree.
mkdir -p "$T/lib/route" "$T/lib/topo"
printf '#pragma once\n' >"$T/lib/route/routing.hpp"
printf '#pragma once\n#include "route/routing.hpp"\n' >"$T/lib/route/dor.hpp"
printf '#include "route/dor.hpp"\n' >"$T/lib/route/dor.cpp"
printf '#pragma once\n#include "route/routing.hpp"\n' >"$T/lib/route/registry.hpp"
printf '#include "route/registry.hpp"\n#include "route/dor.hpp"\n' >"$T/lib/route/registry.cpp"
check "checker: an acyclic tree passes" \
  bash -c 'python3 "$1" "$2" units >/dev/null' _ "$T/includes.py" "$T/lib"
# A source file closes a circle of units: routing.cpp includes the registry, which includes
# routing.hpp (the circle lib/route had).
printf '#include "route/routing.hpp"\n#include "route/registry.hpp"\n' >"$T/lib/route/routing.cpp"
check "checker: a circle of units through a source file is caught" \
  bash -c '! python3 "$1" "$2" units >"$3"' _ "$T/includes.py" "$T/lib" "$T/circle"
check "checker: the circle is reported with the #include that closes it" \
  grep -q 'route/routing -> route/registry: route/routing.cpp:2' "$T/circle"
rm "$T/lib/route/routing.cpp"
# Headers that include each other.
printf '#pragma once\n#include "route/dor.hpp"\n' >"$T/lib/route/routing.hpp"
check "checker: headers including each other are caught" \
  bash -c '! python3 "$1" "$2" files >/dev/null' _ "$T/includes.py" "$T/lib"
printf '#pragma once\n' >"$T/lib/route/routing.hpp"
# A circle outside lib/route is caught as well.
printf '#pragma once\n' >"$T/lib/topo/network.hpp"
printf '#include "topo/network.hpp"\n#include "topo/cost.hpp"\n' >"$T/lib/topo/network.cpp"
printf '#pragma once\n#include "topo/network.hpp"\n' >"$T/lib/topo/cost.hpp"
check "checker: a circle outside lib/route is caught" \
  bash -c '! python3 "$1" "$2" units >/dev/null' _ "$T/includes.py" "$T/lib"

finish
