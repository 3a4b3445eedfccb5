#!/usr/bin/env bash
# gpulab built against the oldest versions of its libraries that a hosted grader's image ships
# (Debian bullseye's fmt 7.1 and nlohmann-json 3.9: scripts/oldest-libraries.sh), and every lab's
# reference graded with that build to full marks (the public cases, --no-large --no-hidden: what
# differs between library versions is gpulab's own code, not the cases' sizes). A CI step
# (.ci/run); it builds only the gpulab program (and the emulator libraries it builds programs with)
# in ./build-oldest, through the compile cache where there is one.
# Fails if CMake found other versions than bullseye's, if any object read the system's newer
# fmt or nlohmann headers, or if gpulab is not linked with fmt 7.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/build-oldest
prefix=$work/libs
build=$work/build
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$work"
bash scripts/oldest-libraries.sh "$prefix"
. scripts/ccache-env.sh
if ! cmake -S . -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/usr" -DGPULAB_BUILD_TESTS=OFF -DGPULAB_WERROR=ON \
  >"$work/configure.log" 2>&1; then
  cat "$work/configure.log"
  echo "oldest-libraries-check: gpulab does not configure against bullseye's libraries" >&2
  exit 1
fi
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
grep -E "gpulab: (fmt|nlohmann_json|CLI11) " "$work/configure.log" || true
grep -q "gpulab: fmt 7\.1\." "$work/configure.log" || fail "CMake did not take bullseye's fmt 7.1 from $prefix"
grep -q "gpulab: nlohmann_json 3\.9\." "$work/configure.log" || fail "CMake did not take bullseye's nlohmann-json 3.9 from $prefix"
if ! cmake --build "$build" -j "$jobs" --target gpulab >"$work/build.log" 2>&1; then
  grep -E "error|FAILED" "$work/build.log" | head -40
  echo "oldest-libraries-check: gpulab does not build against bullseye's fmt 7.1 and nlohmann-json 3.9 (see $work/build.log)" >&2
  exit 1
fi
echo "ok: gpulab builds against bullseye's fmt 7.1 and nlohmann-json 3.9"
# Every header an object read, from the compiler's own dependency lists: none of the system's copies.
newer=$(ninja -C "$build" -t deps | grep -E '^ +/usr/include/(fmt|nlohmann)/' | sort -u | head -5 || true)
if [ -n "$newer" ]; then
  fail "objects read the system's newer headers instead of bullseye's: $newer"
else
  echo "ok: no object read the system's fmt or nlohmann headers"
fi
gpulab=$build/grader/cli/gpulab
linked_fmt=$(ldd "$gpulab" | grep libfmt || true)
if grep -q "libfmt.so.7 => $prefix" <<<"$linked_fmt"; then
  echo "ok: gpulab is linked with bullseye's libfmt.so.7"
else
  fail "gpulab is not linked with bullseye's libfmt.so.7: ${linked_fmt:-no libfmt}"
fi
export GPULAB_CACHE=$work/cache
for lab_json in assignments/*/lab.json; do
  lab=$(basename "$(dirname "$lab_json")")
  out=$work/$lab.txt
  if "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend emu --no-large --no-hidden --format text --out "$out" \
    >"$work/$lab.log" 2>&1 && grep -q '^score: \(.*\) / \1$' "$out"; then
    echo "ok: $lab's reference scores $(grep '^score:' "$out" | cut -d' ' -f2-) with this build"
  else
    cat "$work/$lab.log" "$out" 2>/dev/null | tail -30
    fail "$lab's reference does not score full marks with the build against bullseye's libraries"
  fi
done
if [ "$failures" -ne 0 ]; then
  echo "oldest-libraries-check: $failures failed"
  exit 1
fi
echo "oldest-libraries-check: passed"
