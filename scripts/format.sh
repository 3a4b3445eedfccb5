#!/usr/bin/env bash
# Formats gpulab's C++ and CUDA sources with clang-format and the repository's .clang-format.
#   scripts/format.sh [FILE...]           rewrite the files in place (default: every file in scope)
#   scripts/format.sh --check [FILE...]   change nothing; name what is not formatted and exit 1 (CI)
#   scripts/format.sh --list              print the files in scope
# Scope: the tracked .cpp/.hpp/.h/.cu/.cuh files of grader/, the labs' gold code (reference/*/*.cpp,
# .hpp, .h) and the .cpp/.hpp/.h files of tests/. Not the reference solutions (reference/**/*.cu):
# course material whose lines the profile-agreement tables (docs/profile-agreement.md) name. Not skeletons/, assignments/ or examples/: teaching material, laid out by hand for
# students. Not tests/**/*.cu(h): they are test data whose layout is what is tested: graded
# submissions (tests/labs/*/buggy, the hostile corpus), the similarity corpus (near-copies that differ
# in layout on purpose), the rewriter's fixtures, and emulator/race tests that name source lines
# ("after the __syncthreads() on line 20").
# Exit 77 (CTest: skipped) where clang-format or git is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=apply
case "${1:-}" in
  --check) mode=check; shift ;;
  --list) mode=list; shift ;;
esac
clang_format=${CLANG_FORMAT:-}
if [ -z "$clang_format" ]; then
  for c in clang-format clang-format-14 clang-format-15 clang-format-16; do
    if command -v "$c" >/dev/null; then clang_format=$c; break; fi
  done
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "format: not a git checkout, so no list of tracked files; skipped"
    exit 77
  fi
  mapfile -t files < <(git ls-files -- 'grader/*.cpp' 'grader/*.hpp' 'grader/*.h' 'grader/*.cu' 'grader/*.cuh' \
    'reference/*.cpp' 'reference/*.hpp' 'reference/*.h' \
    'tests/*.cpp' 'tests/*.hpp' 'tests/*.h')
fi
if [ "$mode" = list ]; then
  printf '%s\n' "${files[@]}"
  exit 0
fi
if [ -z "$clang_format" ]; then
  echo "format: clang-format is not installed (apt-get install clang-format); skipped"
  exit 77
fi
if [ "$mode" = check ]; then
  # --dry-run --Werror: a warning per place that would change, and a non-zero exit.
  if ! "$clang_format" --style=file --dry-run --Werror "${files[@]}"; then
    echo "format: the files above are not formatted; run scripts/format.sh"
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  "$clang_format" --style=file -i "${files[@]}"
fi
