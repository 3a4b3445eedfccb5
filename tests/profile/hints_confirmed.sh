#!/usr/bin/env bash
# Every hint the emulator's profile gives a lab's reference and textbook kernels
# (reference/LAB/LAB.cu, reference/LAB/progression/*.cu) must be one the GPU's
# counters confirm: each file is graded on the emulator with --counters (the
# profile's hints, and the counts of the largest committed case, every block
# counted), and hints_confirmed checks each hint against the Nsight Compute
# counts committed in docs/profile-agreement.md.
# Usage: hints_confirmed.sh GPULAB HINTS_CONFIRMED LAB
set -u
gpulab=$1 checker=$2 lab=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for src in "$root/reference/$lab/progression/"*.cu "$root/reference/$lab/$lab.cu"; do
  name=$(basename "$src" .cu)
  if ! "$gpulab" grade "$lab" "$src" --backend emu --counters --performance off --no-large --no-hidden \
      --format json --out "$work/$name.json" >"$work/$name.log" 2>&1; then
    echo "hints_confirmed: grading $src failed:"
    tail -n 20 "$work/$name.log"
    status=1
    continue
  fi
  "$checker" "$root/docs/profile-agreement.md" "$lab/$name" "$work/$name.json" || status=1
done
exit $status
