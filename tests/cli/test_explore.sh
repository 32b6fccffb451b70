#!/usr/bin/env bash
# scripts/explore: designs compared at an equal injection budget, ranked, with the Pareto front;
# the same bytes whatever --jobs and through GNU parallel; bad command lines in one line.
source "$(dirname "$0")/lib.sh"
X=$ICNKIT_SRC/scripts/explore

# --- Fairness and a ranking known in closed form: 8 chips, all-to-all of S = 1 MiB per chip,
# each chip injecting B = 400 GB/s. A full mesh gives each of a chip's 7 links B/7 and sends
# S/8 over each: 7 S / (8 B) + one 1 us hop; a single switch takes all 7 S/8 over one link of B
# and two hops: 1 us later. So the full mesh ranks first, by exactly one hop.
expect_ok "$X" -n 8 --family single-switch --family full-mesh --collective all-to-all:1MiB \
  --format csv --dir "$T/ex"
cp "$T/out" "$T/fair.csv"
python3 - "$T/fair.csv" "$T/ex" <<'PY' || fail "explore: fairness and the closed forms"
import csv, glob, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
S, B = 2**20, 400e9
assert [r["family"] for r in rows][0] == "full-mesh", rows
assert {r["family"] for r in rows} == {"full-mesh", "single-switch"}, rows
for r in rows:
    assert r["budget"] == "injection=400GB/s", r
    t = float(r["all-to-all:1MiB:time_s"])
    hops = 1 if r["family"] == "full-mesh" else 2
    want = 7 * (S / 8) / B + hops * 1e-6
    assert abs(t - want) <= 1e-12 * want + 1e-15, (r["design"], t, want)
    assert r["rank"] == str(rows.index(r) + 1)
assert rows[0]["front"] == "1"
# Every design built at the budget: the busiest chip injects exactly B.
nets = sorted(glob.glob(sys.argv[2] + "/net-*.json"))
assert len(nets) == len(rows), nets
for path in nets:
    n = json.load(open(path))["network"]
    D = n.get("link_defaults", {})
    inj = [0.0] * n["n_chip"]
    for l in n["links"]:
        bw = l.get("bandwidth_bytes_per_s", D.get(l["kind"], {}).get("bandwidth_bytes_per_s"))
        for e in (l["a"], l["b"]):
            if e < n["n_chip"]:
                inj[e] += bw
    assert abs(max(inj) - B) <= 1e-6 * B, (path, max(inj))
PY

# The links as generated (50 GB/s each): the full mesh's chips inject 7 x 50, the switch's 50,
# and the rows say which budget they were compared at.
expect_ok "$X" -n 8 --family single-switch --family full-mesh --collective all-to-all:1MiB \
  --format csv --budget links
check "budget links: stated in every row" python3 -c "
import csv; rows = list(csv.DictReader(open('$T/out')))
assert rows and all(r['budget'] == 'links' for r in rows)
t = {r['family']: float(r['all-to-all:1MiB:time_s']) for r in rows}
assert t['single-switch'] > 5 * t['full-mesh'], t"

# --- The table: the budget in its title, the front marked.
expect_ok "$X" -n 8 --family single-switch --family full-mesh --family torus \
  --collective all-reduce:1MiB
check "table: title with the budget" grep -q "^8 chips, budget injection=400GB/s per chip; ranked by all-reduce:1MiB" "$T/out"
check "table: the full mesh is on the front" grep -q "^1 .*full-mesh:8/c1 .*\*$" "$T/out"

# --- The same bytes with 1 or 2 jobs, and through GNU parallel into a shared directory.
args=(-n 16 --family torus --family fat-tree --family hyperx --collective all-reduce:4MiB --format csv)
"$X" "${args[@]}" --jobs 1 >"$T/j1.csv"
"$X" "${args[@]}" --jobs 2 >"$T/j2.csv"
check "explore: --jobs 1 and 2 give the same CSV" cmp -s "$T/j1.csv" "$T/j2.csv"
"$X" "${args[@]}" --dir "$T/par" --list >"$T/designs"
check "--list: a design per line" [ "$(grep -c '' "$T/designs")" -ge 4 ]
parallel --will-cite -j2 "$X" "${args[@]}" --dir "$T/par" --design {} <"$T/designs"
"$X" "${args[@]}" --dir "$T/par" >"$T/par.csv"
check "explore: GNU parallel's stage files merge to the same CSV" cmp -s "$T/j1.csv" "$T/par.csv"

# --- Fault sensitivity: a 4x4 torus routed around one failed link (wfr) is slower, never faster.
expect_ok "$X" -n 16 --family torus --faults 1 --samples 2 --collective all-reduce:4MiB --format csv
check "faults: worst >= median >= 1" python3 -c "
import csv; rows = list(csv.DictReader(open('$T/out')))
assert rows and all(float(r['fault_worst']) >= float(r['fault_median']) >= 1 for r in rows), rows"

# --- A design whose tool fails is its own row: in the CSV with every column (the message in
# `failed`), in the table as "failed: ...".
mkdir "$T/broken"
printf '#!/bin/sh\necho "topo-route: error: --algorithm: refused" >&2\nexit 4\n' >"$T/broken/topo-route"
chmod +x "$T/broken/topo-route"
PATH="$T/broken:$PATH" "$X" -n 16 --family torus --family ring --format csv >"$T/failed.csv" 2>/dev/null || true
check "failed designs: every CSV row has the header's columns, the message in failed" python3 -c "
import csv; rows = list(csv.reader(open('$T/failed.csv')))
head = rows[0]
assert len(rows) >= 3 and all(len(r) == len(head) for r in rows), rows
assert all('refused' in r[head.index('failed')] for r in rows[1:]), rows"

# --- topo-gen --budget: refused when it cannot apply.
expect_exit 2 - topo-gen --torus 4x4 --budget injection=0GB/s
expect_exit 2 - topo-gen --torus 4x4 --budget cost=1000
topo-gen --torus 4x4 >"$T/t44.json"
expect_exit 2 "$T/t44.json" topo-gen --budget injection=100GB/s

# --- Bad command lines: one line, exit 2.
expect_exit 2 - "$X" -n 1
expect_exit 2 - "$X" -n 8 --budget cost=5
expect_exit 2 - "$X" -n 8 --collective broadcast:1MiB
expect_exit 2 - "$X" -n 8 --collective all-reduce:lots
expect_exit 2 - "$X" -n 8 --family nosuch
expect_exit 2 - "$X" -n 8 --family torus --design nosuch
expect_exit 2 - "$X" -n 8 --frobnicate
finish
