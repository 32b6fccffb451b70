# No value silently accepted or changed: negative counts, empty values, spaces inside numbers,
# names a schedule cannot have, options that do not apply, metadata that would be dropped. Each
# is one error line and exit 2 (command line) or 3 (document); the forms that are meant are
# read as meant (nccl-tests' binary K/M/G, "64 MiB", 1µs).
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-gen --torus 4x4 --no-provenance | topo-route --no-provenance >"$T/t.json"
coll-sched -i "$T/t.json" --collective all-to-all --algorithm ring --bytes 1MiB \
  --no-provenance >"$T/s.json"
flit=(--mode flit --traffic uniform --rate 0.1 --warmup 100 --measure 300)

# --- negative integers are values, not "not set" ------------------------------------------------
for o in --vcs --buffer-flits --flit-bytes --routing-delay --va-delay --sa-delay --st-delay \
  --credit-delay --alloc-iters; do
  expect_exit 2 - net-sim -i "$T/t.json" "${flit[@]}" "$o" -1
  expect_exit 2 - net-sim -i "$T/s.json" --mode flit "$o" -1 # the replay
done
expect_exit 2 - net-sim -i "$T/t.json" "${flit[@]}" --watchdog 0
expect_exit 2 - net-sim -i "$T/t.json" "${flit[@]}" --latency-threshold 0
# A replay runs until everything is delivered: no warm-up or window to set.
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --warmup -1
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --measure -1
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --warmup 100
check "names --warmup" grep -q "^net-sim: error: --warmup: " "$T/err"
# Flit options in analytic mode are refused, not ignored.
expect_exit 2 - net-sim -i "$T/s.json" --vcs 4
check "names --vcs" grep -q "^net-sim: error: --vcs: belongs to --mode flit" "$T/err"
expect_exit 2 - net-sim -i "$T/s.json" --seed 3

# --- an empty value is refused, never read as "not given" ----------------------------------------
expect_exit 2 - net-sim -i "$T/s.json" --sizes '' --format csv
expect_exit 2 - net-sim -i "$T/t.json" "${flit[@]}" --latency-threshold ''
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --endpoint-ports ''
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --link-latency-cycles ''
expect_exit 2 - net-sim -i "$T/s.json" --mode flit --packet-bytes ''
expect_exit 2 - topo-gen --torus 4x4 --link-bw ''
check "names --link-bw" grep -q "^topo-gen: error: --link-bw: empty value" "$T/err"
expect_exit 2 - topo-gen --torus 4x4 --link-latency ''
expect_exit 2 - topo-route -i "$T/t.json" --dim-order ''
expect_exit 2 - topo-route -i "$T/t.json" -o ''
expect_exit 2 - topo-enum -n 16 --where ''

# --- numbers keep their digits; nccl-tests' suffixes are binary; µs is us ------------------------
expect_exit 2 - coll-sched -i "$T/t.json" --collective all-to-all --bytes '1 2'
expect_exit 2 - topo-gen --torus 4x4 --link-bw '5 0GB/s'
expect_exit 2 - topo-gen --torus 4x4 --fail-chip '1 5'
check "space inside a number" grep -q "space inside a number" "$T/err"
expect_exit 2 - topo-gen --torus 4x4 --fail-link '1 2-1 3'
expect_exit 2 - topo-gen --torus 4x4 --fail-chip 7,9
check "the accepted form" grep -q -- "--fail-chip 27 --fail-chip 36" "$T/err"
expect_ok topo-gen --torus 4x4 --fail-chip ' 5 ' --fail-link '( 1, 0 ) - ( 2, 0 )' --no-provenance
check "spaces around a value" [ "$(jget "$T/out" "[d['faults']['chips'][0]['chip'], d['faults']['links'][0]['link']]")" = "[5, 2]" ]
coll-sched -i "$T/t.json" --collective all-to-all --bytes 64M --no-provenance >"$T/m.json"
check "64M is 64 MiB" [ "$(jget "$T/m.json" "d['schedule']['bytes_per_node']")" = 67108864 ]
coll-sched -i "$T/t.json" --collective all-to-all --bytes '64 MiB' --no-provenance >"$T/m2.json"
check "'64 MiB' is 64MiB" cmp -s "$T/m.json" "$T/m2.json"
net-sim -i "$T/s.json" --sizes 8K:32K:x2 --format csv >"$T/k.csv"
check "8K:32K:x2 is binary" [ "$(tail -n +2 "$T/k.csv" | cut -d, -f4 | tr '\n' ' ')" = "8192 16384 32768 " ]
topo-gen --torus 4x4 --link-latency 1µs --no-provenance >"$T/mu.json"
topo-gen --torus 4x4 --link-latency 1us --no-provenance >"$T/us.json"
check "1µs is 1us" cmp -s "$T/mu.json" "$T/us.json"
expect_exit 2 - coll-sched -i "$T/t.json" --collective all-to-all --bytes 1Q
check "the size units listed" grep -q "K, M, G, T (powers of 1024)" "$T/err"
coll-sched --help >"$T/help"
check "--help says K/M/G are binary" grep -q "K/M/G of 1024" "$T/help"

# --- a schedule's names are the registry's -------------------------------------------------------
edit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['schedule']; $3; json.dump(d, open(sys.argv[2],'w'))" "$1" "$2"; }
for change in "s['algorithm'] = 'bogus'" "s['algorithm'] = ''" "s['algorithm'] = 'ring\nx'" \
  "s['algorithm'] = 'mate'" "s['dim_scheduling'] = 'bogus'" "s['fault_handling'] = 'bogus'" \
  "s['collective'] = 'gossip'"; do
  edit "$T/s.json" "$T/bad.json" "$change"
  expect_exit 3 "$T/bad.json" coll-sched --check
  expect_exit 3 "$T/bad.json" net-sim --format nccl
done
edit "$T/s.json" "$T/bad.json" "s['fault_handling'] = 'bogus'"
expect_exit 3 "$T/bad.json" coll-sched --check
check "names the key" grep -q "/schedule/fault_handling" "$T/err"

# --- net-sim --merge prints CSV and takes documents ---------------------------------------------
net-sim -i "$T/s.json" -o "$T/rep.json"
expect_ok net-sim --merge "$T/rep.json"
expect_ok net-sim --merge "$T/rep.json" --format csv
expect_exit 2 - net-sim --merge "$T/rep.json" --format json
expect_exit 2 - net-sim --merge -q "$T/rep.json"
check "-q is an option" grep -q "'-q' is an option" "$T/err"
expect_ok net-sim --merge "$T/rep.json" -q # after the files, -q is --quiet

# --- "ext" is kept at the top level and refused where it would be dropped -------------------------
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['ext']={'owner':'me'}; json.dump(d, open(sys.argv[2],'w'))" "$T/t.json" "$T/ext.json"
topo-route -i "$T/ext.json" --no-provenance >"$T/ext2.json"
check "top-level ext kept" [ "$(jget "$T/ext2.json" "d['ext']")" = "{'owner': 'me'}" ]
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['network']['links'][2]['ext']={'cable':'A7'}; json.dump(d, open(sys.argv[2],'w'))" "$T/t.json" "$T/lext.json"
expect_exit 3 "$T/lext.json" topo-route
check "link ext refused" grep -q "/network/links/2/ext: \"ext\" is kept at the document's top level" "$T/err"
topo-enum -n 16 --family torus --no-provenance >"$T/c.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['context']['ext']={'site':'x'}; json.dump(d, open(sys.argv[2],'w'))" "$T/c.json" "$T/cext.json"
expect_exit 3 "$T/cext.json" topo-gen --pick 0
check "context ext refused" grep -q "/context/ext" "$T/err"

# --- re-routing keeps the document's algorithm ---------------------------------------------------
topo-enum -n 64 --family mesh | topo-gen --pick 'mesh:8x8/b1x1' --fail-chip 27 >"$T/mesh.json"
topo-route -i "$T/mesh.json" --algorithm fthoe --no-provenance -q >"$T/f1.json"
topo-route -i "$T/f1.json" --no-provenance -q >"$T/f2.json"
check "fthoe kept" [ "$(jget "$T/f2.json" "d['routing']['algorithm']")" = fthoe ]
check "re-routing is idempotent" cmp -s "$T/f1.json" "$T/f2.json"
topo-route -i "$T/t.json" --tie plus --no-provenance -q >"$T/p1.json" 2>/dev/null
topo-route -i "$T/p1.json" --no-dateline --no-provenance -q >"$T/p2.json" 2>/dev/null || true
check "parameters kept, one changed" [ "$(jget "$T/p2.json" "[d['routing']['params']['tie'], d['routing']['params']['dateline']]")" = "['plus', False]" ]
topo-route -i "$T/f1.json" --algorithm minimal --no-provenance -q >"$T/f3.json"
check "--algorithm given wins" [ "$(jget "$T/f3.json" "d['routing']['algorithm']")" = minimal ]

# --- an argument that is not UTF-8 cannot be recorded in a document's provenance ----------------
expect_exit 2 - topo-enum -n 16 --where "$(printf 'k=\x9e')"
check "names the argument" grep -q "^topo-enum: error: argument 4: is not UTF-8 text" "$T/err"

finish
