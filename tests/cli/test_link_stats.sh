# net-sim --link-stats in the analytic mode and the flit replay: every live channel listed once,
# its figures adding up to the bytes the traffic moves (a closed form), the summary figures of
# link_utilisation agreeing with the list, and failed links left out.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

topo-gen --torus 4x4 --link-bw 50GB/s --link-latency 100ns | topo-route >"$T/routed.json"
topo-gen --torus 4x4 --link-bw 50GB/s --link-latency 100ns --fail-link '(1,1)-(2,1)' |
  topo-route --algorithm wfr >"$T/faulty.json" 2>/dev/null

# All-to-all over DOR on a 4x4 torus: every ordered pair sends 1 MiB / 16 over its minimal
# route. From one chip the hop counts to the others add up to 2 x 4 x (0+1+2+1) = 32, so the
# channels carry 16 x 32 x 1 MiB / 16 = 32 MiB between them.
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all --bytes 1MiB --link-stats -o "$T/a.json"
check "every channel of the 32 links listed" [ "$(jget "$T/a.json" "len(d['report']['link_utilisation']['channels'])")" = 64 ]
check "channels in channel order, each link both ways" python3 -c "
import json,sys
d = json.load(open('$T/a.json'))
ch = d['report']['link_utilisation']['channels']
links = {l['id']: (l['a'], l['b']) for l in d['network']['links']}
ok = all(c['link'] == k // 2 and (c['from'], c['to']) == (links[k // 2] if k % 2 == 0 else links[k // 2][::-1])
         for k, c in enumerate(ch))
sys.exit(0 if ok else 1)"
check "bytes carried = 32 MiB (closed form)" python3 -c "
import json,sys
r = json.load(open('$T/a.json'))['report']
total = sum(c['utilisation'] for c in r['link_utilisation']['channels']) * 50e9 * r['time_s']
sys.exit(0 if abs(total / (32 * 2**20) - 1) < 1e-9 else 1)"
check "max and mean agree with the list" python3 -c "
import json,sys
u = json.load(open('$T/a.json'))['report']['link_utilisation']
v = [c['utilisation'] for c in u['channels']]
sys.exit(0 if max(v) == u['max'] and abs(sum(v) / len(v) - u['mean']) < 1e-12 and
         sum(x > 0 for x in v) == u['busy_channels'] else 1)"
# Without the flag the list is absent; the document with it parses back.
expect_ok net-sim -i "$T/routed.json" --traffic all-to-all --bytes 1MiB -o "$T/b.json"
check "no list without --link-stats" [ "$(jget "$T/b.json" "'channels' in d['report']['link_utilisation']")" = False ]
expect_ok net-sim -i "$T/a.json" --traffic all-to-all --bytes 1MiB --format csv

# A failed link's two channels are left out.
expect_ok net-sim -i "$T/faulty.json" --traffic all-to-all --bytes 1MiB --link-stats -o "$T/f.json"
check "failed link left out" [ "$(jget "$T/f.json" "len(d['report']['link_utilisation']['channels'])")" = 62 ]
check "live_channels = the list" [ "$(jget "$T/f.json" "d['report']['link_utilisation']['live_channels']")" = 62 ]

# A schedule: HalfRing + DimRotation moves every byte the schedule's hops say.
coll-sched -i "$T/routed.json" --algorithm halfring --dims dimrotation --bytes 1MiB -q >"$T/s.json"
expect_ok net-sim -i "$T/s.json" --link-stats -o "$T/sa.json"
check "schedule: 64 channels" [ "$(jget "$T/sa.json" "len(d['report']['link_utilisation']['channels'])")" = 64 ]

# Flit replay: flits per cycle per channel, adding up to the replay's flit-hops.
expect_ok net-sim -i "$T/s.json" --mode flit --link-stats -o "$T/sf.json"
check "replay: flit-hops = sum of utilisation x cycles" python3 -c "
import json,sys
r = json.load(open('$T/sf.json'))['report']
total = sum(c['utilisation'] for c in r['link_utilisation']['channels']) * r['replay']['cycles']
sys.exit(0 if abs(total - r['replay']['flit_hops']) < 1e-6 * r['replay']['flit_hops'] else 1)"
check "replay and analytic load the same channels" python3 -c "
import json,sys
a = json.load(open('$T/sa.json'))['report']['link_utilisation']['channels']
f = json.load(open('$T/sf.json'))['report']['link_utilisation']['channels']
sys.exit(0 if [c['utilisation'] > 0 for c in a] == [c['utilisation'] > 0 for c in f] else 1)"

finish
