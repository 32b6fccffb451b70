# topo-gen --format: networkx node-link JSON (loaded by networkx when it is installed), GraphML,
# DOT (rendered by `dot -Tsvg` when Graphviz is installed), the BookSim anynet file, and the
# usage error of an unknown format.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 64 >"$T/enum.json"
PICK='torus:4x4x4/b2x2x2'

# The default is the icnkit document, byte for byte the same as --format json.
expect_ok topo-gen -i "$T/enum.json" --pick "$PICK" --no-provenance -o "$T/doc.json"
expect_ok topo-gen -i "$T/enum.json" --pick "$PICK" --no-provenance --format json -o "$T/doc2.json"
check "json is the default" cmp -s "$T/doc.json" "$T/doc2.json"

# networkx: 64 nodes and 192 edges (a 4x4x4 torus: 3 links per chip), loaded by networkx.
topo-enum -n 64 | topo-gen --pick "$PICK" --format networkx >"$T/nx.json"
topo-enum -n 64 | topo-gen --pick "$PICK" --format networkx --fail-chip 5 >"$T/nx-fail.json"
# A Python with networkx: the system one (python3-networkx) or the first on PATH.
PY=""
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import networkx' 2>/dev/null; then PY=$p; break; fi
done
if [ -n "$PY" ]; then
  cat >"$T/nx.py" <<'EOF'
import inspect, json, sys
import networkx as nx
def load(path):
    d = json.load(open(path))
    # networkx >= 3.4 takes the edge list's key as `edges` (its default became "edges" in 3.6);
    # older ones read "links" by default.
    if "edges" in inspect.signature(nx.node_link_graph).parameters:
        return nx.node_link_graph(d, edges="links")
    return nx.node_link_graph(d)
g = load(sys.argv[1])
assert g.is_multigraph() and not g.is_directed()
assert g.number_of_nodes() == 64, g.number_of_nodes()
assert g.number_of_edges() == 192, g.number_of_edges()
assert g.graph["family"] == "torus" and g.graph["n_chip"] == 64
assert all(deg == 6 for _, deg in g.degree())
assert g.nodes[5]["coord"] == [1, 1, 0] and g.nodes[5]["failed"] is False
f = load(sys.argv[2])
assert f.nodes[5]["failed"] is True
failed = [(u, v) for u, v, a in f.edges(data=True) if a["failed"]]
assert len(failed) == 6 and all(5 in e for e in failed), failed
print("ok")
EOF
  check "networkx loads it" [ "$("$PY" "$T/nx.py" "$T/nx.json" "$T/nx-fail.json")" = ok ]
else
  check "node-link keys" [ "$(jget "$T/nx.json" "(d['directed'], d['multigraph'], sorted(d['graph']), len(d['nodes']), len(d['links']))")" = "(False, True, ['family', 'fingerprint', 'n_chip'], 64, 192)" ]
  check "link keys" [ "$(jget "$T/nx.json" "all({'source', 'target', 'key', 'id', 'failed'} <= set(l) for l in d['links'])")" = True ]
  check "failed chip" [ "$(jget "$T/nx-fail.json" "([v['id'] for v in d['nodes'] if v['failed']], sum(l['failed'] for l in d['links']))")" = "([5], 6)" ]
fi

# GraphML: a node and an edge element each; networkx reads it back when present.
topo-enum -n 64 | topo-gen --pick "$PICK" --format graphml >"$T/net.graphml"
check "graphml nodes" [ "$(grep -c '<node ' "$T/net.graphml")" = 64 ]
check "graphml edges" [ "$(grep -c '<edge ' "$T/net.graphml")" = 192 ]
if [ -n "$PY" ]; then
  check "networkx reads graphml" [ "$("$PY" -c "import networkx as nx, sys; g = nx.read_graphml(sys.argv[1]); print(g.number_of_nodes(), g.number_of_edges())" "$T/net.graphml")" = "64 192" ]
fi

# DOT: one a--b line per link; Graphviz renders it, failed links included.
topo-enum -n 64 | topo-gen --pick "$PICK" --format dot --fail-link '(1,1,0)-(2,1,0)' >"$T/net.dot"
check "dot header" [ "$(head -n 1 "$T/net.dot")" = "graph G {" ]
check "dot edges" [ "$(grep -c -- '--' "$T/net.dot")" = 192 ]
check "dot failed link" [ "$(grep -c -- '--.*style=dashed' "$T/net.dot")" = 1 ]
# Graphviz is installed by scripts/setup: the pictures are part of what is tested.
expect_ok dot -Tsvg "$T/net.dot" -o "$T/net.svg"
check "svg written" grep -q '<svg' "$T/net.svg"
check "rendered without a warning (no overlapping nodes)" [ ! -s "$T/err" ]
# Laid out on the coordinates, pinned: neato keeps every chip where topo-gen put it. The SVG's
# node centres follow the pos attributes (points = 72 x inches, y flipped).
check "4x4x4 torus picture readable in size" python3 -c "
import re,sys
svg = open('$T/net.svg').read()
w, h = (float(x) for x in re.search(r'<svg width=\"([0-9.]+)pt\" height=\"([0-9.]+)pt\"', svg).groups())
sys.exit(0 if 300 < w < 900 and 300 < h < 900 else 1)"
check "dot pins 64 chips" [ "$(grep -c 'pos="[-0-9.e]*,[-0-9.e]*!"' "$T/net.dot")" = 64 ]
# A 64-endpoint fat-tree: chips, leaves and spines in three levels.
topo-enum -n 64 --family fat-tree | topo-gen --pick 'fat-tree:2L-k8-osr1/c2' --format dot >"$T/ft.dot"
expect_ok dot -Tsvg "$T/ft.dot" -o "$T/ft.svg"
check "fat-tree rendered without a warning" [ ! -s "$T/err" ]
check "fat-tree in three levels, spines on top" python3 -c "
import re,sys
ys = {}
for l in open('$T/ft.dot'):
    m = re.match(r'^\d+ \[.*pos=\"[-0-9.e]+,([-0-9.e]+)!\".*tier=(\d+)\]', l)
    if m: ys.setdefault(int(m.group(2)), set()).add(float(m.group(1)))
levels = [ys[t] for t in sorted(ys)]
sys.exit(0 if len(levels) == 3 and all(len(v) == 1 for v in levels) and
         min(levels[0]) < min(levels[1]) < min(levels[2]) else 1)"

# BookSim anynet: a router line per chip with its node, 6 neighbours each at 1000 cycles (1 us at
# 1 GHz); the failed link is left out (two neighbour entries fewer). Written with -o too.
expect_ok topo-gen -i "$T/enum.json" --pick "$PICK" --format booksim -o "$T/net.anynet"
check "booksim routers" [ "$(grep -c '^router [0-9]* node [0-9]* ' "$T/net.anynet")" = 64 ]
check "booksim ids" [ "$(awk '$2 != NR - 1 || $4 != NR - 1' "$T/net.anynet" | wc -l)" = 0 ]
check "booksim neighbours" [ "$(awk '{ n += (NF - 4) / 3 } END { print n }' "$T/net.anynet")" = 384 ]
check "booksim latency" [ "$(awk '{ for (i = 7; i <= NF; i += 3) if ($i != 1000) bad++ } END { print bad + 0 }' "$T/net.anynet")" = 0 ]
topo-gen -i "$T/enum.json" --pick "$PICK" --format booksim --fail-link '(1,1,0)-(2,1,0)' >"$T/fail.anynet"
check "booksim omits failed" [ "$(awk '{ n += (NF - 4) / 3 } END { print n }' "$T/fail.anynet")" = 382 ]

# An unknown format: exit 2, one line on stderr, nothing on stdout.
expect_exit 2 "$T/enum.json" topo-gen --pick "$PICK" --format bogus
check "lists the formats" grep -q 'json, networkx, graphml, dot, booksim' "$T/err"
expect_exit 2 - topo-gen --format bogus

finish
