#!/usr/bin/env bash
# The code's citations resolve inside the repository: every "FILE.md §SECTION" and every
# "docs/FILE.md" that lib/, tools/, tests/ and scripts/ name is a file the repository has, and a
# cited section is (part of) one of that file's headings; and neither the code nor README or
# docs/ point at documents kept outside the repository (a ../shared tree, a DESIGN document).
#
# How a citation is read: FILE.md is resolved against the repository root, then against the
# citing file's directory. Each "§" after it on the same line names a section ("FILE.md section
# 2" counts as "FILE.md §2"), which runs up to the first ")", ",", ";", ":", "§", ". " or the end
# of the line; it must be contained in a heading ("#" lines outside code fences) of FILE.md.
# So cite as
#   docs/algorithms.md §HalfRing    or    (docs/algorithms.md §Ring all-to-all, §FoldedRing)
# and keep a citation on one line.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

cat >"$T/refs.py" <<'EOF'
import os, re, sys

root, what = sys.argv[1], sys.argv[2]
SELF = os.path.join("tests", "cli", "test_references.sh")  # names the patterns it forbids


def walk(tops):
    for top in tops:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield top
            continue
        for d, dirs, names in os.walk(p):
            dirs[:] = sorted(x for x in dirs if not x.startswith("."))
            for name in sorted(names):
                rel = os.path.relpath(os.path.join(d, name), root)
                if rel != SELF:
                    yield rel


def lines(rel):
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read().splitlines()
    except (UnicodeDecodeError, OSError):
        return []  # binary (fuzz corpora, pictures): no citations


def headings(path):
    out, fence = [], False
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            out.append(line.lstrip("#").strip())
    return out


def resolve(rel, target):
    for base in (root, os.path.dirname(os.path.join(root, rel))):
        p = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(p):
            return p
    return None


problems = []
code = ["lib", "tools", "tests", "scripts"]
if what == "sections":
    cite = re.compile(r"(?<![\w./$-])([\w./-]*\w\.md) ?§")
    end = re.compile(r"[),;:§]|\.(?:\s|$)")
    sect = re.compile(r"(\.md),? sections? ")  # "FILE.md section 2" is "FILE.md §2"
    for rel in walk(code):
        for no, line in enumerate(lines(rel), 1):
            line = sect.sub(r"\1 §", line)
            found = list(cite.finditer(line))
            for k, m in enumerate(found):
                where = f"{rel}:{no}: {m.group(1)}"
                path = resolve(rel, m.group(1))
                if path is None:
                    problems.append(f"{where}: no such file")
                    continue
                heads = headings(path)
                # From this citation's first § up to the next citation of a file.
                rest = line[m.end() - 1 : found[k + 1].start() if k + 1 < len(found) else len(line)]
                for part in rest.split("§")[1:]:
                    name = end.split(part, maxsplit=1)[0].strip()
                    if not name or not any(name in h for h in heads):
                        problems.append(f"{where} §{name}: no heading of {m.group(1)} has it")
elif what == "docs":
    # docs/x.md is tests/cli/test_describe.sh's example of a link relative to a docs/ page.
    examples = {"docs/x.md"}
    path = re.compile(r"(?<![\w./$-])(docs/[\w./-]*\w\.md)\b")
    for rel in walk(code):
        for no, line in enumerate(lines(rel), 1):
            for m in path.finditer(line):
                p = m.group(1)
                if p not in examples and not os.path.isfile(os.path.join(root, p)):
                    problems.append(f"{rel}:{no}: {p}: no such file")
elif what == "outside":
    # A sentence saying there is "no DESIGN.md" names none.
    bad = re.compile(r"\.\./shared|/work/shared|(?<!no )DESIGN(?:\.md|'s\b| ?§)")
    for rel in walk(code + ["README.md", "docs"]):
        for no, line in enumerate(lines(rel), 1):
            for m in bad.finditer(line):
                problems.append(f"{rel}:{no}: {m.group(0)}: {line.strip()[:120]}")
for p in problems:
    print(p, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF

check "every FILE.md § citation names a file the repository has and one of its headings" \
  python3 "$T/refs.py" "$ICNKIT_SRC" sections
check "every docs/FILE.md the code names exists" python3 "$T/refs.py" "$ICNKIT_SRC" docs
check "no pointer to documents outside the repository (../shared, DESIGN)" \
  python3 "$T/refs.py" "$ICNKIT_SRC" outside

# The checker itself: a dangling citation, an unknown section and an outside pointer are caught.
mkdir -p "$T/src/lib" "$T/src/docs"
printf '# Page\n\n## Known section\n' >"$T/src/docs/page.md"
printf '// (docs/page.md §Known section)\n// docs/page.md §Known, §Page\n' >"$T/src/lib/ok.hpp"
check "checker: resolving citations pass" python3 "$T/refs.py" "$T/src" sections
printf '// see algorithms.md §5\n' >"$T/src/lib/bad.hpp"
check "checker: a missing file is caught" bash -c '! python3 "$1" "$2" sections 2>/dev/null' _ \
  "$T/refs.py" "$T/src"
printf '// see docs/page.md §Unknown section\n' >"$T/src/lib/bad.hpp"
check "checker: a missing section is caught" bash -c '! python3 "$1" "$2" sections 2>/dev/null' _ \
  "$T/refs.py" "$T/src"
printf '// docs/page.md §Known section, §Nowhere\n' >"$T/src/lib/bad.hpp"
check "checker: a second section on the line is checked" \
  bash -c '! python3 "$1" "$2" sections 2>/dev/null' _ "$T/refs.py" "$T/src"
printf '// docs/page.md sections 1-6\n' >"$T/src/lib/bad.hpp"
check "checker: 'FILE.md sections' is a citation too" \
  bash -c '! python3 "$1" "$2" sections 2>/dev/null' _ "$T/refs.py" "$T/src"
printf '// docs/gone.md\n' >"$T/src/lib/bad.hpp"
check "checker: a missing docs/ page is caught" bash -c '! python3 "$1" "$2" docs 2>/dev/null' _ \
  "$T/refs.py" "$T/src"
printf '# from /work/shared/x\n' >"$T/src/lib/bad.hpp"
check "checker: a pointer outside is caught" bash -c '! python3 "$1" "$2" outside 2>/dev/null' _ \
  "$T/refs.py" "$T/src"

finish
