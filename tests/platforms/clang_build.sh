#!/usr/bin/env bash
# gpulab built with clang++ (Debian's clang 14; the compiler of a Mac), and so built, compiling
# submissions with clang++ (the toolchain's compiler is the one gpulab was configured with):
# a build of the project of its own with CXX=clang++, warnings as errors, then
#   - the emulator's tests (ctest -L emu), the race check's (-L race) and the profile's (-L profile),
#     each compiled by clang with clang's checking-build flags (grader/emu/check/CMakeLists.txt);
#   - every lab's reference graded to full marks (-L labs -R 'reference scores full marks');
#   - a student's compile prints no warning at all (no "unknown warning option"), and the
#     toolchain's compile command is clang's.
# Not a second full suite: the rest is compiler-independent (CI's 2 cores; docs/platforms.md).
# Usage: clang_build.sh SOURCE_DIR WORK_DIR. Exit 77 (skipped) without clang++.
set -uo pipefail
src=$1
work=$2
clang=$(command -v clang++ || true)
cc=$(command -v clang || true)
if [ -z "$clang" ] || [ -z "$cc" ]; then
  echo "skip: clang++ is not installed (Debian: apt-get install clang)"
  exit 77
fi
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
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=true
fi
jobs=$(nproc 2>/dev/null || echo 2)
build=$work/build
mkdir -p "$work"
if ! cmake -S "$src" -B "$build" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$clang" \
     -DGPULAB_BUILD_TESTS=ON -DGPULAB_WERROR=ON >"$work/configure.log" 2>&1; then
  cat "$work/configure.log"
  echo "FAIL: the clang build does not configure"
  exit 1
fi
grep -E "CXX compiler identification|fiber switch" "$work/configure.log"
targets=(gpulab check_grade test_fiber_switch test_gpulab_run test_profile profile_test_profile_counts)
# The emulator's tests where the compiler shows (as tests/platforms/arm64_qemu.sh picks them); all
# of tests/emu with GPULAB_CLANG_ALL_EMU_TESTS=1. Every race and profile test.
if [ "${GPULAB_CLANG_ALL_EMU_TESTS:-0}" = 1 ]; then
  for f in "$src"/tests/emu/test_*.cu; do targets+=("$(basename "$f" .cu)"); done
else
  targets+=(test_smoke test_barriers test_warp test_atomics test_diagnostics test_shared_memory test_math
            test_launch_errors test_grid_sync test_cuda_barrier test_async_copy test_half)
fi
for f in "$src"/tests/race/test_*.cu; do targets+=("race_$(basename "$f" .cu)"); done
if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" -- -k 0 >"$work/build.log" 2>&1; then  # every error at once
  grep -E "error|warning" "$work/build.log" | head -40
  echo "FAIL: gpulab and its emulator, race and profile tests do not build with clang (see $work/build.log)"
  exit 1
fi
# gpulab's own code is built with -Werror; the emulator's headers are compiled into every test
# program, as into a student's, and must not warn there either.
check "no warning from gpulab's own code or the emulator's headers" \
  bash -c "! grep 'warning:' '$work/build.log' | grep -q 'grader/'"

gpulab=$build/grader/cli/gpulab
export GPULAB_CACHE=$work/cache
out=$("$gpulab" run --no-cache "$src/examples/vector_add.cu" 1000 2>&1)
echo "$out" | tail -3
check "a student's program compiles with clang++ and runs" grep -q 'vector_add: n=1000, 0 wrong' <<<"$out"
check "a student's compile prints no warning (no 'unknown warning option')" bash -c "! grep -qi 'warning' <<<\"\$0\"" "$out"
command=$("$gpulab" run --build-only --no-cache --verbose "$src/examples/vector_add.cu" 2>&1 || true)
check "the toolchain compiles with clang++" grep -q "$clang\|clang++" <<<"$command"

# Not here: the Boost.Context build (compiler-independent); the inline-PTX test, whose expected
# message is gcc's wording of a failed static_assert (clang 14 says "static_assert failed"); and
# the failing device assert, whose message names the function as the compiler spells it
# (__PRETTY_FUNCTION__: clang's "long long *" for gcc's and nvcc's "long long int*").
(cd "$build" && ctest -L 'emu|race|profile' -E 'Boost.Context|inline PTX|failing device assert' -j "$jobs" \
   --output-on-failure --timeout 900 \
   >"$work/ctest.log" 2>&1)
rc=$?
grep -E "tests passed|tests failed|Total Test time" "$work/ctest.log"
if [ $rc -ne 0 ]; then
  grep -E "\*\*\*Failed|Failed  |Exception" "$work/ctest.log" | head -40
  fail "the emulator, race and profile tests with clang (see $work/ctest.log)"
fi
(cd "$build" && ctest -L labs -R 'reference scores full marks' -j "$jobs" --output-on-failure --timeout 900 \
   >"$work/ctest-labs.log" 2>&1)
rc=$?
grep -E "tests passed|tests failed|Total Test time" "$work/ctest-labs.log"
[ $rc -eq 0 ] || fail "a lab reference with clang (see $work/ctest-labs.log)"

echo "$failures failure(s)"
exit $((failures > 0))
