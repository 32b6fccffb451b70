#!/usr/bin/env bash
# Networks from elsewhere: a fat-tree exported as NetworkX and GraphML and imported again is the
# same network (one fingerprint through import -> export -> import), and minimal routing with a
# ring all-reduce takes the same time on it as on the generated one; an edge list with switches
# runs the whole pipeline; bad graphs and bad options are one line, exit 2 or 3; the SimAI and
# ASTRA-sim exports.
. "$(dirname "$0")/lib.sh"

topo-enum -n 32 --family fat-tree --scope inter-rack --where k=8,layers=2,chips_per_board=1 \
  | topo-gen >"$T/ft.json"
topo-gen -i "$T/ft.json" --format networkx >"$T/ft.nx.json"
topo-gen -i "$T/ft.json" --format graphml >"$T/ft.graphml"
topo-gen --import "$T/ft.nx.json" >"$T/imp1.json"
topo-gen -i "$T/imp1.json" --format networkx >"$T/imp1.nx.json"
topo-gen --import "$T/imp1.nx.json" >"$T/imp2.json"
topo-gen --import "$T/ft.graphml" >"$T/imp3.json"
fp() { jget "$1" "d['network']['fingerprint']"; }
check "import -> export -> import: one fingerprint" test "$(fp "$T/imp1.json")" = "$(fp "$T/imp2.json")"
check "GraphML and NetworkX imports agree" test "$(fp "$T/imp3.json")" = "$(fp "$T/imp1.json")"
check "the import is family custom" test "$(jget "$T/imp1.json" "d['network']['family']")" = custom
for f in ft imp1; do
  topo-route -i "$T/$f.json" --algorithm minimal | coll-sched --collective all-reduce \
    --algorithm ring --bytes 64MiB | net-sim >"$T/$f.ar.json"
done
check "ring all-reduce: the same time on the imported network" test \
  "$(jget "$T/ft.ar.json" "d['report']['time_s']")" = "$(jget "$T/imp1.ar.json" "d['report']['time_s']")"

# An edge list: 4 chips on 2 leaves under one spine, one slow NIC.
cat >"$T/g.txt" <<'G'
switch L0 L1 S
a L0 50GB/s 1us
b L0 50GB/s 1us
c L1 50GB/s 1us
d L1 25GB/s 1us
L0 S 100GB/s 1us
L1 S 100GB/s 1us
G
topo-gen --import "$T/g.txt" | topo-route --algorithm minimal \
  | coll-sched --collective all-gather --algorithm ring --bytes 4MiB | net-sim >"$T/g.json"
# 3 ring steps of 1 MiB; d's 25 GB/s link bounds each step; 2 to 4 hops of 1 us.
check "edge list: the slow link bounds the ring" python3 -c "
import json, sys
t = json.load(open('$T/g.json'))['report']['time_s']
sys.exit(not (3*(1048576/25e9 + 2e-6) <= t <= 3*(1048576/25e9 + 4e-6)))"

# Bad graphs: exit 3, one line, naming the file.
printf '{"nodes": [{"id": 0}, {"id": 1}], "links": [{"source": 0, "target": 5}]}' >"$T/dangling.json"
expect_exit 3 - topo-gen --import "$T/dangling.json"
check "the dangling edge is named" grep -q "links/0" "$T/err"
printf 'a a\n' >"$T/loop.txt"
expect_exit 3 - topo-gen --import "$T/loop.txt"
printf 'a b\nc d\n' >"$T/apart.txt"
expect_exit 3 - topo-gen --import "$T/apart.txt"
expect_exit 1 - topo-gen --import "$T/missing.json"
expect_exit 2 - topo-gen --import "$T/g.txt" --import-format csv
expect_exit 2 - topo-gen --import "$T/g.txt" --pick 0
expect_exit 2 - topo-gen --import "$T/g.txt" --torus 4x4
expect_exit 2 - topo-gen --import-format networkx --torus 4x4
expect_exit 2 - topo-enum -n 64 --family custom

# Exports for the simulators users have.
expect_ok topo-gen --torus 4x4x4 --format astra-sim
check "astra-sim: a torus is three rings" grep -q "topology: \[ Ring, Ring, Ring \]" "$T/out"
expect_exit 4 - topo-gen -i "$T/ft.json" --format astra-sim
topo-gen --preset dgx-superpod su=2 --format simai >"$T/simai.txt" 2>/dev/null
check "simai: 8 GPUs per server, 128 NVSwitch chips, 24 switches" test \
  "$(head -1 "$T/simai.txt" | cut -d' ' -f2-4)" = "8 128 24"

# Cost: every new network is priced with the shipped table; --cost-table prices a kept one.
check "a generated network has a cost" test "$(jget "$T/ft.json" "d['network']['metrics']['cost']['table']")" = default
printf 'item,gbps,usd,watts,source\nswitch_port,800,1,0,a\nnic_port,800,10,0,a\ntrace,800,0,0,a\ncopper,800,100,0,a\noptic,800,1000,0,a\n' >"$T/costs.csv"
topo-gen -i "$T/ft.json" --cost-table "$T/costs.csv" >"$T/ft.cost.json"
# 12 switches of 8 ports, 32 NIC ports, 32 copper chip-leaf links, 32 optic leaf-spine links.
check "a kept network priced with a given table" test \
  "$(jget "$T/ft.cost.json" "d['network']['metrics']['cost']['capex_usd']")" = "$(python3 -c "print(float(12*8*1 + 32*10 + 32*100 + 32*1000))")"
check "the network itself is kept" test "$(fp "$T/ft.cost.json")" = "$(fp "$T/ft.json")"
printf 'item,gbps,usd,watts,source\nswitch_port,800,1,0,a\n' >"$T/short.csv"
expect_exit 3 - topo-gen --torus 4x4 --cost-table "$T/short.csv"
check "a missing row is named" grep -q "no nic_port row" "$T/err"
printf 'switch_port,fast,1,0,a\n' >"$T/bad.csv"
expect_exit 3 - topo-gen --torus 4x4 --cost-table "$T/bad.csv"
expect_exit 1 - topo-gen --torus 4x4 --cost-table "$T/none.csv"

finish
