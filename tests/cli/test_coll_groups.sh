# Collectives in groups between ranks: --group (board, stride:K, list:FILE, failed chips leaving
# their group), hierarchical all-reduce and its composition check, and --algorithm auto.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 16 --family all --scope inter-rack --limit 500 >"$T/cands.json"
topo-gen -i "$T/cands.json" --pick single-switch:16/c1 | topo-route --algorithm minimal -q >"$T/ssr.json"
# Groups: one collective per group, all at once, sharing the network. 64 chips of 8 per board.
topo-enum -n 64 --family fat-tree --scope inter-rack --limit 100 | topo-gen --pick fat-tree:2L-k8-osr1/c8 |
  topo-route --algorithm minimal -q >"$T/ft64.json"
for g in board stride:8 rack; do
  expect_ok coll-sched -i "$T/ft64.json" --collective all-reduce --group $g --bytes 16MiB -q
done
coll-sched -i "$T/ft64.json" --collective all-reduce --group board --bytes 16MiB -q >"$T/gb.json"
check "--group board: 8 groups of 8" [ "$(jget "$T/gb.json" "([len(p['groups']) for p in d['schedule']['stages'][0]['parts']], len(d['schedule']['stages'][0]['parts'][0]['groups'][0]))")" = "([8], 8)" ]
net-sim -i "$T/gb.json" --format csv -q >"$T/gb.csv"
check "--group board: n_nodes is the group's" [ "$(cut -d, -f3 "$T/gb.csv" | tail -1)" = 8 ]
# stride:8 gathers the chips of one position in every board (chip 0, 8, 16, ...).
coll-sched -i "$T/ft64.json" --collective all-reduce --group stride:8 --bytes 16MiB -q >"$T/gs.json"
check "--group stride:8: every 8th chip" [ "$(jget "$T/gs.json" "d['schedule']['stages'][0]['parts'][0]['groups'][1]")" = "[1, 9, 17, 25, 33, 41, 49, 57]" ]
# list:FILE, with a comment and commas; a failed chip leaves its group and is named.
printf '# two groups
0 1 2 3
4, 5, 6, 7
' >"$T/groups.txt"
topo-enum -n 64 --family fat-tree --scope inter-rack --limit 100 | topo-gen --pick fat-tree:2L-k8-osr1/c8 --fail-chip 5 |
  topo-route --algorithm minimal -q >"$T/ft64f.json"
coll-sched -i "$T/ft64f.json" --collective all-gather --group "list:$T/groups.txt" --bytes 1MiB -q >"$T/gl.json"
check "list: the failed chip left its group" [ "$(jget "$T/gl.json" "(d['schedule']['left'], [g for p in d['schedule']['stages'][0]['parts'] for g in p['groups']])")" = "([5], [[0, 1, 2, 3], [4, 6, 7]])" ]
expect_ok net-sim -i "$T/gl.json" -q
printf '0 1
1 2
' >"$T/twice.txt"
expect_exit 3 "$T/ft64.json" coll-sched --collective all-reduce --group "list:$T/twice.txt" --bytes 1MiB
printf '0 x
' >"$T/bad.txt"
expect_exit 3 "$T/ft64.json" coll-sched --collective all-reduce --group "list:$T/bad.txt" --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --group stride:0 --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --group cabinet --bytes 1MiB
# Hierarchical: reduce-scatter in boards, all-reduce across, all-gather back, composed exactly.
for la in ring,ring ring,halving-doubling direct,bruck; do
  expect_ok coll-sched -i "$T/ft64.json" --collective all-reduce --algorithm hierarchical --level-algorithms $la --bytes 16MiB -q
done
coll-sched -i "$T/ft64.json" --collective all-reduce --algorithm hierarchical --bytes 16MiB -q >"$T/hier.json"
check "hierarchical: three stages, the middle one on 1/8" [ "$(jget "$T/hier.json" "[(s['collective'], s['share']) for s in d['schedule']['stages']]")" = "[('reduce-scatter', '1'), ('all-reduce', '1/8'), ('all-gather', '1')]" ]
# A hand edit that makes the middle stage work on the whole buffer does not compose (exit 3).
python3 - "$T/hier.json" "$T/hier-bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["stages"][1]["share"] = "1"
d["schedule"].pop("verified_digest")
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/hier-bad.json" coll-sched --check
check "names the stage" grep -q "stages/1" "$T/err"
# A stage is one level's algorithm: "hierarchical" inside a stage is refused.
python3 - "$T/hier.json" "$T/hier-bad2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["stages"][0]["algorithm"] = "hierarchical"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 3 "$T/hier-bad2.json" net-sim
# Boards of unequal size (a failed chip) have no hierarchical schedule (exit 4).
expect_exit 4 "$T/ft64f.json" coll-sched --collective all-reduce --algorithm hierarchical --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm hierarchical --level-algorithms ring --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm hierarchical --group board --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm ring --hierarchy rack --bytes 1MiB
# Several levels: inside boards of 8, across the boards of a rack, across racks (5 stages); a
# torus's dimensions (one level each); levels that do not go outwards, dims off a grid, and
# several levels for all-to-all are refused (exit 2).
coll-sched -i "$T/ft64.json" --collective all-reduce --algorithm hierarchical --hierarchy board,rack --level-algorithms ring,halving-doubling,direct --bytes 16MiB -q >"$T/h3.json"
check "--hierarchy board,rack: three levels, one algorithm each" [ "$(jget "$T/h3.json" "[(s['collective'], s['algorithm'], s['share'], len(s['parts'][0]['groups'][0])) for s in d['schedule']['stages']]")" = "[('reduce-scatter', 'ring', '1', 8), ('reduce-scatter', 'halving-doubling', '1/8', 4), ('all-reduce', 'direct', '1/32', 2), ('all-gather', 'halving-doubling', '1/8', 4), ('all-gather', 'ring', '1', 8)]" ]
expect_ok net-sim -i "$T/h3.json" -q
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm hierarchical --hierarchy rack,board --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm hierarchical --hierarchy dims --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-to-all --algorithm hierarchical --hierarchy board,rack --bytes 1MiB
expect_exit 2 "$T/ft64.json" coll-sched --collective all-reduce --algorithm hierarchical --hierarchy board,rack --level-algorithms ring,ring,ring,ring --bytes 1MiB
topo-gen --torus 4x4x2 | topo-route -q >"$T/t442.json"
coll-sched -i "$T/t442.json" --collective all-reduce --algorithm hierarchical --hierarchy dims --bytes 1MiB -q >"$T/hd.json"
check "--hierarchy dims: the rings of each dimension in turn" [ "$(jget "$T/hd.json" "[s['parts'][0]['groups'][0] for s in d['schedule']['stages']]")" = "[[0, 1, 2, 3], [0, 4, 8, 12], [0, 16], [0, 4, 8, 12], [0, 1, 2, 3]]" ]
# On a torus, groups are a schedule between ranks (the torus ring schedules the whole torus).
topo-gen --torus 4x4 | topo-route -q >"$T/t44.json"
coll-sched -i "$T/t44.json" --collective all-reduce --algorithm ring --group stride:2 --bytes 1MiB -q >"$T/tg.json"
check "torus + --group: between ranks, 2 groups" [ "$(jget "$T/tg.json" "len(d['schedule']['stages'][0]['parts'][0]['groups'])")" = 2 ]

# --algorithm auto: every applicable algorithm simulated at the size, the fastest chosen and named
# in the document (its selection lists every candidate) and the CSV.
coll-sched -i "$T/ssr.json" --collective all-reduce --algorithm auto --bytes 64MiB -q >"$T/auto.json"
check "auto: chose the fastest candidate and says so" python3 - "$T/auto.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["schedule"]
c = s["selection"]["candidates"]
names = [a for a, _ in ((x["algorithm"], x["time_s"]) for x in c)]
best = min(c, key=lambda x: x["time_s"])["algorithm"]
sys.exit(not (s["algorithm"] == best and set(names) == {"ring", "bidirectional-ring", "direct", "halving-doubling", "bruck", "hierarchical", "double-binary-tree"}))
PY
net-sim -i "$T/auto.json" --format csv -q >"$T/auto.csv"
check "auto: the CSV names the choice" [ "$(cut -d, -f2 "$T/auto.csv" | tail -1)" = "$(jget "$T/auto.json" "d['schedule']['algorithm']")" ]
# The selection is covered by the digest: an edited time is caught and re-verified, not trusted.
expect_ok coll-sched --check -i "$T/auto.json"
finish
