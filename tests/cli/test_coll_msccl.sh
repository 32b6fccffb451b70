# coll-sched --format msccl: the verified schedule as MSCCL-IR XML (tests/unit/coll/test_msccl.cpp
# runs it through an interpreter); a format it does not know is a usage error (exit 2), a
# schedule MSCCL-IR cannot express is infeasible (exit 4, one error line, nothing on stdout).
source "$ICNKIT_SRC/tests/cli/lib.sh"

topo-gen --torus 4x4 | topo-route >"$T/t44.json"
# Ring all-reduce on the torus (its dimension-wise ring form) and between ranks on a switch.
expect_ok coll-sched -i "$T/t44.json" --collective all-reduce --algorithm ring --bytes 1MiB \
  --format msccl -o "$T/ring.xml"
check "ring all-reduce XML starts with <algo" grep -q '^<algo ' "$T/ring.xml"
check "ring all-reduce XML is an allreduce of 16 GPUs" \
  grep -q 'ngpus="16" coll="allreduce"' "$T/ring.xml"
check "ring all-reduce XML ends with </algo>" test "$(tail -n 1 "$T/ring.xml")" = "</algo>"
# HalfRing + DimRotation all-to-all, to stdout.
coll-sched -i "$T/t44.json" --algorithm halfring --dims dimrotation --bytes 8MiB \
  --format msccl >"$T/half.xml"
check "halfring all-to-all XML starts with <algo" grep -q '^<algo .*coll="alltoall"' "$T/half.xml"
# Between ranks on another family; --check of the document exports the checked schedule.
topo-enum -n 8 --family single-switch | topo-gen --pick single-switch:8/c1 \
  | topo-route --algorithm minimal \
  >"$T/sw.json"
coll-sched -i "$T/sw.json" --collective all-to-all --algorithm bruck --bytes 1MiB -o "$T/sched.json"
expect_ok coll-sched --check -i "$T/sched.json" --format msccl -o "$T/bruck.xml"
check "bruck all-to-all uses the scratch buffer" grep -q 'srcbuf="s"' "$T/bruck.xml"
# JSON stays the default.
coll-sched -i "$T/sw.json" --collective all-to-all --algorithm direct --bytes 1MiB >"$T/doc.json"
check "json by default" test "$(jget "$T/doc.json" "d['schedule']['algorithm']")" = direct

expect_exit 2 "$T/t44.json" coll-sched --collective all-reduce --bytes 1MiB --format xml
# MSCCL-IR has no broadcast; one all-reduce per board is not one collective over all the GPUs.
expect_exit 4 "$T/sw.json" coll-sched --collective broadcast --algorithm binomial --bytes 1MiB \
  --format msccl
expect_exit 4 "$T/t44.json" coll-sched --collective all-reduce --algorithm direct --group board \
  --bytes 1MiB --format msccl
# The hierarchical all-reduce's stages export as one all-reduce.
expect_ok coll-sched -i "$T/t44.json" --collective all-reduce --algorithm hierarchical \
  --bytes 1MiB --format msccl -o "$T/hier.xml"
check "hierarchical all-reduce XML" grep -q '^<algo .*coll="allreduce"' "$T/hier.xml"
finish
