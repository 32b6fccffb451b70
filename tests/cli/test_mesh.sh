#!/usr/bin/env bash
# The mesh family on the command line: topo-enum --family mesh, topo-gen on a mesh candidate,
# and topo-route on a mesh: DOR without wrap links (one VC), WFR refused (a torus routing).
source "$ICNKIT_SRC/tests/cli/lib.sh"

# --- topo-enum -----------------------------------------------------------------------------
expect_ok topo-enum --n-chip 64 --family mesh --no-provenance
cp "$T/out" "$T/enum64.json"
check "64 chips: every candidate is a mesh" \
  test "$(jget "$T/enum64.json" "all(c['family'] == 'mesh' and c['id'].startswith('mesh:') for c in d['candidates']['items'])")" = True
check "64 chips: the balanced 3D mesh comes first, recommended" \
  test "$(jget "$T/enum64.json" "(d['candidates']['items'][0]['id'], d['candidates']['items'][0]['status'])")" = "('mesh:4x4x4/b1x1x1', 'recommended')"
check "64 chips: family_attrs" \
  test "$(jget "$T/enum64.json" "[c['family_attrs'] for c in d['candidates']['items'] if c['id']=='mesh:4x4x4/b2x2x2'][0]")" = "{'board_shape': [2, 2, 2], 'dimension_sizes': [4, 4, 4]}"
expect_ok topo-enum --n-chip 64 --family mesh --all --no-provenance
check "64 chips: mesh:2x32/b1x1 is asymmetric and degenerate" \
  test "$(jget "$T/out" "[c['warnings'] for c in d['candidates']['items'] if c['id']=='mesh:2x32/b1x1']")" = "[['asymmetric', 'degenerate-dimension']]"
check "the mesh's candidates are the torus's" \
  test "$(jget "$T/out" "d['candidates']['total']")" = "$(topo-enum --n-chip 64 --family torus | python3 -c "import json,sys; print(json.load(sys.stdin)['candidates']['total'])")"
expect_ok topo-enum --n-chip 23 --family mesh
check "23 chips: empty list, exit 0" test "$(jget "$T/out" "len(d['candidates']['items'])")" = 0
expect_ok topo-enum --n-chip 16 --family mesh --scope inter-rack --chips-per-board-max 4
check "inter-rack is a standard scope; dense-pcb-impractical above 4 chips per board" \
  test "$(jget "$T/out" "all(('dense-pcb-impractical' in c['warnings']) == (c['derived_chips_per_board'] > 4) and 'non-standard-scope' not in c['warnings'] for c in d['candidates']['items'])")" = True
expect_exit 4 - topo-enum --n-chip 64 --family mesh --intra-board-topo ring

# --- topo-gen ------------------------------------------------------------------------------
expect_ok topo-gen --pick 'mesh:4x4x4/b2x2x2' -i "$T/enum64.json" --no-provenance
cp "$T/out" "$T/net64.json"
check "4x4x4 mesh: 64 chips, 144 links, no switches" \
  test "$(jget "$T/net64.json" "(d['network']['n_chip'], len(d['network']['links']), d['network']['metrics']['link_count'], d['network']['metrics']['switch_count'])")" = "(64, 144, 144, 0)"
check "4x4x4 mesh: diameter 9, bisection 16 closed-form, path diversity 3" \
  test "$(jget "$T/net64.json" "[d['network']['metrics'][k] for k in ('diameter','bisection_links','bisection_bandwidth_method','path_diversity')]")" = "[9, 16, 'closed-form', 3]"
check "no wrap-around link" \
  test "$(jget "$T/net64.json" "all(d['network']['nodes'][l['b']]['coord'][l['dim']] == d['network']['nodes'][l['a']]['coord'][l['dim']] + 1 for l in d['network']['links'])")" = True
check "link ids dense" \
  test "$(jget "$T/net64.json" "[l['id'] for l in d['network']['links']] == list(range(144))")" = True
check "8 boards of 8 chips, one rack, one pod" \
  test "$(jget "$T/net64.json" "(len(d['network']['boards']), len(d['network']['racks']), len(d['network']['pods']))")" = "(8, 1, 1)"
topo-enum --n-chip 64 --family mesh --no-provenance | topo-gen --pick 'mesh:4x4x4/b2x2x2' --no-provenance >"$T/again.json"
check "byte-identical when generated again" cmp -s "$T/net64.json" "$T/again.json"
expect_ok topo-gen --pick 'mesh:3x3x7/b1x1x1' -i <(topo-enum --n-chip 63 --family mesh --all)
check "odd longest dimension: heuristic bisection" \
  test "$(jget "$T/out" "d['network']['metrics']['bisection_bandwidth_method']")" = heuristic

# A hand-edited candidate whose shape no longer multiplies to n_chip: bad input.
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for c in d['candidates']['items']:
    if c['id'] == 'mesh:4x4x4/b2x2x2': c['family_attrs']['dimension_sizes'] = [4, 4, 5]
json.dump(d, open(sys.argv[2], 'w'))" "$T/enum64.json" "$T/edited.json"
expect_exit 3 - topo-gen --pick 'mesh:4x4x4/b2x2x2' -i "$T/edited.json"

# --- topo-route ----------------------------------------------------------------------------
expect_ok topo-route --algorithm dor -i "$T/net64.json"
check "DOR on a 4x4x4 mesh: one VC, deadlock-free, every pair, minimal" \
  test "$(jget "$T/out" "(d['routing']['vc_count'], d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'], d['routing']['verification']['hops']['stretch_max'])")" = "(1, True, 0, 1.0)"
expect_exit 4 "$T/net64.json" topo-route --algorithm wfr
check "WFR refusal names the mesh" grep -q "mesh" "$T/err"

finish
