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
# The tests that build gpulab from a package (the Gradescope bundle, the student kit) reuse the
# main build's objects: their builds differ from it only in warning options (-Wformat=2 -Werror),
# which the cache leaves out of its key on both sides (scripts/ccache-env.sh).
. scripts/ccache-env.sh
# The slowest ten tests, with their times, after the suite's own summary (whether it passed or
# not), so that a test that became slow shows in every run.
status=0
ctest --test-dir build --output-on-failure -j "$jobs" -LE 'platform-clang|platform-arm64' | tee build/ctest-output.log ||
  status=$?
# awk reads the whole sorted list (head would close the pipe early, and sort's SIGPIPE, 141, would
# become the script's status under pipefail); the list never changes the suite's status.
echo "The slowest ten tests:"
{ grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' build/ctest-output.log |
  sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: (.*[^ .]) \.+ *(\*\*\*)?[A-Za-z]+.* ([0-9.]+) sec$/\3\t\1/' |
  sort -rn | awk -F'\t' 'NR <= 10 { printf "  %8.1f s  %s\n", $1, $2 }'; } || true
exit "$status"
