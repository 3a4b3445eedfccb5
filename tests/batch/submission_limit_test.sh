#!/usr/bin/env bash
# The Gradescope submission limit end to end: autograder.conf and run_autograder
# from a real `gpulab bundle gradescope --max-submissions-per-day 2`, run in a
# stand-in /autograder (GPULAB_AUTOGRADER_ROOT) whose build/ is the gpulab under
# test, with stand-in submission_metadata.json files:
#   - over the limit: not graded (a broken submission keeps the last graded
#     score), run_autograder succeeds, results.json says when the next grading
#     comes in the metadata's offset and bears the carried-forward mark; grade
#     itself exits 8;
#   - those carried results listed as an earlier submission do not count: the
#     next submission is graded, with the note on the limit above its output;
#   - a missing or malformed metadata file: graded as usual, and said;
#   - without a limit in the bundle: no note; a limit with --format json: exit 2.
# Usage: submission_limit_test.sh GPULAB JSON_CHECK PROJECT_ROOT WORK_DIR
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

# A stand-in /autograder: the bundle's scripts and autograder.conf, the project's folders, this gpulab.
"$gpulab" bundle gradescope histogram --backend emu --max-submissions-per-day 2 --out limited.zip >bundle.log 2>&1
check "bundle with --max-submissions-per-day exits 0" test $? -eq 0
check "bundle says the limit" grep -q 'at most 2 submissions per student graded in any 24 hours' bundle.log
ag=$work/ag
mkdir -p "$ag/source/build/grader/cli" "$ag/submission"
(cd "$ag/source" && cmake -E tar xf "$work/limited.zip" run_autograder autograder.conf)
check "autograder.conf holds the limit" grep -qx 'GPULAB_MAX_SUBMISSIONS_PER_DAY=2' "$ag/source/autograder.conf"
# Only the text part, public cases: what matters here is which results are written, not the grading.
echo 'GPULAB_GRADE_ARGS+=(--part text --no-large --no-hidden)' >>"$ag/source/autograder.conf"
for d in grader assignments reference datasets; do ln -s "$root/$d" "$ag/source/$d"; done
ln -s "$gpulab" "$ag/source/build/grader/cli/gpulab"
printf 'this is not CUDA;\n' >"$ag/submission/histogram.cu"
results=$ag/results/results.json
run_autograder() {
  rm -f "$results"
  GPULAB_AUTOGRADER_ROOT=$ag bash "$ag/source/run_autograder" >"$work/$1.log" 2>&1
}
get() { "$json_check" get "$results" "$@"; }

tests_of() {  # an earlier grading's results: SCORE of 35 points, OUTPUT
  cat <<JSON
{"score": $1, "output": "$2", "output_format": "text", "visibility": "visible",
 "tests": [{"name": "text: dataset 1 (n=1)", "score": $1, "max_score": 35.0, "status": "failed",
            "output": "bins[3] = 2, expected 1", "visibility": "visible"}]}
JSON
}
metadata() {  # created_at, then the previous_submissions entries
  local created=$1
  shift
  local entries
  entries=$(IFS=,; echo "$*")
  cat >"$ag/submission_metadata.json" <<JSON
{"id": 9001, "created_at": "$created",
 "assignment": {"title": "Histogram", "total_points": "35.0", "group_submission": false},
 "users": [{"email": "ada@example.edu", "id": 1, "name": "Ada Lovelace"}],
 "previous_submissions": [$entries]}
JSON
}
entry() { echo "{\"submission_time\": \"$1\", \"score\": $2, \"results\": $3}"; }

# 1. Over the limit: two gradings in the 24 hours before 15:00.
metadata "2026-03-10T15:00:00.000000-07:00" \
  "$(entry 2026-03-09T16:30:00.000000-07:00 10.0 "$(tests_of 10.0 '')")" \
  "$(entry 2026-03-10T09:00:00.000000-07:00 20.0 "$(tests_of 20.0 'Compiler warnings:\nline 7')")"
run_autograder over
check "over the limit, run_autograder succeeds (exit $?)" test $? -eq 0
check "results.json is valid for Gradescope" "$json_check" gradescope "$results"
check "the last graded score is carried forward (not 0)" test "$(get score)" = 20.0
check "its tests too" test "$(get tests 0 output)" = "bins[3] = 2, expected 1"
check "the student is told the submission was not graded" \
  grep -q 'Submission limit reached: at most 2 submissions are graded in any 24 hours' "$results"
check "and when the next grading comes, in the metadata's offset" \
  grep -q 'Your next submission can be graded from Tuesday 10 March 2026, 16:30 (UTC-07:00), in 1 h 30 min.' "$results"
check "the carried submission's output follows" grep -q 'Its output:\\n\\nCompiler warnings:\\nline 7' "$results"
check "nothing was compiled" bash -c "! grep -q 'did not compile' '$results'"
check "the results bear the carried-forward mark" \
  test "$(get extra_data gpulab_submission_limit carried_forward)" = true
check "the mark gives the next grading" \
  test "$(get extra_data gpulab_submission_limit next_grading)" = 2026-03-10T16:30:00-07:00
check "the log says why" grep -q 'submission limit: 2 of 2 gradings used' "$work/over.log"
cp "$results" carried.json
"$gpulab" grade histogram "$ag/submission" --max-submissions-per-day 2 \
  --submission-metadata "$ag/submission_metadata.json" --out direct.json >direct.log 2>&1
check "gpulab grade over the limit exits 8" test $? -eq 8
check "and says so" grep -q 'score: 20.0 (carried forward, not graded: over the submission limit)' direct.log

# 2. The carried results, listed as an earlier submission, do not count: graded again (it does not compile: 0).
metadata "2026-03-10T16:00:00.000000-07:00" \
  "$(entry 2026-03-10T09:00:00.000000-07:00 20.0 "$(tests_of 20.0 '')")" \
  "$(entry 2026-03-10T15:00:00.000000-07:00 20.0 "$(cat carried.json)")"
run_autograder under
check "under the limit, run_autograder succeeds (exit $?)" test $? -eq 0
check "the submission was graded (it does not compile: 0)" test "$(get score)" = 0.0
check "the note on the limit heads the output" \
  grep -q '"output": "Submission limit: this is graded submission 2 of the 2 allowed in any 24 hours. Your next submission can be graded from Wednesday 11 March 2026, 09:00 (UTC-07:00), in 17 h.\\n\\nYour submission did not compile' \
  "$results"
check "graded results bear no mark" bash -c "! grep -q gpulab_submission_limit '$results'"

# 3. Metadata missing or malformed: graded as usual, and said.
rm -f "$ag/submission_metadata.json"
run_autograder missing
check "no metadata: run_autograder succeeds (exit $?)" test $? -eq 0
check "no metadata: graded" grep -q 'Your submission did not compile' "$results"
check "no metadata: the student is told the limit was not applied" \
  grep -q 'could not be applied: .*submission_metadata.json: cannot be read.*graded as usual' "$results"
echo '{"created_at": "2026-03-10T16:00:00-07:00", "previous_submissions": [' >"$ag/submission_metadata.json"
run_autograder malformed
check "malformed metadata: run_autograder succeeds (exit $?)" test $? -eq 0
check "malformed metadata: graded, and said" \
  grep -q 'could not be applied: .*submission_metadata.json: not valid JSON' "$results"
check "the log says so too" grep -q 'submission limit not applied, grading as usual' "$work/malformed.log"

# 4. A bundle without a limit writes no note; a limit asks for Gradescope's format.
"$gpulab" bundle gradescope histogram --backend emu --out unlimited.zip >/dev/null 2>&1
(cd "$ag/source" && cmake -E tar xf "$work/unlimited.zip" autograder.conf)
echo 'GPULAB_GRADE_ARGS+=(--part text --no-large --no-hidden)' >>"$ag/source/autograder.conf"
check "without a limit autograder.conf leaves it empty" grep -qx 'GPULAB_MAX_SUBMISSIONS_PER_DAY=' "$ag/source/autograder.conf"
run_autograder unlimited
check "without a limit: graded" grep -q 'Your submission did not compile' "$results"
check "without a limit: no note" bash -c "! grep -q 'ubmission limit' '$results'"
"$gpulab" grade histogram "$ag/submission" --max-submissions-per-day 2 \
  --submission-metadata "$ag/submission_metadata.json" --format json >json.log 2>&1
check "a limit with --format json exits 2" test $? -eq 2
check "and says why" grep -q 'needs --format gradescope' json.log

finish "$work"
