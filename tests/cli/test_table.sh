#!/usr/bin/env bash
# --format table on every tool, and the terminal default: a short summary for people whose
# figures are the JSON document's own (each checked against the JSON the same run writes), and
# JSON into a pipe or a file.
. "$(dirname "$0")/lib.sh"

# The value after LABEL on the summary line that starts with LABEL.
line() { grep "^$1 " "$2" | head -1; }

# --- topo-enum: the candidates, recommended first, their closed-form metrics ----------------
topo-enum -n 64 --family all --limit 6 >"$T/c.json"
expect_ok topo-enum -n 64 --family all --limit 6 --format table
cp "$T/out" "$T/c.txt"
check "enum: the context and the count" grep -q "^64 chips, intra-rack: .* candidates, the first 6 shown" "$T/c.txt"
check "enum: one row per candidate, in the JSON's order" python3 - "$T/c.json" "$T/c.txt" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["candidates"]["items"]
rows = [l.split() for l in open(sys.argv[2]).read().splitlines()[2:]]
ok = len(rows) == len(d) == 6
for i, (c, r) in enumerate(zip(d, rows)):
    ok &= r[0] == str(i) and r[1] == c["id"] and r[2] == c["status"]
    ok &= r[6] == str(c["derived_chips_per_board"])
sys.exit(not ok)
EOF
# The closed-form diameter and links in the table are the built network's.
check "enum: diameter and links of the first are topo-gen's" python3 - "$T/c.txt" \
  "$(topo-gen -i "$T/c.json" --pick 0 | python3 -c "import json,sys; m=json.load(sys.stdin)['network']['metrics']; print(m['diameter'], m['link_count'])")" <<'EOF'
import sys
r = open(sys.argv[1]).read().splitlines()[2].split()
d, l = sys.argv[2].split()
sys.exit(not (r[3] == d and r[4].replace(",", "") == l))
EOF
expect_ok topo-enum -n 64 --family all --sort-by cost --where status=recommended --limit 3 --format table
check "enum sorted by cost: the cost column" bash -c 'sed -n 2p "$1" | grep -q " cost "' _ "$T/out"

# --- topo-gen: counts, links by kind, metrics, cost, faults -----------------------------------
topo-gen --torus 4x4 --fail-link '#0' >"$T/n.json"
expect_ok topo-gen --torus 4x4 --fail-link '#0' --format table
cp "$T/out" "$T/n.txt"
check "gen: the id and fingerprint" grep -q "^network    torus:4x4/b1x1 (family torus), fingerprint $(jget "$T/n.json" "d['network']['fingerprint']")$" "$T/n.txt"
check "gen: 16 chips, 32 links of 50 GB/s" bash -c 'grep -q "^nodes      16 chips on 16 boards, 1 rack, 1 pod; 0 switches$" "$1" && grep -q "^links      32: 32 b2b at 50 GB/s, 1 us$" "$1"' _ "$T/n.txt"
check "gen: diameter and bisection" grep -q "^metrics    diameter 4 hops, path diversity 4, bisection 8 links = 400 GB/s (closed-form)$" "$T/n.txt"
check "gen: the cost is the JSON's" grep -q "^cost       \$$(jget "$T/n.json" "f\"{round(d['network']['metrics']['cost']['capex_usd']):,}\"") " "$T/n.txt"
check "gen: the fault" grep -q "^faults     1 link, 0 chips, 0 switches failed$" "$T/n.txt"
check "gen: the degraded network" grep -q "^degraded   connected, 16 chips and 31 links survive, diameter $(jget "$T/n.json" "d['network']['metrics']['degraded']['diameter']") (exact)" "$T/n.txt"

# --- topo-route: the verdicts, hops, the load bound --------------------------------------------
topo-gen --torus 4x4 | topo-route --load >"$T/r.json"
expect_ok topo-route -i "$T/r.json" --format table
check "route: verdict line" grep -q "^verdict    deadlock-free (.*); every one of 240 pairs reachable$" "$T/out"
expect_ok topo-route -i "$T/n.json" --format table
check "route: unreachable pairs are said" grep -q "^verdict    deadlock-free (.*); $(topo-route -i "$T/n.json" 2>/dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['routing']['verification']['unreachable_pairs'])") of 240 pairs UNREACHABLE$" "$T/out"
topo-gen --torus 4x4 | topo-route --load --format table >"$T/r.txt"
check "route: hops are the JSON's" grep -q "^hops       mean $(jget "$T/r.json" "'%.4g' % d['routing']['verification']['hops']['mean']"), max 4;" "$T/r.txt"
check "route: the load bound" grep -q "^load       all-to-all: busiest channel $(jget "$T/r.json" "'%.4g' % d['routing']['verification']['load']['max']")" "$T/r.txt"
topo-gen --torus 4x4 | topo-route --no-dateline --tie plus >"$T/nd.json" 2>/dev/null
expect_ok topo-route -i "$T/nd.json" --format table
check "route: a deadlock is said" grep -q "^verdict    DEADLOCK" "$T/out"

# --- coll-sched: algorithm, steps, verification, auto's choice ---------------------------------
coll-sched -i "$T/r.json" --collective all-reduce --bytes 1MiB >"$T/ring.json"
expect_ok coll-sched -i "$T/r.json" --collective all-reduce --bytes 1MiB --format table
check "sched: collective, algorithm, size, steps" grep -q "^schedule   all-reduce, ring (sequential), 1 MiB per rank, 1 chunk, $(jget "$T/ring.json" "d['schedule']['step_count']") steps$" "$T/out"
coll-sched -i "$T/r.json" --collective all-reduce --bytes 1MiB --algorithm auto >"$T/s.json"
expect_ok coll-sched -i "$T/r.json" --collective all-reduce --bytes 1MiB --algorithm auto --format table
cp "$T/out" "$T/s.txt"
check "sched: auto's choice first" grep -q "^chosen by  auto, the fastest of $(jget "$T/s.json" "len(d['schedule']['selection']['candidates'])") candidates: $(jget "$T/s.json" "d['schedule']['algorithm']") " "$T/s.txt"
check "sched: verified" grep -q "^verified   every block delivered" "$T/s.txt"

# --- net-sim: time, busbw, bound, efficiency; the flit table ----------------------------------
net-sim -i "$T/s.json" >"$T/a.json"
expect_ok net-sim -i "$T/s.json" --format table
cp "$T/out" "$T/a.txt"
check "sim: time and busbw" grep -q "^time       $(jget "$T/a.json" "'%.4g' % (d['report']['time_s'] * 1e6)") us; algbw .* busbw $(jget "$T/a.json" "'%.4g' % (d['report']['busbw_bytes_per_s'] / 1e9)") GB/s$" "$T/a.txt"
check "sim: the bound and efficiency" grep -q "^bound      $(jget "$T/a.json" "'%.4g' % (d['report']['bound']['time_s'] * 1e6)") us (injection): efficiency $(jget "$T/a.json" "'%.3g' % (100 * d['report']['efficiency'])")%$" "$T/a.txt"
net-sim -i "$T/r.json" --mode flit --traffic uniform --sweep 0.1,0.2 --warmup 100 --measure 300 >"$T/f.json"
expect_ok net-sim -i "$T/r.json" --mode flit --traffic uniform --sweep 0.1,0.2 --warmup 100 --measure 300 --format table
check "sim flit: one row per rate, the JSON's figures" python3 - "$T/f.json" "$T/out" <<'EOF'
import json, sys
pts = json.load(open(sys.argv[1]))["report"]["points"]
rows = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip()[:1].isdigit()]
ok = len(rows) == len(pts) == 2
for p, r in zip(pts, rows):
    ok &= abs(float(r[0]) - p["rate_flits_per_node_cycle"]) < 1e-9
    ok &= abs(float(r[2]) - p["accepted_flits_per_node_cycle"]) <= 1e-3 * p["accepted_flits_per_node_cycle"]
    ok &= abs(float(r[3]) - p["latency_cycles"]["mean"]) <= 1e-3 * p["latency_cycles"]["mean"]
    ok &= r[-1] == p["status"]
sys.exit(not ok)
EOF

# --- the terminal default: a summary on a terminal, JSON into a pipe ---------------------------
if script -qec true /dev/null >/dev/null 2>&1; then
  script -qec "topo-gen --torus 4x4" /dev/null >"$T/tty.txt"
  check "terminal: topo-gen prints the summary" grep -q "^network    torus:4x4/b1x1" "$T/tty.txt"
  script -qec "topo-gen --torus 4x4 --format json" /dev/null >"$T/tty.json"
  check "terminal, --format json: the document" grep -q '"schema"' "$T/tty.json"
  script -qec "topo-gen --torus 4x4 -o $T/tty-o.json" /dev/null >/dev/null
  check "terminal, -o FILE: the document in the file" jget "$T/tty-o.json" "d['network']['n_chip']"
else
  fail "script(1) cannot run a command on a pseudo-terminal here"
fi
topo-gen --torus 4x4 | cat >"$T/pipe.json"
check "pipe: the JSON document" jget "$T/pipe.json" "d['network']['n_chip']"

# --- README's example is this run's output ----------------------------------------------------
topo-gen --torus 4x4 | topo-route | coll-sched --collective all-reduce --bytes 1MiB --algorithm auto \
  | net-sim --format table >"$T/readme.txt"
check "README's net-sim table is what the command prints" python3 - "$ICNKIT_SRC/README.md" "$T/readme.txt" <<'EOF'
import sys
text = open(sys.argv[1]).read()
start = text.index("```\nsimulated  analytic, all-reduce by direct") + 4
block = text[start:text.index("```", start)]
sys.exit(block != open(sys.argv[2]).read())
EOF

# --- bad usage ----------------------------------------------------------------------------------
expect_exit 2 - topo-gen --torus 4x4 --format tables
expect_exit 3 "$T/c.json" coll-sched --collective all-reduce --bytes 1MiB --format table

finish
