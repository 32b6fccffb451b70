#!/usr/bin/env bash
# topo-route beyond DOR on the torus: WFR around faults, odd-even and FTHOE on meshes, D-mod-k
# on fat-trees, minimal routing on every family, --load, --emit, the refusals (exit 4), and
# the examples of --help.
source "$ICNKIT_SRC/tests/cli/lib.sh"

v() { jget "$1" "d['routing']['verification']$2"; }

# --- WFR: a single fault on 4x4x4 serves every pair; DOR does not --------------------------
topo-enum -n 64 >"$T/e64.json"
topo-gen -i "$T/e64.json" --pick 'torus:4x4x4/b1x1x1' --fail-link '(1,1,0)-(2,1,0)' >"$T/t1.json"
expect_ok topo-route -i "$T/t1.json" --algorithm wfr --load
cp "$T/out" "$T/wfr.json"
check "wfr: every pair, deadlock-free, 3 VC classes" \
  test "$(jget "$T/wfr.json" "(d['routing']['verification']['unreachable_pairs'], d['routing']['verification']['deadlock_free'], d['routing']['vc_count'])")" = "(0, True, 3)"
check "wfr: some pairs detour (stretch > 1)" test "$(v "$T/wfr.json" "['hops']['non_minimal_pairs'] > 0")" = True
check "wfr: a load section with a throughput bound" test "$(v "$T/wfr.json" "['load']['throughput_bound'] > 0")" = True
check "wfr: no unreachable warning" test ! -s "$T/err"
expect_ok topo-route -i "$T/t1.json" --algorithm dor
check "dor: 64 pairs cross the fault" test "$(v "$T/out" "['unreachable_pairs']")" = 64
check "dor: warning names the algorithm" grep -q "unreachable under the faults with dor" "$T/err"
expect_ok topo-route -i "$T/wfr.json" --algorithm wfr
check "a routed document re-enters" test "$(jget "$T/out" "d['routing']['algorithm']")" = wfr

# --- meshes: odd-even, FTHOE around a 2x2 block --------------------------------------------
topo-enum -n 64 --family mesh >"$T/m64.json"
topo-gen -i "$T/m64.json" --pick 'mesh:8x8/b1x1' >"$T/mesh.json"
topo-gen -i "$T/m64.json" --pick 'mesh:8x8/b1x1' --fail-chip 18 --fail-chip 19 --fail-chip 26 --fail-chip 27 >"$T/block.json"
expect_ok topo-route -i "$T/mesh.json" --algorithm odd-even
check "odd-even: deadlock-free with one VC, minimal" \
  test "$(jget "$T/out" "(d['routing']['vc_count'], d['routing']['verification']['deadlock_free'], d['routing']['verification']['hops']['stretch_max'])")" = "(1, True, 1.0)"
expect_ok topo-route -i "$T/block.json" --algorithm fthoe
check "fthoe: around the 2x2 block, every pair, deadlock-free" \
  test "$(jget "$T/out" "(d['routing']['verification']['unreachable_pairs'], d['routing']['verification']['deadlock_free'])")" = "(0, True)"
expect_ok topo-route -i "$T/block.json" --algorithm fthoe --path 17 28
check "fthoe --path delivers around the block" grep -q "delivered in" "$T/out"

# --- fat-trees: D-mod-k, throughput bound 1 on a full-bisection tree; minimal --------------
topo-enum -n 32 --family fat-tree --where k=8,layers=2,chips_per_board=1 | topo-gen >"$T/ft.json"
expect_ok topo-route -i "$T/ft.json" --algorithm dmodk --load
check "dmodk: one VC, deadlock-free, throughput bound 1" \
  test "$(jget "$T/out" "(d['routing']['vc_count'], d['routing']['verification']['deadlock_free'], d['routing']['verification']['load']['throughput_bound'])")" = "(1, True, 1.0)"
expect_ok topo-route -i "$T/ft.json" --algorithm dmodk --emit tables
check "--emit tables: one row per node" test "$(jget "$T/out" "len(d['routing']['tables']) == len(d['network']['nodes'])")" = True
expect_ok topo-route -i "$T/ft.json" --algorithm dmodk --emit paths
check "--emit paths: every pair" test "$(jget "$T/out" "len(d['routing']['paths'])")" = $((32 * 31))
cp "$T/out" "$T/paths.json"
expect_ok topo-route -i "$T/paths.json" --algorithm minimal
check "a document with paths re-enters" test "$(jget "$T/out" "d['routing']['algorithm']")" = minimal

# --- minimal on every family: deadlock-free with hop-count VCs -----------------------------
for f in fat-tree dragonfly dragonfly+ torus mesh hypercube hyperx ring full-mesh single-switch; do
  topo-enum -n 64 --family "$f" --scope inter-rack --limit 1 | topo-gen --pick 0 >"$T/n-$f.json"
  expect_ok topo-route -i "$T/n-$f.json" --algorithm minimal
  check "minimal on $f: deadlock-free, every pair, minimal" \
    test "$(jget "$T/out" "(d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'], d['routing']['verification']['hops']['stretch_max'])")" = "(True, 0, 1.0)"
done
# ... and the checker finds the cycle without them on a torus and a dragonfly.
expect_ok topo-route -i "$T/n-torus.json" --algorithm minimal --vc-scheme none
check "minimal, one VC, torus: a cycle" test "$(v "$T/out" "['deadlock_free']")" = False
topo-enum -n 64 --family dragonfly --scope inter-rack --where a=4,p=2,h=2,g=9 --limit 1 | topo-gen --pick 0 >"$T/df.json"
expect_ok topo-route -i "$T/df.json" --algorithm minimal --vc-scheme none
check "minimal, one VC, dragonfly: a cycle" test "$(v "$T/out" "['deadlock_free']")" = False
check "cycle warning" grep -q "NOT deadlock-free" "$T/err"

# --- refusals and bad input ------------------------------------------------------------------
expect_exit 4 "$T/ft.json" topo-route --algorithm fthoe
expect_exit 4 "$T/ft.json" topo-route --algorithm odd-even
expect_exit 4 "$T/n-torus.json" topo-route --algorithm dmodk
expect_exit 4 "$T/mesh.json" topo-route --algorithm wfr
expect_exit 4 "$T/ft.json" topo-route --algorithm dor
expect_exit 2 "$T/ft.json" topo-route --algorithm ecmp-magic
expect_exit 2 "$T/ft.json" topo-route --algorithm minimal --paths all
expect_exit 2 "$T/ft.json" topo-route --algorithm minimal --vc-scheme many
expect_exit 2 "$T/ft.json" topo-route --algorithm dmodk --emit everything
expect_exit 2 "$T/ft.json" topo-route --algorithm dmodk --tie plus
# Faults that split the network: exit 4, the parts named.
topo-gen -i "$T/m64.json" --pick 'mesh:8x8/b1x1' --fail-link 0-1 --fail-link 0-8 >"$T/split.json"
expect_exit 4 "$T/split.json" topo-route --algorithm fthoe
check "the parts are named" grep -q "2 parts: 63 chips" "$T/err"
# A routing section computed for another network: exit 3.
python3 -c "import json; d=json.load(open('$T/wfr.json')); d['routing']['network_fingerprint']='0'*16; print(json.dumps(d))" >"$T/stale.json"
expect_exit 3 "$T/stale.json" topo-route --algorithm wfr

# --- --help examples work as printed ---------------------------------------------------------
expect_ok topo-route --help
check "--help lists the algorithms" grep -q "fthoe (2-D mesh)" "$T/out"
expect_ok topo-route --describe
for a in dor wfr odd-even fthoe minimal dmodk dragonfly-min; do check "--describe lists $a" grep -q "^$a\$" "$T/out"; done

finish
