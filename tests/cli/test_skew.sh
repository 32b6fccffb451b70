# All-to-all-v (--skew): Zipf popularity by seed, or a matrix file; deterministic, rescaled by
# net-sim --sizes, replayed flit by flit, measured against the busiest rank's injection; refused
# where it does not apply, with one-line errors.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 8 --family single-switch --scope inter-rack | topo-gen --pick 0 | topo-route --algorithm minimal -q >"$T/ss.json"
for a in direct pairwise bruck; do
  coll-sched -i "$T/ss.json" --collective all-to-all --algorithm $a --skew zipf:1.2 --seed 7 --bytes 8MiB -q >"$T/$a.json"
  coll-sched -i "$T/ss.json" --collective all-to-all --algorithm $a --skew zipf:1.2 --seed 7 --bytes 8MiB -q >"$T/$a-again.json"
  check "$a: the same seed, the same document" cmp -s "$T/$a.json" "$T/$a-again.json"
  net-sim -i "$T/$a.json" --format csv -q >"$T/$a.csv"
  check "$a: no faster than the busiest rank's injection" python3 -c "
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
sys.exit(not (r['bound_us'] and 0 < float(r['efficiency']) <= 1 + 1e-9))" "$T/$a.csv"
done
check "skew recorded" [ "$(jget "$T/direct.json" "d['schedule']['skew']['kind'] + str(d['schedule']['skew']['seed'])")" = zipf7 ]
# Another seed makes other ranks popular. On a switch that changes no time (popularity is the
# same from every origin, so whoever is popular the busiest link carries as much); on a ring the
# popular ranks' places decide the links' loads.
topo-enum -n 8 --family ring --scope inter-rack | topo-gen --pick 0 | topo-route --algorithm minimal -q >"$T/ring.json"
ring_time() { coll-sched -i "$T/ring.json" --collective all-to-all --algorithm direct --skew zipf:1.2 --seed "$1" --bytes 8MiB -q | net-sim --format csv -q | tail -1 | cut -d, -f5; }
check "another seed, other sizes" [ "$(ring_time 7)" != "$(ring_time 8)" ]
check "same seed, same time" [ "$(ring_time 7)" = "$(ring_time 7)" ]
# A skew is slower than the uniform all-to-all of the same bytes (the popular ranks receive more).
coll-sched -i "$T/ss.json" --collective all-to-all --algorithm direct --bytes 8MiB -q | net-sim --format csv -q >"$T/uniform.csv"
check "zipf slower than uniform" python3 -c "
import sys
u = float(open(sys.argv[1]).read().splitlines()[-1].split(',')[4])
z = float(open(sys.argv[2]).read().splitlines()[-1].split(',')[4])
sys.exit(not z > u)" "$T/uniform.csv" "$T/direct.csv"
# --sizes rescales the items: twice the bytes, about twice the time.
net-sim -i "$T/direct.json" --sizes 8MiB,16MiB --format csv -q >"$T/sizes.csv"
check "--sizes rescales the items" python3 -c "
import sys
rows = [l.split(',') for l in open(sys.argv[1]).read().splitlines()[1:]]
a, b = float(rows[0][4]), float(rows[1][4])
sys.exit(not 1.9 < b / a < 2.01)" "$T/sizes.csv"
expect_ok net-sim -i "$T/pairwise.json" --mode flit -q
expect_ok coll-sched --check -i "$T/bruck.json"
# A matrix: every rank sends its whole buffer to the next one.
python3 -c "
n = 8
for o in range(n): print(' '.join('1' if d == (o + 1) % n else '0' for d in range(n)))" >"$T/perm.txt"
coll-sched -i "$T/ss.json" --collective all-to-all --algorithm direct --skew "matrix:$T/perm.txt" --bytes 8MiB -q >"$T/perm.json"
check "matrix recorded" [ "$(jget "$T/perm.json" "len(d['schedule']['skew']['weights'])")" = 8 ]
expect_ok net-sim -i "$T/perm.json" -q
# Refusals: not an all-to-all, a seed without Zipf, a bad spec, a matrix of the wrong size, a
# negative size, the torus's own all-to-all.
expect_exit 2 "$T/ss.json" coll-sched --collective all-reduce --algorithm ring --skew zipf:1 --bytes 1MiB
expect_exit 2 "$T/ss.json" coll-sched --collective all-to-all --algorithm direct --seed 3 --bytes 1MiB
expect_exit 2 "$T/ss.json" coll-sched --collective all-to-all --algorithm direct --skew zipf:x --bytes 1MiB
expect_exit 2 "$T/ss.json" coll-sched --collective all-to-all --algorithm direct --skew uniform --bytes 1MiB
printf '1 1\n1 1\n' >"$T/two.txt"
expect_exit 3 "$T/ss.json" coll-sched --collective all-to-all --algorithm direct --skew "matrix:$T/two.txt" --bytes 1MiB
printf '1 -1\n1 1\n' >"$T/neg.txt"
expect_exit 3 "$T/ss.json" coll-sched --collective all-to-all --algorithm direct --skew "matrix:$T/neg.txt" --bytes 1MiB
topo-gen --torus 4x4 | topo-route -q >"$T/t44.json"
expect_exit 2 "$T/t44.json" coll-sched --collective all-to-all --algorithm halfring --skew zipf:1 --bytes 1MiB
# ... but the algorithms between ranks run it on a torus, and auto picks among them.
coll-sched -i "$T/t44.json" --collective all-to-all --algorithm auto --skew zipf:1 --bytes 1MiB -q >"$T/tauto.json"
check "auto on a torus with a skew: an algorithm between ranks" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['schedule']
sys.exit(not (s['algorithm'] in ('direct', 'pairwise', 'bruck', 'hierarchical') and 'stages' in s))" "$T/tauto.json"
# A hand-edited skew is caught: the digest covers it.
python3 - "$T/direct.json" "$T/edit.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["skew"]["exponent"] = 3
json.dump(d, open(sys.argv[2], "w"))
PY
check "an edited skew is re-verified, not trusted" python3 -c "
import json, subprocess, sys
out = subprocess.run(['coll-sched', '--check', '-i', sys.argv[1]], capture_output=True, text=True)
sys.exit(not (out.returncode == 0 and json.loads(out.stdout)['schedule']['verified_digest'] != json.load(open(sys.argv[2]))['schedule']['verified_digest']))" "$T/edit.json" "$T/direct.json"
finish
