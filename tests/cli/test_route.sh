# topo-route: DOR end to end, --path, --describe, and the documented exit codes.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' >"$T/net.json"
topo-enum -n 128 --all | topo-gen --pick 'torus:8x4x4/b2x2x2' >"$T/net128.json"

# The routing section, with the report dropped and the fingerprint of the network.
expect_ok topo-route -i "$T/net.json" -o "$T/routed.json" --no-provenance
check "algorithm dor" [ "$(jget "$T/routed.json" "d['routing']['algorithm']")" = dor ]
check "fingerprint" [ "$(jget "$T/routed.json" "d['routing']['network_fingerprint'] == d['network']['fingerprint']")" = True ]
check "deadlock-free" [ "$(jget "$T/routed.json" "d['routing']['verification']['deadlock_free']")" = True ]
check "vc_count 2" [ "$(jget "$T/routed.json" "d['routing']['vc_count']")" = 2 ]
# Mean hops over distinct pairs: 3 (the seed's 3 x 4/4) scaled by 64/63.
check "mean hops" [ "$(jget "$T/routed.json" "round(d['routing']['verification']['hops']['mean'] * 63 / 64, 9)")" = 3.0 ]
check "no warning" [ ! -s "$T/err" ]
# Re-entering the routed document works (the section parses back) and is byte-identical.
expect_ok topo-route -i "$T/routed.json" -o "$T/routed2.json" --no-provenance
check "idempotent" cmp -s "$T/routed.json" "$T/routed2.json"

# Without the dateline on 8x4x4 the CDG has a cycle: still written, exit 0, one warning.
expect_ok topo-route -i "$T/net128.json" --no-dateline -o "$T/cyc.json"
check "cycle warning" grep -q '^topo-route: warning: .*NOT deadlock-free' "$T/err"
check "cycle listed" [ "$(jget "$T/cyc.json" "len(d['routing']['verification']['cdg']['cycle']) > 1")" = True ]
check "vc_count 1" [ "$(jget "$T/cyc.json" "d['routing']['vc_count']")" = 1 ]

# A failed link: unreachable pairs with a reason, exit 0, a warning.
topo-enum -n 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' --fail-link '(1,1,0)-(2,1,0)' >"$T/faulty.json"
expect_ok topo-route -i "$T/faulty.json" -o "$T/faulty-routed.json"
check "unreachable warning" grep -q '^topo-route: warning: .*unreachable' "$T/err"
check "unreachable listed" [ "$(jget "$T/faulty-routed.json" "'failed link' in d['routing']['verification']['unreachable'][0]['reason']")" = True ]

# DOR with failed links (the symmetric verification, route/dor_symmetry.hpp) against DOR walked
# pair by pair here: unreachable pairs, the hop histogram and the uniform load.
topo-gen --torus 6x4x3 --fail-link '(2,1,1)-(3,1,1)' --fail-link '(0,0,2)-(0,0,0)' >"$T/f643.json"
expect_ok topo-route -i "$T/f643.json" --load -o "$T/f643-routed.json"
check "symmetric DOR = pair walks" python3 - "$T/f643-routed.json" <<'PY'
import itertools, json, sys
d = json.load(open(sys.argv[1]))
v = d['routing']['verification']
S = [6, 4, 3]
failed = {frozenset([(2, 1, 1), (3, 1, 1)]), frozenset([(0, 0, 2), (0, 0, 0)])}
chips = list(itertools.product(*[range(s) for s in S]))
hist, unreachable, load = {}, 0, {}
for src in chips:
    for dst in chips:
        if src == dst:
            continue
        at, hops, ok = list(src), 0, True
        for dim in range(3):
            s = S[dim]
            while ok and at[dim] != dst[dim]:
                delta = (dst[dim] - at[dim]) % s
                step = 1 if 2 * delta < s or (2 * delta == s and at[dim] % 2 == 0) else -1
                nxt = list(at)
                nxt[dim] = (at[dim] + step) % s
                if frozenset([tuple(at), tuple(nxt)]) in failed:
                    ok = False
                    break
                key = (tuple(at), dim, step)
                load[key] = load.get(key, 0) + 1
                at, hops = nxt, hops + 1
        if ok:
            hist[hops] = hist.get(hops, 0) + 1
        else:
            unreachable += 1
H = [hist.get(h, 0) for h in range(max(hist) + 1)]
assert v['unreachable_pairs'] == unreachable, (v['unreachable_pairs'], unreachable)
assert v['hops']['histogram'] == H, (v['hops']['histogram'], H)
assert v['deadlock_free']
assert v['load']['max'] == max(load.values())
assert abs(v['load']['mean'] - sum(load.values()) / len(load)) < 1e-9
PY

# --path: the seed's example, hop by hop; the document is not written.
expect_ok topo-route -i "$T/net.json" --path '(0,0,0)' '(2,3,1)'
check "path delivered" grep -q 'delivered in 4 hops' "$T/out"
check "path hops" [ "$(grep -cE '^ +[0-9]+  \(' "$T/out")" = 4 ]
check "path wrap hop" grep -qE '^ +3  \(2,0,0\) +\(2,3,0\) +1 +- ' "$T/out"
check "path not a document" [ "$(grep -c schema "$T/out")" = 0 ]
expect_ok topo-route -i "$T/net.json" --path 0 30
check "path by id" grep -q 'delivered in 4 hops' "$T/out"

# --describe lists the registry; --help shows the pipeline.
expect_ok topo-route --describe
check "describe" grep -q 'dimension_order' "$T/out"
expect_ok topo-route --help
check "help pipeline" grep -q "topo-enum --n-chip 64 | topo-gen --pick 'torus:4x4x4/b2x2x2' | topo-route --algorithm dor" "$T/out"
# Every routing parameter of the registry has its option (the tool derives them from it).
cp "$T/out" "$T/help.txt"
expect_ok topo-route --describe --format json
opts=$(jget "$T/out" "' '.join(sorted({p['option'] for a in d['algorithms'] for p in a['parameters']}))")
check "parameter options listed" [ "$opts" = "--dateline-vc --dim-order --no-dateline --paths --rail-path --tie --vc-scheme" ]
for o in $opts; do
  check "help has $o" grep -q -- "^  $o" "$T/help.txt"
done

# Errors: one line on stderr, nothing on stdout, the documented exit code.
expect_exit 2 "$T/net.json" topo-route --algorithm teleport
check "known listed" grep -q 'known: dor' "$T/err"
expect_exit 2 "$T/net.json" topo-route --dim-order 0,1
expect_exit 2 "$T/net.json" topo-route --dim-order 0,0,1
expect_exit 2 - topo-route --dim-order x,y
expect_exit 2 "$T/net.json" topo-route --tie minus
expect_exit 2 "$T/net.json" topo-route --path 0 9999
expect_exit 3 - topo-route
echo '{"schema": "icnkit/1", "ext": {}' >"$T/bad.json"
expect_exit 3 "$T/bad.json" topo-route
topo-enum -n 64 >"$T/cands.json"
expect_exit 3 "$T/cands.json" topo-route
python3 - "$T/routed.json" "$T/wrongfp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['routing']['network_fingerprint'] = '0000000000000000'
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 3 "$T/wrongfp.json" topo-route
check "fingerprint message" grep -q 'network_fingerprint' "$T/err"
python3 - "$T/routed.json" "$T/unknown.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['routing']['params']['colour'] = 'red'
json.dump(d, open(sys.argv[2], 'w'))
PY
expect_exit 3 "$T/unknown.json" topo-route

finish
