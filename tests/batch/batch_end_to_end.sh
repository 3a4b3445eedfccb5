#!/usr/bin/env bash
# End-to-end test of `gpulab batch` on a small histogram class (emulator, no
# large cases): results, gradebook and report; a result equal to `gpulab grade
# --format json`; resuming (nothing graded twice, a changed submission graded
# again); Ctrl-C in the middle (exit 130, nothing half-written, the rerun
# finishes the class); Gradescope's export layout; errors for bad arguments; the similarity
# report and its section in report.html (and --no-similarity).
# Usage: batch_end_to_end.sh GPULAB JSON_CHECK PROJECT_ROOT WORK_DIR   (GPULAB_CACHE should be set)
set -u
gpulab=$1
json_check=$2
root=$3
work=$4
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
row() { grep "^$1," "$2"; }

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
labs="$root/tests/labs/histogram"
mkdir -p class/alice class/bob class/carol class/dave class/erin
cp "$root/reference/histogram/histogram.cu" class/alice/
cp "$labs/buggy/nonatomic_increment.cu" class/bob/histogram.cu
printf 'int broken = ;\n' >class/carol/histogram.cu
echo "my notes" >class/dave/notes.txt
cp "$root/skeletons/histogram/histogram.cu" class/erin/

# 1. The class.
"$gpulab" batch histogram class --out out --jobs 2 --no-large >run1.log 2>&1
rc=$?
check "batch exits 0 (got $rc)" test $rc -eq 0
for s in alice bob carol erin; do check "$s.json written" test -s "out/$s.json"; done
check "no result file for a student without a .cu file" test ! -e out/dave.json
check "a record for every student" test "$(ls out/records | wc -l)" -eq 5
check "gradebook has a header and 5 rows" test "$(wc -l <out/gradebook.csv)" -eq 6
check "gradebook header (parts out of their emulator maximum: no speed points)" grep -q '^student,text (35),bytes (35),total,max_total,status,failure_class,' out/gradebook.csv
check "alice scores full marks (70 on the emulator)" bash -c "grep -q '^alice,35,35,70,70,graded,,' out/gradebook.csv"
check "bob's data race is his failure class" bash -c "row() { grep \"^\$1,\" \"\$2\"; }; row bob out/gradebook.csv | grep -q ',graded,data_race,'"
check "carol does not compile" bash -c "grep -q '^carol,0,0,0,70,compile_error,compile_error,' out/gradebook.csv"
check "dave handed in no .cu file" bash -c "grep -q '^dave,0,0,0,70,no_submission,no_submission,' out/gradebook.csv"
check "the skeleton scores 0" bash -c "grep -q '^erin,0,0,0,70,graded,' out/gradebook.csv"
check "report.html written" grep -q 'Score distribution' out/report.html
check "report shows the emulator's performance note" grep -q 'not measured (emulator)' out/report.html
check "report names the data race" grep -q 'data race' out/report.html
check "progress lines with a count" grep -q '^\[5/5\] ' run1.log
check "similarity.csv written" bash -c "head -1 out/similarity/similarity.csv | grep -q '^a,b,similarity'"
check "report has the similarity section" grep -q 'Similar submissions' out/report.html
check "nothing half-written is left" test -z "$(find out -name '*.tmp-*')"

# 2. A student's result is what `gpulab grade --format json` writes.
"$gpulab" grade histogram class/alice/histogram.cu --no-large --no-hidden --format json --out alone.json 2>/dev/null
check "alice.json equals gpulab grade's result" "$json_check" same-result out/alice.json alone.json
check "the result names the file relative to the class" test "$("$json_check" get out/alice.json submission)" = alice/histogram.cu

# 3. Resuming: nothing new, nothing graded.
before=$(cat out/records/*.json | md5sum)
start=$(date +%s%N)
"$gpulab" batch histogram class --out out --jobs 2 --no-large >run2.log 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "resumed batch exits 0 (got $rc)" test $rc -eq 0
check "resumed batch reports 5 up to date" grep -q '^5 submissions up to date' run2.log
check "resumed batch grades nothing" grep -q '^0 graded now, 5 up to date' run2.log
check "resumed batch is quick ($ms ms)" test $ms -lt 5000
check "records unchanged" test "$(cat out/records/*.json | md5sum)" = "$before"
check "gradebook rewritten the same" test "$(wc -l <out/gradebook.csv)" -eq 6
rm -rf out/similarity
"$gpulab" batch histogram class --out out --jobs 2 --no-large --no-similarity >run2b.log 2>&1
check "--no-similarity: no similarity folder" test ! -e out/similarity
check "--no-similarity: no similarity section" bash -c "! grep -q 'Similar submissions' out/report.html"

# 4. A changed submission is graded again, the others are not; other options regrade.
cp "$root/reference/histogram/histogram.cu" class/bob/histogram.cu
"$gpulab" batch histogram class --out out --jobs 2 --no-large >run3.log 2>&1
check "only the changed submission is graded" grep -q '^4 submissions up to date (already graded, unchanged); grading 1' run3.log
check "bob now scores full marks" bash -c "grep -q '^bob,35,35,70,70,graded,,' out/gradebook.csv"
check "bob's copy of alice is the most similar pair" bash -c "sed -n 2p out/similarity/similarity.csv | grep -q '^alice,bob,1.0000'"
check "the report links the pair's side-by-side page" grep -q 'href="similarity/pairs/pair-0001.html"' out/report.html
"$gpulab" batch histogram class --out out --jobs 2 --no-large --part text >run4.log 2>&1
check "other options are another grading" grep -q '^grading 5 submissions' run4.log
check "a part-only gradebook has one part column" grep -q '^student,text (35),total,' out/gradebook.csv

# 5. Ctrl-C in the middle: gradings in progress end and are kept, nothing is half-written; a rerun finishes.
"$gpulab" batch histogram class --out stopped --jobs 1 --no-large >run5.log 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  [ "$(ls stopped/records 2>/dev/null | wc -l)" -ge 1 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
check "interrupted batch exits 130 (got $rc)" test $rc -eq 130
check "the interruption is explained" grep -q 'run the same command again' run5.log
check "interrupted batch graded some but not all ($(ls stopped/records | wc -l))" \
  test "$(ls stopped/records | wc -l)" -ge 1 -a "$(ls stopped/records | wc -l)" -lt 5
check "nothing half-written after Ctrl-C" test -z "$(find stopped -name '*.tmp-*')"
kept=$(ls stopped/records | wc -l)
kept_sum=$(cat stopped/records/*.json | md5sum)
first=$(ls stopped/records | head -1)
first_sum=$(md5sum <"stopped/records/$first")
"$gpulab" batch histogram class --out stopped --jobs 2 --no-large >run6.log 2>&1
rc=$?
check "the rerun exits 0 (got $rc)" test $rc -eq 0
check "the rerun skips what was graded ($kept)" grep -q "^$kept submissions\? up to date" run6.log
check "a record from before the interruption is untouched" test "$(md5sum <"stopped/records/$first")" = "$first_sum"
check "the rerun finished the class" test "$(ls stopped/records | wc -l)" -eq 5
: "$kept_sum"

# 6. Gradescope's export: submission folders named by the metadata.
mkdir -p gs/assignment_5_export/submission_101 gs/assignment_5_export/submission_102
cp "$root/reference/histogram/histogram.cu" gs/assignment_5_export/submission_101/
cp "$labs/buggy/uppercase_counted.cu" gs/assignment_5_export/submission_102/histogram.cu
cat >gs/assignment_5_export/submission_metadata.yml <<'YML'
submission_101:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1001'
    :email: ada@example.edu
  :created_at: 2026-11-20 10:11:12.000000000 -08:00
  :score: 0.0
submission_102:
  :submitters:
  - :name: Grace Hopper
    :sid: '1002'
    :email: grace@example.edu
  - :name: Alan Turing
    :sid: '1003'
    :email: alan@example.edu
YML
"$gpulab" batch histogram gs --out gsout --jobs 2 --no-large >run7.log 2>&1
rc=$?
check "Gradescope export graded (rc $rc)" test $rc -eq 0
check "student named by email" test -s gsout/ada@example.edu.json
check "group named by both emails" test -s "gsout/grace@example.edu+alan@example.edu.json"
check "gradebook has names, emails, ids and the submission" \
  grep -q '^ada@example.edu,35,35,70,70,graded,,,Ada Lovelace,ada@example.edu,1001,submission_101,submission_101/histogram.cu' gsout/gradebook.csv
check "group row lists both" grep -q 'Grace Hopper; Alan Turing,grace@example.edu; alan@example.edu' gsout/gradebook.csv

# 7. Bad arguments get clear errors.
"$gpulab" batch nosuchlab class --out x >err1.log 2>&1
check "unknown lab: exit 2 and the lab list" bash -c "test $? -eq 2 && grep -q \"no lab named 'nosuchlab'\" err1.log"
"$gpulab" batch histogram class --out x --shard 3/2 >err2.log 2>&1
check "bad --shard explained" grep -q 'between 0 and K-1' err2.log
"$gpulab" batch histogram class --out x --gres gpu:1 >err3.log 2>&1
check "--gres without --slurm explained" grep -q 'add --slurm' err3.log

echo "$failures failure(s)"
exit $((failures > 0))
