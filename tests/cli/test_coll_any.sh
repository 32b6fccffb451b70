# Collectives on every family: every collective and algorithm between ranks runs through
# coll-sched (verified) and net-sim (analytic; flit replay on a few), on 16-chip networks of every
# family, with and without a failed link and a failed chip; no schedule beats its lower bound.
source "$ICNKIT_SRC/tests/cli/lib.sh"

picks=(fat-tree:2L-k4-osr1/c2 torus:4x4/b1x1 mesh:4x4/b1x1 ring:16/c1 full-mesh:16/c1
  single-switch:16/c1 hypercube:n4 hyperx:4x4-t1/c1 dragonfly:p2-a4-h1-g2/c1
  dragonfly+:p2-a4-s2-g3/c1)
# collective:algorithm pairs (halving-doubling's reduce-scatter and all-gather need a power of
# two: 16 live chips, not 15).
pairs=(all-reduce:ring all-reduce:bidirectional-ring reduce-scatter:bidirectional-ring all-gather:bidirectional-ring all-reduce:direct all-reduce:halving-doubling all-reduce:bruck
  reduce-scatter:ring reduce-scatter:direct reduce-scatter:halving-doubling reduce-scatter:bruck
  all-gather:ring all-gather:direct all-gather:halving-doubling all-gather:bruck
  all-to-all:direct all-to-all:pairwise all-to-all:bruck broadcast:binomial reduce:binomial
  all-reduce:hierarchical reduce-scatter:hierarchical all-gather:hierarchical all-to-all:hierarchical
  all-reduce:double-binary-tree broadcast:double-binary-tree
  reduce:double-binary-tree broadcast:chain reduce:chain)
topo-enum -n 16 --family all --scope inter-rack --limit 500 >"$T/cands.json"
# No schedule beats its bound: each run's CSV is kept and every one checked at the end by one
# Python (a Python per run was a third of this script's time).
mkdir -p "$T/eff"
neff=0
efficiency_later() { # LABEL CSV
  neff=$((neff + 1))
  cp "$2" "$T/eff/$neff.csv"
  printf '%s\t%s\n' "$T/eff/$neff.csv" "$1" >>"$T/eff/list"
}
cat >"$T/eff.py" <<'EOF'
import csv, sys
for line in open(sys.argv[1]):
    path, label = line.rstrip("\n").split("\t", 1)
    text = open(path).read()
    try:
        rows = list(csv.DictReader(text.splitlines()))
        ok = rows and all(r["bound_us"] and 0 < float(r["efficiency"]) <= 1 + 1e-9 for r in rows)
    except (KeyError, ValueError):
        ok = False
    print("ok" if ok else "FAIL: %s: beats its bound: %s" % (label, " | ".join(text.split("\n"))))
EOF
efficiency_check_all() {
  local line
  while read -r line; do
    if [ "$line" = ok ]; then pass; else fail "${line#FAIL: }"; fi
  done < <(python3 "$T/eff.py" "$T/eff/list" 2>&1 || echo "FAIL: the efficiency checker failed")
  check "every run's efficiency checked" [ "$(grep -c '' "$T/eff/list")" = "$neff" ]
}
# Torus rows keep the torus algorithms of the same name: ring all-to-all is the torus ring there.
# Under the sanitizers (ICNKIT_SANITIZED) the matrix runs on three families, one of each routing
# (D-mod-k on the fat-tree, DOR on the torus, minimal on the dragonfly): the generators between
# ranks are the same code on every network, and each instrumented run costs four times as long;
# the Release build runs all ten.
[ -n "${ICNKIT_SANITIZED:-}" ] && picks=(fat-tree:2L-k4-osr1/c2 torus:4x4/b1x1 dragonfly:p2-a4-h1-g2/c1)
for pick in "${picks[@]}"; do
  family=${pick%%:*}
  routing=minimal
  [ "$family" = torus ] && routing=dor
  [ "$family" = ring ] && routing=dor # a ring is the torus of one dimension
  [ "$family" = fat-tree ] && routing=dmodk
  # The failed link: the last one between two switches (a chip keeps its links), or between two
  # chips in a network without switches.
  topo-gen -i "$T/cands.json" --pick "$pick" >"$T/plain.json"
  link=$(jget "$T/plain.json" "([l['id'] for l in d['network']['links'] if (l['a'] >= d['network']['n_chip']) == (l['b'] >= d['network']['n_chip']) and l['a'] != l['b']][-1:] or [''])[0]")
  # Faults on one family of each kind (switched, direct, low-diameter), to keep the matrix short;
  # under the sanitizers (ICNKIT_SANITIZED) on the torus alone: the fault paths of the other
  # three run in the Release build, and each instrumented run costs four times as long.
  faults=(none)
  case $family in fat-tree | torus | dragonfly | hyperx) faults=(none link chip) ;; esac
  [ -n "${ICNKIT_SANITIZED:-}" ] && [ "$family" != torus ] && faults=(none)
  for fault in "${faults[@]}"; do
    case $fault in
    none) f=() ;;
    link)
      [ -z "$link" ] && continue # a single switch: every link is a chip's only one
      f=(--fail-link "#$link") ;;
    chip) f=(--fail-chip 5) ;;
    esac
    # D-mod-k and DOR do not route around faults: minimal does.
    r=$routing
    [ "$fault" != none ] && r=minimal
    if ! topo-gen -i "$T/cands.json" --pick "$pick" "${f[@]}" 2>"$T/err" | topo-route --algorithm $r -q >"$T/net.json" 2>"$T/err"; then
      fail "$pick ($fault): topo-gen | topo-route: $(head -c 200 "$T/err")"
      continue
    fi
    for p in "${pairs[@]}"; do
      c=${p%%:*}
      a=${p#*:}
      # Halving-doubling folds 15 ranks into 8 for all-reduce only.
      [ "$a" = halving-doubling ] && [ "$c" != all-reduce ] && [ "$fault" = chip ] && continue
      # Hierarchical needs boards of equal size: a failed chip leaves one smaller.
      [ "$a" = hierarchical ] && [ "$fault" = chip ] && continue
      # On a torus, ring is the torus's own ring, which needs every link (foldedring folds).
      [ "$family" = torus ] && [ "$a" = ring ] && [ "$fault" != none ] && continue
      if coll-sched -i "$T/net.json" --collective "$c" --algorithm "$a" --bytes 1MiB -q >"$T/s.json" 2>"$T/err" &&
        net-sim -i "$T/s.json" --format csv -q >"$T/r.csv" 2>>"$T/err"; then
        efficiency_later "$pick ($fault) $c $a" "$T/r.csv"
      else
        fail "$pick ($fault) $c $a: $(head -c 300 "$T/err")"
      fi
    done
  done
done
# halving-doubling's reduce-scatter on 15 live chips is refused (exit 4), naming why; its
# all-reduce folds 7 ranks into 8 (fold, 3 + 3 steps, unfold).
topo-gen -i "$T/cands.json" --pick full-mesh:16/c1 --fail-chip 3 | topo-route --algorithm minimal -q >"$T/fm15.json"
expect_exit 4 "$T/fm15.json" coll-sched --collective reduce-scatter --algorithm halving-doubling --bytes 1MiB
check "names the power of two" grep -q "power-of-two" "$T/err"
coll-sched -i "$T/fm15.json" --collective all-reduce --algorithm halving-doubling --bytes 1MiB -q >"$T/hd15.json"
check "halving-doubling on 15 ranks: 8 steps" test "$(jget "$T/hd15.json" "d['schedule']['stages'][0]['parts'][0]['step_count']")" = 8
# No routing section: the schedule cannot follow it (exit 3).
topo-gen -i "$T/cands.json" --pick single-switch:16/c1 >"$T/ss.json"
expect_exit 3 "$T/ss.json" coll-sched --collective all-reduce --algorithm ring --bytes 1MiB
# --dims and --chunks belong to the torus algorithms.
topo-route -i "$T/ss.json" --algorithm minimal -q >"$T/ssr.json"
expect_exit 2 "$T/ssr.json" coll-sched --collective all-reduce --algorithm ring --bytes 1MiB --dims pipeline
expect_exit 2 "$T/ssr.json" coll-sched --collective all-reduce --algorithm ring --bytes 1MiB --chunks 2
# ... and to the pipelined algorithms between ranks: P chunks a tree (2P blocks) or a chain.
coll-sched -i "$T/ssr.json" --collective all-reduce --algorithm double-binary-tree --bytes 1MiB --chunks 3 -q >"$T/dbt.json"
check "double binary tree: 3 chunks a tree" test "$(jget "$T/dbt.json" "d['schedule']['stages'][0]['parts'][0]['blocks']")" = 6
coll-sched -i "$T/ssr.json" --collective broadcast --algorithm chain --root 5 --bytes 1MiB --chunks 4 -q >"$T/chain.json"
check "chain of 16 ranks, 4 chunks: 18 steps" test "$(jget "$T/chain.json" "d['schedule']['stages'][0]['parts'][0]['step_count']")" = 18
expect_ok net-sim -i "$T/dbt.json" --mode flit -q
# Chunks beyond what a document can list are refused at once (they hung before).
expect_exit 2 "$T/ssr.json" coll-sched --collective all-reduce --algorithm double-binary-tree --bytes 1MiB --chunks 100000000
expect_exit 2 "$T/ssr.json" coll-sched --collective broadcast --algorithm chain --bytes 1MiB --chunks 2000000
expect_exit 4 "$T/ssr.json" coll-sched --collective broadcast --algorithm ring --bytes 1MiB
expect_exit 2 "$T/ssr.json" coll-sched --collective all-reduce --algorithm bogus --bytes 1MiB

# The flit replay runs a schedule between ranks over the routing, packet by packet.
coll-sched -i "$T/ssr.json" --collective all-reduce --algorithm ring --bytes 64KiB -q >"$T/ring.json"
expect_ok net-sim -i "$T/ring.json" --mode flit -q
# A schedule between ranks survives the document round trip and --check, and a hand edit that
# drops a step fails verification (exit 3).
expect_ok coll-sched --check -i "$T/ring.json"
python3 - "$T/ring.json" "$T/cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["schedule"]["stages"]
r = r[0]["parts"][0]
r["steps"].pop()
r["step_count"] -= 1
d["schedule"].pop("verified_digest", None)
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/cut.json" coll-sched --check
expect_exit 3 "$T/cut.json" net-sim
# Keeping the old digest does not help: it covers the steps, so net-sim verifies again.
python3 - "$T/ring.json" "$T/cut2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["stages"][0]["parts"][0]["steps"][3]["transfers"][0]["blocks"]["offset"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/cut2.json" net-sim

# In-network reduction: in the single switch, with a failed chip, and in each fat-tree leaf
# (--group board), hierarchical using it inside the boards; every report within its bound.
topo-gen -i "$T/cands.json" --pick single-switch:16/c1 --fail-chip 5 | topo-route --algorithm minimal -q >"$T/ss15.json"
topo-gen -i "$T/cands.json" --pick fat-tree:2L-k4-osr1/c2 | topo-route --algorithm dmodk -q >"$T/ft.json"
for run in "ssr.json all-reduce" "ssr.json reduce-scatter" "ssr.json all-gather" "ss15.json all-reduce" \
  "ft.json all-reduce --group board" "ft.json all-gather --group board" \
  "ft.json all-reduce --algorithm hierarchical --hierarchy board --level-algorithms in-network,ring"; do
  set -- $run
  in=$1 c=$2
  shift 2
  args=(--algorithm in-network "$@")
  [ "${1:-}" = --algorithm ] && args=("$@")
  if coll-sched -i "$T/$in" --collective "$c" "${args[@]}" --bytes 1MiB -q >"$T/inn.json" 2>"$T/err" &&
    net-sim -i "$T/inn.json" --format csv -q >"$T/r.csv" 2>>"$T/err"; then
    efficiency_later "in-network $run" "$T/r.csv"
    check "in-network $run: states its assumption" grep -q '"assumes":"switches that add' "$T/inn.json"
  else
    fail "in-network $run: $(head -c 300 "$T/err")"
  fi
done
coll-sched -i "$T/ssr.json" --collective all-reduce --algorithm in-network --chunks 4 --bytes 1MiB -q >"$T/inn.json"
check "in-network all-reduce of 16 ranks, 4 chunks: 5 steps, 64 blocks" test "$(jget "$T/inn.json" "[d['schedule']['stages'][0]['parts'][0][k] for k in ('step_count', 'blocks')]")" = "[5, 64]"
net-sim -i "$T/inn.json" -q >"$T/innr.json"
check "in-network bound: S/B" test "$(jget "$T/innr.json" "d['report']['bound']['kind']")" = "injection (in-network)"
expect_ok net-sim -i "$T/innr.json" -q # the report reads back
# Not where no switch serves the whole group, not in the flit replay, not in MSCCL-IR; a hand
# edit that drops the assumption or the switch is refused (exit 3).
expect_exit 4 "$T/ft.json" coll-sched --collective all-reduce --algorithm in-network --bytes 1MiB
check "names the group" grep -q "share none" "$T/err"
expect_exit 4 "$T/inn.json" net-sim --mode flit
expect_exit 4 "$T/inn.json" coll-sched --check --format msccl
python3 - "$T/inn.json" "$T/inn-a.json" "$T/inn-s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"].pop("assumes")
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["schedule"]["stages"][0]["parts"][0]["switches"] = [3]
d["schedule"].pop("verified_digest")
json.dump(d, open(sys.argv[3], "w"))
PY
expect_exit 3 "$T/inn-a.json" net-sim
expect_exit 3 "$T/inn-s.json" net-sim
check "names the node" grep -q "node 3 is not a switch" "$T/err"
efficiency_check_all
finish
