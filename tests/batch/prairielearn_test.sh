#!/usr/bin/env bash
# PrairieLearn's external grader, run the way PrairieLearn runs it, but fast: `gpulab bundle
# prairielearn` writes the image's build context; instead of building the image, its run_grader
# and prairielearn.conf grade with the gpulab already built here (GPULAB_PL_GPULAB), from the
# context's files (GPULAB_HOME: no reference solution in it), in a stand-in /grade
# (GPULAB_PL_ROOT): the student's files in student/, the question's tests/hidden-seed,
# results.json in results/, whose structure json_check checks.
# Usage: prairielearn_test.sh GPULAB JSON_CHECK WORK_DIR PROJECT_ROOT
set -u
gpulab=$1
json_check=$2
work=$3
project=$4
# shellcheck source=../shell_checks.sh
source "$project/tests/shell_checks.sh"

rm -rf "$work"
mkdir -p "$work/context"
cd "$work" || exit 1
GPULAB_HOME="$project" "$gpulab" bundle prairielearn histogram --no-large --out context.tar.gz >bundle.log 2>&1
check "bundle written" test -s context.tar.gz
tar -xzf context.tar.gz -C context
check "run_grader at the root, executable" test -x context/run_grader
check "a Dockerfile and build_image at the root" test -f context/Dockerfile -a -f context/build_image
check "no reference solution in the image" test ! -e context/reference/histogram/histogram.cu
check "the lab's gold implementation is in it" test -f context/reference/histogram/gold.cpp

root="$work/grade"
export GPULAB_PL_ROOT="$root" GPULAB_PL_GPULAB="$gpulab" GPULAB_HOME="$work/context"
unset GPULAB_HIDDEN_SEED

grade() {  # grade NAME [EXPECTED_RC]: run_grader as PrairieLearn does; keep results.json as NAME.json
  (cd "$root" && "$work/context/run_grader") >"$1.log" 2>&1
  local rc=$?
  check "$1: run_grader exits ${2:-0} (got $rc; see $work/$1.log)" test $rc -eq "${2:-0}"
  rm -f "$1.json" && cp "$root/results/results.json" "$1.json" 2>/dev/null
  if [ "${2:-0}" -eq 0 ]; then
    "$json_check" prairielearn "$1.json" >"$1.summary" 2>&1
    local schema=$?  # kept before the check's arguments run another command
    check "$1: results.json follows PrairieLearn's format ($(cat "$1.summary"))" test $schema -eq 0
  fi
}
hand_in() {  # hand_in FILE NAME: a fresh /grade with FILE as student/NAME (no FILE: nothing handed in)
  rm -rf "$root" && mkdir -p "$root/student" "$root/tests"
  if [ -n "$1" ]; then cp "$1" "$root/student/$2"; else echo "oops" >"$root/student/$2"; fi
}

# Full marks on the emulator are 1.0: speed is not scored there and its points leave the maximum.
hand_in "$project/reference/histogram/histogram.cu" my_histogram.cu
echo bundle-test-secret >"$root/tests/hidden-seed"
grade correct
check "correct (the only .cu, any name): score 1 and gradable" grep -q '^gradable=true score=1 ' correct.summary
check "correct: the hidden cases from tests/hidden-seed were graded" grep -Eq ' hidden=[1-9]' correct.summary
check "correct: the message says speed is not scored here" grep -q 'scored on a GPU' correct.json

hand_in "$project/tests/labs/histogram/buggy/uppercase_counted.cu" histogram.cu
grade buggy
check "buggy: a score strictly between 0 and 1" grep -Eq '^gradable=true score=0\.[0-9]+ ' buggy.summary
check "buggy: a failed case says what was wrong" grep -q '"message": "bins\[' buggy.json

printf 'int broken = ;\n' >"$work/broken.cu"
hand_in "$work/broken.cu" histogram.cu
grade broken
check "broken: not gradable" grep -q '^gradable=false ' broken.summary
"$json_check" get broken.json format_errors 1 >broken.error
check "broken: format_errors carry the compiler's error ($(cat broken.error))" \
  grep -q "histogram.cu:1:14: error: expected primary-expression" broken.error

hand_in "" README.txt
grade empty
check "no .cu file: not gradable, saying so" grep -q 'no .cu file was handed in' empty.json

# A grader failure is never a score: no results.json, and a non-zero exit.
hand_in "$project/reference/histogram/histogram.cu" histogram.cu
GPULAB_HOME="$work/nowhere" grade grader_failure 6
check "grader failure: no results.json" test ! -e "$root/results/results.json"

# Without the sandbox the submission could read the hidden seed: refused before grading.
mkdir -p nosandbox && cp context/run_grader nosandbox/
sed 's/^GPULAB_GRADE_ARGS=(\(.*\))$/GPULAB_GRADE_ARGS=(\1 --no-sandbox)/' context/prairielearn.conf \
  >nosandbox/prairielearn.conf
echo bundle-test-secret >"$root/tests/hidden-seed"
(cd "$root" && "$work/nosandbox/run_grader") >nosandbox.log 2>&1
rc=$?
check "--no-sandbox with a hidden seed: refused (rc $rc)" test $rc -ne 0
check "--no-sandbox with a hidden seed: no results.json" test ! -e "$root/results/results.json"
check "--no-sandbox with a hidden seed: says why" grep -q 'could read it' nosandbox.log

finish "$work"
