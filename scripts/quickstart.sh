#!/usr/bin/env bash
# Fresh machine to first result: installs what building and running gpulab
# needs (not the test suite's packages), builds gpulab (not its tests), runs a
# course example on the CPU emulator (no GPU needed) and grades a sample
# submission (the matmul lab's reference), printing its score.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --runtime
bash scripts/build.sh -DGPULAB_BUILD_TESTS=OFF -- --target gpulab  # the program and the emulator libraries it builds with
./build/grader/cli/gpulab run examples/vector_add.cu 1000003
./build/grader/cli/gpulab grade matmul reference/matmul/matmul.cu --format text
