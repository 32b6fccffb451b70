#!/usr/bin/env bash
# D-mod-k on multi-edge fat-trees: chip radix 2 and 4 give every chip 2 and 4 parallel links to
# its leaf / ToR and every switch link as many lanes, so uniform all-to-all must never be slower
# than with chip radix 1 (it used to be: 1,304 -> 2,353 -> 4,702 us on the 2-layer tree below,
# throughput bound 1 -> 0.55 -> 0.28). The bound of topo-route --load and net-sim's all-to-all
# time, on 2 and 3 layers; and minimal's (ECMP) --load bound, R on these non-blocking trees.
source "$ICNKIT_SRC/tests/cli/lib.sh"

for tree in "32 k=8,layers=2,chips_per_board=1" "64 k=8,layers=3,chips_per_board=1"; do
  read -r n where <<<"$tree"
  prev_bound=0 prev_time='' prev_ecmp=0
  for r in 1 2 4; do
    topo-enum -n "$n" --family fat-tree --chip-radix "$r" --where "$where" | topo-gen >"$T/ft$r.json"
    expect_ok topo-route -i "$T/ft$r.json" --algorithm dmodk --load
    bound=$(jget "$T/out" "d['routing']['verification']['load']['throughput_bound']")
    check "$n chips, $where, radix $r: deadlock-free, every pair" \
      test "$(jget "$T/out" "(d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'])")" = "(True, 0)"
    check "$n chips, $where: bound at radix $r ($bound) >= the one below ($prev_bound)" \
      python3 -c "import sys; sys.exit(not float('$bound') >= float('$prev_bound'))"
    # The busiest lane into a chip carries ceil((N-1)/R) of its N-1 units: the bound is
    # (N-1) / ceil((N-1)/R), the best one path per pair can do.
    check "$n chips, $where, radix $r: bound (N-1)/ceil((N-1)/R)" \
      python3 -c "import sys; N, R = $n, $r; sys.exit(abs(float('$bound') - (N - 1) / (-(-(N - 1) // R))) > 1e-9)"
    expect_ok topo-route -i "$T/ft$r.json" --algorithm minimal --paths ecmp --load
    ecmp=$(jget "$T/out" "d['routing']['verification']['load']['throughput_bound']")
    check "$n chips, $where, radix $r: minimal ECMP bound $ecmp = $r (>= $prev_ecmp)" \
      python3 -c "import sys; sys.exit(not (abs(float('$ecmp') - $r) < 1e-9 and float('$ecmp') >= float('$prev_ecmp')))"
    prev_ecmp=$ecmp
    expect_ok topo-route -i "$T/ft$r.json" --algorithm dmodk
    cp "$T/out" "$T/routed$r.json"
    expect_ok net-sim -i "$T/routed$r.json" --traffic all-to-all --bytes 64MiB --format csv
    time=$(python3 -c "import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); print(r[-1]['time_us'])" "$T/out")
    check "$n chips, $where, radix $r: net-sim all-to-all on dmodk" test -n "$time"
    if [ -n "$prev_time" ]; then
      check "$n chips, $where: all-to-all at radix $r ($time us) is not slower than below ($prev_time us)" \
        python3 -c "import sys; sys.exit(not float('$time') <= float('$prev_time'))"
    fi
    if [ "$r" = 1 ]; then time1=$time; fi
    prev_bound=$bound prev_time=$time
  done
  check "$n chips, $where: radix 4 ($prev_time us) at most half of radix 1's ($time1 us)" \
    python3 -c "import sys; sys.exit(not 2 * float('$prev_time') <= float('$time1'))"
done
finish
