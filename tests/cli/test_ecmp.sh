# net-sim routes a flow the way the routing section says: over every equal-cost choice, split
# evenly at each hop (--ecmp split, the fluid load topo-route --load reports), or one hashed path
# per flow (--ecmp hash --seed N).
source "$ICNKIT_SRC/tests/cli/lib.sh"

# The 32-chip two-level fat-tree (k = 8, one chip per board). D-mod-k is contention-free for the
# all-to-all; ECMP (minimal) used to put every flow on its first path (4,702 us against 1,304).
topo-enum -n 32 --family fat-tree --where k=8,layers=2,chips_per_board=1 | topo-gen >"$T/ft.json"
a2a=(--traffic all-to-all --bytes 64MiB --format csv --csv-header never -q)
time_of() { cut -d, -f5 "$1"; }
topo-route -i "$T/ft.json" --algorithm dmodk | net-sim "${a2a[@]}" >"$T/dmodk.csv"
topo-route -i "$T/ft.json" --algorithm minimal | net-sim "${a2a[@]}" >"$T/split.csv"
check "ecmp split within 2% of dmodk" python3 -c "
import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 0.02 * a)" \
  "$(time_of "$T/dmodk.csv")" "$(time_of "$T/split.csv")"
# And both at the bisection bound of a non-blocking tree: each chip's 63/64 of 64 MiB over its
# one 50 GB/s link... plus one path latency (two or four hops): within 1%.
check "dmodk all-to-all near its injection bound" python3 -c "
import sys; t = float(sys.argv[1]); b = 31 / 32 * 64 * 2**20 / 50e9 * 1e6
sys.exit(not (b <= t <= 1.01 * b + 5))" "$(time_of "$T/dmodk.csv")"

# Hashing pins each flow to one path: collisions make it slower than the split, reproducibly
# for a seed, and another seed draws other paths.
topo-route -i "$T/ft.json" --algorithm minimal >"$T/min.json"
net-sim -i "$T/min.json" "${a2a[@]}" --ecmp hash --seed 1 >"$T/h1.csv"
net-sim -i "$T/min.json" "${a2a[@]}" --ecmp hash --seed 1 >"$T/h1b.csv"
net-sim -i "$T/min.json" "${a2a[@]}" --ecmp hash --seed 2 >"$T/h2.csv"
check "hash: same seed, same bytes" cmp -s "$T/h1.csv" "$T/h1b.csv"
check "hash: slower than the split" python3 -c "
import sys; sys.exit(not float(sys.argv[1]) > 1.05 * float(sys.argv[2]))" \
  "$(time_of "$T/h1.csv")" "$(time_of "$T/split.csv")"
check "hash: another seed, other paths" [ "$(time_of "$T/h1.csv")" != "$(time_of "$T/h2.csv")" ]

# The options are checked: --seed without hash belongs to flit mode, --ecmp to analytic mode.
expect_exit 2 - net-sim -i "$T/min.json" "${a2a[@]}" --seed 3
expect_exit 2 - net-sim -i "$T/min.json" "${a2a[@]}" --ecmp random
expect_exit 2 - net-sim -i "$T/min.json" --mode flit --traffic all-to-all --bytes 1MiB --ecmp hash
finish
