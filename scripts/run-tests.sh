#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through CTest.
# Tests that need a GPU skip themselves where there is none. The two builds of gpulab for other
# platforms (labels platform-clang and platform-arm64: clang++, and aarch64 under qemu-user) are
# not part of it: scripts/run-platform-tests.sh runs them (CI runs both, .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Also after a quickstart, which builds without the tests; CI's build treats warnings in gpulab's own code as errors.
bash scripts/build.sh -DGPULAB_BUILD_TESTS=ON -DGPULAB_WERROR=ON
jobs=$(nproc 2>/dev/null || echo 2)
if command -v ccache >/dev/null; then  # the tests that build gpulab from a package reuse the main build's objects
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
fi
ctest --test-dir build --output-on-failure -j "$jobs" -LE 'platform-clang|platform-arm64'
