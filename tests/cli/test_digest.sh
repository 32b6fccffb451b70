#!/usr/bin/env bash
# The verified digest: coll-sched seals the schedule it verified (`verified_digest`), net-sim
# skips its own verification only while the digest matches the content; a hand-edited schedule
# (digest stale) or one without a digest (older documents) is verified again and, when wrong,
# refused with exit 3.
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-gen --torus 4x4x4 --fail-link '(1,1,0)-(2,1,0)' >"$T/net.json"
expect_ok coll-sched -i "$T/net.json" --algorithm matee --dims dimrotation --bytes 8MiB \
  --no-provenance -o "$T/s.json"
check "digest recorded" [ "$(jget "$T/s.json" "len(d['schedule']['verified_digest'])")" = 16 ]
expect_ok net-sim -i "$T/s.json" --format csv -o "$T/sealed.csv"

# edit FILE OUT PYTHON: applies a statement to the document's schedule `s`.
edit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['schedule']; $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"; }

# Without the digest (an older document) the schedule is verified and simulated alike.
edit "$T/s.json" "$T/old.json" "del s['verified_digest']"
expect_ok net-sim -i "$T/old.json" --format csv -o "$T/old.csv"
check "same report unsealed" cmp -s "$T/sealed.csv" "$T/old.csv"

# A wrong hand edit with the old digest kept: verified, refused (exit 3), in both modes.
edit "$T/s.json" "$T/wrong.json" "t=s['phases'][0]['steps'][0]['transfers'][0]; t['origin_offset']=(t['origin_offset']+1)%s['phases'][0]['ring_size']"
expect_exit 3 - net-sim -i "$T/wrong.json"
check "names the schedule" grep -q "/schedule/phases/" "$T/err"
expect_exit 3 - net-sim -i "$T/wrong.json" --mode flit
edit "$T/wrong.json" "$T/wrong-old.json" "del s['verified_digest']"
expect_exit 3 - net-sim -i "$T/wrong-old.json"
# A failed link used by an edit that moves a ring transfer over it.
edit "$T/s.json" "$T/overfault.json" "[t.pop('fold_at', None) for p in s['phases'] for st in p['steps'] for t in st['transfers']]"
expect_exit 3 - net-sim -i "$T/overfault.json"

# A harmless edit (the verification's wording): the digest no longer matches, the schedule is
# verified again and passes; coll-sched --check re-seals it.
edit "$T/s.json" "$T/worded.json" "s['verification']['method'] += ' (edited)'"
expect_ok net-sim -i "$T/worded.json" --format csv -o "$T/worded.csv"
check "same report re-verified" cmp -s "$T/sealed.csv" "$T/worded.csv"
expect_ok coll-sched --check -i "$T/worded.json" -o "$T/checked.json"
check "re-sealed" [ "$(jget "$T/checked.json" "d['schedule']['verified_digest']")" = "$(jget "$T/s.json" "d['schedule']['verified_digest']")" ]
# --check of a wrong schedule: exit 3, whatever digest it carries.
expect_exit 3 - coll-sched --check -i "$T/wrong.json"

# The key is strict: a malformed digest is bad input; unknown keys stay errors.
edit "$T/s.json" "$T/bad.json" "s['verified_digest']='XYZ'"
expect_exit 3 - net-sim -i "$T/bad.json"
check "names the key" grep -q "/schedule/verified_digest" "$T/err"
edit "$T/s.json" "$T/unknown.json" "s['verified_digests']=s['verified_digest']"
expect_exit 3 - net-sim -i "$T/unknown.json"

# Deterministic: the same input gives the same digest.
coll-sched -i "$T/net.json" --algorithm matee --dims dimrotation --bytes 8MiB --no-provenance >"$T/s2.json"
check "deterministic" cmp -s "$T/s.json" "$T/s2.json"

finish
