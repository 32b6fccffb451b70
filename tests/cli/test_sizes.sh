# net-sim --sizes and --format nccl: one schedule (or baseline) at many sizes without
# re-scheduling, each row equal to the single run at that size, in nccl-tests' table.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

topo-gen --torus 4x4 --link-bw 56GiB/s --link-latency 100ns | topo-route >"$T/routed.json"
coll-sched -i "$T/routed.json" --algorithm halfring --dims dimrotation --bytes 1MiB -q >"$T/s.json"

# Each row of a sweep equals coll-sched at that size piped to net-sim (relative 1e-9: the block
# sizes are scaled, not recomputed).
same_as_single() { # CSV_SWEEP CSV_SINGLES
  python3 - "$1" "$2" <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
assert len(a) == len(b) and len(a) > 1, (len(a), len(b))
for x, y in zip(a, b):
    assert x["bytes_per_node"] == y["bytes_per_node"], (x["bytes_per_node"], y["bytes_per_node"])
    for k in ("time_us", "algbw_GBps", "busbw_GBps"):
        assert abs(float(x[k]) / float(y[k]) - 1) < 1e-8, (k, x[k], y[k])
PY
}
expect_ok net-sim -i "$T/s.json" --sizes 8KiB:1MiB:x2 --format csv
cp "$T/out" "$T/sweep.csv"
check "one header, 8 rows" [ "$(wc -l <"$T/sweep.csv")" = 9 ]
: >"$T/single.csv"
for z in 8192 16384 32768 65536 131072 262144 524288 1048576; do
  coll-sched -i "$T/routed.json" --algorithm halfring --dims dimrotation --bytes "$z" -q |
    net-sim --format csv >"$T/one.csv"
  if [ ! -s "$T/single.csv" ]; then cp "$T/one.csv" "$T/single.csv"; else tail -1 "$T/one.csv" >>"$T/single.csv"; fi
done
check "schedule: every size as its single run" same_as_single "$T/sweep.csv" "$T/single.csv"

# A baseline, sizes as a list and as +STEP.
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all --sizes 64KiB,192KiB,320KiB --format csv
cp "$T/out" "$T/tsweep.csv"
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all --sizes 64KiB:320KiB:+128KiB --format csv
check "a list and a +STEP range agree" cmp -s "$T/out" "$T/tsweep.csv"
: >"$T/tsingle.csv"
for z in 64KiB 192KiB 320KiB; do
  net-sim -i "$T/routed.json" --traffic all-to-all --bytes "$z" --format csv >"$T/one.csv"
  if [ ! -s "$T/tsingle.csv" ]; then cp "$T/one.csv" "$T/tsingle.csv"; else tail -1 "$T/one.csv" >>"$T/tsingle.csv"; fi
done
check "baseline: every size as its single run" same_as_single "$T/tsweep.csv" "$T/tsingle.csv"

# Flit replays too.
expect_ok net-sim -i "$T/s.json" --mode flit --sizes 16KiB,64KiB --format csv
cp "$T/out" "$T/fsweep.csv"
: >"$T/fsingle.csv"
for z in 16KiB 64KiB; do
  coll-sched -i "$T/routed.json" --algorithm halfring --dims dimrotation --bytes "$z" -q |
    net-sim --mode flit --format csv >"$T/one.csv"
  if [ ! -s "$T/fsingle.csv" ]; then cp "$T/one.csv" "$T/fsingle.csv"; else tail -1 "$T/one.csv" >>"$T/fsingle.csv"; fi
done
check "flit: every size as its single replay" same_as_single "$T/fsweep.csv" "$T/fsingle.csv"

# nccl-tests' table: size, count (floats), type, redop, root, time (us), algbw, busbw, #wrong, and
# the average bus bandwidth; the figures are the CSV's.
expect_ok net-sim -i "$T/s.json" --sizes 8KiB:1MiB:x2 --format nccl
cp "$T/out" "$T/nccl.txt"
check "nccl column header" grep -q '^# *size *count *type *redop *root *time *algbw *busbw *#wrong$' "$T/nccl.txt"
check "nccl rows agree with the CSV" python3 - "$T/nccl.txt" "$T/sweep.csv" <<'PY'
import csv, sys
rows = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
ref = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(ref) == 8
bus = []
for r, c in zip(rows, ref):
    size, count, typ, redop, root, t, algbw, busbw, wrong = r
    assert size == c["bytes_per_node"] and int(count) == int(size) // 4
    assert (typ, redop, root, wrong) == ("float", "none", "-1", "N/A")
    assert abs(float(t) - float(c["time_us"])) <= 0.005
    assert abs(float(busbw) - float(c["busbw_GBps"])) <= 0.005
    bus.append(float(c["busbw_GBps"]))
avg = [l for l in open(sys.argv[1]) if l.startswith("# Avg bus bandwidth")][0]
assert abs(float(avg.split(":")[1]) / (sum(bus) / len(bus)) - 1) < 1e-5
PY
expect_ok net-sim -i "$T/s.json" --format nccl
check "nccl without --sizes: the document's size" [ "$(grep -v '^#' "$T/out" | awk '{print $1}')" = 1048576 ]

# Bad input: exit 2, one line.
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB:1MiB:x2
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB:1MiB:x2 --bytes 1MiB --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 1MiB:8KiB:x2 --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB:1MiB:x1 --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB:1MiB --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB:1MiB:*2 --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 1B:1TiB:+1B --format csv
expect_exit 2 - net-sim -i "$T/s.json" --sizes 8KiB,,1MiB --format csv
expect_exit 2 - net-sim -i "$T/routed.json" --mode flit --traffic uniform --rate 0.1 --sizes 1MiB --format csv
expect_exit 2 - net-sim -i "$T/routed.json" --mode flit --traffic uniform --rate 0.1 --format nccl

finish
