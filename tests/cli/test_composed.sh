#!/usr/bin/env bash
# Composed networks end to end, at small sizes (both builds): a flit replay within 5% of the
# analytic time, a rail-only network reachable only with rail routing, twin planes and a failed
# plane against closed forms, the refusals of bad compositions and presets. The published
# systems at full size (1,024 GPUs, 8 NVL72 racks) are tests/cli/test_systems.sh.
. "$(dirname "$0")/lib.sh"

expect_ok topo-gen --list-presets
for p in dgx-superpod dgx-b300-xdr gb200-nvl72 alibaba-hpn tpu-v4 tpu-v5p trn2-ultraserver; do
  check "--list-presets lists $p" grep -q "^$p\$" "$T/out"
done

# closed NAME GOT WANT: GOT equals WANT to 1e-9 relative.
closed() {
  check "$1: $2 vs closed form $3" python3 -c "import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(g - w) > 1e-9 * w)" "$2" "$3"
}

# --- Flit replay at a small size, on 2 SU of a smaller DGX-like build: within 5% of analytic.
topo-gen --scale-up switch:8,switches=2 --scale-out rail-optimized:domains=8,unit=4,radix=16 \
  --link-bw 50GB/s,c2c=450GB/s --link-latency 1us,c2c=100ns | topo-route --algorithm minimal \
  | coll-sched --collective all-reduce --algorithm hierarchical --bytes 1MiB >"$T/small.json"
net-sim -i "$T/small.json" >"$T/small.an.json"
net-sim -i "$T/small.json" --mode flit >"$T/small.flit.json"
check "flit replay within 5% of analytic on a composed network" python3 -c "
import json, sys
a = json.load(open('$T/small.an.json'))['report']['time_s']
f = json.load(open('$T/small.flit.json'))['report']['time_s']
sys.exit(not abs(f - a) <= 0.05 * a)"

# --- Rail-only (one Clos per rail, no spine): minimal routing, which never forwards through a
# chip, leaves the cross-rail pairs unreachable; rail routing crosses the rails inside the
# scale-up domain, both ways round, deadlock-free.
topo-gen --scale-up switch:4,switches=2 --scale-out rail-only:domains=4,radix=8 >"$T/ro.json"
topo-route --algorithm minimal <"$T/ro.json" >"$T/ro.min.json" 2>/dev/null
check "rail-only: minimal leaves 144 of 240 pairs unreachable" test "$(jget "$T/ro.min.json" "d['routing']['verification']['unreachable_pairs']")" = 144
for m in pxn rail-aligned; do
  topo-route --algorithm rail --rail-path $m <"$T/ro.json" >"$T/ro.$m.json"
  check "rail-only, $m: deadlock-free, every pair reachable" test \
    "$(jget "$T/ro.$m.json" "(d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'], d['routing']['params']['rail_path'])")" = "(True, 0, '$m')"
  expect_ok coll-sched -i "$T/ro.$m.json" --collective all-to-all --algorithm direct --bytes 1MiB
done
topo-gen --torus 4x4 >"$T/t44.json"
expect_exit 4 "$T/t44.json" topo-route --algorithm rail
expect_exit 2 - topo-route --algorithm rail --rail-path sideways -i "$T/ro.json"

# --- Twin planes (DGX B300's compute fabric): a failed plane halves the bandwidth between
# nodes instead of stopping the job. 8 nodes of 8 GPUs, each GPU's NIC with a port on each of
# 2 planes; the all-reduce of each node's S/8 shard across the 8 nodes: 2 x 7 ring steps of S/64
# through 2 x 50 GB/s, then through the surviving plane's 50 GB/s, 4 hops of 1 us each way.
twin="--scale-up switch:8,switches=2 --scale-out rail-optimized:domains=8,unit=4,radix=16,planes=2"
topo-gen $twin --link-bw 50GB/s,c2c=450GB/s --link-latency 1us,c2c=100ns >"$T/twin.json"
topo-gen -i "$T/twin.json" --fail-plane 0 >"$T/twin.f.json"
check "a failed plane: its 20 switches and their 128 links" test \
  "$(jget "$T/twin.f.json" "(len(d['faults']['switches']), len(d['faults']['links']), d['network']['metrics']['degraded']['connected'])")" = "(20, 128, True)"
S=67108864
for f in twin twin.f; do
  topo-route --algorithm minimal <"$T/$f.json" \
    | coll-sched --collective all-reduce --algorithm hierarchical --bytes 64MiB | net-sim >"$T/$f.ar.json"
done
across() { jget "$1" "sum(p['time_s'] for p in d['report']['phases'] if p['name'].startswith('stage1'))"; }
closed "twin planes: across the nodes" "$(across "$T/twin.ar.json")" "$(python3 -c "print(2*7*($S/64/100e9 + 4e-6))")"
closed "one plane failed: across the nodes" "$(across "$T/twin.f.ar.json")" "$(python3 -c "print(2*7*($S/64/50e9 + 4e-6))")"
# A failed NIC: its port on each plane; pxn moves its relays, the chip is reached in its node.
topo-gen -i "$T/twin.json" --fail-nic 3 >"$T/nic.json"
check "a failed NIC: two ports, cause nic" test \
  "$(jget "$T/nic.json" "sorted(set(l['cause'] for l in d['faults']['links'])), len(d['faults']['links'])")" = "['nic'] 2"
for m in pxn rail-aligned; do
  topo-route -i "$T/nic.json" --algorithm rail --rail-path $m >"$T/nic.r.json"
  check "a failed NIC, $m: every pair still delivered, through the chip's domain" test \
    "$(jget "$T/nic.r.json" "(d['routing']['verification']['unreachable_pairs'], d['routing']['verification']['deadlock_free'])")" = "(0, True)"
done
# A failed rail (its 2 leaves on each plane): the position-0 GPUs send and receive through their
# neighbours' NICs, so two rings share each position-1 NIC: the phase across the nodes runs at
# 50 GB/s per ring, over 4 network hops of 1 us and 4 NVLink hops of 100 ns.
topo-gen -i "$T/twin.json" --fail-rail 0 >"$T/rail.json"
check "a failed rail: 4 switches, 32 links" test \
  "$(jget "$T/rail.json" "(len(d['faults']['switches']), len(d['faults']['links']))")" = "(4, 32)"
topo-route --algorithm rail <"$T/rail.json" \
  | coll-sched --collective all-reduce --algorithm hierarchical --bytes 64MiB | net-sim >"$T/rail.ar.json"
closed "one rail failed: across the nodes" "$(across "$T/rail.ar.json")" "$(python3 -c "print(2*7*($S/64/50e9 + 4.4e-6))")"
expect_exit 2 - topo-gen -i "$T/twin.json" --fail-rail 8
expect_exit 2 - topo-gen --torus 4x4 --fail-rail 0
expect_exit 2 - topo-gen -i "$T/twin.json" --fail-nic 3:1
expect_exit 2 - topo-gen -i "$T/twin.json" --fail-nic 640
expect_exit 2 - topo-gen --torus 4x4 --fail-nic 0
expect_exit 2 - topo-gen -i "$T/twin.json" --fail-plane 2
expect_exit 2 - topo-gen --torus 4x4 --fail-plane 0

# --- A torus scale-up (TPU-like cubes on a rail-optimized fabric): 4 cubes of 4x4x4 with 192
# torus links each and a NIC per chip; the checker proves both rail paths deadlock-free with
# hop-count VCs; ASTRA-sim sees a ring per dimension and the switch.
topo-gen --scale-up torus:4x4x4 --scale-out rail-optimized:domains=4,radix=64 \
  --link-bw 50GB/s,c2c=100GB/s >"$T/cube.json"
check "torus scale-up: 768 torus links, 256 NIC links" test \
  "$(jget "$T/cube.json" "(sum(l['kind'] == 'c2c' for l in d['network']['links']), sum(l['kind'] == 'b2b' for l in d['network']['links']), d['network']['metrics']['family_attrs']['scale_up_shape'])")" = "(768, 256, [4, 4, 4])"
for m in pxn rail-aligned; do
  topo-route -i "$T/cube.json" --algorithm rail --rail-path $m >"$T/cube.$m.json"
  check "torus scale-up, $m: deadlock-free, every pair delivered" test \
    "$(jget "$T/cube.$m.json" "(d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'])")" = "(True, 0)"
done
expect_ok topo-gen -i "$T/cube.json" --format astra-sim
check "torus scale-up to ASTRA-sim: a ring per dimension, then the switch" \
  grep -q "^topology: \[ Ring, Ring, Ring, Switch \]" "$T/out"
expect_exit 2 - topo-gen --scale-up torus:4x0 --scale-out none
expect_exit 2 - topo-gen --scale-up torus:4x4,switches=2 --scale-out none

# --- Refusals: one line, exit 2.
expect_exit 2 - topo-gen --scale-up switch:8 --scale-out rail-optimized:domains=64,unit=32,up=40
expect_exit 2 - topo-gen --scale-up switch:8 --scale-out rail-optimized:domains=4096
check "a leaf beyond its radix is named as such" grep -q "ports down" "$T/err"
expect_exit 2 - topo-gen --scale-up switch:1024,switches=1024,links=1024 --scale-out none
expect_exit 2 - topo-gen --scale-up switch:8
expect_exit 2 - topo-gen --scale-up switch:8 --scale-out rail-only:domains=4,colour=red
expect_exit 2 - topo-gen --preset dgx-superpod sus=4
expect_exit 2 - topo-gen --preset dgx-superpod su=65
expect_exit 2 - topo-gen --preset nvl1000
expect_exit 2 - topo-enum --n-chip 64 --family composed
expect_exit 2 - topo-gen --preset tpu-v4 --torus 4x4x4
expect_exit 2 - topo-gen --preset tpu-v4 --pick 0
# A kept network and a preset that is not its own.
topo-gen --preset dgx-superpod su=1 >"$T/dgx1.json"
expect_exit 2 - topo-gen -i "$T/dgx1.json" --preset dgx-superpod su=2
expect_ok topo-gen -i "$T/dgx1.json" --preset dgx-superpod su=1

finish
