#!/usr/bin/env bash
# Every family on the command line: topo-enum lists it, topo-gen builds a candidate whose
# document the next tool re-reads and re-checks (invariants, fingerprint), --family all,
# --sort-by, --where, --describe, and the bad inputs of the families issue.
source "$ICNKIT_SRC/tests/cli/lib.sh"

families="fat-tree dragonfly dragonfly+ torus mesh hypercube hyperx ring full-mesh single-switch"

# --- each family: enumerate 64 chips, build the first candidate, re-read it ---------------
for f in $families; do
  expect_ok topo-enum --n-chip 64 --family "$f" --scope inter-rack --no-provenance
  cp "$T/out" "$T/enum-$f.json"
  check "$f: every candidate is a $f" \
    test "$(jget "$T/enum-$f.json" "all(c['family'] == '$f' and c['id'].startswith('$f:') for c in d['candidates']['items'])")" = True
  check "$f: status is edge-case exactly when there are warnings" \
    test "$(jget "$T/enum-$f.json" "all((c['status'] == 'edge-case') == bool(c['warnings']) for c in d['candidates']['items'])")" = True
  expect_ok topo-gen -i "$T/enum-$f.json" --pick 0 --no-provenance
  cp "$T/out" "$T/net-$f.json"
  check "$f: 64 chips on boards of the derived size" \
    test "$(jget "$T/net-$f.json" "(d['network']['n_chip'], all(len(b['chips']) == d['candidate']['derived_chips_per_board'] for b in d['network']['boards']))")" = "(64, True)"
  check "$f: metrics carry the bisection method" \
    test "$(jget "$T/net-$f.json" "d['network']['metrics']['bisection_bandwidth_method'] in ('closed-form', 'heuristic')")" = True
  # The document is re-read strictly (invariants and fingerprint) by the next tool.
  expect_ok topo-gen -i "$T/net-$f.json" --no-provenance
  check "$f: regenerating from the candidate gives the same network" \
    test "$(jget "$T/out" "d['network']['fingerprint']")" = "$(jget "$T/net-$f.json" "d['network']['fingerprint']")"
  expect_ok topo-gen -i "$T/enum-$f.json" --pick 0 --format dot
  check "$f: DOT export, one edge line per link" \
    test "$(grep -c -- '--' "$T/out")" = "$(jget "$T/net-$f.json" "len(d['network']['links'])")"
done

# Switched families: roles and ports on the switches, Tier 8/9/9+ only.
check "fat-tree: switches have roles and ports" \
  test "$(jget "$T/net-fat-tree.json" "sorted(set(v['role'] for v in d['network']['nodes'] if v['kind'] == 'switch'))")" = "['leaf', 'spine']"
check "dragonfly: routers are rack switches" \
  test "$(jget "$T/net-dragonfly.json" "set((v['role'], v['tier']) for v in d['network']['nodes'] if v['kind'] == 'switch')")" = "{('router', 8)}"

# A ring is the torus of one dimension: topo-route's default (DOR, with its dateline) routes it
# and proves it deadlock-free.
topo-enum -n 16 --family ring --scope inter-rack | topo-gen --pick ring:16/c1 | topo-route -q >"$T/ring-r.json"
check "a ring is routed by DOR, deadlock-free" [ "$(jget "$T/ring-r.json" "(d['routing']['algorithm'], d['routing']['verification']['deadlock_free'])")" = "('dor', True)" ]
# DOR is a torus routing: asked of a fat-tree it is infeasible (exit 4).
expect_exit 4 "$T/net-fat-tree.json" topo-route --algorithm dor

# --- the spec's rows through the tools --------------------------------------------------------
expect_ok topo-enum --n-chip 64 --family dragonfly --scope inter-rack --where a=4,p=2,h=2 --all
check "dragonfly 64, a=4 p=2 h=2: g=9 recommended, g=8 non-balanced" \
  test "$(jget "$T/out" "sorted((c['family_attrs']['g'], c['status']) for c in d['candidates']['items'] if c['n_endpoint'] == 64)")" = "[(8, 'edge-case'), (9, 'recommended')]"
expect_ok topo-enum --n-chip 97 --family hyperx --scope inter-rack
check "hyperx 97: the single S=[97]" \
  test "$(jget "$T/out" "[c['id'] for c in d['candidates']['items']]")" = "['hyperx:97-t1/c1']"
expect_ok topo-enum --n-chip 64 --family single-switch --where n_endpoint=64
check "single-switch 64 boards: no radix-too-large" \
  test "$(jget "$T/out" "d['candidates']['items'][0]['warnings']")" = "[]"
expect_ok topo-enum --n-chip 16 --family single-switch --intra-board-topo torus --where chips_per_board=4
cp "$T/out" "$T/ss-torus.json"
expect_ok topo-gen -i "$T/ss-torus.json" --no-provenance
check "single-switch with 2x2 board tori: 16 chip links + 4 boards x 4 c2c links" \
  test "$(jget "$T/out" "(len(d['network']['links']), sum(1 for l in d['network']['links'] if l['kind'] == 'c2c'))")" = "(32, 16)"

# --- --family all, --sort-by, --where, --describe ---------------------------------------------
expect_ok topo-enum --n-chip 64 --family all --scope inter-rack --no-provenance
check "all: 50 of every family's candidates, recommended first" \
  test "$(jget "$T/out" "(d['candidates']['returned'], d['candidates']['items'][0]['status'], d['candidates']['total'] > 400000)")" = "(50, 'recommended', True)"
expect_ok topo-enum --n-chip 64 --family all --sort-by diameter --limit 3
check "all by diameter: a recommended design first, its diameter shown" \
  test "$(jget "$T/out" "(d['candidates']['items'][0]['status'], d['candidates']['items'][0]['sorted_by']['metric'])")" = "('recommended', 'diameter')"
expect_ok topo-enum --n-chip 64 --family all --sort-by diameter --limit 3 --where status=edge-case
check "edge-cases by diameter: the full mesh (1 hop) first" \
  test "$(jget "$T/out" "d['candidates']['items'][0]['family']")" = full-mesh
# The default scope follows the chip count: a rack holds at most 72 chips.
for n in 64 72 73 1024; do
  topo-enum -n $n --family torus --limit 1 >"$T/sc.json"
  want=intra-rack; [ $n -gt 72 ] && want=inter-rack
  check "default scope for $n chips: $want" [ "$(jget "$T/sc.json" "d['context']['scope']")" = $want ]
done
expect_ok topo-enum -n 1024 --family dragonfly --limit 5
check "a 1,024-chip dragonfly is inter-rack: recommended by default" \
  test "$(jget "$T/out" "{c['status'] for c in d['candidates']['items']}")" = "{'recommended'}"
# --all on one family that has too many: the refusal says what narrows it.
expect_exit 4 - topo-enum -n 1024 --family dragonfly --all
check "--all refusal on one family: names its parameters" grep -q "narrow it with --where (status=recommended, or dragonfly's parameters: a, p, h, g)" "$T/err"
check "--all refusal: one line" [ "$(wc -l <"$T/err")" = 1 ]
expect_ok topo-enum --n-chip 64 --family torus --sort-by link_count:desc --limit 3
expect_ok topo-enum --n-chip 1024 --family fat-tree --where k=32,layers=2 --all
check "--where k=32,layers=2: only those" \
  test "$(jget "$T/out" "all(c['family_attrs']['k'] == 32 and c['family_attrs']['layers'] == 2 for c in d['candidates']['items']) and d['candidates']['total'] == len(d['candidates']['items']) > 0")" = True
# --sort-by cost: each candidate built and priced; its value is the cost topo-gen reports.
expect_ok topo-enum --n-chip 64 --family all --scope inter-rack --where status=recommended --sort-by cost --limit 5
cp "$T/out" "$T/by-cost.json"
check "by cost: recommended only, ascending, each with its value" \
  test "$(jget "$T/out" "(all(c['status'] == 'recommended' and c['sorted_by']['metric'] == 'cost' for c in d['candidates']['items']), [c['sorted_by']['value'] for c in d['candidates']['items']] == sorted(c['sorted_by']['value'] for c in d['candidates']['items']))")" = "(True, True)"
for i in 0 4; do
  expect_ok topo-gen -i "$T/by-cost.json" --pick $i
  check "by cost: candidate $i costs what topo-gen says" \
    test "$(jget "$T/out" "d['network']['metrics']['cost']['capex_usd']")" = "$(jget "$T/by-cost.json" "d['candidates']['items'][$i]['sorted_by']['value']")"
done
expect_exit 4 - topo-enum --n-chip 1024 --family all --scope inter-rack --sort-by cost
expect_exit 2 - topo-enum --n-chip 64 --family all --cost-table "$T/none.csv"
expect_exit 2 - topo-enum --n-chip 64 --family all --where status=great
expect_ok topo-enum --describe
for f in $families; do check "--describe lists $f" grep -q "^$f\$" "$T/out"; done
check "--describe gives the parameter ranges" grep -q "k in \[4, 64\] even" "$T/out"

# Enumeration is deterministic: the same command twice, byte for byte.
topo-enum --n-chip 1024 --family all --scope inter-rack --limit 200 >"$T/a.json"
topo-enum --n-chip 1024 --family all --scope inter-rack --limit 200 >"$T/b.json"
check "byte-identical enumeration" cmp -s "$T/a.json" "$T/b.json"

# --- bad inputs --------------------------------------------------------------------------------
expect_exit 2 - topo-enum --n-chip 64 --family all --sort-by beauty
expect_exit 2 - topo-enum --n-chip 64 --family all --sort-by diameter:up
expect_exit 2 - topo-enum --n-chip 64 --family fat-tree --where k
expect_exit 4 - topo-enum --n-chip 1024 --family dragonfly --all
expect_exit 4 - topo-enum --n-chip 64 --family hypercube --intra-board-topo ring
expect_exit 2 - topo-enum --n-chip 1 --family fat-tree
expect_exit 2 - topo-enum --n-chip 64 --family fat-tree --chips-per-board-max 0
expect_exit 2 - topo-enum --n-chip 64 --family fat-tree --scope galaxy
# The same through a context file: input errors (exit 3).
for bad in '"n_chip": 1' '"n_chip": 64, "chip_radix": 0' '"n_chip": 64, "chips_per_board_max": 0' '"n_chip": 64, "intra_board_topo": "cube"'; do
  echo "{$bad, \"scope\": \"intra-rack\"}" >"$T/ctx-bad.json"
  expect_exit 3 - topo-enum --context "$T/ctx-bad.json" --family fat-tree
done
echo '{"n_chip": 64, "scope": "everywhere"}' >"$T/ctx-scope.json"
expect_exit 3 - topo-enum --context "$T/ctx-scope.json" --family fat-tree
# A candidate edited by hand into an infeasible one: input error (exit 3).
python3 -c "import json; d=json.load(open('$T/enum-fat-tree.json')); d['candidates']['items'][0]['family_attrs']['k']=10; print(json.dumps(d))" >"$T/k10.json"
expect_exit 3 "$T/k10.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum-hyperx.json')); d['candidates']['items'][0]['n_endpoint']*=2; print(json.dumps(d))" >"$T/hx.json"
expect_exit 3 "$T/hx.json" topo-gen --pick 0
python3 -c "import json; d=json.load(open('$T/enum-torus.json')); d['candidates']['items'][0]['family_attrs']['dimension_sizes']=[4,4,5]; print(json.dumps(d))" >"$T/t445.json"
expect_exit 3 "$T/t445.json" topo-gen --pick 0
# The context changed under a candidate: a one-chip board cannot take a full mesh (exit 4).
topo-enum --n-chip 32 --family single-switch --where n_endpoint=32 >"$T/ss.json"
python3 -c "import json; d=json.load(open('$T/ss.json')); d['context']['intra_board_topo']='full-mesh'; print(json.dumps(d))" >"$T/ss-fm.json"
expect_exit 4 "$T/ss-fm.json" topo-gen --pick 0
expect_exit 4 "$T/enum-fat-tree.json" topo-gen --pick 0 --twist

finish
