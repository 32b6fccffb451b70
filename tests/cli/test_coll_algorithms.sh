#!/usr/bin/env bash
# coll-sched -> net-sim end to end with the MICRO'25 algorithms (HalfRing, FoldedRing, MATE,
# MATEe) and dimension schedulers (pipeline, dimrotation) on 4x4x4, fault-free and faulty:
# verified schedules, simulated times in the paper's order, --check, and the refusals.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 64 >"$T/cands.json"
gen() { topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b1x1x1' --no-provenance "$@"; }
gen >"$T/net.json"
gen --fail-link '(1,1,1)-(1,2,1)' >"$T/fy.json" # one Y link
# The paper's fault types (ids z*16 + y*4 + x): two on one Y ring, two on two Y rings, Y and Z.
gen --fail-link 0-4 --fail-link 8-12 >"$T/type1.json"
gen --fail-link 0-4 --fail-link 6-10 >"$T/type2.json"
gen --fail-link 4-8 --fail-link 16-32 >"$T/type3.json"

# run NAME INPUT COLL-SCHED-ARGS...: schedule (64 MiB per node) and simulate; leaves
# $T/NAME.json (schedule) and $T/NAME.rep.json (report).
run() {
  local name=$1 in=$2
  shift 2
  expect_ok coll-sched -i "$in" --bytes 64MiB --no-provenance "$@" -o "$T/$name.json"
  expect_ok net-sim -i "$T/$name.json" --no-provenance -o "$T/$name.rep.json"
}
time_of() { jget "$T/$1.rep.json" "d['report']['time_s']"; }
# lt A B: simulated time of run A < that of run B.
lt() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$(time_of "$1")" "$(time_of "$2")"; }
positive() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$(time_of "$1")"; }

# --- the whole chain in one pipe --------------------------------------------------------------
topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b1x1x1' --fail-link '(1,1,1)-(1,2,1)' \
  | coll-sched --algorithm matee --dims dimrotation --bytes 64MiB \
  | net-sim >"$T/piped.json"
check "pipe: report" [ "$(jget "$T/piped.json" "(d['report']['algorithm'], d['report']['dim_scheduling'])")" = "('matee', 'dimrotation')" ]
check "pipe: delivered" [ "$(jget "$T/piped.json" "d['schedule']['verification']['delivered']")" = True ]

# --- fault-free: HalfRing + DimRotation < Ring + DimRotation < Ring + Pipeline < Ring -------
run hr_dr "$T/net.json" --algorithm halfring --dims dimrotation
run hr_pl "$T/net.json" --algorithm halfring --dims pipeline --chunks 6
run ring_dr "$T/net.json" --algorithm ring --dims dimrotation
run ring_pl "$T/net.json" --algorithm ring --dims pipeline --chunks 6
run ring_seq "$T/net.json" --algorithm ring --dims sequential
for r in hr_dr hr_pl ring_dr ring_pl ring_seq; do
  check "$r: time positive" positive $r
  check "$r: delivered" [ "$(jget "$T/$r.json" "d['schedule']['verification']['delivered']")" = True ]
done
check "halfring+dimrotation < ring+dimrotation" lt hr_dr ring_dr
check "ring+dimrotation < ring+pipeline" lt ring_dr ring_pl
check "ring+pipeline < ring+sequential" lt ring_pl ring_seq
check "halfring+pipeline < ring+pipeline" lt hr_pl ring_pl
check "dimrotation: 3 chunks" [ "$(jget "$T/hr_dr.json" "d['schedule']['chunks']")" = 3 ]
check "pipeline: 6 chunks" [ "$(jget "$T/ring_pl.json" "d['schedule']['chunks']")" = 6 ]
check "pipeline default is 6 chunks" [ "$(coll-sched -i "$T/net.json" --bytes 1MiB --dims pipeline | jget /dev/stdin "d['schedule']['chunks']")" = 6 ]
check "dimrotation: chunk 1 starts in dimension 1" [ "$(jget "$T/hr_dr.json" "[p['name'] for p in d['schedule']['phases'] if p['chunk'] == 1][0]")" = chunk1/dim1 ]
check "halfring: k(k+1)/2 = 3 steps per chunk and dimension" [ "$(jget "$T/hr_dr.json" "d['schedule']['step_count']")" = 27 ]
check "report names the scheduling" [ "$(jget "$T/ring_pl.rep.json" "d['report']['dim_scheduling']")" = pipeline ]

# --- one failed Y link: MATEe, MATE + DimRotation < FoldedRing + DimRotation < FoldedRing -----
run matee_dr "$T/fy.json" --algorithm matee --dims dimrotation
run mate_dr "$T/fy.json" --algorithm mate --dims dimrotation
run fr_dr "$T/fy.json" --algorithm foldedring --dims dimrotation
run fr_pl "$T/fy.json" --algorithm foldedring --dims pipeline --chunks 6
run fr_seq "$T/fy.json" --algorithm foldedring --dims sequential
run matee_pl "$T/fy.json" --algorithm matee --dims pipeline --chunks 6
for r in matee_dr mate_dr fr_dr fr_pl fr_seq matee_pl; do
  check "$r: time positive" positive $r
  check "$r: delivered" [ "$(jget "$T/$r.json" "d['schedule']['verification']['delivered']")" = True ]
  check "$r: avoids the failed link" [ "$(jget "$T/$r.json" "d['schedule']['verification']['failed_links_avoided']")" = 1 ]
done
check "matee+dimrotation < foldedring+dimrotation" lt matee_dr fr_dr
check "mate+dimrotation < foldedring+dimrotation" lt mate_dr fr_dr
check "foldedring+dimrotation < foldedring+sequential" lt fr_dr fr_seq
check "halfring (fault-free) < matee" lt hr_dr matee_dr
check "mate: acceleration phases only along Y" [ "$(jget "$T/mate_dr.json" "sorted({p['dimension'] for p in d['schedule']['phases'] if '/accel' in p['name']})")" = "[1]" ]
check "mate: one acceleration phase per chunk" [ "$(jget "$T/mate_dr.json" "sorted(p['name'] for p in d['schedule']['phases'] if '/accel' in p['name'])")" = "['chunk0/dim1/accel0', 'chunk1/dim1/accel0', 'chunk2/dim1/accel0']" ]
check "matee: folded fraction 1/3 in the normal phase" [ "$(jget "$T/matee_dr.json" "sorted({t['fraction'] for p in d['schedule']['phases'] if p['name'] == 'chunk0/dim1' for s in p['steps'] if s.get('lane', 0) == 1 for t in s['transfers']})")" = "['1/3']" ]
check "foldedring: folded at the failed link" [ "$(jget "$T/fr_seq.json" "sorted({t['fold_at'] for p in d['schedule']['phases'] for s in p['steps'] for t in s['transfers'] if 'fold_at' in t})")" = "[1]" ]

# The paper's fault types: MATE / MATEe serve all three; FoldedRing refuses type 1.
for ty in type1 type2 type3; do
  for alg in mate matee; do
    expect_ok coll-sched -i "$T/$ty.json" --algorithm $alg --dims dimrotation --bytes 8MiB
  done
done
expect_ok coll-sched -i "$T/type2.json" --algorithm foldedring --dims pipeline --bytes 8MiB
expect_ok coll-sched -i "$T/type3.json" --algorithm foldedring --dims dimrotation --bytes 8MiB
coll-sched -i "$T/type3.json" --algorithm matee --bytes 8MiB >"$T/t3.json"
check "type 3: acceleration along Y and Z" [ "$(jget "$T/t3.json" "sorted({p['dimension'] for p in d['schedule']['phases'] if '/accel' in p['name']})")" = "[1, 2]" ]

# 5x5x5x5 (topo-gen --torus): DimRotation has 4 chunks; MATEe uses 3 acceleration planes.
topo-gen --torus 5x5x5x5 --no-provenance >"$T/net4.json"
topo-gen --torus 5x5x5x5 --no-provenance --fail-link '(1,1,1,1)-(1,1,1,2)' >"$T/f4.json"
run hr4 "$T/net4.json" --algorithm halfring --dims dimrotation
run matee4 "$T/f4.json" --algorithm matee --dims dimrotation
check "4-D: 4 chunks" [ "$(jget "$T/hr4.json" "d['schedule']['chunks']")" = 4 ]
check "4-D: planes through X, Y, Z" [ "$(jget "$T/matee4.json" "sorted({t['via']['dimension'] for p in d['schedule']['phases'] for s in p['steps'] for t in s['transfers'] if 'via' in t})")" = "[0, 1, 2]" ]
check "4-D: halfring < matee" lt hr4 matee4

# --- --check: a generated schedule passes, unchanged; hand-corrupted ones are bad input -------
for r in matee_dr mate_dr fr_pl; do
  expect_ok coll-sched --check -i "$T/$r.json" --no-provenance -o "$T/$r.checked.json"
  check "$r: --check keeps the document" cmp -s "$T/$r.json" "$T/$r.checked.json"
done
# corrupt IN OUT PYTHON: applies PYTHON to the schedule s (a dict) and writes OUT.
corrupt() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["schedule"]
phase = lambda name: next(p for p in s["phases"] if p["name"] == name)
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
corrupt "$T/mate_dr.json" "$T/bad1.json" 'del phase("chunk0/dim1/accel0")["steps"][0]["transfers"][0]'
expect_exit 3 "$T/bad1.json" coll-sched --check
check "dropped accel transfer: names a phase" grep -q ":/schedule/phases/" "$T/err"
corrupt "$T/fr_pl.json" "$T/bad2.json" '
p = phase("chunk2/dim1")
step = next(x for x in p["steps"] if x.get("lane", 0) == 1)
del step["transfers"][0]'
expect_exit 3 "$T/bad2.json" coll-sched --check
corrupt "$T/fr_pl.json" "$T/bad3.json" '
for x in phase("chunk0/dim1")["steps"]:
    for t in x["transfers"]:
        if "fold_at" in t: t["fold_at"] = 3'
expect_exit 3 "$T/bad3.json" coll-sched --check
check "moved fold: uses the failed link" grep -q "failed link" "$T/err"
corrupt "$T/mate_dr.json" "$T/bad4.json" '
t = next(x for x in phase("chunk1/dim1/accel0")["steps"] if x.get("lane", 0) == 2)["transfers"][0]
t["via"]["side"] = -t["via"]["side"]'
expect_exit 3 "$T/bad4.json" coll-sched --check
corrupt "$T/matee_dr.json" "$T/bad5.json" '
next(x for x in phase("chunk0/dim1")["steps"] if x.get("lane", 0) == 1)["after"] = []'
expect_exit 3 "$T/bad5.json" coll-sched --check
check "lane before its previous dimension: does not wait" grep -q "does not wait" "$T/err"
# net-sim verifies the schedule it reads too, and refuses one made for another network.
expect_exit 3 "$T/bad1.json" net-sim
expect_exit 3 "$T/bad4.json" net-sim
corrupt "$T/mate_dr.json" "$T/bad6.json" 's["network_fingerprint"] = "0000000000000000"'
expect_exit 3 "$T/bad6.json" net-sim

# --- refusals: one line on stderr, the documented exit code ------------------------------------
expect_exit 2 "$T/net.json" coll-sched --algorithm quarterring --bytes 1MiB
check "unknown algorithm lists the known ones" grep -q "halfring, foldedring, foldedring-ring, mate, matee" "$T/err"
expect_exit 2 "$T/net.json" coll-sched --algorithm halfring --dims dimrotation --chunks 6 --bytes 1MiB
check "--chunks names the option" grep -q -- "--chunks" "$T/err"
expect_exit 2 "$T/net.json" coll-sched --dims sequential --chunks 2 --bytes 1MiB
expect_exit 2 "$T/net.json" coll-sched --dims pipeline --chunks 65 --bytes 1MiB
expect_exit 4 "$T/net.json" coll-sched --algorithm mate --bytes 1MiB
check "mate fault-free: says why" grep -q "none" "$T/err"
expect_exit 4 "$T/net.json" coll-sched --algorithm matee --dims dimrotation --bytes 1MiB
expect_exit 4 "$T/type1.json" coll-sched --algorithm foldedring --bytes 1MiB
check "foldedring type 1: names the ring" grep -q "ring 0 of dimension 1" "$T/err"
expect_exit 4 "$T/fy.json" coll-sched --algorithm halfring --dims dimrotation --bytes 1MiB
check "halfring faulty: names the link" grep -q "(1,1,1) and chip .* (1,2,1)" "$T/err"
expect_exit 4 "$T/type2.json" coll-sched --algorithm ring --dims pipeline --bytes 1MiB
expect_exit 4 "$T/net.json" coll-sched --algorithm halfring --collective all-reduce --bytes 1MiB
gen --fail-chip 21 >"$T/chip.json"
for alg in halfring foldedring mate matee; do
  expect_exit 4 "$T/chip.json" coll-sched --algorithm $alg --bytes 1MiB
done

finish
