# Shared helpers for the command-line tests. Source it; it sets -eu and a scratch dir $T.
# ICNKIT_BIN (the build directory) and ICNKIT_SRC (the source tree) come from CTest.
set -euo pipefail
: "${ICNKIT_BIN:?set ICNKIT_BIN to the build directory}"
# Debian's python3 first (scripts/setup installs it with networkx and matplotlib): a pyenv or
# virtualenv python3 earlier on PATH lacks those packages and, behind pyenv's shims, costs half
# a second a call, and the tests call python3 hundreds of times (jget).
if [ -x /usr/bin/python3 ]; then PATH="$ICNKIT_BIN:/usr/bin:$PATH"; else PATH="$ICNKIT_BIN:$PATH"; fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FAILS=0
PASSES=0

pass() { PASSES=$((PASSES + 1)); }
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# expect_exit CODE STDIN_FILE CMD...: runs CMD with STDIN_FILE on stdin ('-' = none) and checks
# the exit code, that stderr is exactly one line starting with "TOOL: error: ", and that
# nothing was written to stdout.
expect_exit() {
  local want=$1 in=$2
  shift 2
  local got=0
  if [ "$in" = - ]; then in=/dev/null; fi
  "$@" <"$in" >"$T/out" 2>"$T/err" || got=$?
  local tool
  tool=$(basename "$1")
  if [ "$got" != "$want" ]; then
    fail "$* : exit $got, want $want; stderr: $(head -c 300 "$T/err")"
    return 0
  fi
  if [ -s "$T/out" ]; then fail "$* : wrote to stdout on error"; return 0; fi
  if [ "$(grep -c '' "$T/err")" != 1 ]; then fail "$* : stderr is not one line: $(cat "$T/err")"; return 0; fi
  if ! grep -q "^$tool: error: " "$T/err"; then fail "$* : stderr lacks '$tool: error: ': $(cat "$T/err")"; return 0; fi
  # The library names parameters as {name}; the tool must have spelled every one as its option.
  if grep -qE '\{[a-z][a-z0-9_]*\}' "$T/err"; then fail "$* : a parameter left unspelled: $(cat "$T/err")"; return 0; fi
  pass
}

# expect_ok CMD...: CMD must exit 0.
expect_ok() {
  if "$@" >"$T/out" 2>"$T/err"; then pass; else fail "$* : exit $?; stderr: $(head -c 300 "$T/err")"; fi
}

# check NAME CONDITION...: a named assertion on a shell condition.
check() {
  local name=$1
  shift
  if "$@"; then pass; else fail "$name"; fi
}

# jq-free JSON query: jget FILE PYTHON_EXPR (d is the document).
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# jlink FILE K: network link K's (bandwidth_bytes_per_s, latency_s), taking what the link leaves
# out from the network's link_defaults for its kind.
jlink() {
  jget "$1" "(lambda l, D: (l.get('bandwidth_bytes_per_s', D.get(l['kind'], {}).get('bandwidth_bytes_per_s')), l.get('latency_s', D.get(l['kind'], {}).get('latency_s'))))(d['network']['links'][$2], d['network'].get('link_defaults', {}))"
}

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" = 0 ]
}
