#!/usr/bin/env bash
# gpulab on 64-bit Arm Linux, verified on an x86-64 machine: cross-compiled with Debian's
# aarch64-linux-gnu-g++ (aarch64-linux-gnu.cmake beside this script) and run under qemu-user,
# registered with binfmt_misc (register_qemu_aarch64.sh) so that gpulab starts the aarch64
# programs it builds as it would on an arm64 machine. Two parts:
#   1. the emulator's own tests (ctest -L emu: its programs and the Catch2 tests named below) in a
#      cross build of the project;
#   2. a lab graded from the student kit: the kit made by this machine's gpulab, unpacked in a
#      clean folder, cross-built on its own, then `gpulab test` of the histogram lab: the
#      reference scores full marks and a buggy submission (no bounds check: a fault the fault
#      handler must read from AArch64's signal context) is caught.
# The sandbox's own tests are not run under qemu-user (qemu-user refuses seccomp filters, and the
# namespaces are this machine's kernel's, not an arm64 one's): `gpulab test` is run once without
# bubblewrap (isolation: none, as on a student's machine) and once with whatever this machine gives.
# Usage: arm64_qemu.sh SOURCE_DIR GPULAB WORK_DIR. Exit 77 (skipped) when the cross toolchain,
# the arm64 libraries or qemu-user are missing (scripts/install-deps.sh --cross-arm64 installs them).
set -uo pipefail
src=$1
gpulab=$2
work=$3
here=$(cd "$(dirname "$0")" && pwd)
toolchain=$here/aarch64-linux-gnu.cmake
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

missing=()
command -v aarch64-linux-gnu-g++ >/dev/null || missing+=(g++-aarch64-linux-gnu)
command -v aarch64-linux-gnu-objdump >/dev/null || missing+=(binutils-aarch64-linux-gnu)
for lib in libfmt.so libssl.so libdate-tz.so; do
  [ -e "/usr/lib/aarch64-linux-gnu/$lib" ] || missing+=("$lib (arm64)")
done
[ -e /lib/ld-linux-aarch64.so.1 ] || missing+=("libc6:arm64")
if [ ${#missing[@]} -gt 0 ]; then
  echo "skip: the arm64 cross build needs ${missing[*]}: run scripts/install-deps.sh --cross-arm64"
  exit 77
fi
bash "$here/register_qemu_aarch64.sh" || exit $?
echo "aarch64 programs run here through $(command -v qemu-aarch64) ($(qemu-aarch64 --version | head -1))"
echo "not run under qemu-user: the sandbox's own tests (qemu-user refuses seccomp filters; the namespaces are this kernel's)"

if command -v ccache >/dev/null; then  # as scripts/build.sh: the kit's build reuses the project's objects
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_NOHASHDIR=true
fi
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p "$work"

# gpulab reads objects with binutils (the audit of a submission's object: objdump and nm; its writable
# data moved into sections of their own for batched cases: readelf and objcopy; fault
# lines: addr2line), found on PATH by their plain names, as on an arm64 machine, where they are
# arm64's own. Here the plain names are this machine's x86-64 binutils, which cannot read aarch64
# objects: the cross binutils stand in under those names.
mkdir -p "$work/binutils"
for tool in objdump nm addr2line objcopy readelf; do ln -sf "$(command -v aarch64-linux-gnu-$tool)" "$work/binutils/$tool"; done
export PATH=$work/binutils:$PATH

# 1. The emulator's own tests, cross-built (the Catch2 executables list their tests by running,
#    through qemu, at build time).
build=$work/build
export CCACHE_BASEDIR=$src
if ! cmake -S "$src" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DGPULAB_BUILD_TESTS=ON \
     -DGPULAB_WERROR=ON >"$work/configure.log" 2>&1; then
  cat "$work/configure.log"
  fail "the arm64 cross build does not configure"
  exit 1
fi
grep -E "fiber switch" "$work/configure.log"
# The emulator's tests where the architecture shows (fibers, barriers, warps, atomics, faults,
# shared memory, float math, launch checks, grid sync), within CI's time; all of tests/emu with
# GPULAB_ARM64_ALL_EMU_TESTS=1. The `gpulab run` programs of the emu label run in either case.
emu_targets="test_smoke test_barriers test_warp test_atomics test_diagnostics test_shared_memory test_math"
emu_targets+=" test_launch_errors test_grid_sync test_cuda_barrier"
if [ "${GPULAB_ARM64_ALL_EMU_TESTS:-0}" = 1 ]; then
  emu_targets=$(cd "$src/tests/emu" && ls test_*.cu | sed 's/\.cu$//')
fi
if ! cmake --build "$build" -j "$jobs" --target gpulab test_fiber_switch test_gpulab_run $emu_targets \
     >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log"
  fail "the arm64 cross build of gpulab and the emulator's tests (see $work/build.log)"
  exit 1
fi
check "gpulab is an aarch64 program" bash -c "file -L '$build/grader/cli/gpulab' | grep -q 'ARM aarch64'"
# The Boost.Context variant builds a second emulator (it has its own test on x86-64); the rest is all of -L emu.
(cd "$build" && ctest -L emu -E 'Boost.Context' -j "$jobs" --output-on-failure --timeout 900 >"$work/ctest-emu.log" 2>&1)
rc=$?
grep -E "tests passed|tests failed|Total Test time" "$work/ctest-emu.log"
if [ $rc -ne 0 ]; then
  grep -E "^\s+[0-9]+ - |\*\*\*Failed|Failed  " "$work/ctest-emu.log" | head -40
  fail "the emulator's tests on aarch64 (see $work/ctest-emu.log)"
fi

# 2. A lab graded from the student kit, built on its own.
kitwork=$work/kit
rm -rf "$kitwork"
mkdir -p "$kitwork"
(cd "$kitwork" && "$gpulab" bundle student --out kit.tar.gz >bundle.log 2>&1)
check "student kit written" test -s "$kitwork/kit.tar.gz"
[ -s "$kitwork/kit.tar.gz" ] || { tail -20 "$kitwork/bundle.log"; df -h "$kitwork" | tail -1; }
mkdir -p "$kitwork/clean"
check "student kit unpacked" tar xzf "$kitwork/kit.tar.gz" -C "$kitwork/clean"
kit=$kitwork/clean/gpulab-kit
export CCACHE_BASEDIR=$kit
(
  unset GPULAB_HOME
  cmake -S "$kit" -B "$kit/build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" >"$kitwork/configure.log" 2>&1 &&
    cmake --build "$kit/build" -j "$jobs" --target gpulab >"$kitwork/build.log" 2>&1
)
check "the kit cross-builds on its own (see $kitwork/build.log)" test -x "$kit/build/grader/cli/gpulab"
if [ ! -x "$kit/build/grader/cli/gpulab" ]; then
  tail -20 "$kitwork/configure.log" "$kitwork/build.log" 2>&1
  df -h "$kitwork" | tail -1
  echo "$failures failure(s)"
  exit 1  # nothing below can run without the kit's gpulab
fi
export GPULAB_CACHE=$kitwork/cache
cp "$src/reference/histogram/histogram.cu" "$kitwork/reference.cu"
cp "$src/tests/labs/histogram/buggy/missing_bounds_check.cu" "$kitwork/buggy.cu"
# As on a student's machine without bubblewrap (GPULAB_BWRAP names none): `gpulab test` runs
# without a sandbox and says so; `gpulab grade` refuses (exit 5) rather than grade unisolated.
(cd "$kit" && env -u GPULAB_HOME GPULAB_BWRAP=/nonexistent/bwrap ./build/grader/cli/gpulab test histogram \
   "$kitwork/reference.cu" --no-large >"$kitwork/reference.txt" 2>&1)
rc=$?
tail -15 "$kitwork/reference.txt"
check "aarch64: the reference passes (exit 0, got $rc)" test $rc -eq 0
check "aarch64: the reference scores full marks (70 on the emulator)" grep -q 'score: 70 / 70' "$kitwork/reference.txt"
check "aarch64: without bubblewrap the report says isolation: none" grep -q 'isolation: none' "$kitwork/reference.txt"
(cd "$kit" && env -u GPULAB_HOME GPULAB_BWRAP=/nonexistent/bwrap ./build/grader/cli/gpulab grade histogram \
   "$kitwork/reference.cu" >"$kitwork/grade.txt" 2>&1)
rc=$?
check "aarch64: without bubblewrap gpulab grade refuses (exit 5, got $rc)" test $rc -eq 5
# The buggy submission in whatever isolation this machine gives (bubblewrap, if it starts here).
(cd "$kit" && env -u GPULAB_HOME ./build/grader/cli/gpulab test histogram "$kitwork/buggy.cu" --no-large \
   >"$kitwork/buggy.txt" 2>&1)
rc=$?
tail -25 "$kitwork/buggy.txt"
check "aarch64: the buggy submission fails (exit 1, got $rc)" test $rc -eq 1
check "aarch64: the buggy submission compiled" bash -c "! grep -q 'does not compile' '$kitwork/buggy.txt'"
check "aarch64: the buggy submission loses points" bash -c "! grep -q 'score: 70 / 70' '$kitwork/buggy.txt'"
check "aarch64: its feedback names the out-of-bounds access" grep -q 'out-of-bounds' "$kitwork/buggy.txt"

echo "$failures failure(s)"
exit $((failures > 0))
