#!/usr/bin/env bash
# Installs dependencies, builds, and runs the whole test suite through CTest.
# Tests that need a GPU skip themselves where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir build --output-on-failure -j "$jobs"
