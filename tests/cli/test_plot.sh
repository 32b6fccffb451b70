# scripts/plot: every kind drawn from the tools' real output on small networks, as PNG and SVG
# of the size asked for (the bytes checked: PNG signature and IHDR, SVG root), with content,
# deterministic; bad command lines and inputs give one-line errors, the tools' exit codes and no
# output file.
source "$ICNKIT_SRC/tests/cli/lib.sh"
PLOT="$ICNKIT_SRC/scripts/plot"

# scripts/plot needs Debian's python3-matplotlib (scripts/setup installs it) and runs under
# Debian's /usr/bin/python3; so does this test's image checker (and JSON reader) when it can.
PY=""
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import matplotlib' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
  fail "no python3 with matplotlib: install python3-matplotlib (scripts/setup)"
  finish
fi
pyget() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# check_image FILE WIDTH HEIGHT [TEXT]: FILE is, checked at the end (one Python for all), a PNG
# (signature, IHDR of WIDTH x HEIGHT, decodes, more than 40 colours, more than 3% of the pixels
# not white) or an SVG (parses as XML, a root <svg> of WIDTHpx x HEIGHTpx, drawn elements, TEXT
# among its text).
check_image() { printf '%s\t' "$@" >>"$T/images.txt"; echo >>"$T/images.txt"; }
cat >"$T/check.py" <<'EOF'
import struct, sys, zlib
import xml.etree.ElementTree as ET
import numpy as np
import matplotlib.image


def check(path, w, h, text=None):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        return "cannot open: %s" % e.strerror
    if path.endswith(".png"):
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            return "no PNG signature"
        ln, typ = struct.unpack(">I4s", data[8:16])
        if typ != b"IHDR" or ln != 13:
            return "the first chunk is not IHDR"
        pw, ph = struct.unpack(">II", data[16:24])
        if (pw, ph) != (w, h):
            return "%dx%d, asked for %dx%d" % (pw, ph, w, h)
        if zlib.crc32(data[12:29]) != struct.unpack(">I", data[29:33])[0]:
            return "IHDR CRC mismatch"
        if not data.endswith(b"IEND\xaeB`\x82"):
            return "no IEND chunk at the end"
        img = matplotlib.image.imread(path)
        if img.shape[:2] != (h, w):
            return "decodes to %s" % (img.shape,)
        px = (img[..., :3] * 255).round().astype(np.uint32).reshape(-1, 3)
        packed = px[:, 0] << 16 | px[:, 1] << 8 | px[:, 2]
        colours = len(np.unique(packed))
        ink = float((packed != 0xFFFFFF).mean())
        if colours <= 40:
            return "only %d colours" % colours
        if ink < 0.03:
            return "only %.1f%% of the pixels drawn" % (100 * ink)
        return None
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return "not XML: %s" % e
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        return "root is %s, not svg" % root.tag
    if (root.get("width"), root.get("height")) != ("%dpx" % w, "%dpx" % h):
        return "%s x %s, asked for %dpx x %dpx" % (root.get("width"), root.get("height"), w, h)
    drawn = [e for e in root.iter() if e.tag.split("}")[-1] in ("path", "use", "rect", "image")]
    if len(drawn) < 20:
        return "only %d drawn elements" % len(drawn)
    if text:
        texts = " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("}text"))
        if text not in texts:
            return "no text %r in %r" % (text, texts[:300])
    return None


for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3:
        continue
    err = check(f[0], int(f[1]), int(f[2]), f[3] if len(f) > 3 and f[3] else None)
    print("ok" if err is None else "FAIL: image %s: %s" % (f[0], err))
EOF

# plot_both NAME TEXT ARGS...: the plot ARGS as NAME.png (the default size: 800x500, or W x H
# when set) and NAME.svg (640x420), both checked.
plot_both() {
  local name=$1 text=$2
  shift 2
  expect_ok "$PLOT" "$@" -o "$T/$name.png"
  check_image "$T/$name.png" "${W:-800}" "${H:-500}"
  expect_ok "$PLOT" "$@" -o "$T/$name.svg" --width 640 --height 420
  check_image "$T/$name.svg" 640 420 "$text"
}

# The networks: a 4x4 torus, a 4x4x2 torus and a 3-layer fat-tree of 16 chips.
topo-gen --torus 4x4 --link-bw 50GB/s --link-latency 100ns | topo-route >"$T/t44.json"
topo-gen --torus 4x4x2 --link-bw 50GB/s --link-latency 100ns | topo-route >"$T/t442.json"
topo-enum -n 16 --family fat-tree --all | topo-gen --pick 'fat-tree:3L-k4-osr1/c1' \
  | topo-route --algorithm dmodk >"$T/ft.json"
short=(--warmup 200 --measure 1000)

# 1. sizes: two algorithms and the hardware baseline, in three CSVs (header once each).
for alg in ring halfring; do
  coll-sched -i "$T/t44.json" --algorithm "$alg" --dims dimrotation --bytes 1MiB \
    | net-sim --sizes 8KiB:4MiB:x4 --format csv >"$T/sizes-$alg.csv"
done
net-sim -i "$T/t44.json" --traffic all-to-all --sizes 8KiB:4MiB:x4 --format csv >"$T/sizes-a2a.csv"
plot_both sizes "bus bandwidth (GB/s)" sizes "$T/sizes-ring.csv" "$T/sizes-halfring.csv" \
  "$T/sizes-a2a.csv"
# Rows of two networks on stdin, concatenated with one header: one curve per candidate.
{
  cat "$T/sizes-halfring.csv"
  coll-sched -i "$T/t442.json" --algorithm halfring --dims dimrotation --bytes 1MiB \
    | net-sim --sizes 8KiB:4MiB:x4 --format csv --csv-header never
} >"$T/sizes-two.csv"
expect_ok "$PLOT" sizes --metric time -o "$T/sizes-time.svg" <"$T/sizes-two.csv"
check_image "$T/sizes-time.svg" 800 500 "time (us)"
check "sizes: a curve per network" grep -q 'torus:4x4x2' "$T/sizes-time.svg"
# The same input gives the same bytes.
expect_ok "$PLOT" sizes "$T/sizes-ring.csv" "$T/sizes-halfring.csv" "$T/sizes-a2a.csv" \
  -o "$T/sizes2.png"
check "png deterministic" cmp -s "$T/sizes.png" "$T/sizes2.png"
expect_ok "$PLOT" sizes "$T/sizes-ring.csv" "$T/sizes-halfring.csv" "$T/sizes-a2a.csv" \
  -o "$T/sizes2.svg" --width 640 --height 420
check "svg deterministic" cmp -s "$T/sizes.svg" "$T/sizes2.svg"

# 2. speedup: scripts/reproduce-micro25 --csv's table (its header checked against the script;
# the run itself takes too long for a test), and the Markdown table it prints by default.
header='configuration,ours,ours_largest_size,paper,ratio'
check "speedup: reproduce-micro25 writes the header read here" \
  grep -qF "print(\"$header\")" "$ICNKIT_SRC/scripts/reproduce-micro25"
cat >"$T/micro25.csv" <<EOF
$header
"synthetic fault-free: HalfRing + Pipeline vs Ring + Pipeline",1.560,1.670,1.560,1.000
"synthetic fault-free: HalfRing + DimRotation vs Ring + Pipeline",2.280,2.220,2.280,1.000
"synthetic 1 fault: MATEe vs fault-free Ring + Pipeline",1.380,1.680,1.370,1.007
"4x4x4: DOR all-to-all bandwidth at 16 MiB, GB/s (MPICH = pairwise there)",57.090,57.090,75.200,0.759
"4x4x4: HalfRing + DimRotation vs DOR",1.620,2.100,1.570,1.032
"8x4x4 F1: MATEe vs WFR-F1",1.030,1.920,1.190,0.866
EOF
W=1000 H=800 plot_both speedup "paper" speedup "$T/micro25.csv"
check "speedup: bandwidth rows left out" [ "$(grep -c 'bandwidth at 16' "$T/speedup.svg")" = 0 ]
cat >"$T/micro25.md" <<'EOF'
| configuration | ours (mean over sizes) | ours (largest size) | paper | ratio |
|---|---|---|---|---|
| 4x4x4: HalfRing + DimRotation vs DOR | 1.62 | 2.10 | 1.57 | 1.03 |
| 8x4x4 F1: MATEe vs WFR-F1 | 1.03 | 1.92 | 1.19 | 0.87 * |

ratio = ours (mean) / paper
EOF
expect_ok "$PLOT" speedup "$T/micro25.md" --largest -o "$T/speedup-md.png" --width 700 --height 400
check_image "$T/speedup-md.png" 700 400

# 3. latency-load: a sweep into saturation (JSON), the same as CSV, a saturation search.
net-sim -i "$T/t44.json" --mode flit --traffic uniform --sweep 0.1,0.3,0.5,0.7,0.9 "${short[@]}" \
  >"$T/sweep.json"
net-sim -i "$T/t44.json" --mode flit --traffic transpose --sweep 0.1,0.3,0.5,0.7,0.9 "${short[@]}" \
  --format csv >"$T/transpose.csv"
check "latency-load: the sweep saturates" \
  [ "$(pyget "$T/sweep.json" "d['report']['points'][-1]['status']")" = saturated ]
plot_both latency "saturation" latency-load "$T/sweep.json" "$T/transpose.csv"
net-sim -i "$T/t44.json" --mode flit --traffic uniform --find-saturation "${short[@]}" \
  >"$T/sat.json"
expect_ok "$PLOT" latency-load "$T/sat.json" --latency p99 --label search -o "$T/sat.svg"
check_image "$T/sat.svg" 800 500 "saturation"

# 4. heatmap: flit --link-stats on the 4x4 torus (a sweep's point) and on the fat-tree; the
# analytic mode's per-link utilisation on the 4x4x2 torus (slice z=1), and the replay's.
net-sim -i "$T/t44.json" --mode flit --traffic transpose --sweep 0.1,0.2 "${short[@]}" \
  --link-stats >"$T/links-t44.json"
plot_both heat-t44 "link utilisation (flits per cycle)" heatmap "$T/links-t44.json"
net-sim -i "$T/ft.json" --mode flit --traffic uniform --rate 0.3 "${short[@]}" --link-stats \
  >"$T/links-ft.json"
plot_both heat-ft "down channels" heatmap "$T/links-ft.json"
expect_ok "$PLOT" heatmap --layout matrix "$T/links-ft.json" -o "$T/heat-matrix.png"
check_image "$T/heat-matrix.png" 800 500
coll-sched -i "$T/t442.json" --algorithm halfring --dims dimrotation --bytes 1MiB >"$T/s442.json"
if net-sim -i "$T/s442.json" --link-stats >"$T/links-an.json" 2>/dev/null \
  && [ "$(pyget "$T/links-an.json" "'channels' in d['report']['link_utilisation']")" = True ]; then
  plot_both heat-an "z+ channels" heatmap "$T/links-an.json" --slice z=1
  net-sim -i "$T/s442.json" --mode flit --link-stats -q >"$T/links-replay.json"
  expect_ok "$PLOT" heatmap "$T/links-replay.json" -o "$T/heat-replay.png"
  check_image "$T/heat-replay.png" 800 500
else
  fail "heatmap: net-sim --link-stats gives no report.link_utilisation.channels (analytic mode)"
fi

# 5. timeline: a schedule's phases and steps, analytic and flit.
net-sim -i "$T/s442.json" --step-times >"$T/steps.json"
plot_both timeline "time (us)" timeline "$T/steps.json"
net-sim -i "$T/s442.json" --mode flit --step-times -q >"$T/steps-flit.json"
expect_ok "$PLOT" timeline "$T/steps-flit.json" -o "$T/timeline-flit.png" --title "flit replay"
check_image "$T/timeline-flit.png" 800 500

# 6. topology: every family at 64 and 1,024 endpoints (and a composed DGX-like network of 1,024
# GPUs), drawn without Graphviz; the boxes inside the picture, none over another, big enough to
# see (8 px and more), at most a thousand-odd of them.
topo-gen --preset dgx-superpod su=4 >"$T/topo-composed-1024.json"
for f in torus mesh hyperx dragonfly dragonfly+ fat-tree hypercube ring full-mesh single-switch; do
  for n in 64 1024; do
    topo-enum -n $n --family $f --limit 1 -q | topo-gen --pick 0 >"$T/topo-$f-$n.json"
  done
done
for doc in "$T"/topo-*.json; do
  name=$(basename "$doc" .json)
  expect_ok "$PLOT" topology "$doc" -o "$T/$name.png" --boxes "$T/$name.boxes"
  check_image "$T/$name.png" 1000 800
  check "$name: the boxes apart, inside, readable" "$PY" - "$T/$name.boxes" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))
ok = 1 <= len(b) <= 1100
for r in b:
    ok &= 0 <= r["x0"] and r["x1"] <= 1000 and 0 <= r["y0"] and r["y1"] <= 800
    ok &= r["x1"] - r["x0"] >= 8 and r["y1"] - r["y0"] >= 8
b.sort(key=lambda r: r["x0"])
for i in range(len(b)):
    for j in range(i + 1, len(b)):
        if b[j]["x0"] >= b[i]["x1"]:
            break
        ok &= not (b[j]["y0"] < b[i]["y1"] and b[i]["y0"] < b[j]["y1"])
sys.exit(not ok)
EOF
done
topo-gen --torus 4x4 --fail-link '#3' >"$T/topo-failed.json"
expect_ok "$PLOT" topology "$T/topo-failed.json" -o "$T/topo-failed.svg"
check "topology: a failed link is drawn dashed and said" grep -q "failed dashed red" "$T/topo-failed.svg"
expect_exit 3 "$T/sizes-ring.csv" "$PLOT" topology -o "$T/e.png"

# 7. pareto: scripts/explore's designs, cost against a collective's time, the front labelled.
"$ICNKIT_SRC/scripts/explore" -n 16 --family torus --family fat-tree --family full-mesh --family ring --format csv >"$T/designs.csv" 2>/dev/null
plot_both pareto "time (ms)" pareto "$T/designs.csv" --collective all-to-all:64MiB
check "pareto: the front's designs are labelled" grep -q "full-mesh:16" "$T/pareto.svg"
expect_exit 2 "$T/designs.csv" "$PLOT" pareto --collective all-reduce:3GiB -o "$T/e.png"
# The front against brute force over every subset order: no point off it is dominated by none.
check "pareto: the front is the undominated designs" "$PY" - "$PLOT" <<'EOF'
import importlib.machinery, importlib.util, itertools, random, sys
loader = importlib.machinery.SourceFileLoader("plot", sys.argv[1])
spec = importlib.util.spec_from_loader("plot", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
rng = random.Random(1)
for _ in range(200):
    pts = [(rng.randint(0, 5), rng.randint(0, 5)) for _ in range(rng.randint(1, 8))]
    want = [i for i, p in enumerate(pts)
            if not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts)]
    if m.pareto_front(pts) != want:
        sys.exit(1)
EOF

# Errors: one line 'plot: error: ...', the exit code, no image left behind (an existing one is
# kept as it was).
no_file() { check "$1: no output file" [ ! -e "$2" ]; }
E="$T/err.png"
expect_exit 2 - "$PLOT" pie "$T/sweep.json" -o "$E"
no_file "unknown kind" "$E"
expect_exit 2 - "$PLOT" sizes "$T/sizes-ring.csv" -o "$T/out.jpg"
no_file "jpg" "$T/out.jpg"
expect_exit 2 - "$PLOT" sizes "$T/sizes-ring.csv"
expect_exit 2 - "$PLOT" sizes "$T/sizes-ring.csv" -o "$E" --width 12
expect_exit 2 - "$PLOT" sizes "$T/sizes-ring.csv" -o "$E" --slice z=1
expect_exit 2 - "$PLOT" heatmap "$T/links-an.json" -o "$E" --slice z=2
expect_exit 2 - "$PLOT" heatmap "$T/links-t44.json" -o "$E" --slice z=0
expect_exit 2 - "$PLOT" heatmap "$T/links-ft.json" -o "$E" --layout grid
expect_exit 2 - "$PLOT" heatmap "$T/links-t44.json" -o "$E" --point 7
no_file "bad options" "$E"
expect_exit 1 - "$PLOT" sizes "$T/missing.csv" -o "$E"
expect_exit 3 - "$PLOT" sizes "$T/transpose.csv" -o "$E"       # a flit CSV: no size columns
expect_exit 3 - "$PLOT" latency-load "$T/sizes-ring.csv" -o "$E"
expect_exit 3 - "$PLOT" latency-load "$T/steps.json" -o "$E"  # not a synthetic flit run
expect_exit 3 - "$PLOT" speedup "$T/sizes-ring.csv" -o "$E"
expect_exit 3 - "$PLOT" heatmap "$T/sweep.json" -o "$E"       # run without --link-stats
expect_exit 3 - "$PLOT" heatmap "$T/t44.json" -o "$E"         # no report at all
expect_exit 3 - "$PLOT" timeline "$T/sweep.json" -o "$E"
net-sim -i "$T/s442.json" >"$T/nosteps.json"
expect_exit 3 - "$PLOT" timeline "$T/nosteps.json" -o "$E"    # run without --step-times
printf 'not json' >"$T/bad.json"
expect_exit 3 - "$PLOT" timeline "$T/bad.json" -o "$E"
head -1 "$T/sizes-ring.csv" >"$T/header-only.csv"
expect_exit 3 "$T/header-only.csv" "$PLOT" sizes -o "$E"
awk -F, 'BEGIN { OFS = "," } NR == 2 { $7 = "x" } { print }' "$T/sizes-ring.csv" >"$T/nan.csv"
expect_exit 3 - "$PLOT" sizes "$T/nan.csv" -o "$E"
# Every number a plot reads goes through one reader: a finite decimal (no inf, nan, hex, '_')
# within its range, else one line naming the file, its line and the column (or the JSON path)
# and the value, exit 3, no image.
# set_cell IN OUT COLUMN VALUE: the CSV IN with COLUMN of its first row set to VALUE.
set_cell() {
  C=$3 V=$4 awk -F, 'BEGIN { OFS = "," }
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == ENVIRON["C"]) k = i }
    NR == 2 { $k = ENVIRON["V"] } { print }' "$1" >"$2"
}
# jset IN OUT STATEMENT: the JSON document IN (d) changed by the Python STATEMENT.
jset() {
  "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' "$@"
}
B=$T/bad.csv
for col in bytes_per_node time_us algbw_GBps busbw_GBps; do # each, whatever the metric
  for v in inf nan abc -1 1.7e308; do
    set_cell "$T/sizes-ring.csv" "$B" "$col" "$v"
    expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
  done
done
set_cell "$T/sizes-ring.csv" "$B" bytes_per_node inf
expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
check "a bad number: its file, line, column and value named" \
  grep -qF "plot: error: $B:2: bytes_per_node: must be a whole number >= 1, got 'inf'" "$T/err"
for v in 1.5 0 0x10 1_0 ' 8192' ''; do
  set_cell "$T/sizes-ring.csv" "$B" bytes_per_node "$v"
  expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
done
set_cell "$T/sizes-ring.csv" "$B" time_us 0
expect_exit 3 - "$PLOT" sizes "$B" --metric time -o "$E"
# Header trouble and repeated rows: a column twice, the same rows twice in one input (a curve
# would zigzag; the same file twice is a curve per file).
sed '1s/$/,time_us/; 2,$s/$/,1/' "$T/sizes-ring.csv" >"$B"
expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
cat "$T/sizes-ring.csv" "$T/sizes-ring.csv" >"$B"
expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
expect_ok "$PLOT" sizes "$T/sizes-ring.csv" "$T/sizes-ring.csv" -o "$T/sizes-twice.png"
printf 'collective,algorithm\n"unterminated,ring\n' >"$B"
expect_exit 3 - "$PLOT" sizes "$B" -o "$E"
# speedup: --largest of a --flit Markdown table without its analytic column; numbers > 0.
cat >"$T/flit.md" <<'MD'
| configuration | flit (mean) | flit (16 MiB) | analytic (mean) | analytic (16 MiB) | paper | flit / paper |
|---|---|---|---|---|---|---|
| 4x4x4: HalfRing + DimRotation vs DOR | 1.50 | 1.60 | 1.40 | 1.50 | 1.57 | 0.96 |
MD
expect_ok "$PLOT" speedup "$T/flit.md" --largest -o "$T/speedup-flit.png"
check_image "$T/speedup-flit.png" 1000 800
sed 's/| analytic ([^|]*//g; s/| 1\.40 | 1\.50 //; s/|---|---|---|---|---|---|---|/|---|---|---|---|---|/' \
  "$T/flit.md" >"$T/noan.md"
expect_exit 3 - "$PLOT" speedup "$T/noan.md" --largest -o "$E"
check "speedup: what the table lacks" grep -q "no 'analytic (SIZE)'" "$T/err"
expect_exit 3 - "$PLOT" speedup "$T/noan.md" -o "$E"
for v in inf nan -1 0 abc; do
  sed "s/| 1\.62 |/| $v |/" "$T/micro25.md" >"$T/bad.md"
  expect_exit 3 - "$PLOT" speedup "$T/bad.md" -o "$E"
  sed "s/^\"8x4x4 F1: MATEe vs WFR-F1\",1.030/\"8x4x4 F1: MATEe vs WFR-F1\",$v/" "$T/micro25.csv" >"$B"
  expect_exit 3 - "$PLOT" speedup "$B" -o "$E"
done
check "speedup: the bad cell's line named" grep -qF "$B:7: ours: must be a finite number > 0" "$T/err"
# latency-load: an asked-for rate within [0, 1] flits/node/cycle, the measured loads and
# latencies >= 0, a known status; in the CSV and in the JSON document.
for cv in rate=nan rate=-0.1 rate=1.5 offered=-0.1 accepted=inf latency_mean=abc \
  latency_p99=-1 status=weird; do
  set_cell "$T/transpose.csv" "$B" "${cv%%=*}" "${cv#*=}"
  expect_exit 3 - "$PLOT" latency-load "$B" -o "$E"
done
P="d['report']['points'][1]"
for s in "${P}['rate_flits_per_node_cycle'] = float('nan')" "${P}['rate_flits_per_node_cycle'] = -0.1" \
  "${P}['rate_flits_per_node_cycle'] = 1.5" "${P}['offered_flits_per_node_cycle'] = -0.1" \
  "${P}['latency_cycles']['mean'] = 1e300" "${P}['status'] = 'weird'" "d['report']['points'] = []" \
  "${P}['offered_flits_per_node_cycle'] = 10 ** 400"; do
  jset "$T/sweep.json" "$T/bad.json" "$s"
  expect_exit 3 - "$PLOT" latency-load "$T/bad.json" -o "$E"
done
jset "$T/sat.json" "$T/bad.json" "d['report']['saturation']['rate_flits_per_node_cycle'] = 1.5"
expect_exit 3 - "$PLOT" latency-load "$T/bad.json" -o "$E"
# heatmap: the network's ids and coordinates, the numbers and strings of the report.
N="d['network']"
for s in "${N}['nodes'][0]['id'] = 2" "${N}['nodes'][0]['coord'][0] = 10 ** 15" \
  "${N}['nodes'][0]['coord'][0] = -1" "${N}['nodes'][0]['coord'][0] = '1'" "${N}['links'][0]['dim'] = -1" \
  "${N}['links'][0]['dir'] = 2" "d['report']['points'][1]['offered_flits_per_node_cycle'] = 'x'" \
  "d['report']['points'][1]['channels'][0]['utilisation'] = 1e300"; do
  jset "$T/links-t44.json" "$T/bad.json" "$s"
  expect_exit 3 - "$PLOT" heatmap "$T/bad.json" -o "$E"
done
jset "$T/links-ft.json" "$T/bad.json" "${N}['nodes'][-1]['role'] = 5"
expect_ok "$PLOT" heatmap "$T/bad.json" -o "$T/heat-role.png" # a role is shown as text
jset "$T/links-an.json" "$T/bad.json" "d['report']['dim_scheduling'] = 2"
expect_ok "$PLOT" heatmap "$T/bad.json" --slice z=1 -o "$T/heat-dims.png"
# timeline: ends not before their starts, times in range.
for s in "d['report']['phases'][0]['end_s'] = d['report']['phases'][0]['start_s'] - 1e-9" \
  "d['report']['step_times'][0] = [2e-6, 1e-6]" "d['report']['phases'][0]['start_s'] = 10 ** 400" \
  "d['report']['phases'][0]['steps'] = 1.5" "d['report']['bytes_per_node'] = -1"; do
  jset "$T/steps.json" "$T/bad.json" "$s"
  expect_exit 3 - "$PLOT" timeline "$T/bad.json" -o "$E"
done
jset "$T/steps.json" "$T/bad.json" "d['report']['dim_scheduling'] = 2"
expect_ok "$PLOT" timeline "$T/bad.json" -o "$T/timeline-dims.png"
{ printf '{"report": '; head -c 100000 /dev/zero | tr '\0' '['; } >"$T/bad.json"
expect_exit 3 - "$PLOT" timeline "$T/bad.json" -o "$E" # nested too deep for Python's JSON
# Text is shown as it is: '$' (no mathtext), control characters (as U+FFFD: no XML has them), a
# 200,000-character cell (past Python's CSV field limit), a BOM, a leading '_'.
# shellcheck disable=SC2016 # the '$' are the text
set_cell "$T/sizes-ring.csv" "$B" algorithm "$(printf 'ri$\\frac{$ng\001')"
expect_ok "$PLOT" sizes "$B" -o "$T/dollar.svg" --title '$\foo$ costs'
# shellcheck disable=SC2016
check_image "$T/dollar.svg" 800 500 'ri$\frac{$ng'
awk -F, 'BEGIN { OFS = "," } NR == 2 { s = "r"; while (length(s) < 200000) s = s s; $2 = s }
  { print }' "$T/sizes-ring.csv" >"$B"
expect_ok "$PLOT" sizes "$B" -o "$T/long.png"
check_image "$T/long.png" 800 500
{ printf '\357\273\277'; cat "$T/sizes-ring.csv"; } >"$B"
expect_ok "$PLOT" sizes "$B" -o "$T/bom.png"
set_cell "$T/sizes-ring.csv" "$B" algorithm _ring # matplotlib leaves '_...' out of a legend
expect_ok "$PLOT" sizes "$B" -o "$T/underscore.svg"
check "a label beginning with _ is in the legend" grep -q '_ring' "$T/underscore.svg"
no_file "bad inputs" "$E"
cp "$T/timeline.png" "$T/keep.png"
expect_exit 3 - "$PLOT" timeline "$T/nosteps.json" -o "$T/keep.png"
check "a failed run keeps the old image" cmp -s "$T/timeline.png" "$T/keep.png"
check "no temporaries left" [ -z "$(find "$T" -name '.plot-*')" ]
# The images, all at once.
while read -r line; do
  if [ "$line" = ok ]; then pass; else fail "${line#FAIL: }"; fi
done < <("$PY" "$T/check.py" "$T/images.txt" 2>&1 || echo "FAIL: the image checker failed")
check "every image checked" [ "$(grep -c '' "$T/images.txt")" -ge 18 ]

# The code is the package scripts/icnkit_plot; cmake --install copies scripts/plot (as
# icnkit-plot, VERSION filled in) into bin/ and the package into share/icnkit/python: such a
# copy finds it there and draws the same bytes; without the package it says so in one line.
mkdir -p "$T/prefix/bin" "$T/prefix/share/icnkit/python"
sed 's/^VERSION = None$/VERSION = "0.0.0 (git test)"/' "$PLOT" >"$T/prefix/bin/icnkit-plot"
chmod +x "$T/prefix/bin/icnkit-plot"
expect_exit 1 - "$T/prefix/bin/icnkit-plot" --version # icnkit-plot: error: its Python package
cp -r "$ICNKIT_SRC/scripts/icnkit_plot" "$T/prefix/share/icnkit/python/"
expect_ok "$T/prefix/bin/icnkit-plot" --version
check "a copy alone: its version" [ "$(cat "$T/out")" = "icnkit-plot 0.0.0 (git test)" ]
expect_ok "$T/prefix/bin/icnkit-plot" sizes "$T/sizes-ring.csv" "$T/sizes-halfring.csv" \
  "$T/sizes-a2a.csv" -o "$T/sizes-alone.png"
check "a copy alone draws the same bytes" cmp -s "$T/sizes.png" "$T/sizes-alone.png"
expect_exit 3 - "$T/prefix/bin/icnkit-plot" timeline "$T/nosteps.json" -o "$E" # icnkit-plot: error:

# The columns the plots read are among those net-sim says it writes (--describe, csv_columns).
expect_ok net-sim --describe --format json
missing=$(PYTHONPATH="$ICNKIT_SRC/scripts" "$PY" -c '
import json, sys
from icnkit_plot import columns as c
forms = {e["name"]: e["columns"] for e in json.load(open(sys.argv[1]))["csv_columns"]}
need = [("analytic", x) for x in c.SIZES_NEED + c.SIZES_CONFIG] + [("flit", x) for x in c.FLIT_CSV]
print(" ".join(f + ":" + x for f, x in need if x not in forms[f]) or "none")' "$T/out" 2>&1)
check "columns the plots read and net-sim does not write: $missing" [ "$missing" = none ]
check "net-sim describes its three CSV forms" [ "$(jget "$T/out" "[(e['name'], e['columns'][0], e['columns'][-1]) for e in d['csv_columns']]")" = "[('analytic', 'collective', 'efficiency'), ('flit', 'rate', 'status'), ('flit-saturation', 'rate', 'zero_load_latency_cycles')]" ]

expect_ok "$PLOT" --help
check "help: an example per kind" [ "$(grep -cE '^  scripts/plot (sizes|speedup|latency-load|heatmap|timeline|pareto|topology) ' "$T/out")" = 7 ]

finish
