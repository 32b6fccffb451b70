#!/usr/bin/env bash
# The library knows no command line (lib/core/error.hpp): no string in lib/ names an option
# (--fail-link); it names the parameter in braces ({fail_link}) and the tools spell it. Two checks:
# - no string literal in lib/ (comments aside) holds an option name, "--" followed by a letter;
# - every {parameter} a string in lib/ names is an option of some tool (its --help lists it), so
#   the spelling a tool prints exists.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

for tool in topo-enum topo-gen topo-route coll-sched net-sim; do
  "$tool" --help >>"$T/help"
done

cat >"$T/scan.py" <<'EOF_PY'
import os, re, sys

root, help_file = sys.argv[1], sys.argv[2]
options = set(re.findall(r"--[a-z][a-z0-9-]*", open(help_file).read()))
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
OPTION = re.compile(r"(?<![A-Za-z0-9-])--[a-z]")
PARAM = re.compile(r"\{([a-z][a-z0-9_]*)\}")
bad = 0
params = 0
for dirpath, _, files in os.walk(root):
    for f in sorted(files):
        if not f.endswith((".hpp", ".cpp", ".hpp.in")):
            continue
        path = os.path.join(dirpath, f)
        for no, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line
            # comments: a line that starts with //, or the text after a // outside a literal
            if code.lstrip().startswith("//"):
                continue
            for lit in LITERAL.finditer(code):
                if "//" in code[: lit.start()] and code[: lit.start()].count('"') % 2 == 0:
                    break
                text = lit.group(0)
                if OPTION.search(text):
                    print(f"{path}:{no}: names an option: {text}")
                    bad += 1
                for p in PARAM.findall(text):
                    params += 1
                    if "--" + p.replace("_", "-") not in options:
                        print(f"{path}:{no}: {{{p}}} is no tool's option (--{p.replace('_', '-')})")
                        bad += 1
print(f"{params} parameter names checked", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF_PY

if python3 "$T/scan.py" "$ICNKIT_SRC/lib" "$T/help" >"$T/out" 2>"$T/err"; then
  pass
else
  fail "lib/ speaks the command line:
$(cat "$T/out")"
fi
# What the tools print from the library's texts (help, --describe, the preset list) is spelled.
for tool in topo-enum topo-gen topo-route coll-sched net-sim; do
  for args in --help --describe "--describe --format json"; do
    # shellcheck disable=SC2086
    "$tool" $args >"$T/text" 2>&1 || true
    # (CLI11 writes an option's choices as TEXT:{a,b}: not a parameter)
    if grep -qE '(^|[^:])\{[a-z][a-z0-9_]*\}' "$T/text"; then
      fail "$tool $args leaves a parameter unspelled: $(grep -oE '(^|[^:])\{[a-z][a-z0-9_]*\}' "$T/text" | head -3)"
    elif ! grep -q -- '--' "$T/text"; then
      fail "$tool $args printed no option at all: $(head -c 200 "$T/text")"
    else
      pass
    fi
  done
done
topo-gen --list-presets >"$T/presets"
if grep -qE '\{[a-z][a-z0-9_]*\}' "$T/presets" || ! grep -q -- '--fail-ocs' "$T/presets"; then
  fail "topo-gen --list-presets: $(grep -E 'fail|\{' "$T/presets" | head -3)"
else
  pass
fi
# The scan itself finds what it looks for (a check that cannot fail is no check).
mkdir -p "$T/lib"
printf '%s\n' 'fail_usage("--vcs", "x"); // "--ok" in a comment' '// "--also-ok"' \
  'fail_usage("{no_such_option}", "y");' 'fail_usage("{vcs}", "z");' >"$T/lib/probe.cpp"
python3 "$T/scan.py" "$T/lib" "$T/help" >"$T/probe" 2>/dev/null || true
if [ "$(grep -c '' "$T/probe")" = 2 ] && grep -q 'names an option: "--vcs"' "$T/probe" &&
  grep -q 'no_such_option' "$T/probe"; then
  pass
else
  fail "the scan missed a planted option name: $(cat "$T/probe")"
fi
finish
