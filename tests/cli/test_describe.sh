#!/usr/bin/env bash
# One --describe convention in all five tools (text for people; with --format json, one JSON
# object for programs), and the documentation agreeing with the tools: docs/tools.md's option
# claims, the tour's 2c switches' ports (docs/tutorial.md), no reference or link to a file the
# repository does not have, and scripts/reproduce-micro25's --help and clean-up.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

families="fat-tree dragonfly dragonfly+ torus mesh hypercube hyperx ring full-mesh single-switch composed custom"
# describe TOOL KEY NAMES...: the registry list KEY of TOOL names exactly NAMES, in order, as JSON
# and as text (each name a line of its own under the heading KEY in capitals).
describe() {
  local tool=$1 key=$2
  shift 2
  expect_ok "$tool" --describe --format json
  check "$tool --describe --format json: no stderr" [ ! -s "$T/err" ]
  # tool, the names in order, and a summary for every entry.
  check "$tool json: tool, $key = $*, summaries" [ "$(jget "$T/out" \
    "(d['tool'], ' '.join(e['name'] for e in d['$key']), all(isinstance(e.get('summary'), str) and e['summary'] for e in d['$key']))")" \
    = "('$tool', '$*', True)" ]
  expect_ok "$tool" --describe
  check "$tool --describe: no stderr" [ ! -s "$T/err" ]
  check "$tool --describe is text, not JSON" [ "$(head -c 1 "$T/out")" != "{" ]
  local heading
  heading=$(echo "$key" | tr 'a-z_' 'A-Z ')
  check "$tool text: heading $heading" grep -qx "$heading" "$T/out"
  local name
  for name in "$@"; do check "$tool text lists $name" grep -qxF -- "$name" "$T/out"; done
}

describe topo-enum families $families
describe topo-gen families $families
describe topo-gen formats json networkx graphml dot booksim simai astra-sim
describe topo-route algorithms dor wfr odd-even fthoe minimal dmodk dragonfly-min rail
describe coll-sched collectives all-to-all all-reduce reduce-scatter all-gather broadcast reduce
describe coll-sched algorithms ring bidirectional-ring halfring foldedring foldedring-ring mate matee direct \
  halving-doubling bruck pairwise hierarchical binomial double-binary-tree chain in-network
# One list: ring has both forms, each under its own heading; a torus-only or a rank-only
# algorithm has one.
expect_ok coll-sched --describe --format json
check "coll-sched: ring has a torus form and a form between ranks, halfring and direct one each" \
  [ "$(jget "$T/out" "[sorted(k for k in a if k not in ('name', 'summary')) for a in d['algorithms'] if a['name'] in ('ring', 'halfring', 'direct')]")" \
  = "[['between_ranks', 'on_torus'], ['on_torus'], ['between_ranks']]" ]
describe coll-sched dim_scheduling sequential pipeline dimrotation
describe net-sim modes analytic flit
describe net-sim traffic all-to-all all-to-all-pairwise all-to-all-mpich uniform transpose \
  bit-complement bit-reverse shuffle tornado neighbour hotspot random-permutation
expect_ok net-sim --describe --format json
check "net-sim: analytic names both latency models, the default first" [ "$(jget "$T/out" \
  "(d['modes'][0]['latency_model'].startswith('per-step (default)'), 'astra' in d['modes'][0]['latency_model_alternative'], 'latency_model_alternative' in d['modes'][1])")" \
  = "(True, True, False)" ]

# Parameters as the registry gives them: topo-route's --tie, coll-sched's --dims parameters.
expect_ok topo-route --describe --format json
check "dor's tie: option, default, choices" [ "$(jget "$T/out" \
  "[(p['option'], p['default'], p['allowed']) for p in d['algorithms'][0]['parameters'] if p['name'] == 'tie'][0]")" \
  = "('--tie', 'parity', 'parity, plus')" ]
expect_ok topo-enum --describe
check "topo-enum text: parameter ranges" grep -q "k in \[4, 64\] even" "$T/out"

# --describe writes to -o like any output; another --format is refused.
expect_ok topo-route --describe -o "$T/route.txt"
check "-o: nothing on stdout" [ ! -s "$T/out" ]
check "-o: the text" grep -qx dor "$T/route.txt"
expect_exit 2 - net-sim --describe --format csv
expect_exit 2 - topo-gen --describe --format dot
expect_exit 2 - topo-route --describe --format xml

# --- the documentation and the tools agree ----------------------------------------------------
TOOLS_DOC="$ICNKIT_SRC/docs/tools.md"
TOUR="$ICNKIT_SRC/docs/tutorial.md"
topo-enum -n 64 >"$T/cands.json"
topo-gen -i "$T/cands.json" --pick 'torus:4x4x4/b1x1x1' --no-provenance >"$T/torus.json"

# The algorithms docs/tools.md gives `--no-dateline` accept it.
nd=$(grep -o -- '`--no-dateline` ([a-z, -]*' "$TOOLS_DOC" | head -1 | sed 's/.*(//')
check "docs/tools.md names --no-dateline's algorithms" [ -n "$nd" ]
for a in $(echo "$nd" | tr ',' ' '); do
  expect_ok topo-route -i "$T/torus.json" --algorithm "$a" --no-dateline
done
expect_exit 2 "$T/torus.json" topo-route --algorithm wfr --no-dateline
# The flag's help says what the flag does (turns the datelines off), for dor only.
expect_ok topo-route --help
line=$(grep -- '--no-dateline ' "$T/out" | grep -v '^ *topo-route')
check "--no-dateline help: turns them off" grep -q 'Turn the dateline VCs off' <<<"$line"
check "--no-dateline help: no 'default: true'" bash -c '! grep -q "default: true" <<<"$1"' _ "$line"
check "--no-dateline help: dor only" grep -q '\[dor\]$' <<<"$line"

# 2c: radix-8 fat-tree switches whose ports are breakouts of 4 lanes: 32 ports each.
topo-enum --n-chip 32 --family fat-tree --where k=8,layers=2,chips_per_board=4 | topo-gen >"$T/ft.json"
check "2c: every switch has 8 x 4 = 32 ports" [ "$(jget "$T/ft.json" \
  "sorted({v['ports'] for v in d['network']['nodes'] if v['kind'] == 'switch'})")" = "[32]" ]
check "2c: leaves use 32 links, spines 8" [ "$(jget "$T/ft.json" "sorted((v['role'], sum(l['a'] == v['id'] or l['b'] == v['id'] for l in d['network']['links'])) for v in d['network']['nodes'] if v['kind'] == 'switch')")" \
  = "[('leaf', 32), ('leaf', 32), ('spine', 8), ('spine', 8), ('spine', 8), ('spine', 8)]" ]
check "the tour's 2c says 32 ports" bash -c 'grep -A4 "^# 2c\." "$1" | grep -q "32 ports"' _ "$TOUR"
check "the tour's 2c does not say 8-port" bash -c '! grep "^# 2c\." "$1" | grep -q "8-port"' _ "$TOUR"

# Every file README and docs/ name is in the repository (no DESIGN.md, no briefs elsewhere).
check "README and docs/ name only files the repository has" python3 - "$ICNKIT_SRC" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
docs = [os.path.join(root, "README.md")] + glob.glob(os.path.join(root, "docs", "*.md"))
path = re.compile(r"(?<![\w./-])((?:lib|tools|tests|scripts|docs)/[\w./-]*\w|[\w-]+\.md)\b")
missing = []
for doc in docs:
    for m in path.finditer(open(doc, encoding="utf-8").read()):
        p = m.group(1)
        # A path is the repository's (lib/...), a test's, or a link relative to the page (docs/x.md -> y.md).
        if not any(os.path.exists(os.path.join(base, p))
                   for base in (root, os.path.join(root, "tests", "cli"), os.path.dirname(doc))):
            missing.append((os.path.basename(doc), p))
if missing:
    print(missing, file=sys.stderr)
sys.exit(1 if missing else 0)
EOF
# Every link and picture README and docs/ show ([text](target), <img src="target">) resolves
# against the page's own folder, the way a reader's browser resolves it.
check "README's and docs/'s links resolve against their page" python3 - "$ICNKIT_SRC" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
docs = [os.path.join(root, "README.md"), os.path.join(root, "CHANGELOG.md")] + \
    glob.glob(os.path.join(root, "docs", "*.md"))
link = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
bad = []
for doc in docs:
    if not os.path.exists(doc):
        continue
    for m in link.finditer(open(doc, encoding="utf-8").read()):
        target = (m.group(1) or m.group(2)).split("#")[0]
        if not target or re.match(r"^[a-z]+:", target):
            continue
        if not os.path.exists(os.path.join(os.path.dirname(doc), target)):
            bad.append((os.path.relpath(doc, root), target))
if bad:
    print(bad, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# --- scripts/reproduce-micro25: --help, and no temporary directory left behind ------------------
mkdir "$T/tmp"
out=$(TMPDIR="$T/tmp" "$ICNKIT_SRC/scripts/reproduce-micro25" --help) && rc=0 || rc=$?
check "reproduce --help: exit 0" [ "$rc" = 0 ]
check "reproduce --help: usage" grep -q '^usage: reproduce-micro25' <<<"$out"
check "reproduce --help: runs nothing" bash -c '! grep -q "^| configuration" <<<"$1"' _ "$out"
check "reproduce --help: no temporary directory" [ -z "$(ls -A "$T/tmp")" ]
# Tools that fail: the run stops with an error, and its temporary directory is gone.
mkdir "$T/fail" "$T/slow"
for t in topo-gen topo-route coll-sched net-sim; do
  printf '#!/bin/sh\necho "$0: error: refused" >&2\nexit 3\n' >"$T/fail/$t"
  printf '#!/bin/sh\nexec sleep 60\n' >"$T/slow/$t"
  chmod +x "$T/fail/$t" "$T/slow/$t"
done
TMPDIR="$T/tmp" ICNKIT_BIN="$T/fail" "$ICNKIT_SRC/scripts/reproduce-micro25" >/dev/null 2>"$T/err" && rc=0 || rc=$?
check "reproduce with failing tools: non-zero" [ "$rc" != 0 ]
check "reproduce with failing tools: says which" grep -q 'topo-gen.*failed (exit 3)' "$T/err"
check "reproduce with failing tools: no temporary directory" [ -z "$(ls -A "$T/tmp")" ]
# SIGTERM while a pipeline runs: the directory is removed too.
TMPDIR="$T/tmp" ICNKIT_BIN="$T/slow" "$ICNKIT_SRC/scripts/reproduce-micro25" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do [ -n "$(ls -A "$T/tmp")" ] && break; sleep 0.1; done
check "reproduce made its temporary directory" [ -n "$(ls -A "$T/tmp")" ]
kill -TERM "$pid"
wait "$pid" && rc=0 || rc=$?
check "reproduce on SIGTERM: exit 143" [ "$rc" = 143 ]
check "reproduce on SIGTERM: no temporary directory" [ -z "$(ls -A "$T/tmp")" ]

finish
