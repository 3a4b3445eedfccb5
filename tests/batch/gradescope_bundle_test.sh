#!/usr/bin/env bash
# Gradescope's autograder, run the way Gradescope runs it: `gpulab bundle
# gradescope` makes autograder.zip; it is unpacked into a temporary stand-in
# for /autograder (GPULAB_AUTOGRADER_ROOT); setup.sh builds gpulab there
# (GPULAB_SKIP_INSTALL=1: the packages are already installed, nothing is
# apt-get installed) and checks the reference; run_autograder grades
# submissions from submission/ into results/results.json, whose schema is checked.
# As root it then does it again where bubblewrap cannot create namespaces, as in
# Gradescope's container: the reference, a compile error and an attack that
# forges results and hunts for expected outputs (tests/batch/attacks/).
# Usage: gradescope_bundle_test.sh GPULAB JSON_CHECK WORK_DIR PROJECT_ROOT
set -u
gpulab=$1
json_check=$2
work=$3
# shellcheck source=../shell_checks.sh
source "$(dirname "$0")/../shell_checks.sh"

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
project=$4

GPULAB_HIDDEN_SEED=bundle-test-secret "$gpulab" bundle gradescope histogram --out autograder.zip --no-large >bundle.log 2>&1
check "bundle written" test -s autograder.zip
check "the bundle says it holds the hidden seed" grep -q 'keep autograder.zip private' bundle.log

ag="$work/root/autograder"
mkdir -p "$ag/source" "$ag/submission"
(cd "$ag/source" && cmake -E tar xf "$work/autograder.zip")
check "setup.sh at the root, executable" test -x "$ag/source/setup.sh"
check "run_autograder at the root, executable" test -x "$ag/source/run_autograder"
check "the hidden seed is private" test "$(stat -c %a "$ag/source/hidden-seed")" = 600
check "only this lab" test ! -e "$ag/source/assignments/matmul"

export GPULAB_AUTOGRADER_ROOT="$ag"
unset GPULAB_HOME GPULAB_CACHE GPULAB_HIDDEN_SEED
GPULAB_SKIP_INSTALL=1 bash "$ag/source/setup.sh" >setup.log 2>&1
rc=$?
check "setup.sh builds gpulab and checks the reference (rc $rc; see $work/setup.log)" test $rc -eq 0
check "setup.sh says the reference scores full marks" grep -q 'the reference of histogram scores full marks' setup.log
check "gpulab was built inside the autograder" test -x "$ag/source/build/grader/cli/gpulab"

grade() {  # grade NAME: run_autograder from /autograder as Gradescope does, keep results as NAME.json
  rm -rf "$ag/results"
  (cd "$ag" && bash source/run_autograder) >"$1.log" 2>&1
  local rc=$?
  check "$1: run_autograder exits 0 (got $rc)" test $rc -eq 0
  cp "$ag/results/results.json" "$1.json" 2>/dev/null
  "$json_check" gradescope "$1.json" >"$1.summary" 2>&1
  local schema=$?  # kept before the check's arguments run another command
  check "$1: results.json follows Gradescope's schema ($(cat "$1.summary"))" test $schema -eq 0
}

rm -rf "$ag/submission"/* && mkdir -p "$ag/submission/src"
cp "$project/tests/labs/histogram/buggy/uppercase_counted.cu" "$ag/submission/src/histogram.cu"
grade buggy
check "buggy: a score between 0 and 100" grep -Eq '^score=[1-9][0-9]?(\.[0-9]+)? ' buggy.summary
check "buggy: hidden cases graded, shown after the due date" grep -q 'hidden=[1-9]' buggy.summary
check "buggy: a failed test explains itself" grep -q '"status": "failed"' buggy.json

rm -rf "$ag/submission"/* && cp "$project/reference/histogram/histogram.cu" "$ag/submission/my_histogram.cu"
grade correct
check "correct (the only .cu, any name): full marks (70: speed is scored on a GPU)" grep -q '^score=70 ' correct.summary

rm -rf "$ag/submission"/* && printf 'int broken = ;\n' >"$ag/submission/histogram.cu"
grade broken
check "broken: score 0" grep -q '^score=0 ' broken.summary
check "broken: the compiler's message is shown" grep -q 'did not compile' broken.json

rm -rf "$ag/submission"/* && echo "oops" >"$ag/submission/README.txt"
grade empty
check "no .cu file: score 0 and why" grep -q 'no .cu file was handed in' empty.json

# The work in src/, a backup of the skeleton in backup/: which is graded is not guessed.
rm -rf "$ag/submission"/* && mkdir -p "$ag/submission/src" "$ag/submission/backup"
cp "$project/reference/histogram/histogram.cu" "$ag/submission/src/histogram.cu"
cp "$project/skeletons/histogram/histogram.cu" "$ag/submission/backup/histogram.cu"
grade ambiguous
check "two histogram.cu: score 0" grep -q '^score=0 ' ambiguous.summary
check "two histogram.cu: both files are listed" grep -q 'backup/histogram.cu, src/histogram.cu' ambiguous.json

# Where Gradescope really runs it: as root in a Docker container whose seccomp profile refuses
# namespaces, so bubblewrap cannot start (simulated by a bwrap that fails as it does there).
# setup.sh and run_autograder then isolate each submission as an unprivileged user.
if [ "$(id -u)" -eq 0 ]; then
  printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n' >"$work/fake-bwrap"
  chmod 755 "$work/fake-bwrap"
  export GPULAB_BWRAP="$work/fake-bwrap"
  GPULAB_SKIP_INSTALL=1 bash "$ag/source/setup.sh" >setup-nons.log 2>&1
  rc=$?
  check "no namespaces: setup.sh passes (rc $rc; see $work/setup-nons.log)" test $rc -eq 0
  check "no namespaces: the reference scores full marks as an unprivileged user" \
    grep -q "scores full marks (isolation: unprivileged user 'gpulab-sandbox'" setup-nons.log
  check "no namespaces: /autograder is private to root" test "$(stat -c %a "$ag")" = 700

  rm -rf "$ag/submission"/* && cp "$project/reference/histogram/histogram.cu" "$ag/submission/histogram.cu"
  grade nons-correct
  check "no namespaces: correct: full marks (70)" grep -q '^score=70 ' nons-correct.summary
  check "no namespaces: the results name the isolation" grep -q "Isolation: unprivileged user" nons-correct.json

  rm -rf "$ag/submission"/* && printf 'int broken = ;\n' >"$ag/submission/histogram.cu"
  grade nons-broken
  check "no namespaces: broken: score 0 and the compiler's message" grep -q 'did not compile' nons-broken.json

  rm -rf "$ag/submission"/* && cp "$project/tests/batch/attacks/forge_and_hunt.cu" "$ag/submission/histogram.cu"
  grade nons-attack
  sleep 2  # what it left behind would write now
  check "no namespaces: the attack scores 0" grep -q '^score=0 ' nons-attack.summary
  check "no namespaces: results.json is the grader's own, also after the grader exited" \
    cmp -s nons-attack.json "$ag/results/results.json"
  check "no namespaces: nothing forged" bash -c "! grep -q HACKED '$ag/results/results.json'"
  check "no namespaces: nothing of the autograder found (no FOUND line)" bash -c "! grep -q FOUND nons-attack.json"
  check "no namespaces: no process of the submission is left" bash -c "! pgrep -u gpulab-sandbox >/dev/null"
  unset GPULAB_BWRAP
else
  echo "skipped: the no-namespaces checks need root (as Gradescope runs the autograder)"
fi

finish "$work"  # a build and a cache: hundreds of MB, kept only on failure
