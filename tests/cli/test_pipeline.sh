#!/usr/bin/env bash
# The whole chain, as the pipeline tour (docs/tutorial.md) shows it:
# topo-enum | topo-gen | topo-route | coll-sched | net-sim.
source "$ICNKIT_SRC/tests/cli/lib.sh"

pipeline() {
  topo-enum --n-chip 64 --family torus \
    | topo-gen --pick 'torus:4x4x4/b2x2x2' \
    | topo-route --algorithm dor \
    | coll-sched --collective all-to-all --algorithm ring --bytes 64MiB \
    | net-sim --mode analytic "$@"
}

pipeline >"$T/run1.json"
pipeline >"$T/run2.json"
check "the pipeline runs twice to byte-identical documents" cmp -s "$T/run1.json" "$T/run2.json"
check "every section is there" test "$(jget "$T/run1.json" "sorted(k for k in d if k in ('context','candidate','network','routing','schedule','report'))")" \
  = "['candidate', 'context', 'network', 'report', 'routing', 'schedule']"
check "provenance lists the five tools in order" test "$(jget "$T/run1.json" "[p['tool'] for p in d['provenance']]")" \
  = "['topo-enum', 'topo-gen', 'topo-route', 'coll-sched', 'net-sim']"
check "DOR with dateline is deadlock-free" test "$(jget "$T/run1.json" "d['routing']['verification']['deadlock_free']")" = True
check "the schedule was verified" test "$(jget "$T/run1.json" "d['schedule']['verification']['delivered']")" = True

# Ring all-to-all on 4x4x4, per-step latency model: 3 phases x N(N-1)/2 = 6 steps, each
# alpha + (S/N/2)/B with S = 64 MiB, N = 4, B = 50 GB/s, alpha = 1 us (computed here, not by icnkit).
want=$(python3 -c "S=64*2**20; N=4; B=50e9; a=1e-6; print(3 * N*(N-1)//2 * (a + S/N/2/B))")
got=$(jget "$T/run1.json" "d['report']['time_s']")
check "4x4x4 ring all-to-all time = closed form ($want s, got $got s)" \
  python3 -c "import sys; w,g=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(g-w)<=1e-9*w else 1)" "$want" "$got"
check "the three phases add up to the total" \
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['report']; s=sum(p['time_s'] for p in r['phases']); sys.exit(0 if len(r['phases'])==3 and abs(s-r['time_s'])<=1e-9*r['time_s'] else 1)" "$T/run1.json"

pipeline --format csv >"$T/run.csv"
check "csv: one header and one row" test "$(wc -l <"$T/run.csv")" = 2

# Documents re-enter at any stage; a section computed for another network is refused.
topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-link '(0,0,0)-(1,0,0)' >"$T/faulty.json"
python3 - "$T/run1.json" "$T/faulty.json" "$T/mixed.json" <<'PY'
import json, sys
good = json.load(open(sys.argv[1])); faulty = json.load(open(sys.argv[2]))
faulty["routing"] = good["routing"]
json.dump(faulty, open(sys.argv[3], "w"))
PY
expect_exit 3 "$T/mixed.json" coll-sched --collective all-to-all --algorithm ring --bytes 1MiB
expect_exit 3 "$T/mixed.json" net-sim --mode analytic
expect_exit 3 "$T/mixed.json" topo-route

# DOR does not route around faults: unreachable pairs reported, exit 0, a warning on stderr.
expect_ok topo-route -i "$T/faulty.json"
check "unreachable pairs under a fault" test "$(jget "$T/out" "d['routing']['verification']['unreachable_pairs'] > 0")" = True
check "a warning about them" grep -q "topo-route: warning: " "$T/err"
# Ring cannot run over a failed link.
topo-route -i "$T/faulty.json" >"$T/faulty-routed.json" 2>/dev/null
expect_exit 4 "$T/faulty-routed.json" coll-sched --collective all-to-all --algorithm ring --bytes 1MiB

# The DOR all-to-all baseline (every pair one flow over its DOR path) runs from the same routing.
topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route >"$T/routed.json"
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all --bytes 64MiB --format csv
check "traffic baseline csv" test "$(wc -l <"$T/out")" = 2

# Every tool that reads a document refuses the same bad inputs the same way: one stderr line,
# exit 3, nothing on stdout.
printf '{"schema": "icnkit/1", "network": {' >"$T/bad-malformed.json"
: >"$T/bad-empty.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['schema']='icnkit/2'; print(json.dumps(d))" "$T/run1.json" >"$T/bad-schema.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['sheduel']={}; print(json.dumps(d))" "$T/run1.json" >"$T/bad-topkey.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['network']['nodes'][0]['colour']='red'; print(json.dumps(d))" "$T/run1.json" >"$T/bad-nodekey.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['network']['n_chip']='abc'; print(json.dumps(d))" "$T/run1.json" >"$T/bad-nchip.json"
for bad in malformed empty schema topkey nodekey nchip; do
  expect_exit 3 "$T/bad-$bad.json" topo-gen --pick 0
  expect_exit 3 "$T/bad-$bad.json" topo-route
  expect_exit 3 "$T/bad-$bad.json" coll-sched --bytes 1MiB
  expect_exit 3 "$T/bad-$bad.json" net-sim
done
# A document without the section a tool needs.
topo-enum --n-chip 64 >"$T/cands-only.json"
expect_exit 3 "$T/cands-only.json" topo-route
expect_exit 3 "$T/cands-only.json" coll-sched --bytes 1MiB
expect_exit 3 "$T/cands-only.json" net-sim
expect_exit 3 "$T/routed.json" net-sim --mode analytic
expect_exit 3 "$T/routed.json" net-sim --mode flit
# Unknown names are usage errors (2).
expect_exit 2 "$T/routed.json" topo-route --algorithm xyz
expect_exit 2 "$T/routed.json" coll-sched --algorithm xyz --bytes 1MiB
expect_exit 2 "$T/routed.json" net-sim --mode xyz

finish
