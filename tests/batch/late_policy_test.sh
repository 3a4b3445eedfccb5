#!/usr/bin/env bash
# `gpulab batch --course` on a small histogram class (emulator, part text, no
# large cases; one submission compiled, the others are copies of it): the late
# columns of gradebook.csv for a penalty course with file times (and the
# warning naming those students), for a late-day course on Gradescope's export
# (its created_at wins over file times), the report's section, `gpulab merge
# --course`, the gradebook unchanged without --course, and a bad course file
# refused (exit 2, file and key named) before anything is graded.
# Usage: late_policy_test.sh GPULAB PROJECT_ROOT WORK_DIR   (GPULAB_CACHE should be set)
set -u
gpulab=$1
root=$2
work=$3
# shellcheck source=../shell_checks.sh
source "$(dirname "$0")/../shell_checks.sh"
# The late columns of a student's row: everything after the submission's source.
late_of() { grep "^$1," "$2" | tr -d '\r' | cut -d, -f"$3"-; }

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
ref="$root/reference/histogram/histogram.cu"

# 1. A penalty course, times from the files. Due 2026-11-20 23:59 in New York = 2026-11-21T04:59:00Z.
mkdir -p class/alice class/bob class/dave class/erin
cp "$ref" class/alice/ && touch -d 2026-11-21T03:00:00Z class/alice/histogram.cu          # on time
cp "$ref" class/bob/ && touch -d 2026-11-22T16:00:00Z class/bob/histogram.cu              # 35 h late: 2 days
echo "my notes" >class/dave/notes.txt && touch -d 2026-11-26T12:00:00Z class/dave/notes.txt  # after the late due date
cat >course.json <<'JSON'
{
  "time_zone": "America/New_York",
  "grace_minutes": 5,
  "labs": {"histogram": {"due": "2026-11-20 23:59", "late_due": "2026-11-23 23:59"}},
  "penalty": {"percent_per_day": 10, "max_percent": 30}
}
JSON
"$gpulab" batch histogram class --out out --jobs 2 --no-large --part text --course course.json >run1.log 2>&1
rc=$?
check "batch --course exits 0 (got $rc)" test $rc -eq 0
g=out/gradebook.csv
# Columns: student, text (35), total, max_total, status, failure_class, review, names, emails, sid, submission_id,
# source, then the late ones from field 13.
check "header ends with the late columns" grep -q \
  ',source,on_time_score,submitted_at,time_source,hours_late,days_late,late_days_charged,penalty,final,late_status' $g
check "alice on time" test "$(late_of alice $g 13)" = "35,2026-11-20T22:00:00-05:00,file_time,0,0,0,0,35,on_time"
check "bob two days late: 20% off" test "$(late_of bob $g 13)" = "35,2026-11-22T11:00:00-05:00,file_time,35.02,2,0,7,28,late"
check "dave after the late due date" test "$(late_of dave $g 13)" = "0,2026-11-26T07:00:00-05:00,file_time,127.02,6,0,0,0,not_accepted"
check "erin's empty folder has no time: undecided" test "$(late_of erin $g 13)" = "0,,none,,,,,,unknown_time"
check "the existing columns are unchanged" grep -q '^bob,35,35,35,graded,' $g
check "a warning names the students timed by their files" \
  grep -q 'warning: the submission time of 3 students (alice, bob, dave) is the newest file time' run1.log
check "a warning names the student without a time" grep -q 'no submission time for 1 student (erin)' run1.log
check "the count of late submissions" grep -q '^late submissions: 3 of 4' run1.log
check "report has the Late submissions section" grep -q '<h2>Late submissions</h2>' out/report.html
check "report shows the policy" grep -q 'Late work loses 10% of its score per day started late, at most 30%' out/report.html
check "the record keeps the file time" grep -q '"newest_file_time": "2026-11-22T16:00:00Z"' out/records/bob.json

# 2. Without --course the gradebook is as before; changing the course file grades nothing again.
"$gpulab" batch histogram class --out out --jobs 2 --no-large --part text >run2.log 2>&1
check "without --course: no late columns" bash -c "head -1 $g | tr -d '\r' | grep -q ',submission_id,source$'"
check "without --course: nothing graded again" grep -q '^0 graded now, 4 up to date' run2.log
sed 's/"percent_per_day": 10/"percent_per_day": 25/' course.json >course25.json
"$gpulab" batch histogram class --out out --jobs 2 --no-large --part text --course course25.json >run3.log 2>&1
check "another course file: nothing graded again" grep -q '^0 graded now, 4 up to date' run3.log
check "another course file: bob capped at 30%" test "$(late_of bob $g 13)" = "35,2026-11-22T11:00:00-05:00,file_time,35.02,2,0,10.5,24.5,late"

# 3. gpulab merge --course: the times come from the records.
"$gpulab" merge out --out merged --course course.json >merge.log 2>&1
rc=$?
check "merge --course exits 0 (got $rc)" test $rc -eq 0
# (merge shows every part of the lab: a folder without a Slurm plan does not say --part was given)
check "merged gradebook has bob's late row" bash -c \
  "tr -d '\r' <merged/gradebook.csv | grep -q '^bob,.*,bob/histogram.cu,35,2026-11-22T11:00:00-05:00,file_time,35.02,2,0,7,28,late$'"

# 4. A late-day course on Gradescope's export: created_at wins over the (misleading) file times.
mkdir -p gs/submission_101 gs/submission_102
cp "$ref" gs/submission_101/ && cp "$ref" gs/submission_102/
touch -d 2026-11-20T12:00:00Z gs/submission_101/histogram.cu gs/submission_102/histogram.cu
cat >gs/submission_metadata.yml <<'YML'
submission_101:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1001'
    :email: ada@example.edu
  :created_at: 2026-11-21 10:00:00.000000000 -08:00
submission_102:
  :submitters:
  - :name: Grace Hopper
    :sid: '1002'
    :email: grace@example.edu
  :created_at: 2026-11-22 09:00:00.000000000 -08:00
YML
cat >days.json <<'JSON'
{
  "time_zone": "America/Los_Angeles",
  "labs": {"histogram": {"due": "2026-11-20 23:59"}},
  "late_days": {"budget": 2, "students": {"1001": {"used_before": 2}}}
}
JSON
"$gpulab" batch histogram gs --out gsout --jobs 2 --no-large --part text --course days.json >run4.log 2>&1
rc=$?
check "Gradescope batch --course exits 0 (got $rc)" test $rc -eq 0
check "ada (no days left) is not accepted" test "$(late_of ada@example.edu gsout/gradebook.csv 13)" = \
  "35,2026-11-21T10:00:00-08:00,gradescope_metadata,10.02,1,0,35,0,late_days_exhausted"
check "grace is charged two days" test "$(late_of grace@example.edu gsout/gradebook.csv 13)" = \
  "35,2026-11-22T09:00:00-08:00,gradescope_metadata,33.02,2,2,0,35,late"
check "no file-time warning for Gradescope's times" bash -c "! grep -q 'newest file time' run4.log"
check "report lists days charged" grep -q '<th>days charged</th>' gsout/report.html

# 5. A bad course file is refused before anything is graded.
sed 's/"late_due"/"late_date"/' course.json >bad.json
"$gpulab" batch histogram class --out badout --no-large --course bad.json >bad.log 2>&1
rc=$?
check "bad course file: exit 2 (got $rc)" test $rc -eq 2
check "bad course file: file and key named" grep -q 'bad.json: labs.histogram.late_date: unknown key' bad.log
check "bad course file: nothing graded" test ! -e badout
sed 's/"histogram"/"scan"/' course.json >scan.json
"$gpulab" batch histogram class --out badout --no-large --course scan.json >bad2.log 2>&1
check "a course without this lab: exit 2 and the lab named" \
  bash -c "test $? -eq 2 && grep -q \"scan.json: labs: no entry for lab 'histogram'\" bad2.log"
"$gpulab" merge out --out merged2 --course bad.json >bad3.log 2>&1
check "merge with a bad course file: exit 2, nothing merged" bash -c "test $? -eq 2 && test ! -e merged2"

finish
