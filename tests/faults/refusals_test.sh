#!/usr/bin/env bash
# Setup mistakes and ambiguous input are refused clearly, never scored:
#   - GPULAB_HOME without grader/: `grade` exits 6 and writes no results; `batch`
#     exits 6 before grading anyone and records nothing, and after the fix the
#     class is graded (no one is "up to date" with a zero);
#   - two `gpulab batch` into one --out: the second exits 7 and writes nothing;
#   - a folder with two <lab>.cu: `grade` scores 0 listing both, `batch` the same;
#   - a submission with its own main(): told so, not "does your code call exit()?";
#   - `datagen --out` into another lab's datasets: exit 2, its manifest untouched;
#   - compiler warnings are shown by `gpulab test` on a cached build too;
#   - every exit code the documentation lists is the one the command returns.
# Usage: refusals_test.sh GPULAB JSON_CHECK PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
json_check=$2
root=$3
work=$4
# shellcheck source=../shell_checks.sh
source "$(dirname "$0")/../shell_checks.sh"

rm -rf "$work"
mkdir -p "$work/class/alice" "$work/class/bob/src" "$work/class/bob/backup" "$work/broken_home/assignments"
cd "$work" || exit 1
ref="$root/reference/histogram/histogram.cu"
cp "$ref" class/alice/
cp "$ref" class/bob/src/histogram.cu
cp "$root/skeletons/histogram/histogram.cu" class/bob/backup/histogram.cu
args=(--part text --no-large --no-hidden)

# 1. A GPULAB_HOME that is not an installation.
GPULAB_HOME=$work/broken_home "$gpulab" grade histogram class/alice/histogram.cu "${args[@]}" --out home.json \
  >home.log 2>&1
rc=$?
check "grade with a broken GPULAB_HOME exits 6 (got $rc)" test $rc -eq 6
check "no results are written for it" test ! -e home.json
check "the message names GPULAB_HOME and grader/" grep -q 'GPULAB_HOME=.*has no grader/' home.log
GPULAB_HOME=$work/broken_home "$gpulab" batch histogram class --out out "${args[@]}" >home-batch.log 2>&1
rc=$?
check "batch with a broken GPULAB_HOME exits 6 (got $rc)" test $rc -eq 6
check "batch recorded nobody" test -z "$(ls out/records 2>/dev/null)"
"$gpulab" batch histogram class --out out "${args[@]}" --jobs 2 >fixed.log 2>&1
rc=$?
check "after the fix the batch grades everyone (exit 0, got $rc)" test $rc -eq 0
check "nobody was 'up to date'" grep -q '^2 graded now, 0 up to date' fixed.log
check "alice scores full marks" grep -q '^alice,35,35,35,graded,' out/gradebook.csv

# 2. Two <lab>.cu in one folder: not guessed.
check "bob (two histogram.cu) gets no score" grep -q '^bob,0,0,35,no_submission,' out/gradebook.csv
check "bob's row lists both files" grep -q 'backup/histogram.cu, src/histogram.cu' out/records/bob.json
"$gpulab" grade histogram class/bob "${args[@]}" --out bob.json >bob.log 2>&1
rc=$?
check "grade of bob's folder exits 3 (got $rc)" test $rc -eq 3
check "bob's results list both files" grep -q 'backup/histogram.cu, src/histogram.cu' bob.json
check "bob's results are valid for Gradescope" "$json_check" gradescope bob.json
"$gpulab" grade histogram class/alice "${args[@]}" --out alice.json >alice.log 2>&1
check "a folder with one histogram.cu is graded (exit $?)" grep -q '"score": 35' alice.json

# 3. Two batches into one folder.
"$gpulab" batch histogram class --out busy "${args[@]}" --jobs 1 --regrade >busy1.log 2>&1 &
first=$!
for _ in $(seq 1 100); do [ -e busy/.gpulab-batch.lock ] && break; sleep 0.1; done
"$gpulab" batch histogram class --out busy "${args[@]}" >busy2.log 2>&1
rc=$?
check "a second batch into the same --out exits 7 (got $rc)" test $rc -eq 7
check "it says another batch is writing there" grep -q 'another gpulab batch (process [0-9]*) is writing to' busy2.log
wait $first
check "the first batch finishes normally (exit $?)" test "$(wc -l <busy/gradebook.csv)" -eq 3
"$gpulab" batch histogram class --out busy "${args[@]}" >busy3.log 2>&1
check "once it has finished, the folder is free again (exit $?)" grep -q 'up to date' busy3.log

# 4. A submission with its own main().
mkdir -p own_main
{ cat "$ref"; printf 'int main() { return 0; }\n'; } >own_main/histogram.cu
"$gpulab" grade histogram own_main/histogram.cu "${args[@]}" --out own_main.json >own_main.log 2>&1
check "own main(): graded (exit $?)" test -s own_main.json
check "own main(): told about main()" grep -q 'its own main()' own_main.json
check "own main(): not asked about exit()" bash -c "! grep -q 'does your code call exit' own_main.json"

# 5. datagen --out into another lab's datasets.
mkdir -p other
cp -r "$root/datasets/scan" other/scan
before=$(md5sum <other/scan/manifest.json)
"$gpulab" datagen histogram --out other/scan >datagen.log 2>&1
rc=$?
check "datagen into scan's datasets exits 2 (got $rc)" test $rc -eq 2
check "it names the other lab" grep -q "holds the datasets of lab 'scan'" datagen.log
check "scan's manifest is untouched" test "$(md5sum <other/scan/manifest.json)" = "$before"
"$gpulab" datagen histogram --out other/histogram --part text >datagen2.log 2>&1
check "datagen into a new folder works (exit $?)" test -s other/histogram/manifest.json

# 6. Compiler warnings on a cached build.
mkdir -p warn
{ cat "$ref"; printf 'int gpulab_narrowed = 10000000000;\n'; } >warn/histogram.cu
"$gpulab" test histogram warn/histogram.cu --part text --no-large >warn1.out 2>&1
"$gpulab" test histogram warn/histogram.cu --part text --no-large >warn2.out 2>&1
check "gpulab test shows the warning on a fresh build" grep -q 'compiler warnings' warn1.out
check "and on a cached one" grep -q 'gpulab_narrowed' warn2.out

# 7. The cuda backend where no GPU is visible: a setup error, not every student's zero.
if ! nvidia-smi -L >/dev/null 2>&1; then
  "$gpulab" grade histogram class/alice/histogram.cu "${args[@]}" --backend cuda --out nogpu.json >nogpu.log 2>&1
  rc=$?
  if grep -q 'needs nvcc' nogpu.log; then
    check "--backend cuda without nvcc is bad input (exit 2, got $rc)" test $rc -eq 2
  else
    check "--backend cuda without a GPU exits 6 (got $rc)" test $rc -eq 6
    check "it says no GPU is visible" grep -q 'no NVIDIA GPU is visible' nogpu.log
  fi
  check "no results for it" test ! -e nogpu.json
fi

# 8. Exit codes of bad arguments.
"$gpulab" grade histogram class/alice/histogram.cu --hidden-visibility sometimes >vis.log 2>&1
rc=$?
check "an option value outside its list exits 2 (got $rc)" test $rc -eq 2
"$gpulab" --help >/dev/null 2>&1
check "--help exits 0" test $? -eq 0

finish "$work"
