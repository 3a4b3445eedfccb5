#!/bin/bash
# `gpulab similarity` from the command line: a class folder with a disguised copy, an independent
# solution, a student without a .cu file, an empty file and a file of non-UTF-8 bytes; then the errors
# a user can make. Usage: similarity_cli.sh GPULAB SOURCE_DIR WORK_DIR
set -u
gpulab=$1 src=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/class"/{ada,bob,cy,dee,eve,fay}
cp "$src/reference/reduction/progression/two_pass.cu" "$work/class/ada/reduction.cu"
cp "$src/tests/similarity/reduction/two_pass_disguised.cu" "$work/class/bob/reduction.cu"
cp "$src/reference/reduction/progression/warp_shuffle.cu" "$work/class/cy/reduction.cu"
echo "notes only" > "$work/class/dee/README.txt"
: > "$work/class/eve/reduction.cu"
printf 'int \xff\xfe caf\xe9 = 1; /* \x80 */\n' > "$work/class/fay/reduction.cu"
cat "$src/reference/reduction/progression/warp_shuffle.cu" >> "$work/class/fay/reduction.cu"

"$gpulab" similarity reduction "$work/class" --out "$work/out" > "$work/stdout" 2> "$work/stderr" \
  || { cat "$work/stderr"; fail "gpulab similarity exited $?"; }
grep -q "5 submissions compared" "$work/stdout" || { cat "$work/stdout"; fail "summary line"; }
grep -q "not compared: dee: no .cu file" "$work/stderr" || { cat "$work/stderr"; fail "dee not reported"; }
head -1 "$work/out/similarity.csv" | grep -q $'^a,b,similarity\r$' || fail "csv header"
sed -n 2p "$work/out/similarity.csv" | grep -Eq $'^(ada,bob|cy,fay),[01]\\.[0-9]{4}\r$' || fail "top pair: $(sed -n 2p "$work/out/similarity.csv")"
grep -q '^ada,bob,' "$work/out/similarity.csv" || fail "the disguised copy is not listed"
[ -f "$work/out/index.html" ] && [ -f "$work/out/pairs/pair-0001.html" ] || fail "pages"
grep -q 'href="#b1"' "$work/out/pairs/pair-0001.html" || fail "linked regions"
if grep -q '<script\|https\?://' "$work/out/index.html" "$work/out/pairs/"*.html; then fail "the pages must be offline"; fi
grep -q '"schema": "gpulab-similarity/1"' "$work/out/summary.json" || fail "summary.json"

# Mistakes: each a clear message and exit status 2 (bad arguments) or CLI11's 105/106.
"$gpulab" similarity reduction "$work/class" --out "$work/o2" --threshold 1.5 2> "$work/err1"; rc=$?
[ $rc -ne 0 ] && grep -q -- "--threshold must be between 0 and 1 (got 1.5)" "$work/err1" || fail "threshold 1.5 (rc $rc)"
"$gpulab" similarity reduction "$work/class" --out "$work/o2" --common-fraction 0 2> "$work/err2"; rc=$?
[ $rc -ne 0 ] && grep -q -- "--common-fraction" "$work/err2" || fail "common fraction 0 (rc $rc)"
"$gpulab" similarity no_such_lab "$work/class" --out "$work/o2" 2> "$work/err3"; rc=$?
[ $rc -ne 0 ] && grep -qi "no_such_lab" "$work/err3" || fail "unknown lab (rc $rc)"
"$gpulab" similarity reduction "$work/missing" --out "$work/o2" 2> "$work/err4"; rc=$?
[ $rc -ne 0 ] && grep -qi "missing" "$work/err4" || fail "missing folder (rc $rc)"
mkdir -p "$work/empty_class"
"$gpulab" similarity reduction "$work/empty_class" --out "$work/o2" 2> "$work/err5"; rc=$?
[ $rc -ne 0 ] && grep -q "holds no submissions" "$work/err5" || fail "empty class folder (rc $rc)"

# A class of one: nothing to compare, still a CSV header and an index.
mkdir -p "$work/one/ada" && cp "$src/reference/reduction/progression/two_pass.cu" "$work/one/ada/reduction.cu"
"$gpulab" similarity reduction "$work/one" --out "$work/o3" > /dev/null || fail "class of one"
[ "$(cat "$work/o3/similarity.csv")" = $'a,b,similarity\r' ] || fail "class of one: csv"
grep -q "Fewer than two submissions" "$work/o3/index.html" || fail "class of one: index"
echo "OK"
