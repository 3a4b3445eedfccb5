#!/usr/bin/env bash
# Static analysis of gpulab's own code (grader/, the labs' gold code in reference/) with cppcheck:
# warnings, style, performance and portability findings; the ones left alone are listed with their
# reason in scripts/lint/cppcheck-suppressions.txt. Exit 0 when nothing is found, 1 with findings
# (printed as FILE:LINE: severity (id): message), 77 when cppcheck is not installed (CTest skips).
# cppcheck rather than clang-tidy: over grader/ it needs seconds of CPU where clang-tidy, which
# parses every file with all its headers, needs some 15 minutes on two cores (README, Development).
# Usage: scripts/lint.sh [FILE_OR_FOLDER...]   (default: grader reference)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cppcheck >/dev/null; then
  echo "lint: cppcheck is not installed (apt-get install cppcheck); skipped"
  exit 77
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(grader reference)
suppressions=$(mktemp)
trap 'rm -f "$suppressions"' EXIT
grep -v '^\s*\(#\|$\)' scripts/lint/cppcheck-suppressions.txt >"$suppressions"
jobs=$(nproc 2>/dev/null || echo 2)
cppcheck -j "$jobs" --quiet --std=c++20 --language=c++ --enable=warning,style,performance,portability \
  --library=scripts/lint/cppcheck.cfg --suppressions-list="$suppressions" --inline-suppr \
  --error-exitcode=1 -I grader -I grader/emu/include -i skeletons -i assignments -i examples \
  --template='{file}:{line}: {severity} ({id}): {message}' "${targets[@]}"
echo "lint: no findings"
