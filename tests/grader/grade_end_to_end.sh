#!/usr/bin/env bash
# End-to-end test of `gpulab grade` on the matmul lab, as Gradescope runs it:
# hidden cases appear (with their visibility) only when GPULAB_HIDDEN_SEED is
# set; a syntax error exits 3 with the compiler's message naming the student's
# file and line; a missing file, an unknown lab and a truncated dataset file
# fail with messages that say what is wrong.
# Usage: grade_end_to_end.sh GPULAB PROJECT_ROOT WORK_DIR   (GPULAB_CACHE should be set)
set -u
gpulab=$1
root=$2
work=$3
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# check DESCRIPTION COMMAND...: runs the command, records a failure if it fails.
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
cp "$root/reference/matmul/matmul.cu" student.cu

# 1. With the secret seed: hidden cases, shown after the due date, all passing.
GPULAB_HIDDEN_SEED=abc "$gpulab" grade matmul student.cu --no-large --format gradescope --out hidden.json \
  >hidden.log 2>&1
rc=$?
check "grade with GPULAB_HIDDEN_SEED exits 0 (got $rc)" test "$rc" -eq 0
hidden_tests=$(grep -c '"name": "tiled: hidden dataset' hidden.json)
check "hidden cases are graded ($hidden_tests)" test "$hidden_tests" -gt 0
after_due=$(grep -c '"visibility": "after_due_date"' hidden.json)
check "every hidden case has visibility after_due_date ($after_due of $hidden_tests)" test "$after_due" -eq "$hidden_tests"
check "public cases are graded too" grep -q '"name": "tiled: dataset 1 (k=1, m=1, n=1)"' hidden.json
# On the emulator speed is not scored: the 30 speed points of matmul are left out and said so.
check "the reference scores all 70 correctness points" grep -q '^  "score": 70.0,$' hidden.json
check "the results say speed is scored on a GPU" grep -q 'which is scored on a GPU' hidden.json
check "no case fails" bash -c '! grep -q "\"status\": \"failed\"" hidden.json'

# 2. Without the variable: no hidden cases.
env -u GPULAB_HIDDEN_SEED "$gpulab" grade matmul student.cu --no-large --format gradescope --out public.json \
  >public.log 2>&1
rc=$?
check "grade without the seed exits 0 (got $rc)" test "$rc" -eq 0
check "without the seed no case is after_due_date" bash -c '! grep -q after_due_date public.json'
check "without the seed no hidden case" bash -c '! grep -q "hidden dataset" public.json'
check "without the seed the public cases are graded" grep -q '"name": "tiled: dataset 1 (k=1, m=1, n=1)"' public.json

# 3. A syntax error: exit code 3, the compiler's message names the student's file and line.
cp student.cu broken.cu
echo "int broken_line = ;" >>broken.cu
line=$(wc -l <broken.cu)
env -u GPULAB_HIDDEN_SEED "$gpulab" grade matmul broken.cu --no-large --format gradescope --out broken.json \
  >broken.log 2>&1
rc=$?
check "a syntax error exits 3 (got $rc)" test "$rc" -eq 3
check "the results name broken.cu:$line" grep -q "broken.cu:$line:[0-9]*: error" broken.json
check "the results say it did not compile" grep -q '"output": "Your submission did not compile, so it scores 0' broken.json
check "the score is 0" grep -q '^  "score": 0.0,$' broken.json
check "stderr says it did not compile" grep -q "did not compile" broken.log

# 4. A missing submission file: non-zero exit, the file named.
"$gpulab" grade matmul "$work/no_such_file.cu" --no-large >missing.log 2>&1
rc=$?
check "a missing file exits non-zero (got $rc)" test "$rc" -ne 0
check "the message names the missing file" grep -q "no_such_file.cu" missing.log
check "the message says it does not exist" grep -qi "does not exist" missing.log

# 5. An unknown lab: the available labs are named.
"$gpulab" grade nosuchlab student.cu >nolab.log 2>&1
rc=$?
check "an unknown lab exits non-zero (got $rc)" test "$rc" -ne 0
check "the message names the unknown lab" grep -q "no lab named 'nosuchlab'" nolab.log
check "the message lists the labs (matmul among them)" grep -q "labs: .*matmul" nolab.log

# 6. A truncated dataset file in a copy of the project: grading fails naming that file.
mkdir -p home/datasets
for d in assignments grader reference; do ln -s "$root/$d" "home/$d"; done
if [ -f "$root/datasets/matmul/manifest.json" ]; then
  cp -r "$root/datasets/matmul" home/datasets/
else  # not committed yet: make the same public datasets
  "$gpulab" datagen matmul --out home/datasets/matmul >datagen.log 2>&1
fi
damaged=home/datasets/matmul/tiled-odd_prime-2/input_b.npy
check "the dataset file to damage exists" test -f "$damaged"
truncate -s -8 "$damaged"
env -u GPULAB_HIDDEN_SEED GPULAB_HOME="$work/home" "$gpulab" grade matmul student.cu --no-large \
  --format gradescope --out truncated.json >truncated.log 2>&1
rc=$?
check "a truncated dataset file makes grading fail (got $rc)" test "$rc" -ne 0
check "the message names the truncated file" grep -qF "$work/$damaged" truncated.log
check "the message says the content does not match" grep -q "sha256" truncated.log

# 7. Known bug: --out into a folder that does not exist writes nothing, yet exits 0
#    (grade_commands.cpp does not check the ofstream), so Gradescope finds no results.json.
env -u GPULAB_HIDDEN_SEED "$gpulab" grade matmul student.cu --no-large --out "$work/no_such_dir/results.json" \
  >unwritable.log 2>&1
rc=$?
check "--out into a missing folder exits non-zero (got $rc)" test "$rc" -ne 0

if [ "$failures" -ne 0 ]; then
  for f in *.log; do
    echo "---- $f"
    tail -c 3000 "$f"
  done
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
