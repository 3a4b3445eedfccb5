#!/usr/bin/env bash
# Bytes that are not UTF-8, in every place text enters a result: a program's
# output (Latin-1, binary with NUL bytes, a 1 MiB line, a multi-byte character
# cut at the output limit), a compiler warning quoting a Latin-1 comment, a NUL
# byte in the source, file and student folder names that are not UTF-8, a
# binary file handed in. `gpulab grade` must write a valid results.json for
# each (never "invalid UTF-8" and no results), and `gpulab batch` must grade the
# whole class with one valid result per student.
# Usage: hostile_bytes_test.sh GPULAB JSON_CHECK PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
json_check=$2
root=$3
work=$4
# shellcheck source=../shell_checks.sh
source "$(dirname "$0")/../shell_checks.sh"

rm -rf "$work"
mkdir -p "$work/class"
cd "$work" || exit 1
ref="$root/reference/histogram/histogram.cu"

# early STUDENT 'C++ statements': the reference, whose histogram_text runs the statements and
# then ends the program (exit 3), so that its output is quoted in the feedback.
early() {
  mkdir -p "class/$1"
  sed 's/^void histogram_text(/static void histogram_text_real(/' "$ref" >"class/$1/histogram.cu"
  printf '%s\n' '#include <cstdio>' '#include <cstdlib>' \
    'void histogram_text(const char* text, unsigned int* bins, size_t n) {' \
    "  (void)text; (void)bins; (void)n; (void)&histogram_text_real;" "  $2" '  std::fflush(stdout);' \
    '  std::exit(3);' '}' >>"class/$1/histogram.cu"
}
early latin1 'std::fputs("caf\xe9 cr\xe8me br\xfbl\xe9e\n", stdout);'
early binary 'for (int i = 0; i < 256; ++i) std::putchar(i);'
early long_line 'for (int i = 0; i < (1 << 20); ++i) std::putchar((char)(65 + i % 26));'
early cut_character 'for (;;) std::fputs("\xc3\xa9", stdout);'
# A warning on a line with a Latin-1 comment (g++ quotes the line), and a NUL byte in a comment.
mkdir -p class/warning class/nul_byte
cp "$ref" class/warning/histogram.cu
printf 'int gpulab_narrowed = 10000000000; // caf\xe9 cr\xe8me\n' >>class/warning/histogram.cu
cp "$ref" class/nul_byte/histogram.cu
printf '// a NUL: \0 end\n' >>class/nul_byte/histogram.cu
# A student folder and a file whose names are not UTF-8, and a binary file handed in.
mkdir -p "class/$(printf '\xe9l\xe8ve')"
cp "$ref" "class/$(printf '\xe9l\xe8ve')/histogram.cu"
head -c 4096 /dev/urandom >"class/$(printf '\xe9l\xe8ve')/data.bin"
printf 'notes\n' >"class/$(printf '\xe9l\xe8ve')/$(printf 'notes\xff.txt')"

args=(--part text --no-large --no-hidden)
for d in class/*/; do
  name=$(basename "$d")
  label=$(printf '%s' "$name" | LC_ALL=C tr -c 'A-Za-z0-9_' '_')
  "$gpulab" grade histogram "$d" "${args[@]}" --format gradescope --out "$label.json" >"$label.log" 2>&1
  rc=$?
  check "grade $label: exit 0 (got $rc)" test $rc -eq 0
  check "grade $label: results.json is valid ($("$json_check" gradescope "$label.json" 2>&1))" \
    "$json_check" gradescope "$label.json"
  check "grade $label: no JSON library error" bash -c "! grep -q 'json.exception' '$label.log'"
done
check "Latin-1 output is shown, invalid bytes as U+FFFD" grep -q 'caf\\ufffd cr\\ufffdme\|caf� cr�me' latin1.json
check "the early end is explained" grep -q 'exit code 3' latin1.json
check "the warning is shown with its line" grep -q 'gpulab_narrowed' warning.json
check "the folder with a non-UTF-8 name scores full marks" \
  test "$("$json_check" gradescope _l_ve.json 2>/dev/null | sed 's/ .*//')" = "score=35"

# `gpulab test` prints valid UTF-8 too.
"$gpulab" test histogram class/latin1/histogram.cu --part text --no-large >test.out 2>&1
check "gpulab test's report is valid UTF-8" iconv -f UTF-8 -t UTF-8 test.out -o /dev/null

"$gpulab" batch histogram class --out out "${args[@]}" --jobs 2 >batch.log 2>&1
rc=$?
check "batch grades the class (exit 0, got $rc)" test $rc -eq 0
check "a gradebook with 7 students" test "$(wc -l <out/gradebook.csv 2>/dev/null)" -eq 8
check "the gradebook is valid UTF-8" iconv -f UTF-8 -t UTF-8 out/gradebook.csv -o /dev/null
check "the report is valid UTF-8" iconv -f UTF-8 -t UTF-8 out/report.html -o /dev/null
for r in out/*.json; do
  check "$(basename "$r") parses" "$json_check" get "$r" score
done
check "the non-UTF-8 folder name is kept visible as \\xNN in the source column" grep -q 'xE9l.xE8ve\|xe9l.xe8ve' out/gradebook.csv

finish "$work"
