#!/usr/bin/env bash
# topo-gen --twist (the TPU v4 twisted torus) and --fail-ocs (the OCS fault model): outputs,
# refusals with their exit codes, downstream tools refusing a twisted torus, determinism.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum --n-chip 128 --all >"$T/e128.json"
topo-enum --n-chip 256 --all >"$T/e256.json"
topo-enum --n-chip 64 --all >"$T/e64.json"
topo-enum --n-chip 512 --all >"$T/e512.json"

expect_ok topo-gen --help
check "--help names --twist" grep -q -- '--twist' "$T/out"
check "--help names --fail-ocs" grep -q -- '--fail-ocs' "$T/out"

# --- --twist -------------------------------------------------------------------------------
expect_ok topo-gen -i "$T/e128.json" --pick 'torus:4x4x8/b2x2x2' --twist --no-provenance
cp "$T/out" "$T/tw448.json"
expect_ok topo-gen -i "$T/e128.json" --pick 'torus:4x4x8/b2x2x2' --no-provenance
cp "$T/out" "$T/reg448.json"
m="d['network']['metrics']"
check "twisted recorded" [ "$(jget "$T/tw448.json" "$m['family_attrs']['twisted']")" = True ]
check "regular has no twisted key" [ "$(jget "$T/reg448.json" "'twisted' in $m['family_attrs']")" = False ]
check "4x4x8 diameter 8 -> 6" [ "$(jget "$T/reg448.json" "$m['diameter']")/$(jget "$T/tw448.json" "$m['diameter']")" = 8/6 ]
check "4x4x8 bisection 32 -> 64" [ "$(jget "$T/reg448.json" "$m['bisection_links']")/$(jget "$T/tw448.json" "$m['bisection_links']")" = 32/64 ]
check "twisted bisection is a bound" [ "$(jget "$T/tw448.json" "$m['bisection_bandwidth_method']")" = heuristic ]
check "same link count" [ "$(jget "$T/tw448.json" "len(d['network']['links'])")" = 384 ]
# (3,1,2) is chip 39; its X link (39*3+0) wraps to (0,1,6) = chip 100. (1,2,3) is chip 57; its
# Z link (57*3+2) stays regular: (1,2,4) = chip 73.
check "X wrap shifted +4 in Z" [ "$(jget "$T/tw448.json" "[(l['a'], l['b'], l['dim'], l['dir']) for l in d['network']['links'] if l['id'] == 117][0]")" = "(39, 100, 0, 1)" ]
check "inner link regular" [ "$(jget "$T/tw448.json" "[l['b'] for l in d['network']['links'] if l['id'] == 173][0]")" = 73 ]
check "twist changes the fingerprint" [ "$(jget "$T/tw448.json" "d['network']['fingerprint']")" != "$(jget "$T/reg448.json" "d['network']['fingerprint']")" ]

expect_ok topo-gen -i "$T/e256.json" --pick 'torus:4x8x8/b2x2x2' --twist
check "4x8x8 twisted diameter 6" [ "$(jget "$T/out" "$m['diameter']")" = 6 ]
expect_ok topo-gen -i "$T/e256.json" --pick 'torus:4x8x8/b2x2x2'
check "4x8x8 regular diameter 10" [ "$(jget "$T/out" "$m['diameter']")" = 10 ]
expect_ok topo-gen -i "$T/e128.json" --pick 'torus:8x4x4/b2x2x2' --twist
check "8x4x4 twisted diameter 6" [ "$(jget "$T/out" "$m['diameter']")" = 6 ]

# Refused: not k x k x 2k / k x 2k x 2k, 2-D, or not a torus.
expect_exit 4 "$T/e64.json" topo-gen --pick 'torus:4x4x4/b2x2x2' --twist
topo-enum --n-chip 192 --all >"$T/e192.json"
expect_exit 4 "$T/e192.json" topo-gen --pick 'torus:4x4x12/b2x2x2' --twist
expect_exit 4 "$T/e128.json" topo-gen --pick 'torus:8x16/b2x2' --twist
topo-enum --n-chip 128 --family mesh --all >"$T/m128.json"
expect_exit 4 "$T/m128.json" topo-gen --pick 'mesh:4x4x8/b2x2x2' --twist

# Downstream: DOR and the ring schedules refuse a twisted torus (exit 4).
expect_exit 4 "$T/tw448.json" topo-route --algorithm dor
check "names the twist" grep -q 'twisted' "$T/err"
expect_exit 4 "$T/tw448.json" topo-route --path 0 5
expect_exit 4 "$T/tw448.json" coll-sched --collective all-to-all --algorithm ring --bytes 1MiB
# A twisted network whose flag was removed is caught by its links (exit 3).
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); del d['network']['metrics']['family_attrs']['twisted']; json.dump(d, open(sys.argv[2], 'w'))" "$T/tw448.json" "$T/stripped.json"
expect_exit 3 "$T/stripped.json" topo-route --algorithm dor

# --- --fail-ocs ------------------------------------------------------------------------------
f="d['faults']"
# 4x4x4: OCS 0 = dimension 0, face position 0: the X wrap leaving (3,0,0) = chip 3, link 9.
expect_ok topo-gen -i "$T/e64.json" --pick 'torus:4x4x4/b2x2x2' --fail-ocs 0
check "4x4x4: one link" [ "$(jget "$T/out" "[(l['link'], l['a'], l['b'], l['cause']) for l in $f['links']]")" = "[(9, 3, 0, 'ocs')]" ]
check "ocs recorded" [ "$(jget "$T/out" "$f['ocs']")" = "[0]" ]
# 8x4x4, dimension 0: x = 3 and x = 7 on the line y = z = 0: chips 3 and 7, links 9 and 21.
expect_ok topo-gen -i "$T/e128.json" --pick 'torus:8x4x4/b2x2x2' --fail-ocs 0
check "8x4x4: two links" [ "$(jget "$T/out" "[l['link'] for l in $f['links']]")" = "[9, 21]" ]
# 8x8x8: 8 links per OCS; two OCSes, given twice and out of order: 16 links, ocs [5, 40].
expect_ok topo-gen -i "$T/e512.json" --pick 'torus:8x8x8/b2x2x2' --fail-ocs 40 --fail-ocs 5 --fail-ocs 40 --no-provenance
cp "$T/out" "$T/ocs1.json"
check "8x8x8: 16 links" [ "$(jget "$T/ocs1.json" "len($f['links'])")" = 16 ]
check "8x8x8: all ocs" [ "$(jget "$T/ocs1.json" "set(l['cause'] for l in $f['links'])")" = "{'ocs'}" ]
check "8x8x8: ocs sorted unique" [ "$(jget "$T/ocs1.json" "$f['ocs']")" = "[5, 40]" ]
# Every OCS 5 link (dimension 0, p = 5: y = 1, z = 1 mod 4) leaves x = 3 mod 4.
check "8x8x8: cube-boundary links" [ "$(jget "$T/ocs1.json" "all((lambda L, c: L['dim'] in (0, 2) and c[L['dim']] % 4 == 3)(L, d['network']['nodes'][L['a']]['coord']) for L in [d['network']['links'][l['link']] for l in $f['links']])")" = True ]
# With --twist, the twisted wraps: 4x4x8, OCS 0 = X links leaving (3,0,0) and (3,0,4) (chips 3
# and 67), to (0,0,4) = 64 and (0,0,0) = 0.
expect_ok topo-gen -i "$T/e128.json" --pick 'torus:4x4x8/b2x2x2' --twist --fail-ocs 0
check "twisted ocs links" [ "$(jget "$T/out" "[(l['a'], l['b']) for l in $f['links']]")" = "[(3, 64), (67, 0)]" ]
# The OCS faults ride down the pipe (topo-route re-reads the faults section).
expect_ok topo-route -i "$T/ocs1.json" -o "$T/ocs-routed.json"
check "route keeps ocs" [ "$(jget "$T/ocs-routed.json" "$f['ocs']")" = "[5, 40]" ]

# Errors: usage, exit 2, naming --fail-ocs.
for bad in 48 -1 abc 1000000000000; do
  expect_exit 2 "$T/e64.json" topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-ocs "$bad"
done
expect_exit 2 "$T/e64.json" topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-ocs 48
check "names --fail-ocs" grep -q -- '--fail-ocs' "$T/err"
topo-enum --n-chip 16 --all >"$T/e16.json"
expect_exit 2 "$T/e16.json" topo-gen --pick 'torus:4x4/b2x2' --fail-ocs 0
check "2-D names --fail-ocs" grep -q -- '--fail-ocs' "$T/err"
topo-enum --n-chip 96 --all >"$T/e96.json"
expect_exit 2 "$T/e96.json" topo-gen --pick 'torus:4x4x6/b2x2x2' --fail-ocs 0
topo-enum --n-chip 64 --family mesh --all >"$T/m64.json"
expect_exit 2 "$T/m64.json" topo-gen --pick 'mesh:4x4x4/b2x2x2' --fail-ocs 0

# Determinism: byte-identical output twice (provenance included).
topo-enum --n-chip 256 --all | topo-gen --pick 'torus:4x8x8/b2x2x2' --twist --fail-ocs 3 --fail-ocs 20 >"$T/a.json"
topo-enum --n-chip 256 --all | topo-gen --pick 'torus:4x8x8/b2x2x2' --twist --fail-ocs 3 --fail-ocs 20 >"$T/b.json"
check "byte-identical" cmp -s "$T/a.json" "$T/b.json"
check "non-empty" [ -s "$T/a.json" ]

finish
