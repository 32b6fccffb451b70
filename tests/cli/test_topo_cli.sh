#!/usr/bin/env bash
# topo-enum and topo-gen on the command line: outputs, determinism, and every bad input ending
# in one stderr line, the documented exit code and nothing on stdout.
source "$ICNKIT_SRC/tests/cli/lib.sh"

# --- topo-enum ---------------------------------------------------------------------------
expect_ok topo-enum --n-chip 64 --family torus
cp "$T/out" "$T/enum64.json"
check "64 chips: 4x4x4/b2x2x2 is recommended" \
  test "$(jget "$T/enum64.json" "[c['status'] for c in d['candidates']['items'] if c['id']=='torus:4x4x4/b2x2x2'][0]")" = recommended
check "at most 50 returned" test "$(jget "$T/enum64.json" "d['candidates']['returned']")" -le 50
expect_ok topo-enum --n-chip 23
check "23 chips: empty list, exit 0" test "$(jget "$T/out" "len(d['candidates']['items'])")" = 0
expect_ok topo-enum --n-chip 1024 --all --no-provenance
check "--all lifts the cap" test "$(jget "$T/out" "d['candidates']['returned'] == d['candidates']['total'] > 50")" = True
expect_ok topo-enum --n-chip 32 --scope inter-rack --chips-per-board-max 8
check "context is recorded" test "$(jget "$T/out" "(d['context']['scope'], d['context']['chips_per_board_max'])")" = "('inter-rack', 8)"

for bad in 0 -1 abc 1000000000000 2.5 ""; do
  expect_exit 2 - topo-enum --n-chip "$bad"
done
expect_exit 2 - topo-enum
expect_exit 2 - topo-enum --n-chip 64 --family donut
expect_exit 2 - topo-enum --n-chip 64 --scope everywhere
expect_exit 2 - topo-enum --n-chip 64 --chip-radix 0
expect_exit 2 - topo-enum --n-chip 64 --bogus-option
expect_exit 4 - topo-enum --n-chip 64 --intra-board-topo ring

# Context files: bare context object, or a document with one; the spec requires scope there.
echo '{"n_chip": 32, "scope": "intra-rack"}' >"$T/ctx.json"
expect_ok topo-enum --context "$T/ctx.json"
echo '{"n_chip": 32}' >"$T/ctx-noscope.json"
expect_exit 3 - topo-enum --context "$T/ctx-noscope.json"
echo '{"n_chip": 32, "scope": "intra-rack", "n_chips": 3}' >"$T/ctx-typo.json"
expect_exit 3 - topo-enum --context "$T/ctx-typo.json"
echo '{"n_chip": "abc", "scope": "intra-rack"}' >"$T/ctx-abc.json"
expect_exit 3 - topo-enum --context "$T/ctx-abc.json"
echo '{"n_chip": 32, "scope": "intra-rack"' >"$T/ctx-broken.json"
expect_exit 3 - topo-enum --context "$T/ctx-broken.json"
expect_exit 1 - topo-enum --context "$T/does-not-exist.json"
expect_exit 2 - topo-enum --context "$T/ctx.json" --n-chip 4

# --- topo-gen ----------------------------------------------------------------------------
expect_ok topo-gen --pick 'torus:4x4x4/b2x2x2' -i "$T/enum64.json"
cp "$T/out" "$T/net64.json"
check "64 chips, 192 links" test "$(jget "$T/net64.json" "(d['network']['n_chip'], len(d['network']['links']))")" = "(64, 192)"
check "provenance records both tools" test "$(jget "$T/net64.json" "[p['tool'] for p in d['provenance']]")" = "['topo-enum', 'topo-gen']"
expect_ok topo-gen --pick 0 -i "$T/enum64.json"
check "--pick by index" test "$(jget "$T/out" "d['candidate']['id']")" = "$(jget "$T/enum64.json" "d['candidates']['items'][0]['id']")"
expect_ok topo-gen --pick 'torus:4x4x4/b2x2x2' -i "$T/enum64.json" --fail-link '(1,1,0)-(2,1,0)' --fail-chip 63 --link-bw 100GB/s --link-latency 500ns
check "faults recorded" test "$(jget "$T/out" "([l['link'] for l in d['faults']['links']], [c['chip'] for c in d['faults']['chips']])")" = "([15], [63])"
check "link overrides" test "$(jlink "$T/out" 0)" = "(100000000000.0, 5e-07)"
check "faults change the fingerprint" test "$(jget "$T/out" "d['network']['fingerprint']")" != "$(jget "$T/net64.json" "d['network']['fingerprint']")"

# Determinism: same input and seed, byte-identical output (provenance included).
topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-random-links 5 --seed 9 >"$T/a.json"
topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-random-links 5 --seed 9 >"$T/b.json"
check "byte-identical for the same seed" cmp -s "$T/a.json" "$T/b.json"
topo-enum --n-chip 512 | topo-gen --pick 'torus:8x8x8/b2x2x2' --fail-random-links 5 --seed 10 >"$T/c.json"
check "another seed, other faults" test "$(jget "$T/a.json" "d['faults']['links']")" != "$(jget "$T/c.json" "d['faults']['links']")"

# Atomic -o: a failed run leaves no file.
expect_ok topo-gen --pick 0 -i "$T/enum64.json" -o "$T/net-o.json"
check "-o wrote a whole document" test "$(jget "$T/net-o.json" "d['schema']")" = icnkit/1
expect_exit 2 - topo-gen --pick 9999 -i "$T/enum64.json" -o "$T/never.json"
check "-o: nothing left after a failure" test ! -e "$T/never.json"
check "-o: no temporary left" test -z "$(ls "$T" | grep tmp || true)"

printf '{"schema": "icnkit/1", "candidates": ' >"$T/malformed.json"
expect_exit 3 "$T/malformed.json" topo-gen --pick 0
: >"$T/empty.json"
expect_exit 3 "$T/empty.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum64.json')); d['schema']='icnkit/2'; print(json.dumps(d))" >"$T/v2.json"
expect_exit 3 "$T/v2.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum64.json')); d['candidates']['items'][0]['warnigns']=[]; print(json.dumps(d))" >"$T/typo.json"
expect_exit 3 "$T/typo.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum64.json')); del d['candidates']; print(json.dumps(d))" >"$T/nocand.json"
expect_exit 3 "$T/nocand.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum64.json')); d['context']['n_chip']=-1; print(json.dumps(d))" >"$T/neg.json"
expect_exit 3 "$T/neg.json" topo-gen --pick 0
expect_exit 2 "$T/enum64.json" topo-gen
expect_exit 2 "$T/enum64.json" topo-gen --pick 'torus:9x9x9/b1x1x1'
expect_exit 2 "$T/enum64.json" topo-gen --pick 0 --fail-link '0-2'
expect_exit 2 "$T/enum64.json" topo-gen --pick 0 --fail-link '(7,7,7)-(0,0,0)'
expect_exit 2 "$T/enum64.json" topo-gen --pick 0 --fail-chip 64
expect_exit 2 "$T/enum64.json" topo-gen --pick 0 --fail-random-links 1000
expect_exit 2 "$T/enum64.json" topo-gen --pick 0 --link-bw fast
expect_exit 1 - topo-gen --pick 0 -i "$T/nope.json"
topo-enum --n-chip 23 >"$T/enum23.json"
expect_exit 4 "$T/enum23.json" topo-gen --pick 0
# A network edited after topo-gen is refused (fingerprint).
python3 -c "import json; d=json.load(open('$T/net64.json')); d['network']['links'][0]['latency_s']=9e-6; print(json.dumps(d))" >"$T/edited.json"
expect_exit 3 "$T/edited.json" topo-gen --pick 0
# A network whose hierarchy breaks an invariant is refused.
python3 -c "import json; d=json.load(open('$T/net64.json')); d['network']['boards'][0]['chips'][0]=1; print(json.dumps(d))" >"$T/broken.json"
expect_exit 3 "$T/broken.json" topo-gen --pick 0

expect_ok topo-enum --help
check "--help has an example" grep -q "topo-gen --pick" "$T/out"
expect_ok topo-gen --version
check "--version names the tool" grep -q "^topo-gen " "$T/out"

# --- topo-gen --torus: a torus straight from its shape, 2 to 6 dimensions ------------------
expect_ok topo-gen --torus 5x5x5x5 --link-bw 32GB/s --link-latency 100ns -o "$T/t4d.json"
check "4D: 625 chips" [ "$(jget "$T/t4d.json" "d['network']['n_chip']")" = 625 ]
check "4D: 4 links per chip" [ "$(jget "$T/t4d.json" "len(d['network']['links'])")" = 2500 ]
check "4D: diameter 8" [ "$(jget "$T/t4d.json" "d['network']['metrics']['diameter']")" = 8 ]
expect_ok topo-gen --torus 4x4x4/b2x2x2 -o "$T/tb.json"
check "boards of 8" [ "$(jget "$T/tb.json" "len(d['network']['boards'])")" = 8 ]
topo-enum -n 64 >"$T/c64.json"
expect_ok topo-gen -i "$T/c64.json" --pick 'torus:4x4x4/b2x2x2' -o "$T/tp.json"
check "same network as --pick" [ "$(jget "$T/tb.json" "d['network']['fingerprint']")" = "$(jget "$T/tp.json" "d['network']['fingerprint']")" ]
for bad in 5x 5 4x4x4/b3x1x1 2x2x2x2x2x2x2 4x4/c2x2 1x4; do
  expect_exit 2 - topo-gen --torus "$bad"
done
expect_exit 2 - topo-gen --torus 4x4 --pick 0

finish
