# net-sim: errors and exit codes, the report section, CSV, the closed forms end to end.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum --n-chip 64 >"$T/cand.json"
topo-gen --pick 'torus:4x4x4/b2x2x2' <"$T/cand.json" >"$T/net.json"
topo-route <"$T/net.json" >"$T/routed.json"
coll-sched --collective all-to-all --algorithm ring --bytes 64MiB <"$T/routed.json" >"$T/sched.json"

# --- errors: one line on stderr, nothing on stdout, the documented exit code -------------------
expect_exit 3 - net-sim --mode flit
expect_exit 3 - net-sim --mode flit -i "$T/routed.json"
check "flit mode names what it needs" grep -q "missing schedule section" "$T/err"
expect_exit 2 - net-sim --mode bogus
expect_exit 2 - net-sim --format xml
expect_exit 2 - net-sim --traffic ring
expect_exit 2 - net-sim --traffic all-to-all
expect_exit 2 - net-sim --bytes 1MiB
expect_exit 2 - net-sim --traffic all-to-all --bytes 0
expect_exit 2 - net-sim --traffic all-to-all --bytes lots
expect_exit 3 "$T/net.json" net-sim
check "no schedule: says run coll-sched" grep -q "run coll-sched first" "$T/err"
expect_exit 3 "$T/net.json" net-sim --traffic all-to-all --bytes 64MiB
check "no routing: says run topo-route" grep -q "run topo-route first" "$T/err"
expect_exit 3 "$T/cand.json" net-sim
check "no network: says run topo-gen" grep -q "topo-gen" "$T/err"
echo 'not json' >"$T/bad.json"
expect_exit 3 "$T/bad.json" net-sim
# A report with an unknown key, or from another network, is refused.
python3 - "$T" <<'EOF'
import json, sys, subprocess
t = sys.argv[1]
d = json.loads(subprocess.run(["net-sim"], stdin=open(t + "/sched.json"), capture_output=True, check=True).stdout)
d["report"]["tiem_s"] = 1
json.dump(d, open(t + "/typo.json", "w"))
del d["report"]["tiem_s"]
d["report"]["network_fingerprint"] = "0000000000000000"
json.dump(d, open(t + "/otherfp.json", "w"))
EOF
expect_exit 3 "$T/typo.json" net-sim
expect_exit 3 "$T/otherfp.json" net-sim
# DOR does not route around a failed link: the baseline needs every pair, so it is infeasible.
topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-link '(1,1,0)-(2,1,0)' <"$T/cand.json" \
  | topo-route 2>/dev/null >"$T/faulty.json"
expect_exit 4 "$T/faulty.json" net-sim --traffic all-to-all --bytes 64MiB
check "undeliverable: names how many" grep -q "cannot deliver [0-9]* of 4032 chip pairs, e.g." "$T/err"
# 2048 chips are 4.2M flows; DOR on the healthy torus runs one flow per orbit of its translations.
# Closed form (parity ties balance both directions): a channel of a dimension of size k carries
# (N/k) * D_k / 2 flows, D_k the sum of ring distances from one chip (8: 16, 16: 64), so the
# busiest carry 4096 flows of S/N bytes: every flow through a 16-ring drains at 4096 S / (N B) =
# 2 S / B, and the last to complete is one of the diameter's 20 hops.
topo-enum --n-chip 2048 | topo-gen --pick 'torus:8x16x16/b1x1x1' | topo-route >"$T/big.json"
expect_ok net-sim -i "$T/big.json" --traffic all-to-all --bytes 64MiB -o "$T/big-rep.json"
check "8x16x16 all-to-all = closed form" python3 - "$T/big-rep.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["report"]
S, B, a = 64 * 2**20, 50e9, 1e-6
want = 2 * S / B + 20 * a
assert abs(r["time_s"] - want) <= 1e-9 * want, (r["time_s"], want)
assert r["flows"] == 2048 * 2047, r["flows"]
assert abs(r["link_utilisation"]["max"] - (2 * S / B) / want) < 1e-9, r["link_utilisation"]
EOF
# Without the symmetry (WFR around a failed link) the baseline is bounded by --max-memory: 4032
# flows of about 100 B + 16 B per hop are refused under 512 KiB, not thrashed; the pairwise
# exchange holds 64 at a time and runs.
topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-link '(1,1,0)-(2,1,0)' <"$T/cand.json" \
  | topo-route --algorithm wfr 2>/dev/null >"$T/wfr.json"
expect_exit 4 "$T/wfr.json" net-sim --traffic all-to-all --bytes 64MiB --max-memory 512KiB
check "memory bound: says how much" grep -q "4032 flows at once, about 0.6 MiB, more than 0.5 MiB" "$T/err"
expect_ok net-sim -i "$T/wfr.json" --traffic all-to-all --bytes 64MiB --max-memory 1MiB --format csv
expect_ok net-sim -i "$T/wfr.json" --traffic all-to-all-pairwise --bytes 64MiB --max-memory 512KiB --format csv

# --- the schedule's report ---------------------------------------------------------------------
expect_ok net-sim -i "$T/sched.json" -o "$T/rep.json"
check "nothing on stdout with -o" test ! -s "$T/out"
# Ring on 4x4x4, 50 GB/s and 1 us per hop: three phases of N(N-1)/2 = 6 sub-stages, each
# alpha + S/(2 N B), back to back.
check "ring time = closed form" python3 - "$T/rep.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["report"]
S, B, a, N = 64 * 2**20, 50e9, 1e-6, 4
want = 3 * N * (N - 1) / 2 * (a + S / (2 * N * B))
assert abs(r["time_s"] - want) <= 1e-9 * want, (r["time_s"], want)
assert r["mode"] == "analytic" and r["source"] == "schedule"
assert r["collective"] == "all-to-all" and r["algorithm"] == "ring"
assert r["n_nodes"] == 64 and r["bytes_per_node"] == S
assert abs(r["algbw_bytes_per_s"] - S / r["time_s"]) <= 1e-12 * r["algbw_bytes_per_s"]
assert abs(r["busbw_bytes_per_s"] - r["algbw_bytes_per_s"] * 63 / 64) <= 1e-12 * r["busbw_bytes_per_s"]
ph = r["phases"]
assert [p["name"] for p in ph] == ["dim0", "dim1", "dim2"]
assert abs(sum(p["time_s"] for p in ph) - r["time_s"]) <= 1e-12 * r["time_s"]
u = r["link_utilisation"]
assert u["live_channels"] == 384 and u["busy_channels"] == 384
assert 0 < u["mean"] <= u["max"] <= 1 + 1e-12
assert "step_times" not in r
EOF
# The report re-enters: net-sim reads its own output (and replaces the report).
expect_ok net-sim -i "$T/rep.json" --no-provenance --step-times -o "$T/rep2.json"
check "step times" test "$(jget "$T/rep2.json" 'len(d["report"]["step_times"])')" = 18

# --- CSV: exactly one header line and one row --------------------------------------------------
net-sim --format csv <"$T/sched.json" >"$T/csv" 2>"$T/err"
check "csv: 2 lines" test "$(grep -c '' "$T/csv")" = 2
check "csv: header" grep -q '^collective,algorithm,n_nodes,bytes_per_node,time_us,algbw_GBps,busbw_GBps,max_link_util,mean_link_util,' "$T/csv"
check "csv: row" grep -q '^all-to-all,ring,64,67108864,' "$T/csv"
check "csv: nothing on stderr" test ! -s "$T/err"

# --- the hardware-routing baseline -------------------------------------------------------------
# DOR all-to-all on a 4x4x4 torus loads every directed channel equally: S*N/8 bytes each (mean
# hop count N/4 per dimension, 2D channels per chip), so every flow gets the same fair share and
# T = S N / (8 B) + the longest path's latency (D N / 2 hops).
expect_ok net-sim --traffic all-to-all --bytes 64MiB -i "$T/routed.json" -o "$T/traffic.json"
check "traffic time = closed form" python3 - "$T/traffic.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["report"]
S, B, a, N, D = 64 * 2**20, 50e9, 1e-6, 4, 3
want = S * N / (8 * B) + D * N / 2 * a
assert abs(r["time_s"] - want) <= 1e-9 * want, (r["time_s"], want)
assert r["source"] == "traffic" and r["algorithm"] == "hardware-routing:dor"
assert r["flows"] == 64 * 63 and r["steps"] == 1
EOF

# --- MPICH's pairwise exchange: 63 rounds one after another (4x4x4 is a power of two: XOR) ----
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all-pairwise --bytes 64MiB -o "$T/pw.json"
check "pairwise: 63 rounds" python3 - "$T/pw.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["report"]
assert r["steps"] == 63 and r["flows"] == 64 * 63, (r["steps"], r["flows"])
assert r["algorithm"] == "hardware-routing:dor/pairwise"
# Each round is a permutation of 1 MiB messages at 50 GB/s: no faster than 63 of them in a row.
assert r["time_s"] >= 63 * (2**20 / 50e9)
EOF
# MPICH's choice: 1 KiB per pair is all at once, 256 KiB per pair pairwise.
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all-mpich --bytes 64KiB -o "$T/m1.json"
check "mpich small: one step" [ "$(jget "$T/m1.json" "d['report']['steps']")" = 1 ]
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all-mpich --bytes 16MiB -o "$T/m2.json"
check "mpich large: pairwise" [ "$(jget "$T/m2.json" "d['report']['steps']")" = 63 ]
expect_exit 2 "$T/routed.json" net-sim --traffic all-to-some --bytes 1MiB

# --- the closed form beside the simulated time -----------------------------------------------
expect_ok net-sim -i "$T/sched.json" -o "$T/cf.json"
check "closed form = simulated (ring, sequential)" [ "$(jget "$T/cf.json" "abs(d['report']['closed_form']['time_s'] - d['report']['time_s']) <= 1e-9 * d['report']['time_s']")" = True ]
check "dim_scheduling reported" [ "$(jget "$T/cf.json" "d['report']['dim_scheduling']")" = sequential ]

# --- deterministic: same input, same bytes ---------------------------------------------------
net-sim --no-provenance <"$T/sched.json" >"$T/a.json"
net-sim --no-provenance <"$T/sched.json" >"$T/b.json"
check "byte-identical" cmp -s "$T/a.json" "$T/b.json"

finish
