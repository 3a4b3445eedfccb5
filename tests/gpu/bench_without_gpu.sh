#!/usr/bin/env bash
# `gpulab bench` on a machine without a GPU (or without nvcc) must stop at once
# with exit code 2 and a message that says what is missing, not build or crash.
# Usage: bench_without_gpu.sh GPULAB. Exits 77 (skip) where a GPU is present.
set -u
if nvidia-smi -L >/dev/null 2>&1; then
  echo "an NVIDIA GPU is present: skipping"
  exit 77
fi
output=$("$1" bench reduction 2>&1)
rc=$?
echo "$output"
if [ $rc -ne 2 ]; then
  echo "expected exit code 2, got $rc"
  exit 1
fi
if ! grep -q "GPU" <<<"$output" || grep -q "building" <<<"$output"; then
  echo "expected a message naming the missing GPU (or nvcc) before any build"
  exit 1
fi
