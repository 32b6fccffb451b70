#!/usr/bin/env bash
# examples/sweeps: the same sweep under make -j2, GNU parallel -j2 (also through
# --sshloginfile, with the local pseudo-host ':') and a Slurm job array on a one-node Slurm
# (munged, slurmctld and slurmd started here on private ports and directories, stopped on
# exit) must give byte-identical merged CSVs; make must re-run only what changed.
source "$(dirname "$0")/lib.sh"
SWEEPS=$ICNKIT_SRC/examples/sweeps
for x in make parallel sbatch slurmctld slurmd munged mungekey; do
  command -v "$x" >/dev/null || { echo "FAIL: $x is not installed (scripts/setup installs it)" >&2; exit 1; }
done

mapfile -t jobs < <("$SWEEPS/jobs")
n=${#jobs[@]}
check "the job list has 16 reports" [ "$n" = 16 ]

# --- stage: a NAME that is not a stage file's is one error line, exit 2, before any tool runs --
B=$T/names
for name in .json net-4x4-.json foo.json net-4x4 route--dor.json route-4x4-.json net-4x0.json \
  net-04x4.json net-4.json 'route-4x4-d r.json' sched-4x4-dor-ring-sequential-.json \
  report-4x4-dor--sequential-1MiB.json report-4x4-dor-ring-sequential-1MiB-x.json \
  "$(printf 'route-4x4-dor\nx.json')"; do
  expect_exit 2 - "$SWEEPS/stage" "$B/$name"
done
expect_exit 2 - "$SWEEPS/stage"
expect_exit 2 - "$SWEEPS/stage" -x "$B/net-4x4.json"
expect_exit 2 - "$SWEEPS/stage" "$B/net-4x4.json" "$B/net-4x4-.json"
check "stage: every NAME checked before any tool runs" [ ! -e "$B" ]

# --- make -j2 ---------------------------------------------------------------------------------
expect_ok make --no-print-directory -C "$SWEEPS" -j2 OUT="$T/make"
check "make: sweep.csv has a header and one row per job" [ "$(grep -c '' "$T/make/sweep.csv")" = $((n + 1)) ]
check "make: 2 nets, 2 routes, 16 schedules, 16 reports" \
  [ "$(ls "$T/make" | sed 's/-.*//' | sort | uniq -c | tr -s ' ' | tr '\n' ,)" = " 2 net, 16 report, 2 route, 16 sched, 1 sweep.csv," ]
# The rows are the job list's configurations, in its order.
python3 - "$T/make/sweep.csv" "${jobs[@]}" <<'PY' || fail "make: the CSV rows are not the job list's, in order"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
units = {"KiB": 1024, "MiB": 1024 ** 2}
for row, job in zip(rows, sys.argv[2:], strict=True):
    shape, routing, alg, dims, size = job[len("report-"):-len(".json")].split("-")
    n = 1
    for s in shape.split("x"):
        n *= int(s)
    want = (alg, dims, routing, str(n), str(int(size[:-3]) * units[size[-3:]]))
    got = (row["algorithm"], row["dim_scheduling"], row["routing"], row["n_nodes"], row["bytes_per_node"])
    assert got == want, (job, got, want)
    assert float(row["time_us"]) > 0, job
PY
pass
# Nothing to do the second time; a new size makes only its schedules and reports (and the merge).
check "make: up to date after a run" make --no-print-directory -C "$SWEEPS" -q OUT="$T/make"
make --no-print-directory -C "$SWEEPS" -n OUT="$T/make" SIZES='64KiB 1MiB 4MiB' >"$T/dry"
check "make: a new size makes only its 8 schedules, 8 reports and the merge" \
  [ "$(grep -c -- '--force .*/sched-.*-4MiB\.json$' "$T/dry")" = 8 \
  -a "$(grep -c -- '--force .*/report-.*-4MiB\.json$' "$T/dry")" = 8 \
  -a "$(grep -c '' "$T/dry")" = 17 -a "$(grep -c 'net-sim --merge' "$T/dry")" = 1 ]
touch "$T/make/sched-4x4-dor-ring-sequential-1MiB.json"
make --no-print-directory -C "$SWEEPS" -n OUT="$T/make" >"$T/dry"
check "make: a newer schedule re-runs its report and the merge" \
  [ "$(grep -c '' "$T/dry")" = 2 -a "$(grep -c -- '--force .*/report-4x4-dor-ring-sequential-1MiB.json$' "$T/dry")" = 1 ]
make --no-print-directory -C "$SWEEPS" -s OUT="$T/make" >/dev/null

# --- GNU parallel -j2 -------------------------------------------------------------------------
expect_ok "$SWEEPS/run-parallel" "$T/parallel" -j2
check "parallel: byte-identical to make" cmp "$T/make/sweep.csv" "$T/parallel/sweep.csv"
check "parallel: the joblog has every job, all exit 0" \
  [ "$(awk -F'\t' 'NR > 1 && $7 == 0' "$T/parallel/joblog" | wc -l)" = "$n" ]
check "parallel: the stage files are make's" diff -r -x joblog -x jobs "$T/make" "$T/parallel"
# --sshloginfile: ':' is parallel's name for this machine (2 jobs at a time on it).
echo 2/: >"$T/hosts"
expect_ok "$SWEEPS/run-parallel" "$T/ssh" --sshloginfile "$T/hosts"
check "parallel --sshloginfile: byte-identical to make" cmp "$T/make/sweep.csv" "$T/ssh/sweep.csv"

# --- a Slurm job array on a one-node Slurm ----------------------------------------------------
S=$T/slurm-sys # daemons' keys, state, spool and logs
mkdir -p "$S/state" "$S/spool"
chmod 755 "$T" "$S" # munged wants every directory above its socket searchable by all
# The daemons run in the foreground as children of this script (no daemonizing, no pid files
# to wait for); stop_slurm stops them by their ids, slurmd first.
pids=()
alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s#Z}" = "$s" ]; }
stop_slurm() {
  local i p
  if [ -n "${SLURM_CONF:-}" ] && alive "${pids[1]:-0}"; then # cancel what still runs or waits
    timeout 10 scancel --quiet --user="$(id -un)" || true
    for _ in $(seq 50); do [ -z "$(timeout 5 squeue -h -t PD,R,CG 2>/dev/null)" ] && break; sleep 0.1; done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    p=${pids[i]}
    kill "$p" 2>/dev/null || continue
    for _ in $(seq 50); do alive "$p" || break; sleep 0.1; done
    alive "$p" && kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null || true
  done
  return 0
}
trap 'stop_slurm; rm -rf "$T"' EXIT
trap 'exit 143' TERM INT HUP # so that the EXIT trap stops the daemons on a signal too
slurm_fail() {
  echo "FAIL: $*" >&2
  for f in "$S"/munged.log "$S"/slurmctld.log "$S"/slurmd.log "$S"/*.stderr; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
  done
  exit 1
}
# Two free TCP ports, not Slurm's 6817/6818 (the machine may run a Slurm of its own).
read -r ctld_port d_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
mungekey --create --keyfile="$S/munge.key" 2>/dev/null || slurm_fail "mungekey could not make a key"
munged --foreground --key-file="$S/munge.key" --socket="$S/munge.sock" \
  --pid-file="$S/munged.pid" --log-file="$S/munged.log" --seed-file="$S/munged.seed" \
  2>"$S/munged.stderr" &
pids+=($!)
for i in $(seq 100); do [ -S "$S/munge.sock" ] && break; alive "${pids[0]}" || break; sleep 0.1; done
[ -S "$S/munge.sock" ] || slurm_fail "munged did not start: $(cat "$S/munged.stderr")"
cat >"$S/slurm.conf" <<CONF
ClusterName=icnkit-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge.sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
PlugStackConfig=$S/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# sbatch --wait polls every 2 s when MinJobAge < 6 (longer waits otherwise: 2, 8, 32 s).
MinJobAge=5
# Start the next task as soon as one ends (by default a 3 s pause between rounds).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
: >"$S/plugstack.conf"
export SLURM_CONF=$S/slurm.conf
slurmctld -D 2>"$S/slurmctld.stderr" &
pids+=($!)
slurmd -D 2>"$S/slurmd.stderr" &
pids+=($!)
up=
for i in $(seq 150); do # 30 s
  if [ "$(timeout 5 sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; then up=1; break; fi
  for p in "${pids[@]}"; do alive "$p" || slurm_fail "a Slurm daemon exited (pid $p)"; done
  sleep 0.2
done
[ -n "$up" ] || slurm_fail "the Slurm node did not come up (idle) within 30 s: $(sinfo 2>&1 | tail -n 2)"
pass

# The array and the merge job; a hung job would fail the run after 120 s instead of hanging it.
if timeout 120 "$SWEEPS/run-slurm" --wait "$T/slurm" >"$T/out" 2>"$T/err"; then pass; else
  fail "run-slurm --wait: exit $?: $(cat "$T/err")"
fi
check "slurm: byte-identical to make" cmp "$T/make/sweep.csv" "$T/slurm/sweep.csv"
check "slurm: one output file per array task, all empty" \
  [ "$(ls "$T/slurm" | grep -c '^slurm-[0-9]*_[0-9]*\.out$')" = "$n" -a \
    -z "$(find "$T/slurm" -name 'slurm-*_*.out' -size +0)" ]
check "slurm: the stage files are make's" diff -r -x 'slurm-*' -x jobs "$T/make" "$T/slurm"

finish
