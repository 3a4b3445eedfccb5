#!/usr/bin/env bash
# Every command that loads a lab refuses a broken lab.json with exit code 2 and
# a message naming the file and the JSON path (a project home whose reduction
# lab.json has a misspelt key, then negative points); a lab.json naming another
# lab than its folder is refused too; `gpulab grade --hidden-visibility` takes
# Gradescope's values only.
# Usage: broken_lab_json.sh GPULAB PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
root=$2
work=$3
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# expect_refusal DESCRIPTION TEXT COMMAND...: the command exits 2 and its stderr contains TEXT.
expect_refusal() {
  local what=$1 text=$2
  shift 2
  "$@" >out.log 2>err.log
  local rc=$?
  if [ "$rc" -ne 2 ]; then
    fail "$what: exit code $rc, not 2 ($(head -c 300 err.log))"
  elif ! grep -qF -- "$text" err.log; then
    fail "$what: the message does not say '$text': $(head -c 300 err.log)"
  else
    echo "ok: $what"
  fi
}

rm -rf "$work"
mkdir -p "$work/home/assignments/reduction" "$work/data" "$work/subs/alice"
cd "$work" || exit 1
for d in grader reference datasets skeletons examples scripts docs CMakeLists.txt; do ln -s "$root/$d" "home/$d"; done
lab_json=home/assignments/reduction/lab.json
cp "$root/reference/reduction/reduction.cu" student.cu
cp student.cu subs/alice/reduction.cu
export GPULAB_HOME="$work/home"
export GPULAB_CACHE="$work/cache"

# 1. A misspelt key deep down: every command names the file, the path and the key it should be.
sed 's/"kind": "float_bound", "factor": 256/"kind": "float_bound", "factr": 256/' \
  "$root/assignments/reduction/lab.json" >"$lab_json"
grep -q '"factr"' "$lab_json" || { echo "FAIL: could not break the lab.json copy"; exit 1; }
message="$work/$lab_json: parts[1].check.factr (part 'float'): unknown key: did you mean 'factor'?"
expect_refusal "grade" "$message" "$gpulab" grade reduction student.cu --no-sandbox
expect_refusal "test" "$message" "$gpulab" test reduction student.cu
expect_refusal "datagen" "$message" "$gpulab" datagen reduction --out "$work/generated"
expect_refusal "validate --no-reference" "$message" "$gpulab" validate reduction "$work/data" --no-reference
expect_refusal "bench" "$message" "$gpulab" bench reduction
expect_refusal "batch" "$message" "$gpulab" batch reduction "$work/subs" --out "$work/results"
expect_refusal "bundle gradescope" "$message" "$gpulab" bundle gradescope reduction --out "$work/autograder.zip"
expect_refusal "bundle student" "$message" "$gpulab" bundle student --out "$work/kit.tar.gz"
expect_refusal "contract" "$message" "$gpulab" contract reduction
expect_refusal "calibrate" "$message" "$gpulab" calibrate reduction --backend emu
[ ! -e "$work/generated" ] || fail "datagen wrote datasets for a broken lab"
[ ! -e "$work/autograder.zip" ] || fail "bundle gradescope wrote a bundle for a broken lab"

# 2. Negative points: refused when the lab loads, before any score is made.
sed '0,/"points": 50,/s//"points": -15,/' "$root/assignments/reduction/lab.json" >"$lab_json"
expect_refusal "grade with negative points" "parts[0].points (part 'int'): must be a number >= 0, not -15" \
  "$gpulab" grade reduction student.cu --no-sandbox
expect_refusal "validate with negative points" "parts[0].points (part 'int'): must be a number >= 0, not -15" \
  "$gpulab" validate reduction "$work/data" --no-reference

# 3. A lab.json whose "lab" is not its folder's name.
mkdir -p home/assignments/reduction2
cp "$root/assignments/reduction/lab.json" home/assignments/reduction2/lab.json
expect_refusal "a lab.json naming another lab" "says 'reduction', but the lab's folder is 'reduction2'" \
  "$gpulab" contract reduction2

# 4. --hidden-visibility: Gradescope's four values, nothing else.
cp "$root/assignments/reduction/lab.json" "$lab_json"
expect_refusal "--hidden-visibility sometimes is refused" \
  "sometimes not in {hidden,after_due_date,after_published,visible}" \
  "$gpulab" grade reduction student.cu --hidden-visibility sometimes --out "$work/sometimes.json"
[ ! -e "$work/sometimes.json" ] || fail "--hidden-visibility sometimes wrote results"
# An allowed value gets past the options: with a broken lab.json the lab's error is what stops it.
sed 's/"kind": "float_bound", "factor": 256/"kind": "float_bound", "factr": 256/' \
  "$root/assignments/reduction/lab.json" >"$lab_json"
for v in hidden after_due_date after_published visible; do
  expect_refusal "--hidden-visibility $v is accepted" "$message" \
    "$gpulab" grade reduction student.cu --no-sandbox --hidden-visibility "$v"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
