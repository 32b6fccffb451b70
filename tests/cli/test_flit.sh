# net-sim --mode flit: the report and CSV contracts, sweeps, verdicts and the exit codes.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 16 --family mesh | topo-gen --pick 'mesh:4x4/b1x1' | topo-route >"$T/mesh.json"
topo-enum -n 16 --family torus | topo-gen --pick 'torus:4x4/b1x1' >"$T/torus-net.json"
topo-route -i "$T/torus-net.json" >"$T/torus.json"
topo-route -i "$T/torus-net.json" --no-dateline --tie plus >"$T/torus-nd.json" 2>/dev/null
short=(--warmup 300 --measure 2000)

# One rate: the report section with the figures in cycles and flits, the fingerprint, provenance.
expect_ok net-sim -i "$T/mesh.json" --mode flit --traffic uniform --rate 0.1 --packet-flits 4 \
  "${short[@]}" -o "$T/r.json"
check "mode flit" [ "$(jget "$T/r.json" "d['report']['mode']")" = flit ]
check "status ok" [ "$(jget "$T/r.json" "d['report']['status']")" = ok ]
check "latency keys" [ "$(jget "$T/r.json" "sorted(d['report']['latency_cycles'])")" = "['max', 'mean', 'p50', 'p99']" ]
check "network latency <= latency" [ "$(jget "$T/r.json" "d['report']['network_latency_cycles']['mean'] <= d['report']['latency_cycles']['mean']")" = True ]
check "accepted ~ offered" [ "$(jget "$T/r.json" "abs(d['report']['accepted_flits_per_node_cycle'] - d['report']['offered_flits_per_node_cycle']) < 0.01")" = True ]
check "fingerprint" [ "$(jget "$T/r.json" "d['report']['network_fingerprint'] == d['network']['fingerprint']")" = True ]
check "provenance" [ "$(jget "$T/r.json" "d['provenance'][-1]['tool']")" = net-sim ]
# 4x4 mesh, uniform with the source included: mean hops 2 x (16 - 1) / 12 = 2.5; BookSim's
# T0 = 4 (H + 1) + 2 + (P - 1) = 4 x 3.5 + 5 = 19.
check "zero-load closed form" [ "$(jget "$T/r.json" "round(d['report']['zero_load_latency_cycles'], 9)")" = 19.0 ]
# The report parses back: another tool reads the document.
expect_ok topo-route -i "$T/r.json" -o /dev/null

# Same seed, same bytes; another seed, another run.
net-sim -i "$T/mesh.json" --mode flit --traffic uniform --rate 0.2 "${short[@]}" --seed 3 \
  --no-provenance >"$T/a.json"
net-sim -i "$T/mesh.json" --mode flit --traffic uniform --rate 0.2 "${short[@]}" --seed 3 \
  --no-provenance >"$T/b.json"
net-sim -i "$T/mesh.json" --mode flit --traffic uniform --rate 0.2 "${short[@]}" --seed 4 \
  --no-provenance >"$T/c.json"
check "deterministic" cmp -s "$T/a.json" "$T/b.json"
check "seed matters" [ "$(cmp -s "$T/a.json" "$T/c.json" && echo same)" = "" ]

# A sweep: the CSV header the field expects, one row per rate, rates as asked.
expect_ok net-sim -i "$T/mesh.json" --mode flit --traffic transpose --sweep 0.05:0.2:0.05 \
  "${short[@]}" --format csv
check "csv header" [ "$(head -1 "$T/out")" = "rate,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,network_latency_mean,hops_mean,cycles,status" ]
check "csv rows" [ "$(tail -n +2 "$T/out" | cut -d, -f1 | tr '\n' ' ')" = "0.05 0.1 0.15 0.2 " ]
check "csv statuses" [ "$(tail -n +2 "$T/out" | cut -d, -f11 | sort -u)" = ok ]
# The same sweep on one thread gives the same rows.
net-sim -i "$T/mesh.json" --mode flit --traffic transpose --sweep 0.05:0.2:0.05 "${short[@]}" \
  --format csv --threads 1 >"$T/one.csv"
check "threads do not change results" cmp -s "$T/out" "$T/one.csv"
expect_ok net-sim -i "$T/mesh.json" --mode flit --traffic uniform --sweep 0.1,0.3 "${short[@]}" \
  -o "$T/sw.json" --link-stats
check "json points" [ "$(jget "$T/sw.json" "len(d['report']['points'])")" = 2 ]
check "link stats" [ "$(jget "$T/sw.json" "len(d['report']['points'][0]['channels'])")" = 48 ]

# --find-saturation as CSV: every row carries the search's result, the same as the JSON's.
topo-enum -n 16 --family mesh | topo-gen --pick 'mesh:4x4/b1x1' --fail-chip 5 \
  | topo-route --algorithm minimal >"$T/mf.json"
sat=(-i "$T/mf.json" --vcs 6 --mode flit --traffic uniform --find-saturation --warmup 300 --measure 1000 -q)
net-sim "${sat[@]}" --format csv >"$T/sat.csv"
net-sim "${sat[@]}" -o "$T/sat.json"
check "find-saturation csv: the search's columns" [ "$(head -1 "$T/sat.csv" | cut -d, -f12-)" = \
  "saturation_rate,highest_stable_rate,lowest_saturated_rate,zero_load_latency_cycles" ]
check "find-saturation csv: the JSON's saturation on every row" python3 - "$T/sat.csv" "$T/sat.json" <<'EOF2'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = json.load(open(sys.argv[2]))["report"]["saturation"]
want = [s["rate_flits_per_node_cycle"], s["highest_stable_rate"], s["lowest_saturated_rate"], s["zero_load_latency_cycles"]]
keys = ["saturation_rate", "highest_stable_rate", "lowest_saturated_rate", "zero_load_latency_cycles"]
sys.exit(not (len(rows) >= 2 and all(abs(float(r[k]) - w) <= 1e-5 * max(1, abs(w)) for r in rows for k, w in zip(keys, want))))
EOF2
# Traffic to a failed chip is not generated, and the warning says so (not the routing): uniform
# traffic from the 15 live chips picks chip 5 one time in 16.
expect_ok net-sim -i "$T/mf.json" --vcs 6 --mode flit --traffic uniform --rate 0.1 "${short[@]}" \
  -o "$T/mfo.json"
check "failed destination: the warning names failed chips" grep -q 'addressed them to failed chips' "$T/err"
check "failed destination: no routing blamed" bash -c '! grep -q "routing does not connect" "$1"' _ "$T/err"
check "failed destination: 1 in 16 of the packets" python3 - "$T/mfo.json" <<'EOF2'
import json, math, sys
r = json.load(open(sys.argv[1]))["report"]
f, n = r["packets_to_failed_chips"], r["packets_not_generated"]
total = r["packets_measured"] + n
sys.exit(not (f == n and abs(f - total / 16) <= 4 * math.sqrt(total * (1 / 16) * (15 / 16))))
EOF2

# Deadlock: DOR without datelines on a torus, one VC, driven hard. A verdict: exit 0 and a
# warning, or exit 4 under --strict; the report names the cycle of waiting channels.
expect_ok net-sim -i "$T/torus-nd.json" --mode flit --traffic uniform --rate 0.9 --vcs 1 \
  --packet-flits 4 "${short[@]}" -o "$T/dl.json"
check "deadlock status" [ "$(jget "$T/dl.json" "d['report']['status']")" = deadlock ]
check "deadlock cycle" [ "$(jget "$T/dl.json" "len(d['report']['deadlock_cycle']) >= 2")" = True ]
check "deadlock warning" grep -q '^net-sim: warning: .*deadlock' "$T/err"
expect_exit 4 - net-sim -i "$T/torus-nd.json" --mode flit --traffic uniform --rate 0.9 --vcs 1 \
  --packet-flits 4 "${short[@]}" --strict
# With datelines the same load saturates but never deadlocks.
expect_ok net-sim -i "$T/torus.json" --mode flit --traffic uniform --rate 0.9 --packet-flits 4 \
  "${short[@]}" --strict --format csv
check "saturated, not deadlocked" [ "$(tail -1 "$T/out" | cut -d, -f11)" = saturated ]

# Bad input: one line, exit 2 (command line), 3 (document), 4 (infeasible).
m=(net-sim -i "$T/mesh.json" --mode flit --traffic uniform)
expect_exit 2 - "${m[@]}" --rate 1.5
expect_exit 2 - "${m[@]}" --rate -0.1
expect_exit 2 - "${m[@]}" --rate abc
expect_exit 2 - "${m[@]}"
expect_exit 2 - "${m[@]}" --rate 0.1 --sweep 0.1,0.2
expect_exit 2 - "${m[@]}" --sweep 0.5:0.1:0.1
expect_exit 2 - "${m[@]}" --sweep 0.1:0.5
expect_exit 2 - "${m[@]}" --rate 0.1 --vcs 0
expect_exit 2 - "${m[@]}" --rate 0.1 --buffer-flits 0
expect_exit 2 - "${m[@]}" --rate 0.1 --packet-flits 0
expect_exit 2 - "${m[@]}" --rate 0.1 --link-latency-cycles 0
expect_exit 2 - "${m[@]}" --rate 0.1 --hotspot 0:0.5
expect_exit 2 - net-sim -i "$T/mesh.json" --mode flit --traffic hotspot --rate 0.1
expect_exit 2 - net-sim -i "$T/mesh.json" --mode flit --traffic hotspot --rate 0.1 --hotspot 99:0.5
# BookSim's dragonfly from the command line: 72 nodes (p 2, a 4, h 2, g 9), channels of 1 cycle
# to a node, 10 inside a group, 100 between groups (one group per rack: nic=, b2b= and r2r=
# latencies at a 50-byte flit clock of 1 ns), min routing, 1-flit packets at 0.01. BookSim 2.0's
# mean latency there is 116.53 cycles (seeds 0 and 1); the links' latencies reach the report.
topo-enum -n 72 --family dragonfly --scope inter-rack --where p=2,a=4,h=2,g=9,chips_per_board=1 \
  | topo-gen --pick 0 --link-bw 50GB/s --link-latency 10ns,r2r=100ns,nic=1ns \
  | topo-route --algorithm dragonfly-min >"$T/df72.json"
check "nic= sets the 72 terminal links, b2b the 54 local ones, r2r the 36 global" test \
  "$(jget "$T/df72.json" "sorted(__import__('collections').Counter((l['kind'], l.get('latency_s', d['network']['link_defaults'][l['kind']]['latency_s'])) for l in d['network']['links']).items())")" = \
  "[(('b2b', 1e-09), 72), (('b2b', 1e-08), 54), (('r2r', 1e-07), 36)]"
expect_ok net-sim -i "$T/df72.json" --mode flit --router booksim --flit-bytes 50 \
  --link-latency-cycles document --traffic uniform --rate 0.01 --packet-flits 1 --measure 20000
check "the dragonfly's mean latency within 3% of BookSim's 116.53 cycles" python3 -c "
import json; r = json.load(open('$T/out'))['report']
assert r['router']['link_latency_max_cycles'] == 100, r['router']
assert abs(r['latency_cycles']['mean'] - 116.53) <= 0.03 * 116.53, r['latency_cycles']"
expect_exit 2 - topo-gen --torus 4x4 --link-latency 1us,nic=1ns,nic=2ns
expect_exit 2 - net-sim -i "$T/mesh.json" --mode flit --traffic nosuch --rate 0.1
expect_exit 2 - net-sim -i "$T/mesh.json" --traffic uniform --bytes 1MiB
expect_exit 2 - net-sim -i "$T/mesh.json" --rate 0.1
expect_exit 4 - net-sim -i "$T/torus.json" --mode flit --traffic uniform --rate 0.1 --vcs 1
# The all-to-all baselines and schedules are replayed (test_replay.sh), not driven at a rate.
expect_exit 2 - net-sim -i "$T/mesh.json" --mode flit --traffic all-to-all --rate 0.1
expect_exit 3 - net-sim -i "$T/mesh.json" --mode flit
topo-enum -n 12 --family mesh | topo-gen --pick 'mesh:3x4/b1x1' | topo-route >"$T/m12.json"
expect_exit 4 - net-sim -i "$T/m12.json" --mode flit --traffic bit-reverse --rate 0.1
expect_exit 3 - net-sim -i "$T/torus-net.json" --mode flit --traffic uniform --rate 0.1
# A routing section computed for another network.
python3 - "$T/mesh.json" "$T/torus.json" "$T/mixed.json" <<'EOF'
import json, sys
mesh, torus = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
mesh["routing"] = torus["routing"]
json.dump(mesh, open(sys.argv[3], "w"))
EOF
expect_exit 3 - net-sim -i "$T/mixed.json" --mode flit --traffic uniform --rate 0.1

finish
