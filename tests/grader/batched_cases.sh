#!/usr/bin/env bash
# A part's cases run one after another in one process give every case the verdict it gets in a
# process of its own (harness_main.cpp, case_runner.hpp's batches). Each submission of
# tests/grader/data/batched behaves differently in a process that has already run it (a static
# counter, a cached pointer, a global std::vector grown by every call or one only read, a
# __device__ counter) or
# fails on chosen sizes (a crash, a hang, a device error, exit()); the reduction lab grades each
# twice, one child per case (GPULAB_CASES_PER_CHILD=1) and batched, and the per-case verdicts must
# be the same, with fewer children batched where the state can be put back.
# Usage: batched_cases.sh GPULAB [OUT_DIR]   (emulator; the reduction lab with a 6 s time limit)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
gpulab=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
data=$root/tests/grader/data/batched
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}

# A project of links to this one whose reduction lab stops a case after 6 s (the hang's cost).
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
for d in grader reference skeletons datasets; do ln -s "$root/$d" "$home/$d"; done
mkdir -p "$home/assignments/reduction"
sed 's/"time_limit_s": 60/"time_limit_s": 6/' "$root/assignments/reduction/lab.json" >"$home/assignments/reduction/lab.json"
grep -q '"time_limit_s": 6,' "$home/assignments/reduction/lab.json" || { echo "could not shorten the time limit"; exit 1; }
export GPULAB_HOME=$home

grade() {  # grade NAME FILE MODE(alone|batched) [options]
  local name=$1 file=$2 mode=$3
  shift 3
  local per_child=""
  [ "$mode" = alone ] && per_child=1
  GPULAB_CASES_PER_CHILD=$per_child "$gpulab" grade reduction "$file" --backend emu --no-large --no-hidden \
    --format json --out "$out/$name-$mode.json" --timings "$@" 2>"$out/$name-$mode.timings" >/dev/null
}
# Each case's verdict: part, case, passed, failure kind.
verdicts() {
  python3 - "$1" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["parts"]:
    for c in p["cases"]:
        print(p["name"], c["id"], c["passed"], c.get("failure_kind", ""))
PY
}
children() { sed -n 's/.* runs in \([0-9]*\) children.*/\1/p' "$1" | head -1; }
runs() { sed -n 's/.* \([0-9]*\) runs in [0-9]* children.*/\1/p' "$1" | head -1; }
all_pass() { ! verdicts "$1" | grep -q ' False '; }
fails_as() { verdicts "$1" | grep -q "$2 False $3"; }

for name in static_counter cached_scratch global_vector global_table device_counter faults_by_size; do
  options=()
  [ "$name" = faults_by_size ] && options=(--part int)
  grade "$name" "$data/$name.cu" alone "${options[@]}"
  grade "$name" "$data/$name.cu" batched "${options[@]}"
  echo "== $name: alone $(runs "$out/$name-alone.timings") runs in $(children "$out/$name-alone.timings") children," \
    "batched in $(children "$out/$name-batched.timings")"
  check "$name: the same verdict for every case, batched or alone" \
    diff <(verdicts "$out/$name-alone.json") <(verdicts "$out/$name-batched.json")
done

for name in static_counter cached_scratch global_vector global_table device_counter; do
  check "$name: every case passes, as each does alone" all_pass "$out/$name-batched.json"
done
for name in static_counter cached_scratch global_table device_counter; do
  check "$name: its state is put back, so its cases share children" \
    test "$(children "$out/$name-batched.timings")" -lt "$(runs "$out/$name-batched.timings")"
done
check "global_vector: its state cannot be put back, so each case after a call that changed it starts afresh" \
  test "$(children "$out/global_vector-batched.timings")" -eq "$(runs "$out/global_vector-batched.timings")"
f=$out/faults_by_size-batched.json
check "faults: the crash costs its case" fails_as "$f" "int-.*" crash
check "faults: the hang costs its case, stopped at the case's own time limit" fails_as "$f" "int-.*" timeout
check "faults: the device error costs its case" fails_as "$f" "int-.*" cuda_error
check "faults: exit() costs its case" fails_as "$f" "int-.*" early_exit
check "faults: the cases around them pass" test "$(verdicts "$f" | grep -c ' True ')" -ge 10

echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
