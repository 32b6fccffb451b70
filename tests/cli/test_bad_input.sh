#!/usr/bin/env bash
# Bad input of every kind ends in one stderr line, the documented exit code and nothing on
# stdout; -o FILE writes where the user meant and leaves nothing behind. (Issue items: units,
# nesting depth, out-of-range numbers, NUL and control characters, strict integers, -o onto
# FIFOs / devices / symlinks / modes and signals, typo suggestions, foreign formats.)
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null # no tool here reads the test's own stdin

# err_has TEXT: the last expect_exit's stderr line contains TEXT (fixed string).
err_has() { check "stderr has '$1': $(head -c 300 "$T/err")" grep -qF -- "$1" "$T/err"; }

topo-gen --torus 2x2 --no-provenance >"$T/net.json"

# --- bandwidth and time options need a unit, within physical bounds ------------------------
expect_exit 2 - topo-gen --torus 2x2 --link-bw 50
err_has "--link-bw"
err_has "GB/s"
expect_exit 2 - topo-gen --torus 2x2 --link-latency 1
err_has "--link-latency"
err_has "us"
expect_exit 2 - topo-gen --torus 2x2 --link-bw 5e10
expect_exit 2 - topo-gen --torus 2x2 --link-latency 1e-6
expect_ok topo-gen --torus 2x2 --link-latency 0 --link-bw 50GB/s
check "--link-latency 0 needs no unit" test "$(jlink "$T/out" 0)" = "(50000000000.0, 0.0)"
# Bounds: 1 KB/s .. 1 PB/s and 0 .. 1 s, inclusive.
expect_exit 2 - topo-gen --torus 2x2 --link-latency 1e308s
expect_exit 2 - topo-gen --torus 2x2 --link-latency 1.5s
expect_exit 2 - topo-gen --torus 2x2 --link-bw 1e-300B/s
expect_exit 2 - topo-gen --torus 2x2 --link-bw 999B/s
expect_exit 2 - topo-gen --torus 2x2 --link-bw 1.5e15B/s
expect_ok topo-gen --torus 2x2 --link-bw 1KB/s --link-latency 1s
check "1 KB/s and 1 s are the lower and upper bounds" \
  test "$(jlink "$T/out" 0)" = "(1000.0, 1.0)"
expect_ok topo-gen --torus 2x2 --link-bw 8000Tb/s
check "1 PB/s is the upper bound" test "$(jlink "$T/out" 0 | cut -d, -f1)" = "(1000000000000000.0"
# Per link kind (c2c, b2b, r2r, p2p), with or without a figure for every other link.
expect_exit 2 - topo-gen --torus 2x2 --link-bw c2x=1GB/s
err_has "unknown link kind 'c2x'"
expect_exit 2 - topo-gen --torus 2x2 --link-bw c2c=1GB/s,c2c=2GB/s
err_has "twice"
expect_exit 2 - topo-gen --torus 2x2 --link-bw 1GB/s,2GB/s
err_has "two figures for every link"
expect_exit 2 - topo-gen --torus 2x2 --link-latency c2c=1
err_has "--link-latency"
expect_ok topo-gen --torus 4x4/b2x2 --link-bw 50GB/s,c2c=900GB/s --link-latency c2c=100ns
check "c2c links at 900 GB/s and 100 ns, the board-to-board ones at 50 GB/s and 1 us" test \
  "$(jget "$T/out" "sorted(set((l.get('kind'), l.get('bandwidth_bytes_per_s', d['network']['link_defaults'][l['kind']]['bandwidth_bytes_per_s']), l.get('latency_s', d['network']['link_defaults'][l['kind']]['latency_s'])) for l in d['network']['links']))")" \
  = "[('b2b', 50000000000.0, 1e-06), ('c2c', 900000000000.0, 1e-07)]"

# --- nesting depth is bounded (exit 3, no stack overflow), also inside "ext" ---------------
python3 - "$T" <<'EOF'
import sys
t = sys.argv[1]
n = 70000
net = open(t + "/net.json").read().rstrip()[:-1]
open(t + "/deep-ext.json", "w").write(net + ',"ext":{"a":' + "[" * n + "]" * n + "}}")
open(t + "/deep-top.json", "w").write(net + ',"x":' + '{"a":' * n + "1" + "}" * n + "}")
open(t + "/deep-open.json", "w").write("[" * n)
# 64 levels inside ext is fine and kept as it is.
open(t + "/ext64.json", "w").write(net + ',"ext":{"a":' + "[" * 62 + "7" + "]" * 62 + "}}")
EOF
for f in deep-ext deep-top deep-open; do
  expect_exit 3 "$T/$f.json" topo-route
  expect_exit 3 "$T/$f.json" coll-sched --bytes 1KB
  expect_exit 3 "$T/$f.json" net-sim
  expect_exit 3 "$T/$f.json" topo-gen
done
for f in deep-ext deep-top; do
  expect_exit 3 "$T/$f.json" topo-route
  err_has "nesting deeper than"
done
expect_exit 3 - topo-enum --context "$T/deep-ext.json"
expect_ok topo-route -i "$T/ext64.json" --no-provenance
check "64 levels inside ext pass through" \
  test "$(jget "$T/out" "d['ext']['a']" | tr -d ' ')" = "$(python3 -c 'print("["*62 + "7" + "]"*62)')"

# --- numbers out of the double range are bad input -----------------------------------------
for num in 1e400 -1e999 1e999999999999; do
  sed 's/}$/,"ext":{"x":'"$num"'}}/' "$T/net.json" >"$T/big.json"
  expect_exit 3 "$T/big.json" topo-route
  err_has "$num"
done
echo '{"n_chip": 1e400, "scope": "intra-rack"}' >"$T/ctx-big.json"
expect_exit 3 - topo-enum --context "$T/ctx-big.json"

# --- NUL after the document; control characters are escaped in the one error line ----------
{ cat "$T/net.json"; printf '\0garbage'; } >"$T/nul.json"
expect_exit 3 "$T/nul.json" topo-route
err_has "NUL"
{ cat "$T/net.json"; printf '\0'; } >"$T/nul-only.json"
expect_exit 3 "$T/nul-only.json" topo-route
sed 's/}$/,"bad\\nkey\\u0007":1}/' "$T/net.json" >"$T/ctl-key.json"
expect_exit 3 "$T/ctl-key.json" topo-route
err_has 'bad\nkey\x07'
expect_exit 2 - topo-gen --torus $'4x4\ntopo-route: error: forged'
err_has '4x4\ntopo-route: error: forged'
expect_exit 2 - coll-sched --algorithm $'ring\r\e[2K' --bytes 1KB
err_has 'ring\r\x1b[2K'
expect_exit 2 - net-sim --format $'csv\nnet-sim: error: forged'
expect_exit 2 - topo-enum --n-chip 64 --family $'torus\tx'
err_has 'torus\tx'

# --- integer options are decimal integers, nothing else ------------------------------------
for bad in "" 0100 0x40 +64 " 64" 64abc 1e2 99999999999999999999; do
  expect_exit 2 - topo-enum --n-chip "$bad"
done
expect_exit 2 - topo-enum --n-chip 0x40
err_has "--n-chip"
expect_exit 2 - topo-enum --n-chip 64 --limit 010
expect_exit 2 - topo-enum --n-chip 64 --chip-radix ''
expect_ok topo-enum --n-chip 64 --limit 10 --chip-radix 1
for bad in "" -1 0x1 07 18446744073709551616; do
  expect_exit 2 - topo-gen --torus 4x4 --fail-random-links 1 --seed "$bad"
done
expect_ok topo-gen --torus 4x4 --fail-random-links 1 --seed 0
expect_ok topo-gen --torus 4x4 --fail-random-links 1 --seed 18446744073709551615
for bad in "" 00 0x0 -0; do
  expect_exit 2 - topo-gen --torus 8x8x8 --fail-ocs "$bad"
done
expect_exit 2 - topo-gen --torus 4x4 --fail-random-links ''
for dims in sequential dimrotation pipeline; do
  expect_exit 2 "$T/net.json" coll-sched --bytes 1KB --dims "$dims" --chunks 0
  expect_exit 2 "$T/net.json" coll-sched --bytes 1KB --dims "$dims" --chunks ''
done
expect_exit 2 "$T/net.json" coll-sched --bytes 1KB --dims pipeline --chunks 06
expect_ok coll-sched -i "$T/net.json" --bytes 1KB --dims pipeline --chunks 6

# --- -o FILE: FIFOs, devices and symlinks are written through; modes kept; signals clean up --
topo-gen --torus 2x2 --no-provenance >"$T/expected.json"
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
expect_ok topo-gen --torus 2x2 --no-provenance -o "$T/fifo"
check "-o FIFO: still a FIFO" test -p "$T/fifo"
[ -p "$T/fifo" ] || kill "$reader" # replaced: the reader would wait forever
wait "$reader" || true
check "-o FIFO: the reader got the document" cmp -s "$T/fifo.out" "$T/expected.json"
check "-o FIFO: no temporary left" test -z "$(find "$T" -name 'fifo.tmp*')"

mknod "$T/null" c 1 3 # a private /dev/null
expect_ok topo-gen --torus 2x2 -o "$T/null"
check "-o character device: still a character device" test -c "$T/null"
check "-o character device: no temporary left" test -z "$(find "$T" -name 'null.tmp*')"

echo old >"$T/target.json"
ln -s target.json "$T/link.json"
expect_ok topo-gen --torus 2x2 --no-provenance -o "$T/link.json"
check "-o symlink: still a symlink" test -L "$T/link.json"
check "-o symlink: the target was replaced" cmp -s "$T/target.json" "$T/expected.json"
mkdir "$T/sub" "$T/links"
ln -s ../sub/new.json "$T/links/dangling.json"
expect_ok topo-gen --torus 2x2 --no-provenance -o "$T/links/dangling.json"
check "-o dangling symlink: still a symlink" test -L "$T/links/dangling.json"
check "-o dangling symlink: its target was created" cmp -s "$T/sub/new.json" "$T/expected.json"

echo old >"$T/private.json"
chmod 600 "$T/private.json"
expect_ok topo-gen --torus 2x2 --no-provenance -o "$T/private.json"
check "-o keeps mode 0600" test "$(stat -c %a "$T/private.json")" = 600
check "-o replaced the 0600 file's content" cmp -s "$T/private.json" "$T/expected.json"
(umask 077 && topo-gen --torus 2x2 -o "$T/umask.json")
check "-o of a new file honours the umask" test "$(stat -c %a "$T/umask.json")" = 600

# A tool waiting on its input (a FIFO nobody writes) already holds its temporary file; a
# signal removes it and leaves no output behind.
mkfifo "$T/stdin.fifo"
for sig in TERM INT; do
  rm -f "$T/sig.json"
  set -m # job control: the background tool gets SIGINT like a foreground one
  topo-route -i "$T/stdin.fifo" -o "$T/sig.json" 2>"$T/sig.err" &
  pid=$!
  set +m
  seen=0
  for _ in $(seq 200); do
    if [ -n "$(find "$T" -maxdepth 1 -name 'sig.json.tmp*')" ]; then seen=1; break; fi
    sleep 0.05
  done
  kill -"$sig" "$pid" || true
  st=0
  wait "$pid" || st=$?
  check "SIG$sig: the temporary existed while the tool waited" test "$seen" = 1
  check "SIG$sig: the tool died of the signal (status $st)" test "$st" -gt 128
  check "SIG$sig: no temporary left" test -z "$(find "$T" -maxdepth 1 -name 'sig.json.tmp*')"
  check "SIG$sig: no output" test ! -e "$T/sig.json"
done
# A tool that fails leaves no temporary and no output either.
expect_exit 3 "$T/nul.json" topo-route -o "$T/fail.json"
check "failed run: no temporary, no output" test -z "$(find "$T" -maxdepth 1 -name 'fail.json*')"

# --- typos get the closest option; foreign formats are named --------------------------------
expect_exit 2 - topo-enum --nchip 64
err_has "did you mean --n-chip?"
expect_exit 2 - topo-gen --torus 2x2 --link_bw=50GB/s
err_has "did you mean --link-bw?"
expect_exit 2 "$T/net.json" coll-sched --bytes 1KB --chunk 2
err_has "did you mean --chunks?"
expect_exit 2 "$T/net.json" topo-route --algoritm dor
err_has "did you mean --algorithm?"
expect_exit 2 "$T/net.json" net-sim --zzzzzzzz
check "no suggestion for a far-off name" bash -c "! grep -q 'did you mean' '$T/err'"

for fmt in networkx:NetworkX graphml:GraphML dot:DOT booksim:BookSim; do
  topo-gen --torus 2x2 --format "${fmt%%:*}" >"$T/foreign" 2>/dev/null
  expect_exit 3 "$T/foreign" topo-route
  err_has "${fmt#*:}"
done
coll-sched -i "$T/net.json" --bytes 1KB | net-sim --format csv >"$T/foreign"
expect_exit 3 "$T/foreign" topo-route
err_has "CSV"
expect_exit 3 "$T/foreign" coll-sched --bytes 1KB
err_has "CSV"

finish
