#!/usr/bin/env bash
# Fresh machine to first result: installs dependencies, builds gpulab, runs a
# course example on the CPU emulator (no GPU needed) and grades a sample
# submission (the matmul lab's reference), printing its score.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/grader/cli/gpulab run examples/vector_add.cu 1000003
./build/grader/cli/gpulab grade matmul reference/matmul/matmul.cu --format text
