#!/usr/bin/env bash
# scripts/format.sh and scripts/lint.sh do their job: the format scope holds gpulab's code and
# leaves out the teaching material and the tests' .cu data; --check fails on a badly laid out file
# and passes on a formatted one, changing neither; lint reports planted defects (a ternary with the
# same value on both sides, a string assigned its own prefix) and passes a clean file.
# Usage: style_scripts.sh PROJECT_ROOT WORK_DIR. Exit 77 where clang-format or cppcheck is missing.
set -u
root=$1
work=$2
failures=0
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
rm -rf "$work"
mkdir -p "$work"

# 1. The scope (needs git only).
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  bash "$root/scripts/format.sh" --list >"$work/scope.txt"
  check "the scope holds the grader's sources" grep -qx "grader/cli/main.cpp" "$work/scope.txt"
  check "the scope holds the labs' gold code" grep -q "^reference/.*/gold\.cpp$" "$work/scope.txt"
  check "the scope leaves out the reference solutions" bash -c "! grep -qE '^reference/.*\.cuh?$' '$work/scope.txt'"
  check "the scope holds the tests' C++" grep -qx "tests/catch_main.cpp" "$work/scope.txt"
  check "the scope leaves out skeletons/, assignments/, examples/" \
    bash -c "! grep -qE '^(skeletons|assignments|examples)/' '$work/scope.txt'"
  check "the scope leaves out the tests' .cu data" bash -c "! grep -qE '^tests/.*\.cuh?$' '$work/scope.txt'"
fi

# 2. --check on files of our own.
if command -v clang-format >/dev/null || command -v clang-format-14 >/dev/null; then
  cp "$root/.clang-format" "$work/.clang-format"  # clang-format looks for it beside the file
  printf 'int  add( int a,int b ){return a+b;}\n' >"$work/bad.cpp"
  printf 'int add(int a, int b) { return a + b; }\n' >"$work/good.cpp"
  cp "$work/bad.cpp" "$work/bad.orig"
  bash "$root/scripts/format.sh" --check "$work/bad.cpp" >"$work/bad.log" 2>&1
  check "format --check fails on a file that is not formatted (exit $?)" test $? -eq 1
  check "format --check names the file" grep -q "bad.cpp" "$work/bad.log"
  check "format --check changes nothing" cmp -s "$work/bad.cpp" "$work/bad.orig"
  bash "$root/scripts/format.sh" --check "$work/good.cpp" >"$work/good.log" 2>&1
  check "format --check passes a formatted file (exit $?)" test $? -eq 0
  bash "$root/scripts/format.sh" "$work/bad.cpp" >/dev/null 2>&1
  check "format rewrites the file as it should be" cmp -s "$work/bad.cpp" "$work/good.cpp"
else
  echo "skipped: clang-format is not installed"
  skipped_format=1
fi

# 3. lint on files of our own.
if command -v cppcheck >/dev/null; then
  mkdir -p "$work/lint"
  cat >"$work/lint/defects.cpp" <<'CPP'
#include <string>
std::string label(bool passed, const std::string& feedback) { return passed ? feedback : feedback; }
std::string first_word(std::string s) {
  s = s.substr(0, s.find(' '));
  return s;
}
CPP
  cat >"$work/lint/clean.cpp" <<'CPP'
#include <string>
std::string label(bool passed, const std::string& feedback) { return passed ? feedback : "wrong: " + feedback; }
CPP
  bash "$root/scripts/lint.sh" "$work/lint/defects.cpp" >"$work/defects.log" 2>&1
  check "lint fails on planted defects (exit $?)" test $? -eq 1
  check "lint reports the no-op ternary" grep -q "defects.cpp:2: .*duplicateExpressionTernary" "$work/defects.log"
  check "lint reports the string assigned its own prefix" grep -q "defects.cpp:4: .*uselessCallsSubstr" "$work/defects.log"
  bash "$root/scripts/lint.sh" "$work/lint/clean.cpp" >"$work/clean.log" 2>&1
  check "lint passes a clean file (exit $?)" test $? -eq 0
else
  echo "skipped: cppcheck is not installed"
  skipped_lint=1
fi

if [ "$failures" -ne 0 ]; then
  for f in "$work"/*.log; do echo "---- $f"; cat "$f"; done
  echo "$failures check(s) failed"
  exit 1
fi
if [ -n "${skipped_format:-}" ] && [ -n "${skipped_lint:-}" ]; then exit 77; fi
echo "all checks passed"
