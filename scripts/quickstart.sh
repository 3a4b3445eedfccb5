#!/usr/bin/env bash
# Fresh machine to first result: installs dependencies, builds gpulab, and runs
# a course example on the CPU emulator (no GPU needed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/grader/cli/gpulab run examples/vector_add.cu 1000003
