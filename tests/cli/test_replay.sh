# net-sim --mode flit on a schedule or an all-to-all baseline: the replay's report and CSV, its
# agreement with the analytic time where transfers are large, determinism and the exit codes.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

topo-gen --torus 4x4 --link-bw 56GiB/s --link-latency 100ns >"$T/net.json"
topo-route -i "$T/net.json" >"$T/routed.json"
topo-gen --torus 4x4 --link-bw 56GiB/s --link-latency 100ns --fail-link '(1,1)-(2,1)' |
  topo-route --algorithm wfr >"$T/faulty.json" 2>/dev/null
coll-sched -i "$T/routed.json" --algorithm halfring --dims dimrotation --bytes 4MiB -q >"$T/s.json"

# The report: times in seconds at the flit clock, the replay's figures, phases as analytic mode.
expect_ok net-sim -i "$T/s.json" --mode flit -o "$T/r.json"
check "mode flit, source schedule" [ "$(jget "$T/r.json" "(d['report']['mode'], d['report']['source'])")" = "('flit', 'schedule')" ]
check "routing: the schedule's own hops" [ "$(jget "$T/r.json" "d['report']['replay']['routing']")" = schedule ]
check "status ok" [ "$(jget "$T/r.json" "d['report']['replay']['status']")" = ok ]
# 32-byte flits at 56 GiB/s: 0.532 ns per cycle; 100 ns links are 188 cycles.
check "clock" [ "$(jget "$T/r.json" "round(d['report']['replay']['cycle_s'] * 56 * 2**30, 9)")" = 32.0 ]
check "link latency in cycles" [ "$(jget "$T/r.json" "d['report']['replay']['router']['link_latency_max_cycles']")" = 188 ]
check "time = cycles x clock" [ "$(jget "$T/r.json" "abs(d['report']['time_s'] - d['report']['replay']['cycles'] * d['report']['replay']['cycle_s']) < 1e-15")" = True ]
check "512-byte packets of 16 flits" [ "$(jget "$T/r.json" "(d['report']['replay']['packet_bytes'], d['report']['replay']['flits'] // d['report']['replay']['packets'])")" = "(512, 16)" ]
# Links of two speeds (56 GiB/s inside the 2x2 boards, 28 between them): a link at half the
# speed carries a flit every other cycle, so the replay keeps the analytic time (within 3% at
# 1 MiB), warns of nothing, and a busy slow link's utilisation is near 1, as analytic says.
topo-gen --torus 4x4/b2x2 --link-bw 56GiB/s,b2b=28GiB/s --link-latency 100ns | topo-route |
  coll-sched --algorithm halfring --dims dimrotation --bytes 1MiB -q >"$T/s2.json"
expect_ok net-sim -i "$T/s2.json" --mode flit --format csv -o "$T/f2.csv"
check "no warning on links of two speeds" [ ! -s "$T/err" ]
net-sim -i "$T/s2.json" --format csv -o "$T/a2.csv"
check "two speeds: flit within 3% of analytic, utilisations alike" python3 -c "
import csv
a = list(csv.DictReader(open('$T/a2.csv')))[0]
f = list(csv.DictReader(open('$T/f2.csv')))[0]
assert abs(float(f['time_us']) / float(a['time_us']) - 1) < 0.03, (a['time_us'], f['time_us'])
assert abs(float(f['max_link_util']) - float(a['max_link_util'])) < 0.05, (a['max_link_util'], f['max_link_util'])
assert float(f['max_link_util']) > 0.8
"
# Both modes move the same bytes over the same links; at 4 MiB both are bandwidth-bound, so the
# times agree within a few percent.
net-sim -i "$T/s.json" --format csv >"$T/a.csv"
net-sim -i "$T/s.json" -q >"$T/a.json"
check "phases as analytic mode has them" [ "$(jget "$T/r.json" "[p['name'] for p in d['report']['phases']]")" = "$(jget "$T/a.json" "[p['name'] for p in d['report']['phases']]")" ]
check "flit within 3% of analytic at 4 MiB" python3 -c "
import csv,json,sys
a = float(list(csv.DictReader(open('$T/a.csv')))[0]['time_us'])
f = json.load(open('$T/r.json'))['report']['time_s'] * 1e6
sys.exit(0 if abs(f / a - 1) < 0.03 else 1)"
# The document parses back (another tool reads the report).
expect_ok net-sim -i "$T/r.json" --format csv
check "re-simulated analytically" [ "$(tail -1 "$T/out" | cut -d, -f10)" = analytic ]

# CSV: the analytic columns, mode flit.
expect_ok net-sim -i "$T/s.json" --mode flit --format csv
check "csv header" [ "$(head -1 "$T/out")" = "$(head -1 "$T/a.csv")" ]
check "csv mode" [ "$(tail -1 "$T/out" | cut -d, -f10,11)" = "flit,schedule" ]

# Deterministic: the same bytes twice, and with two threads.
net-sim -i "$T/s.json" --mode flit --no-provenance -q >"$T/x.json"
net-sim -i "$T/s.json" --mode flit --no-provenance -q --threads 2 >"$T/y.json"
net-sim -i "$T/s.json" --mode flit --no-provenance -q >"$T/x2.json"
check "deterministic" cmp -s "$T/x.json" "$T/x2.json"
net-sim -i "$T/s.json" --mode flit --no-provenance -q --threads 1 >"$T/z.json"
check "same output for any thread count" cmp -s "$T/y.json" "$T/z.json"

# Fault-tolerant schedules and the hardware-routing baselines.
for alg in foldedring mate matee; do
  coll-sched -i "$T/faulty.json" --algorithm "$alg" --dims dimrotation --bytes 256KiB -q \
    >"$T/f.json"
  expect_ok net-sim -i "$T/f.json" --mode flit --format csv --strict
  check "$alg replayed" [ "$(tail -1 "$T/out" | cut -d, -f2,10)" = "$alg,flit" ]
done
for t in all-to-all all-to-all-pairwise all-to-all-mpich; do
  expect_ok net-sim -i "$T/faulty.json" --mode flit --traffic "$t" --bytes 256KiB -o "$T/t.json"
  check "$t over wfr" [ "$(jget "$T/t.json" "d['report']['replay']['routing']")" = wfr ]
  check "$t: every pair's bytes" [ "$(jget "$T/t.json" "d['report']['replay']['packets'] >= 16 * 15")" = True ]
done

# Bad input: one line, exit 2 (command line), 3 (document), 4 (infeasible).
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --packet-bytes 100
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --flit-bytes 0
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --packet-bytes 4GiB
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --rate 0.1
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --latency-model astra
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --endpoint-ports 0
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --bytes 1MiB
expect_exit 2 - net-sim -i "$T/routed.json" --mode flit --traffic all-to-all
expect_exit 2 - net-sim -i "$T/s.json" --packet-bytes 512
expect_exit 3 - net-sim -i "$T/routed.json" --mode flit
expect_exit 3 - net-sim -i "$T/net.json" --mode flit --traffic all-to-all --bytes 1MiB
expect_exit 4 - net-sim -i "$T/s.json" --mode flit --max-memory 1MiB
check "the bound's message names the figure" grep -q "needs about .* MiB" "$T/err"
# A schedule computed for another network.
topo-gen --torus 4x8 >"$T/other.json"
python3 - "$T/other.json" "$T/s.json" "$T/mixed.json" <<'PY'
import json, sys
other, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
other["schedule"] = s["schedule"]
json.dump(other, open(sys.argv[3], "w"))
PY
expect_exit 3 - net-sim -i "$T/mixed.json" --mode flit

finish
