#!/usr/bin/env bash
# --strict, the convention every verifying tool shares: a failed verdict (deadlock found, pairs
# unreachable, a verification failed) is a warning and the document is written (exit 0); with
# --strict it is exit 4 with one line `TOOL: error: --strict: WHAT`, nothing on stdout and an
# -o file left as it was.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

topo-enum -n 64 >"$T/cands.json"
topo-enum -n 16 >"$T/cands16.json"
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b2x2x2' --no-provenance >"$T/net.json"
# Chips 0 = (0,0,0) and 1 = (1,0,0) (id = x + 4 (y + 4 z)).
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b2x2x2' --fail-link 0-1 --no-provenance \
  >"$T/faulty.json"

# Pairs whose DOR path (dimensions 0, 1, 2 in turn, shortest direction, a half-way tie + from
# an even coordinate and - from an odd one) uses the link between x = 0 and x = 1 at y = z = 0,
# counted by walking every path. By hand: only sources with y = z = 0 travel that row, and
# x 0->1, 0->2 (tie, +), 1->0, 1->3 (tie, -) cross it, each to 16 (y, z): 4 * 16 = 64 pairs.
want_unreachable=$(python3 - <<'EOF'
S = 4
def crosses(sx, dx):
    x = sx
    while x != dx:
        delta = (dx - x) % S
        step = 1 if delta < S - delta or (delta == S - delta and x % 2 == 0) else -1
        nx = (x + step) % S
        if {x, nx} == {0, 1}:
            return True
        x = nx
    return False
n = 0
for s in range(S**3):
    for t in range(S**3):
        if s == t:
            continue
        sx, sy, sz = s % S, s // S % S, s // (S * S)
        if sy == 0 and sz == 0 and crosses(sx, t % S):
            n += 1
print(n)
EOF
)
check "brute force agrees with the hand count" [ "$want_unreachable" = 64 ]

# --- topo-route: deadlock ------------------------------------------------------------------
# DOR without datelines and with --tie plus closes a cycle on every 4-ring.
expect_exit 4 "$T/net.json" topo-route --tie plus --no-dateline --strict
check "strict names --strict and the verdict" grep -q '^topo-route: error: --strict: the routing is NOT deadlock-free' "$T/err"
# Without --strict: the same verdict is one warning, and the document records it.
expect_ok topo-route -i "$T/net.json" --tie plus --no-dateline
check "one warning line" [ "$(grep -c '' "$T/err")" = 1 ]
check "warning, not error" grep -q '^topo-route: warning: the routing is NOT deadlock-free' "$T/err"
check "document written" [ "$(jget "$T/out" "d['routing']['verification']['deadlock_free']")" = False ]
# -o FILE is left untouched under --strict.
printf 'keep me\n' >"$T/kept.json"
expect_exit 4 "$T/net.json" topo-route --tie plus --no-dateline --strict -o "$T/kept.json"
check "-o untouched" [ "$(cat "$T/kept.json")" = "keep me" ]
check "no temp file left" [ "$(ls "$T" | grep -c kept)" = 1 ]

# --- topo-route: unreachable pairs -----------------------------------------------------------
expect_exit 4 "$T/faulty.json" topo-route --algorithm dor --strict
check "strict unreachable count" grep -q "^topo-route: error: --strict: $want_unreachable of 4032 pairs are unreachable" "$T/err"
expect_ok topo-route -i "$T/faulty.json" --algorithm dor
check "unreachable warning" grep -q "^topo-route: warning: $want_unreachable of 4032 pairs are unreachable" "$T/err"
check "unreachable recorded" [ "$(jget "$T/out" "d['routing']['verification']['unreachable_pairs']")" = "$want_unreachable" ]
# Two failed verdicts (unreachable and deadlock): still exactly one line under --strict.
expect_exit 4 "$T/faulty.json" topo-route --tie plus --no-dateline --strict
expect_ok topo-route -i "$T/faulty.json" --tie plus --no-dateline
check "two warnings without --strict" [ "$(grep -c '^topo-route: warning: ' "$T/err")" = 2 ]
# WFR routes around the fault: --strict passes, and changes nothing in the output.
expect_ok topo-route -i "$T/faulty.json" --algorithm wfr --strict --no-provenance
cp "$T/out" "$T/wfr-strict.json"
check "wfr strict: no stderr" [ ! -s "$T/err" ]
expect_ok topo-route -i "$T/faulty.json" --algorithm wfr --no-provenance
check "wfr strict: same bytes" cmp -s "$T/out" "$T/wfr-strict.json"

# --- coll-sched and net-sim take the option too ------------------------------------------------
# coll-sched never writes a schedule that fails verification (its own: exit 1; --check of a
# document's: exit 3), so --strict changes nothing there; net-sim's analytic mode has no verdict.
topo-route -i "$T/net.json" --no-provenance >"$T/routed.json"
expect_ok coll-sched -i "$T/routed.json" --bytes 1MiB --strict --no-provenance
cp "$T/out" "$T/sched-strict.json"
expect_ok coll-sched -i "$T/routed.json" --bytes 1MiB --no-provenance
check "coll-sched strict: same bytes" cmp -s "$T/out" "$T/sched-strict.json"
expect_ok net-sim -i "$T/sched-strict.json" --strict --no-provenance
cp "$T/out" "$T/sim-strict.json"
expect_ok net-sim -i "$T/sched-strict.json" --no-provenance
check "net-sim strict: same bytes" cmp -s "$T/out" "$T/sim-strict.json"
# net-sim's flit mode: a run that deadlocks is a verdict; one that saturates is not. DOR without
# datelines on a 4x4 torus (the checker finds its cycle), one VC, 8-flit packets in 4-flit
# buffers: under uniform load some rates of the sweep deadlock (a seeded, deterministic run).
topo-gen -i "$T/cands16.json" --pick 'torus:4x4/b1x1' --no-provenance >"$T/t16.json"
topo-route -i "$T/t16.json" --tie plus --no-dateline --no-provenance >"$T/dl.json" 2>/dev/null
flit=(--mode flit --traffic uniform --sweep 0.3:1.0:0.1 --warmup 200 --measure 3000 --threads 1
  --vcs 1 --packet-flits 8 --buffer-flits 4 --latency-threshold 1000000 --format csv)
expect_ok net-sim -i "$T/dl.json" "${flit[@]}"
deadlocks=$(grep -c ',deadlock$' "$T/out" || true)
check "flit: the sweep deadlocks at some rates" [ "$deadlocks" -ge 1 ]
check "flit: one warning per deadlocked rate" [ "$(grep -c '^net-sim: warning: at .*: deadlock' "$T/err")" = "$deadlocks" ]
expect_exit 4 "$T/dl.json" net-sim "${flit[@]}" --strict
check "flit strict: the deadlock is the error" grep -q '^net-sim: error: --strict: at .*: deadlock' "$T/err"
# With its datelines the same torus saturates at full load instead: not a verdict, exit 0.
topo-route -i "$T/t16.json" --no-provenance >"$T/dateline.json"
expect_ok net-sim -i "$T/dateline.json" --mode flit --traffic uniform --rate 1 --warmup 200 \
  --measure 3000 --threads 1 --format csv --strict
check "flit strict: saturated is exit 0" grep -q ',saturated$' "$T/out"

for tool in topo-route coll-sched net-sim; do
  expect_ok "$tool" --help
  check "$tool --help explains --strict" grep -q -- '--strict .*exit 4' "$T/out"
done

finish
