# Same answer on every machine: topo-route and net-sim write the same bytes whatever the number
# of workers (--threads, or ICNKIT_THREADS for the default), so a Makefile cache or a CI golden
# file made on a laptop holds on a server.
source "$ICNKIT_SRC/tests/cli/lib.sh"

# FTHOE around four failed chips of a 16x16 mesh: its stretch_mean once differed in the last
# digits between 1, 2 and 3 workers.
topo-enum -n 256 --family mesh | topo-gen --pick 'mesh:16x16/b1x1' --fail-chip 27 \
  --fail-chip 100 --fail-chip 140 --fail-chip 201 >"$T/mesh.json"
topo-route -i "$T/mesh.json" --algorithm fthoe --threads 1 --no-provenance -q >"$T/r1.json"
for t in 2 3 8; do
  topo-route -i "$T/mesh.json" --algorithm fthoe --threads $t --no-provenance -q >"$T/r$t.json"
  check "fthoe: --threads $t = --threads 1" cmp -s "$T/r1.json" "$T/r$t.json"
done
ICNKIT_THREADS=3 topo-route -i "$T/mesh.json" --algorithm fthoe --no-provenance -q >"$T/renv.json"
check "fthoe: ICNKIT_THREADS=3 = --threads 1" cmp -s "$T/r1.json" "$T/renv.json"
# The stretch is really there to differ: some pairs detour.
check "fthoe: pairs detour" [ "$(jget "$T/r1.json" "d['routing']['verification']['hops']['non_minimal_pairs'] > 0")" = True ]

# WFR around random failed links of a 6x6x6 torus.
topo-gen --torus 6x6x6 --fail-random-links 12 --seed 5 >"$T/torus.json"
topo-route -i "$T/torus.json" --algorithm wfr --threads 1 --no-provenance -q >"$T/w1.json"
for t in 2 3 8; do
  topo-route -i "$T/torus.json" --algorithm wfr --threads $t --no-provenance -q >"$T/w$t.json"
  check "wfr: --threads $t = --threads 1" cmp -s "$T/w1.json" "$T/w$t.json"
done

# The flit replay on links of two speeds (paced links: the scale-up 9 times the NICs' speed) of a
# composed network, rail routing: the same bytes on 1, 2 and 3 workers.
topo-gen --scale-up switch:8,switches=2 --scale-out rail-optimized:domains=8,unit=4,radix=16 \
  --link-bw 50GB/s,c2c=450GB/s --link-latency 1us,c2c=100ns | topo-route --algorithm rail \
  | coll-sched --collective all-reduce --algorithm hierarchical --bytes 256KiB >"$T/comp.json"
net-sim -i "$T/comp.json" --mode flit --threads 1 --no-provenance -q >"$T/c1.json"
for t in 2 3; do
  net-sim -i "$T/comp.json" --mode flit --threads $t --no-provenance -q >"$T/c$t.json"
  check "paced flit replay: --threads $t = --threads 1" cmp -s "$T/c1.json" "$T/c$t.json"
done

# The worker count is checked like any option, and so is the variable.
expect_exit 2 - topo-route -i "$T/mesh.json" --threads 0
expect_exit 2 - topo-route -i "$T/mesh.json" --threads -1
ICNKIT_THREADS=zero expect_exit 2 "$T/mesh.json" topo-route --algorithm fthoe
ICNKIT_THREADS=0 expect_exit 2 "$T/mesh.json" topo-route --algorithm fthoe
check "ICNKIT_THREADS named" grep -q "ICNKIT_THREADS" "$T/err"

# net-sim's saturation search probes the same rates whatever --threads: the same rate, bracket
# and rows (4x4 torus, DOR, transpose, 8 VCs once found 0.48373 on one thread, 0.48870 on two).
topo-gen --torus 4x4 | topo-route >"$T/t44.json"
sat=(--mode flit --traffic transpose --vcs 8 --find-saturation --warmup 300 --measure 1500 -q)
net-sim -i "$T/t44.json" "${sat[@]}" --threads 1 --format csv >"$T/s1.csv"
net-sim -i "$T/t44.json" "${sat[@]}" --threads 2 --format csv >"$T/s2.csv"
net-sim -i "$T/t44.json" "${sat[@]}" --threads 3 --format csv >"$T/s3.csv"
check "find-saturation: --threads 2 = --threads 1" cmp -s "$T/s1.csv" "$T/s2.csv"
check "find-saturation: --threads 3 = --threads 1" cmp -s "$T/s1.csv" "$T/s3.csv"
net-sim -i "$T/t44.json" "${sat[@]}" --threads 1 --no-provenance >"$T/s1.json"
ICNKIT_THREADS=2 net-sim -i "$T/t44.json" "${sat[@]}" --no-provenance >"$T/s2.json"
check "find-saturation json: ICNKIT_THREADS=2 = --threads 1" cmp -s "$T/s1.json" "$T/s2.json"
expect_exit 2 - net-sim -i "$T/t44.json" "${sat[@]}" --threads 0

finish
