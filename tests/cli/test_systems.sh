#!/usr/bin/env bash
# The published systems at full size (Release build only: the sanitizer build runs the same code
# at small sizes in test_composed.sh): a DGX SuperPOD of 1,024 GPUs and 8 GB200 NVL72 racks from
# their presets route checker-clean, and a hierarchical all-reduce and an all-to-all take the
# closed forms' times, written here from the published link speeds (NVLink per direction,
# 400 Gb/s NICs) and the assumed latencies (100 ns a scale-up hop, 1 us a scale-out hop).
. "$(dirname "$0")/lib.sh"

# closed NAME GOT WANT: GOT equals WANT to 1e-9 relative.
closed() {
  check "$1: $2 vs closed form $3" python3 -c "import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(g - w) > 1e-9 * w)" "$2" "$3"
}

# --- DGX SuperPOD, 4 SU: 128 nodes x 8 GPUs, NVSwitch inside, rail-optimized 2-tier fabric.
topo-gen --preset dgx-superpod su=4 >"$T/dgx.json"
topo-route --algorithm minimal <"$T/dgx.json" >"$T/dgx.r.json"
check "dgx: minimal routing is deadlock-free" test "$(jget "$T/dgx.r.json" "d['routing']['verification']['deadlock_free']")" = True
check "dgx: every pair reachable" test "$(jget "$T/dgx.r.json" "d['routing']['verification']['unreachable_pairs']")" = 0
S=1073741824
for gpu in b200 h100; do
  topo-gen --preset dgx-superpod su=4 gpu=$gpu | topo-route --algorithm minimal \
    | coll-sched --collective all-reduce --algorithm hierarchical --level-algorithms ring,ring \
      --bytes 1GiB | net-sim >"$T/ar.$gpu.json"
  # Reduce-scatter and all-gather inside the node: 7 steps of S/8 at the GPU's NVLink
  # bandwidth (B200: 2 switch chips x 450 GB/s; H100: 4 x 112.5), two 100 ns hops each; the
  # all-reduce of each S/8 shard across the 128 nodes: 2 x 127 ring steps of S/1024 through
  # the 50 GB/s NIC, 4 hops of 1 us (leaf, spine, leaf: some ring neighbours are in another SU).
  up=$([ $gpu = b200 ] && echo 900e9 || echo 450e9)
  want=$(python3 -c "S=$S; print(2*7*(S/8/$up + 2*100e-9) + 2*127*(S/1024/50e9 + 4e-6))")
  closed "dgx $gpu hierarchical all-reduce" "$(jget "$T/ar.$gpu.json" "d['report']['time_s']")" "$want"
done
# The scale-up speed shows: H100's node phases take twice B200's, the network phase the same.
check "dgx: H100 node phase twice B200's" python3 -c "
import json, sys
b, h = (json.load(open('$T/ar.%s.json' % g))['report']['phases'] for g in ('b200', 'h100'))
t = lambda ph, name: [p['time_s'] for p in ph if p['name'] == name][0]
r = (t(h, 'stage0/reduce-scatter') - 7*200e-9) / (t(b, 'stage0/reduce-scatter') - 7*200e-9)
sys.exit(not (abs(r - 2) < 1e-9 and t(h, 'stage1/reduce-scatter') == t(b, 'stage1/reduce-scatter')))"

# All-to-all, hierarchical: 7 exchanges inside the node of S/8 each over NVLink, then 127
# between nodes of S/128 each through the NIC: 31 of them inside the SU (2 hops), 96 to another
# SU (4 hops), every pair at the NIC's full rate (the fabric is non-blocking).
S=67108864
coll-sched -i "$T/dgx.r.json" --collective all-to-all --algorithm hierarchical --bytes 64MiB \
  | net-sim >"$T/a2a.json"
want=$(python3 -c "S=$S; print(7*(S/8/900e9 + 2*100e-9) + 127*S/128/50e9 + 31*2e-6 + 96*4e-6)")
closed "dgx hierarchical all-to-all" "$(jget "$T/a2a.json" "d['report']['time_s']")" "$want"

# --- 8 GB200 NVL72 racks: 72 GPUs on 18 NVSwitch chips per rack, compute trays of 4.
topo-gen --preset gb200-nvl72 racks=8 >"$T/nvl.json"
topo-route --algorithm minimal <"$T/nvl.json" >"$T/nvl.r.json"
topo-route --algorithm rail <"$T/nvl.json" >"$T/nvl.rail.json"
for r in r rail; do
  check "nvl72 ($r): deadlock-free, every pair reachable" test \
    "$(jget "$T/nvl.$r.json" "(d['routing']['verification']['deadlock_free'], d['routing']['verification']['unreachable_pairs'])")" = "(True, 0)"
  coll-sched -i "$T/nvl.$r.json" --collective all-reduce --algorithm hierarchical --hierarchy rack \
    --level-algorithms ring,ring --bytes 64MiB | net-sim >"$T/nvl.ar.$r.json"
done
# Inside the rack: 71 ring steps of S/72 through the 18 NVSwitch chips (900 GB/s, two 100 ns
# hops); across the 8 racks: 2 x 7 steps of S/576 through the NIC to the same tray position of
# the next rack (its leaf: 2 hops of 1 us). That is the rail routing's time. Minimal routing
# also takes a GPU's ring neighbour on its own compute tray through their shared leaf (2 hops
# too): it splits such a flow evenly over its 19 shortest paths, 950 GB/s at the mean latency
# (18 x 0.2 + 2)/19 us, and a step ends with the slower of the two kinds of flow.
want=$(python3 -c "S=$S; print(2*71*(S/72/900e9 + 2*100e-9) + 2*7*(S/576/50e9 + 2e-6))")
closed "nvl72 hierarchical all-reduce, rail routing" "$(jget "$T/nvl.ar.rail.json" "d['report']['time_s']")" "$want"
want=$(python3 -c "
S=$S; b = S/72
step = max(b/900e9 + 200e-9, b/950e9 + (18*200e-9 + 2e-6)/19)
print(2*71*step + 2*7*(S/576/50e9 + 2e-6))")
closed "nvl72 hierarchical all-reduce, minimal routing" "$(jget "$T/nvl.ar.r.json" "d['report']['time_s']")" "$want"
coll-sched -i "$T/nvl.r.json" --collective all-to-all --algorithm direct --bytes 1MiB \
  | net-sim >"$T/nvl.a2a.json"
# Every GPU sends 504 of its 576 items through its NIC: at least 504/576 S / 50 GB/s.
check "nvl72 all-to-all at or above the NIC bound" python3 -c "
import json, sys
t = json.load(open('$T/nvl.a2a.json'))['report']['time_s']
sys.exit(not (t >= 504/576 * 1048576 / 50e9))"

finish
