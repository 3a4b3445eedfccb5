#!/usr/bin/env bash
# The emulator profile's agreement with Nsight Compute, as Markdown table rows
# for docs/performance.md. Takes the folder of results files that
# `DEVICE_STEPS=counters bash scripts/device-check.sh` wrote on a GPU
# ($OUT/counters/<lab>-<file>.json), grades the same files here on the emulator
# with --counters, and prints both counts per kernel and metric (differences
# over 10% in bold). Usage: bash scripts/profile-agreement.sh GPU_COUNTERS_DIR [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
gpu_dir=${1:?usage: profile-agreement.sh GPU_COUNTERS_DIR [WORK_DIR]}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
gpulab=${GPULAB:-build/grader/cli/gpulab}
echo "| file (part) | kernel | metric | emulator | Nsight Compute | difference |"
echo "|---|---|---|---|---|---|"
for gpu_json in "$gpu_dir"/*.json; do
  base=$(basename "$gpu_json" .json)
  lab=${base%%-*}
  name=${base#*-}
  src=reference/$lab/progression/$name.cu
  [ -f "$src" ] || src=reference/$lab/$name.cu
  if ! "$gpulab" grade "$lab" "$src" --backend emu --counters --performance off --no-large --no-hidden \
      --format json --out "$work/$base.json" >"$work/$base.log" 2>&1; then
    echo "profile-agreement: $src did not grade cleanly on the emulator (see $work/$base.log)" >&2
  fi
  "$gpulab" counters "$work/$base.json" "$gpu_json" --label "$lab/$name"
done
