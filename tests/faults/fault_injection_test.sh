#!/usr/bin/env bash
# Fault injection: `gpulab grade` and `gpulab batch` are stopped by SIGINT,
# SIGTERM or SIGKILL at moments spread over compiling, dataset generation and
# grading (each run starts with an empty build cache, so the early moments
# fall in the compiler), then the same command is run again. The rerun must
# give exactly what an uninterrupted run gives (result, gradebook), an
# interrupted run must leave no half-written file and no temporary folder
# (after the rerun's sweep, for SIGKILL), and no interrupted student may be
# recorded with a score.
# Usage: fault_injection_test.sh GPULAB JSON_CHECK PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
json_check=$2
root=$3
work=$4
# shellcheck source=../shell_checks.sh
source "$(dirname "$0")/../shell_checks.sh"

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
labs="$root/tests/labs/histogram"
mkdir -p class/alice class/bob class/carol
cp "$root/reference/histogram/histogram.cu" class/alice/
cp "$labs/buggy/nonatomic_increment.cu" class/bob/histogram.cu
printf 'int broken = ;\n' >class/carol/histogram.cu
grade_args=(--part text --no-large --no-hidden --format json)
batch_args=(--part text --no-large --no-hidden --jobs 2)

# What an uninterrupted run gives.
GPULAB_CACHE=$work/cache-clean "$gpulab" grade histogram class/bob/histogram.cu "${grade_args[@]}" --out clean.json \
  2>clean-grade.log
check "clean grade exits 0" test $? -eq 0
GPULAB_CACHE=$work/cache-clean "$gpulab" batch histogram class --out clean "${batch_args[@]}" >clean-batch.log 2>&1
check "clean batch exits 0" test $? -eq 0
check "clean gradebook has 3 students" test "$(wc -l <clean/gradebook.csv)" -eq 4

# no_leftovers DIR PID: no half-written file or temporary folder in DIR, none of process PID in /tmp.
no_leftovers() {
  test -z "$(find "$1" -name '*.tmp-*' -o -name 'gpulab-*' 2>/dev/null)" &&
    test -z "$(find /tmp -maxdepth 1 -name "gpulab-*-$2-*" 2>/dev/null)"
}

# stop NAME SIGNAL DELAY [SECOND_SIGNAL_AFTER] -- command...: runs the command, signals it after DELAY s.
stop() {
  local name=$1 sig=$2 delay=$3 again=$4
  shift 5
  "$@" >"$name.log" 2>&1 &
  local pid=$!
  sleep "$delay"
  kill -"$sig" $pid 2>/dev/null
  if [ "$again" != "-" ]; then sleep "$again"; kill -"$sig" $pid 2>/dev/null; fi
  wait $pid
  echo "$? $pid"
}

# 1. gpulab grade, stopped at several moments, then run again with the same cache.
n=0
for spec in "INT 0.4" "KILL 3" "TERM 6"; do
  set -- $spec
  n=$((n + 1))
  cache=$work/cache-grade-$n
  read -r rc pid < <(stop "grade-$n" "$1" "$2" - -- env GPULAB_CACHE="$cache" "$gpulab" grade histogram \
                       class/bob/histogram.cu "${grade_args[@]}" --out "grade-$n.json")
  case $1 in INT) want=130 ;; TERM) want=143 ;; KILL) want=137 ;; esac
  if [ "$rc" -eq 0 ]; then
    echo "note: grade $n ($1 after $2 s) finished before the signal"
  else
    check "grade $n ($1 after $2 s): exit $want (got $rc)" test "$rc" -eq "$want"
    check "grade $n: no results file from the stopped run" test ! -e "grade-$n.json"
    if [ "$1" != KILL ]; then
      check "grade $n: the stop is explained" grep -q 'run the same command again' "grade-$n.log"
      check "grade $n: no temporary folder left" no_leftovers "$cache" "$pid"
    fi
  fi
  GPULAB_CACHE=$cache "$gpulab" grade histogram class/bob/histogram.cu "${grade_args[@]}" --out "grade-$n.json" \
    2>"grade-$n-again.log"
  check "grade $n: the rerun exits 0" test $? -eq 0
  check "grade $n: the rerun's result equals the clean one" "$json_check" same-result clean.json "grade-$n.json"
  check "grade $n: nothing left behind after the rerun" no_leftovers "$cache" "$pid"
done

# 2. gpulab batch, stopped at several moments (a second Ctrl-C stops gradings in progress).
n=0
for spec in "TERM 0.5 -" "KILL 5 -" "INT 2 0.5"; do
  set -- $spec
  n=$((n + 1))
  cache=$work/cache-batch-$n
  read -r rc pid < <(stop "batch-$n" "$1" "$2" "$3" -- env GPULAB_CACHE="$cache" "$gpulab" batch histogram class \
                       --out "batch-$n" "${batch_args[@]}")
  case $1 in INT) want=130 ;; TERM) want=143 ;; KILL) want=137 ;; esac
  if [ "$rc" -eq 0 ]; then
    echo "note: batch $n ($1 after $2 s) finished before the signal"
  else
    check "batch $n ($1 after $2 s): exit $want (got $rc)" test "$rc" -eq "$want"
    check "batch $n: no student recorded as a grader error" test -z "$(grep -l grader_error batch-$n/records/*.json 2>/dev/null)"
    [ "$1" != KILL ] && check "batch $n: no temporary folder left" no_leftovers "batch-$n" "$pid"
  fi
  GPULAB_CACHE=$cache "$gpulab" batch histogram class --out "batch-$n" "${batch_args[@]}" >"batch-$n-again.log" 2>&1
  check "batch $n: the rerun exits 0" test $? -eq 0
  check "batch $n: the gradebook equals the clean one" cmp -s clean/gradebook.csv "batch-$n/gradebook.csv"
  check "batch $n: nothing left behind after the rerun" no_leftovers "batch-$n" "$pid"
  check "batch $n: nothing left in the build cache" no_leftovers "$cache" "$pid"
done

finish "$work"
