#!/usr/bin/env bash
# The emulator's Boost.Context fiber switch stays tested on x86-64, where gpulab's own is the
# default: builds the emulator with GPULAB_EMU_FIBERS=boost in a folder of its own
# (boost_fibers/CMakeLists.txt), checks that it calls Boost's jump_fcontext and not gpulab's own
# switch, and runs programs/barrier_sum.cu on it. Exit 77 (skipped) without Boost.Context.
#   boost_fibers.sh SOURCE_DIR GPULAB BUILD_DIR CXX GENERATOR
set -uo pipefail
src=$1 gpulab=$2 build=$3 cxx=$4 generator=$5
mkdir -p "$build"
if ! cmake -S "$src/tests/emu/boost_fibers" -B "$build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" \
     -DGPULAB_SOURCE_DIR="$src" -DGPULAB_COMMAND="$gpulab" >"$build/configure.log" 2>&1; then
  if grep -q 'gpulab-skip:' "$build/configure.log"; then
    grep -o 'gpulab-skip: .*' "$build/configure.log"
    exit 77
  fi
  cat "$build/configure.log"
  echo "FAIL: the Boost.Context build of the emulator did not configure"
  exit 1
fi
grep 'fiber switch' "$build/configure.log"
if ! cmake --build "$build" --target barrier_sum; then
  echo "FAIL: the Boost.Context build of the emulator, or barrier_sum.cu on it, did not build"
  exit 1
fi
library=$(find "$build/emu" -maxdepth 1 -name 'libgpulab_emu.a' | head -1)
symbols=$(nm "$library" 2>/dev/null)
if ! grep -q ' U jump_fcontext$' <<<"$symbols" || grep -q ' T gpulab_fiber_jump$' <<<"$symbols"; then
  echo "FAIL: $library does not switch fibers with Boost.Context (jump_fcontext) alone"
  exit 1
fi
out=$("$build/barrier_sum" 2>&1)
status=$?
echo "$out"
if [ "$status" -ne 0 ] || ! grep -qx 'barrier_sum: 37 blocks, 0 wrong' <<<"$out"; then
  echo "FAIL: barrier_sum.cu on the Boost.Context build exited with $status"
  exit 1
fi
echo "the Boost.Context fiber switch runs barrier_sum.cu correctly"
