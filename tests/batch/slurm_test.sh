#!/usr/bin/env bash
# `gpulab batch --slurm` on a real, private Slurm: slurmctld and slurmd are
# started on localhost from a slurm.conf written here (own ports and state
# folder, auth/none, no accounting), a class of four is graded as a job array
# of two shards on the emulator, and the merge job Slurm runs afterwards
# writes one gradebook and report. Every daemon started here is stopped on the
# way out, also on failure. Skips (77) where Slurm is not installed.
# Usage: slurm_test.sh GPULAB PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
project=$2
work=$3
for tool in slurmctld slurmd sbatch squeue sinfo scancel; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not found (Debian: apt-get install slurm-wlm; scripts/install-deps.sh installs it)"
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: slurmd must run as root to start jobs; run this test as root"
  exit 77
fi
have_auth_none=0
for plugin in /usr/lib/*/slurm*/auth_none.so /usr/lib/slurm*/auth_none.so /usr/lib64/slurm*/auth_none.so; do
  [ -e "$plugin" ] && have_auth_none=1
done
if [ $have_auth_none -ne 1 ]; then
  echo "SKIP: this Slurm has no auth/none plugin, which this test uses instead of a munge daemon"
  exit 77
fi

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

rm -rf "$work"
mkdir -p "$work/state" "$work/spool" "$work/log"
cd "$work" || exit 1
export SLURM_CONF="$work/slurm.conf"
pids=()
cleanup() {
  scancel --quiet --user="$(id -un)" 2>/dev/null
  for _ in $(seq 1 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}
trap cleanup EXIT

write_conf() {
  cat >"$SLURM_CONF" <<CONF
ClusterName=gpulabtest
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

# Start the daemons on a free pair of ports (another try with other ports if these are taken).
started=0
for attempt in 1 2 3; do
  port=$((20000 + (RANDOM % 20000) * 2))
  write_conf $port
  slurmctld -D -f "$SLURM_CONF" >"log/slurmctld.out" 2>&1 &
  ctld=$!
  slurmd -D -f "$SLURM_CONF" -N localhost >"log/slurmd.out" 2>&1 &
  sd=$!
  pids=($ctld $sd)
  for _ in $(seq 1 100); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    [ "$state" = idle ] && break
    sleep 0.2
  done
  if [ "$state" = idle ]; then
    started=1
    break
  fi
  echo "attempt $attempt: the node is not up (state '$state'); retrying on other ports"
  cleanup
  pids=()
done
check "slurmctld and slurmd are up on localhost" test $started -eq 1
if [ $started -ne 1 ]; then
  tail -20 log/*.out log/*.log
  exit 1
fi

mkdir -p class/ada class/bob class/cy class/dee
cp "$project/reference/histogram/histogram.cu" class/ada/
cp "$project/tests/labs/histogram/buggy/uppercase_counted.cu" class/bob/histogram.cu
printf 'int broken = ;\n' >class/cy/histogram.cu
cp "$project/skeletons/histogram/histogram.cu" class/dee/

"$gpulab" batch histogram class --out out --slurm --shards 2 --jobs 1 --backend emu --no-large >submit.log 2>&1
rc=$?
check "gpulab batch --slurm submits (rc $rc)" test $rc -eq 0
cat submit.log
jobs=$(sed -n 's/^watch: squeue -j \([0-9,]*\) .*/\1/p' submit.log)
check "it names the two jobs ($jobs)" test -n "$jobs"
check "the job array script asks for two tasks" grep -q '^#SBATCH --array=0-1$' out/slurm/grade.sbatch
check "the plan lists the class" grep -q '"dee"' out/slurm/plan.json

for _ in $(seq 1 600); do
  [ -z "$(squeue -h -j "$jobs" 2>/dev/null)" ] && break
  sleep 0.5
done
check "both jobs ended" test -z "$(squeue -h -j "$jobs" 2>/dev/null)"
check "two task logs" test "$(ls out/slurm/logs/grade-*.out 2>/dev/null | wc -l)" -eq 2
check "each task graded its own shard" bash -c "grep -q '^shard 0/2: 2 graded now' out/slurm/logs/grade-*_0.out && grep -q '^shard 1/2: 2 graded now' out/slurm/logs/grade-*_1.out"
check "the merge job ran" grep -q 'merged 4 students' out/slurm/logs/merge-*.out
check "one gradebook for the class" test "$(wc -l <out/gradebook.csv 2>/dev/null)" -eq 5
check "ada scores 100" grep -q '^ada,35,35,70,70,graded,' out/gradebook.csv
check "cy does not compile" grep -q '^cy,0,0,0,70,compile_error,' out/gradebook.csv
check "one report" grep -q 'Score distribution' out/report.html
check "the tasks' caches were removed" bash -c "! ls -d \${TMPDIR:-/tmp}/gpulab-cache-${jobs%%,*}_* 2>/dev/null"

# A student whose task never reported is named by the merge, which then fails.
rm out/records/bob.json out/bob.json
"$gpulab" merge out >merge.log 2>&1
rc=$?
check "merge with a student missing exits 1 (got $rc)" test $rc -eq 1
check "and names the student" grep -q "no result for 1 student of the plan (bob)" merge.log
check "the gradebook lists bob as missing" grep -q '^bob,.*,missing,' out/gradebook.csv

tail -5 log/slurmctld.log >/dev/null 2>&1
echo "$failures failure(s)"
exit $((failures > 0))
