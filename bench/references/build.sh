#!/usr/bin/env bash
# Builds the reference-tuning programs (one per lab, *_variants.cu) for one GPU
# call: each times the library baseline, the previous reference (extracted from
# git at BEFORE, default the commit before the references were retuned) and the
# candidate shapes of the new one. Here (no GPU needed):
#   bash bench/references/build.sh [OUT_DIR]     (default build-refs/refbench)
# then on the GPU machine, carrying OUT_DIR:  bash bench/references/run.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-build-refs/refbench}
before=${BEFORE:-4da3de3}
mkdir -p "$out/before"
for lab in matmul scan histogram convolution; do
  git show "$before:reference/$lab/$lab.cu" >"$out/before/$lab.cu"
done
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
flags=(-gencode arch=compute_90,code=sm_90 -O3 -std=c++17 -cudart static -I "$out" -lineinfo)
pids=()
for lab in matmul scan histogram convolution; do
  libs=()
  [ "$lab" = matmul ] && libs=(-lcublas)
  "$nvcc" "${flags[@]}" -o "$out/${lab}_variants" "bench/references/${lab}_variants.cu" "${libs[@]}" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
ls -la "$out"
exit $status
