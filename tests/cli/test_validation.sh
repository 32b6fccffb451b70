#!/usr/bin/env bash
# Every tool checks a network it reads against its family's structure: real topo-gen documents
# edited with python3 the way a user (or a fuzzer) would are refused with exit 3 and one error
# line naming the JSON pointer, instead of a router's exit 1, a type_error or a silently wrong
# path. (The unit tests, test_network_validation.cpp, do the same with the fingerprint
# recomputed; here the structure check must come before the fingerprint's.)
source "$ICNKIT_SRC/tests/cli/lib.sh"

# edit IN OUT PYTHON: applies PYTHON to the document d (n = d['network'], a = its family_attrs).
edit() {
  python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
n = d['network']
a = n['metrics']['family_attrs']
$3
json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

# refused WANT_LINE DOC TOOL ARGS...: exit 3, one stderr line, exactly WANT_LINE.
refused() {
  local want=$1 doc=$2
  shift 2
  expect_exit 3 "$doc" "$@"
  check "$* on $(basename "$doc"): $want" test "$(cat "$T/err")" = "$want"
}

# --- mesh links and coordinates ------------------------------------------------------------
topo-enum --n-chip 16 --family mesh --all --no-provenance >"$T/c16.json"
topo-gen --pick 'mesh:4x4/b1x1' -i "$T/c16.json" --no-provenance >"$T/mesh.json"
expect_ok topo-route --algorithm dor -i "$T/mesh.json"
# Link 2 leaves chip 1 for chip 2 in + direction of dimension 0; link 3 goes 1 -> 5 (dim 1).
what="not the link a 4x4 mesh has there: link 2 joins chip 1 to chip 2 in + direction of dimension 0 (a 1, b 2, dim 0, dir +1)"
edit "$T/mesh.json" "$T/swapped.json" "l = n['links'][2]; l['a'], l['b'] = l['b'], l['a']"
refused "topo-route: error: stdin:/network/links/2/a: $what" "$T/swapped.json" topo-route --algorithm dor
edit "$T/mesh.json" "$T/dir.json" "n['links'][2]['dir'] = -1"
refused "topo-route: error: stdin:/network/links/2/dir: $what" "$T/dir.json" topo-route --algorithm dor --path 1 2
edit "$T/mesh.json" "$T/dim.json" "n['links'][3]['dim'] = 0"
refused "net-sim: error: stdin:/network/links/3/dim: not the link a 4x4 mesh has there: link 3 joins chip 1 to chip 5 in + direction of dimension 1 (a 1, b 5, dim 1, dir +1)" \
  "$T/dim.json" net-sim --traffic all-to-all --bytes 1MiB
edit "$T/mesh.json" "$T/dup.json" "n['nodes'][5]['coord'] = n['nodes'][4]['coord']"
refused "topo-gen: error: stdin:/network/nodes/5/coord: chip 5 has the coordinates (0,1) of chip 4: no two nodes sit at one place" \
  "$T/dup.json" topo-gen --format json
edit "$T/mesh.json" "$T/three.json" "n['nodes'][3]['coord'] = [3, 0, 0]"
refused "topo-route: error: stdin:/network/nodes/3/coord: chip 3 has 3 coordinates; a 2-dimensional 4x4 mesh has 2" \
  "$T/three.json" topo-route --algorithm dor
edit "$T/mesh.json" "$T/outside.json" "n['nodes'][3]['coord'] = [4, 0]"
refused "topo-route: error: stdin:/network/nodes/3/coord/0: coordinate 4 is outside dimension 0 of the 4x4 mesh (0..3)" \
  "$T/outside.json" topo-route --algorithm dor

# --- family_attrs, which the fingerprint does not cover -------------------------------------
topo-enum --n-chip 16 --family fat-tree --where layers=2,k=8,osr=1 --no-provenance >"$T/cf.json"
topo-gen --pick 0 -i "$T/cf.json" --no-provenance >"$T/fat.json"
expect_ok topo-route --algorithm dmodk -i "$T/fat.json"
edit "$T/fat.json" "$T/fatnull.json" "a['w_levels'][1] = None"
refused "topo-route: error: stdin:/network/metrics/family_attrs/w_levels/1: expected an integer" \
  "$T/fatnull.json" topo-route --algorithm dmodk
edit "$T/fat.json" "$T/fatk.json" "a['k'] = 7"
refused "coll-sched: error: stdin:/network/metrics/family_attrs/k: k must be even" \
  "$T/fatk.json" coll-sched --collective all-to-all --bytes 1MiB

topo-enum --n-chip 8 --family hypercube --no-provenance | topo-gen --pick 0 --no-provenance >"$T/cube.json"
edit "$T/cube.json" "$T/cuben.json" "a['n'] = 4"
refused "topo-route: error: stdin:/network/metrics/family_attrs/n: 2^4 differs from n_chip 8" \
  "$T/cuben.json" topo-route --algorithm minimal

topo-enum --n-chip 64 --family dragonfly --scope inter-rack --where a=4,p=2,h=2 --no-provenance |
  topo-gen --pick 0 --no-provenance >"$T/df.json"
edit "$T/df.json" "$T/dfnull.json" "a['a'] = None"
refused "topo-route: error: stdin:/network/metrics/family_attrs/a: expected an integer" \
  "$T/dfnull.json" topo-route --algorithm minimal

# A twisted torus stripped of "twisted": its wrap links are not a regular torus's. Link 9 is
# chip 3 = (3,0,0) in dimension 0, which the twist takes to (0,0,4) = chip 64.
topo-enum --n-chip 128 --family torus --all --no-provenance >"$T/c128.json"
topo-gen --pick 'torus:4x4x8/b1x1x1' --twist -i "$T/c128.json" --no-provenance >"$T/tw.json"
edit "$T/tw.json" "$T/untw.json" "del a['twisted']"
refused "topo-route: error: stdin:/network/links/9/b: not the link a regular 4x4x8 torus has there: link 9 joins chip 3 to chip 0 in + direction of dimension 0 (a 3, b 0, dim 0, dir +1)" \
  "$T/untw.json" topo-route --algorithm minimal

finish
