#!/usr/bin/env bash
# The other platforms' tests (docs/platforms.md), a CI step of their own after the suite
# (scripts/run-tests.sh leaves them out to keep the suite within 20 minutes on 2 cores): gpulab
# built a second time with clang++ (label platform-clang) and cross-built for aarch64 and run
# under qemu-user (label platform-arm64), each a build of its own, side by side. Installs what
# they need (clang, the aarch64 cross compiler, arm64 libraries, qemu-user) and reuses ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh -DGPULAB_BUILD_TESTS=ON -DGPULAB_WERROR=ON
. scripts/ccache-env.sh  # each platform build reuses what it can of the cache
# Each platform's build takes about 4 GB beside the suite's: say what is left, so that a failure
# for want of space reads as such.
echo "platform tests: $(df -Pk . | awk 'NR == 2 {print int($4 / 1048576)}') GB free"
ctest --test-dir build --output-on-failure -j 2 -L 'platform-clang|platform-arm64'
