#!/usr/bin/env bash
# coll-sched: ring all-to-all on tori, its document contract, and every documented error.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' >"$T/net.json"
topo-enum -n 125 --all | topo-gen --pick 'torus:5x5x5/b1x1x1' >"$T/net5.json"
topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-link '(1,1,0)-(2,1,0)' >"$T/faulty.json"
topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-chip 5 >"$T/deadchip.json"
topo-enum -n 64 >"$T/cands.json"

# A schedule: 3 phases of 6 steps, verified, tied to the network, no report.
expect_ok coll-sched -i "$T/net.json" --collective all-to-all --algorithm ring --bytes 64MiB \
  --no-provenance -o "$T/s.json"
check "step count" [ "$(jget "$T/s.json" "d['schedule']['step_count']")" = 18 ]
check "phases" [ "$(jget "$T/s.json" "[p['name'] for p in d['schedule']['phases']]")" = "['dim0', 'dim1', 'dim2']" ]
check "delivered" [ "$(jget "$T/s.json" "d['schedule']['verification']['delivered']")" = True ]
check "fingerprint" [ "$(jget "$T/s.json" "d['schedule']['network_fingerprint'] == d['network']['fingerprint']")" = True ]
check "piece bytes" [ "$(jget "$T/s.json" "d['schedule']['phases'][0]['steps'][0]['transfers'][0]['bytes']")" = 8388608.0 ]
check "defaults" [ "$(jget "$T/s.json" "(d['schedule']['collective'], d['schedule']['algorithm'], d['schedule']['dim_scheduling'])")" = "('all-to-all', 'ring', 'sequential')" ]

# Byte-identical output for the same input, on stdin as from a file; provenance appended.
coll-sched --bytes 64MiB --no-provenance <"$T/net.json" >"$T/s2.json"
check "deterministic" cmp -s "$T/s.json" "$T/s2.json"
coll-sched -i "$T/net.json" --bytes 64MiB >"$T/p.json"
check "provenance" [ "$(jget "$T/p.json" "d['provenance'][-1]['tool']")" = coll-sched ]

# Re-entering a document that already has a schedule replaces it.
expect_ok coll-sched -i "$T/s.json" --bytes 1KiB -o "$T/s3.json"
check "replaced" [ "$(jget "$T/s3.json" "d['schedule']['bytes_per_node']")" = 1024 ]

# Bytes that do not split into whole pieces are fine (8 KB on rings of 5: 819.2-byte pieces).
expect_ok coll-sched -i "$T/net5.json" --bytes 8KB -o "$T/s5.json"
check "odd ring steps" [ "$(jget "$T/s5.json" "d['schedule']['step_count']")" = 30 ]
check "fractional piece" [ "$(jget "$T/s5.json" "d['schedule']['phases'][2]['steps'][0]['transfers'][1]['bytes']")" = 800.0 ]

# --describe and --help derive from the registry.
expect_ok coll-sched --describe --format json
check "describe" [ "$(python3 -c "import json,sys; print(json.load(sys.stdin)['algorithms'][0]['name'])" <"$T/out")" = ring ]
expect_ok coll-sched --help
check "help example" grep -q "topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route" "$T/out"
check "help lists ring" grep -q "ring (all-to-all)" "$T/out"

# Command-line errors: exit 2.
expect_exit 2 "$T/net.json" coll-sched --algorithm bogus --bytes 1MiB
check "lists known algorithms" grep -q "known: ring" "$T/err"
expect_exit 2 "$T/net.json" coll-sched --collective scatter --bytes 1MiB
# broadcast is a collective, which no ring serves: infeasible.
expect_exit 4 "$T/net.json" coll-sched --collective broadcast --bytes 1MiB
expect_exit 2 "$T/net.json" coll-sched --dims bogus --bytes 1MiB
expect_exit 2 "$T/net.json" coll-sched
expect_exit 2 "$T/net.json" coll-sched --bytes 12XB
expect_exit 2 "$T/net.json" coll-sched --bytes -5
expect_exit 2 "$T/net.json" coll-sched --bytes=-5
expect_exit 2 "$T/net.json" coll-sched --bytes 0
expect_exit 2 "$T/net.json" coll-sched --bytes 1MiB --no-such-option

# Infeasible: exit 4 (HalfRing is all-to-all only); the Ring reduces.
for c in all-reduce reduce-scatter all-gather; do
  expect_exit 4 "$T/net.json" coll-sched --collective $c --algorithm halfring --bytes 1MiB
  check "$c: one line naming what halfring implements" grep -q "implements all-to-all only" "$T/err"
  expect_ok coll-sched -i "$T/net.json" --collective $c --bytes 1MiB -o "$T/red.json"
  check "$c delivered" [ "$(jget "$T/red.json" "d['schedule']['verification']['delivered']")" = True ]
done
topo-gen --torus 128x2 >"$T/long.json"
expect_exit 4 "$T/long.json" coll-sched --collective all-reduce --bytes 1MiB
check "reductions: rings of up to 64" grep -q "rings of up to 64 chips; dimension 0 has 128" "$T/err"
expect_ok coll-sched -i "$T/faulty.json" --collective all-reduce --algorithm foldedring --bytes 1MiB -o "$T/far.json"
check "folded all-reduce: 6 phases" [ "$(jget "$T/far.json" "len(d['schedule']['phases'])")" = 6 ]
expect_exit 4 "$T/faulty.json" coll-sched --bytes 1MiB
check "names the link" grep -q "(1,1,0) and chip .* (2,1,0)" "$T/err"
check "points to foldedring/mate" grep -q "foldedring, mate and matee route around failed links" "$T/err"
expect_exit 4 "$T/deadchip.json" coll-sched --bytes 1MiB

# Bad input: exit 3.
expect_exit 3 "$T/cands.json" coll-sched --bytes 1MiB
echo '{"schema": "icnkit/1"' >"$T/broken.json"
expect_exit 3 "$T/broken.json" coll-sched --bytes 1MiB
python3 - "$T/s.json" "$T/other.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["network_fingerprint"] = "0000000000000000"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/other.json" coll-sched --bytes 1MiB
python3 - "$T/s.json" "$T/typo.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["phases"][0]["steps"][0]["transfers"][0]["fracton"] = "1/2"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/typo.json" coll-sched --bytes 1MiB
check "points at the key" grep -q "/schedule/phases/0/steps/0/transfers/0" "$T/err"
# --check: a schedule read back is verified again; a hand-edited one that fails is bad input.
expect_ok coll-sched --check -i "$T/s.json" --no-provenance -o "$T/checked.json"
check "check keeps the schedule" cmp -s "$T/s.json" "$T/checked.json"
python3 - "$T/s.json" "$T/dropped.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["schedule"]["phases"][1]["steps"][2]["transfers"][0]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/dropped.json" coll-sched --check
check "check names the phase" grep -q ":/schedule/phases/1" "$T/err"
expect_exit 3 "$T/net.json" coll-sched --check
expect_exit 2 "$T/s.json" coll-sched --check --bytes 1MiB

# A missing input file is an I/O failure: exit 1.
expect_exit 1 - coll-sched -i "$T/does-not-exist.json" --bytes 1MiB

finish
