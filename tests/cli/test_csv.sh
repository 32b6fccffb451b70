# net-sim's CSV rows carry the configuration that made them (network, faults, routing, chunks,
# traffic, latency model); --csv-header lets rows concatenate; --merge turns many JSON reports
# into one CSV equal to the rows the runs print.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

topo-enum -n 64 --family torus >"$T/cands.json"
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b2x2x2' --link-bw 56GiB/s --link-latency 100ns \
  | topo-route >"$T/ok.json"
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b2x2x2' --link-bw 56GiB/s --link-latency 100ns \
  --fail-link '(1,1,1)-(2,1,1)' | topo-route --algorithm wfr 2>/dev/null >"$T/f1.json"
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b2x2x2' --link-bw 56GiB/s --link-latency 100ns \
  --fail-link '(1,1,1)-(1,2,1)' | topo-route --algorithm wfr 2>/dev/null >"$T/f2.json"

# col CSV NAME: the value of column NAME in the CSV's last row.
col() { python3 -c "import csv,sys; print(list(csv.DictReader(open(sys.argv[1])))[-1][sys.argv[2]])" "$1" "$2"; }

coll-sched -i "$T/f1.json" --algorithm matee --dims dimrotation --bytes 1MiB -q >"$T/m1.json"
net-sim -i "$T/m1.json" --latency-model astra --format csv >"$T/m1.csv"
check "candidate" [ "$(col "$T/m1.csv" candidate)" = 'torus:4x4x4/b2x2x2' ]
check "family, chips" [ "$(col "$T/m1.csv" family),$(col "$T/m1.csv" n_chip)" = torus,64 ]
# 56 GiB/s = 60.13 GB/s; 100 ns.
check "link bandwidth" [ "$(col "$T/m1.csv" link_bw_GBps)" = 60.1295421 ]
check "link latency" [ "$(col "$T/m1.csv" link_latency_us)" = 0.1 ]
check "one failed link" [ "$(col "$T/m1.csv" failed_links),$(col "$T/m1.csv" failed_chips)" = 1,0 ]
check "routing, chunks, latency model" [ "$(col "$T/m1.csv" routing),$(col "$T/m1.csv" chunks),$(col "$T/m1.csv" latency)" = wfr,3,astra ]
check "no traffic for a schedule" [ -z "$(col "$T/m1.csv" traffic)" ]
coll-sched -i "$T/f2.json" --algorithm matee --dims dimrotation --bytes 1MiB -q |
  net-sim --format csv >"$T/m2.csv"
check "another fault, another digest" [ "$(col "$T/m1.csv" faults_digest)" != "$(col "$T/m2.csv" faults_digest)" ]
check "digest: 16 hex digits" python3 -c "import re,sys; sys.exit(not re.fullmatch('[0-9a-f]{16}', sys.argv[1]))" "$(col "$T/m2.csv" faults_digest)"
check "per-step by default" [ "$(col "$T/m2.csv" latency)" = per-step ]
net-sim -i "$T/ok.json" --traffic all-to-all-pairwise --bytes 1MiB --format csv >"$T/t.csv"
check "baseline: traffic, routing, no faults" [ "$(col "$T/t.csv" traffic),$(col "$T/t.csv" routing),$(col "$T/t.csv" failed_links),$(col "$T/t.csv" faults_digest),$(col "$T/t.csv" chunks)" = "all-to-all-pairwise,dor,0,,0" ]
coll-sched -i "$T/ok.json" --algorithm halfring --dims dimrotation --bytes 256KiB -q |
  net-sim --mode flit --format csv >"$T/fl.csv"
check "flit replay: latency flit" [ "$(col "$T/fl.csv" latency),$(col "$T/fl.csv" mode)" = flit,flit ]

# --csv-header: rows concatenate.
net-sim -i "$T/m1.json" --format csv --csv-header never >"$T/never.csv"
check "never: one row, no header" [ "$(wc -l <"$T/never.csv")" = 1 ]
rm -f "$T/app.csv"
net-sim -i "$T/m1.json" --format csv --csv-header auto >>"$T/app.csv"
net-sim -i "$T/m1.json" --format csv --csv-header auto >>"$T/app.csv"
net-sim -i "$T/m1.json" --format csv --csv-header auto >>"$T/app.csv"
check "auto: a header on a new file, none when appending" [ "$(grep -c '^collective,' "$T/app.csv"),$(wc -l <"$T/app.csv")" = 1,4 ]
net-sim -i "$T/m1.json" --format csv >"$T/always.csv"
net-sim -i "$T/m1.json" --format csv --csv-header auto >"$T/trunc.csv"
check "auto: a header when the file is truncated" cmp -s "$T/trunc.csv" "$T/always.csv"
expect_exit 2 - net-sim -i "$T/m1.json" --format csv --csv-header sometimes

# --merge: the JSON reports of many runs as one CSV, equal to the rows each run printed.
net-sim -i "$T/m1.json" --latency-model astra -o "$T/r1.json"
coll-sched -i "$T/f2.json" --algorithm matee --dims dimrotation --bytes 1MiB -q | net-sim -o "$T/r2.json"
net-sim -i "$T/ok.json" --traffic all-to-all-pairwise --bytes 1MiB -o "$T/r3.json"
coll-sched -i "$T/ok.json" --algorithm halfring --dims dimrotation --bytes 256KiB -q |
  net-sim --mode flit -o "$T/r4.json"
expect_ok net-sim --merge "$T/r1.json" "$T/r2.json" "$T/r3.json" "$T/r4.json"
{ cat "$T/m1.csv"; tail -1 "$T/m2.csv"; tail -1 "$T/t.csv"; tail -1 "$T/fl.csv"; } >"$T/want.csv"
check "merged = the rows the runs printed" cmp -s "$T/out" "$T/want.csv"
expect_ok net-sim --merge "$T/r1.json" --csv-header never
check "merge without the header" [ "$(cat "$T/out")" = "$(tail -1 "$T/m1.csv")" ]
expect_exit 3 - net-sim --merge "$T/ok.json"
expect_exit 1 - net-sim --merge "$T/nosuch.json" # as -i: a file that cannot be read
expect_exit 2 - net-sim --merge "$T/r1.json" --format nccl
expect_exit 2 - net-sim --merge "$T/r1.json" -i "$T/r2.json"
topo-enum -n 16 --family mesh | topo-gen --pick 'mesh:4x4/b1x1' | topo-route |
  net-sim --mode flit --traffic uniform --rate 0.1 --warmup 100 --measure 500 -o "$T/syn.json"
expect_exit 3 - net-sim --merge "$T/syn.json"

finish
