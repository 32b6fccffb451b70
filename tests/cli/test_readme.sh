#!/usr/bin/env bash
# Every command README shows runs as shown, and prints what README says it prints.
#
# The convention (README's side of it):
# - Every line of a ```sh or ```bash block is a command, run in the order README gives them, all
#   in one scratch directory (so a command may read what an earlier one wrote), with the tools
#   on PATH and `build` and `scripts` linked to the build and the source tree's scripts. A line
#   ending in a backslash continues on the next; blank lines and lines starting with `#` are
#   skipped. Each command runs in `bash -o pipefail` and must exit 0.
# - A plain ``` block right after a ```sh / ```bash block is what the block's last command
#   prints on stdout, byte for byte.
# - SKIP lists the commands that are not run here: setup and the test suite (running them from
#   a test would rebuild the tree and recurse). Each must still appear in README exactly so.
# README's commands are small examples: together they take a few seconds.
. "$(dirname "$0")/lib.sh"
: "${ICNKIT_SRC:?set ICNKIT_SRC to the source tree}"
README="$ICNKIT_SRC/README.md"

SKIP=(
  "scripts/setup && scripts/demo"
  "scripts/test"
)

# The commands and expected outputs, one record per command: "cmd<TAB>expected-file or ''"
# (commands are base64 so that any character survives).
python3 - "$README" "$T" >"$T/commands" <<'EOF'
import base64, re, sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
out_dir = sys.argv[2]
i, n_out = 0, 0
while i < len(text):
    m = re.match(r"^```(sh|bash)\s*$", text[i])
    if not m:
        i += 1
        continue
    i += 1
    cmds, cur = [], ""
    while not text[i].startswith("```"):
        line = text[i]
        i += 1
        if cur:
            cur += "\n" + line
        elif not line.strip() or line.lstrip().startswith("#"):
            continue
        else:
            cur = line
        if not cur.endswith("\\"):
            cmds.append(cur)
            cur = ""
    i += 1  # the closing fence
    expected = ""
    if i < len(text) and text[i] == "```":
        j = i + 1
        while not text[j].startswith("```"):
            j += 1
        n_out += 1
        expected = f"{out_dir}/expected.{n_out}"
        with open(expected, "w", encoding="utf-8") as f:
            f.write("".join(l + "\n" for l in text[i + 1:j]))
        i = j + 1
    for k, c in enumerate(cmds):
        exp = expected if k == len(cmds) - 1 else ""
        print(base64.b64encode(c.encode()).decode() + "\t" + exp)
EOF

mkdir "$T/run"
ln -s "$ICNKIT_BIN" "$T/run/build"
ln -s "$ICNKIT_SRC/scripts" "$T/run/scripts"

ran=0 skipped=0 compared=0
while IFS=$'\t' read -r b64 expected; do
  cmd=$(printf '%s' "$b64" | base64 -d)
  # The command without a trailing comment, for the skip list.
  bare=$(printf '%s' "$cmd" | sed 's/[[:space:]]*#[^"'\'']*$//')
  skip=0
  for s in "${SKIP[@]}"; do [ "$bare" = "$s" ] && skip=1; done
  if [ "$skip" = 1 ]; then skipped=$((skipped + 1)); continue; fi
  ran=$((ran + 1))
  rc=0
  (cd "$T/run" && bash -o pipefail -c "$cmd") >"$T/out" 2>"$T/err" </dev/null || rc=$?
  check "README command exits 0: $cmd (exit $rc; stderr: $(head -c 300 "$T/err"))" [ "$rc" = 0 ]
  if [ -n "$expected" ]; then
    compared=$((compared + 1))
    if cmp -s "$expected" "$T/out"; then
      pass
    else
      fail "README's output of '$cmd' differs from what it prints: $(diff "$expected" "$T/out" | head -20)"
    fi
  fi
done <"$T/commands"

# The extraction found what README has: its commands and outputs, and every skipped command.
check "README: commands found ($ran run)" [ "$ran" -ge 3 ]
check "README: outputs found ($compared compared)" [ "$compared" -ge 2 ]
check "README: every SKIP entry is one of its commands" [ "$skipped" = "${#SKIP[@]}" ]
for s in "${SKIP[@]}"; do
  check "README still shows '$s'" grep -qF -- "$s" "$README"
done

finish
