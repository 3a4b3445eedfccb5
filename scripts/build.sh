#!/usr/bin/env bash
# Configures and builds gpulab in ./build (Ninja, all cores). Usage: scripts/build.sh [extra cmake args]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
. scripts/ccache-env.sh  # the packages the tests build reuse this build's objects
cmake -S . -B build -G Ninja "$@" >/dev/null
cmake --build build -j "$jobs"
