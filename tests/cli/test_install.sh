# cmake --install: the five tools run from the prefix, --version names this repository's git
# revision, and the man pages (from --help, by help2man) open with man -l.
source "$ICNKIT_SRC/tests/cli/lib.sh"
exec </dev/null

P="$T/prefix"
expect_ok cmake --install "$ICNKIT_BIN" --prefix "$P"
for t in topo-enum topo-gen topo-route coll-sched net-sim; do
  check "$t installed" [ -x "$P/bin/$t" ]
  expect_ok "$P/bin/$t" --version
  rev=$(sed -n 's/.*(git \([0-9a-f]*\)).*/\1/p' "$T/out")
  check "$t --version names a revision of this repository" git -C "$ICNKIT_SRC" cat-file -e "$rev^{commit}"
  check "$t man page" [ -s "$P/share/man/man1/$t.1" ]
  MANWIDTH=80 man -l "$P/share/man/man1/$t.1" >"$T/man.txt" 2>/dev/null
  check "$t man page opens: NAME, SYNOPSIS, its options" bash -c \
    'grep -q "^NAME" "$1" && grep -q "^SYNOPSIS" "$1" && grep -q -- "--help" "$1" && grep -Eq "^ *$2 +- " "$1"' _ "$T/man.txt" "$t"
done
# The plot command: installed as icnkit-plot, its version the tools', its man page, and a plot
# drawn from the prefix.
check "icnkit-plot installed" [ -x "$P/bin/icnkit-plot" ]
check "icnkit-plot --version as the tools'" [ "$("$P/bin/icnkit-plot" --version | sed 's/^icnkit-plot //')" = "$("$P/bin/net-sim" --version | sed 's/^net-sim //')" ]
check "icnkit-plot man page" [ -s "$P/share/man/man1/icnkit-plot.1" ]
MANWIDTH=80 man -l "$P/share/man/man1/icnkit-plot.1" >"$T/man.txt" 2>/dev/null
check "icnkit-plot man page opens" bash -c 'grep -q "^NAME" "$1" && grep -q -- "--output" "$1"' _ "$T/man.txt"
"$P/bin/topo-gen" --torus 4x4 | "$P/bin/topo-route" | "$P/bin/coll-sched" --bytes 1MiB -q |
  "$P/bin/net-sim" --step-times -q >"$T/steps.json"
expect_ok "$P/bin/icnkit-plot" timeline "$T/steps.json" -o "$T/steps.png"
check "a plot from the prefix" [ "$(head -c 4 "$T/steps.png" | od -An -c | tr -d ' ')" = '211PNG' ]
# The installed tools make a pipeline on their own.
PATH="$P/bin:/usr/bin:/bin" bash -c 'topo-gen --torus 4x4 | topo-route | coll-sched --bytes 1MiB \
  | net-sim --format csv' >"$T/run.csv"
check "a pipeline from the prefix" [ "$(wc -l <"$T/run.csv")" = 2 ]
# Provenance carries the revision as --version prints it.
"$P/bin/topo-gen" --torus 4x4 >"$T/net.json"
check "provenance names the revision" [ "$(jget "$T/net.json" "d['provenance'][-1]['version']")" = "$("$P/bin/topo-gen" --version | sed 's/^topo-gen //')" ]

finish
