#!/usr/bin/env bash
# Configures and builds gpulab in ./build (Ninja, all cores).
# Usage: scripts/build.sh [cmake configure args] [-- cmake --build args, e.g. --target gpulab]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
configure_args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  configure_args+=("$1")
  shift
done
[ $# -gt 0 ] && shift  # the --
. scripts/ccache-env.sh  # the packages the tests build reuse this build's objects
cmake -S . -B build -G Ninja "${configure_args[@]}" >/dev/null
cmake --build build -j "$jobs" "$@"
