#!/usr/bin/env bash
# On a GPU: the speed score ranks submissions fairly and cannot be gamed, and
# --sanitize names kernels and source lines. Grades the reduction lab's int
# part with the cuda backend:
#   the reference (fast)                      -> speed scored, near full marks
#   speed/reduction_one_block.cu (slow)       -> speed scored, near zero
#   speed/reduction_nonblocking.cu            -> speed scored, ratio not inflated
#   tests/labs/reduction/buggy/cpu_compute.cu -> "no kernel was launched"
#   buggy/missing_bounds_check.cu --sanitize  -> memcheck finding with kernel and line
# (Result replay and L2 pinning: speed_exploits.sh.)
# Usage: speed_scoring.sh GPULAB [OUT_DIR]; exits 77 where there is no GPU.
set -u
gpulab=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no NVIDIA GPU here: skipping"
  exit 77
fi
out=${2:-$(mktemp -d)}
mkdir -p "$out"
backend=cuda
extra=()
. "$root/tests/gpu/speed_checks.sh"


grade reference "$root/reference/reduction/reduction.cu"
check "the reference's speed is scored" test "$(perf_status "$out/reference.json")" = scored
check "the reference timed against itself earns at least 90% of the speed points" \
  at_least "$(perf_field "$out/reference.json" score)" 13.5
check "its report gives GB/s and the copy bandwidth" \
  at_least "$(perf_field "$out/reference.json" copy_bandwidth_bytes_per_s)" 1e11

grade slow "$root/tests/gpu/speed/reduction_one_block.cu"
check "a correct one-block reduction keeps its correctness points" grep -q '"passed": true' "$out/slow.json"
check "a one-block reduction is scored slow (ratio below 0.2)" at_most "$(perf_field "$out/slow.json" ratio)" 0.2
check "and earns almost no speed points" at_most "$(perf_field "$out/slow.json" score)" 1.5

grade nonblocking "$root/tests/gpu/speed/reduction_nonblocking.cu"
check "a non-blocking-stream submission is scored" test "$(perf_status "$out/nonblocking.json")" = scored
check "its kernels are inside the measurement (ratio below 3)" at_most "$(perf_field "$out/nonblocking.json" ratio)" 3

grade cpu "$root/tests/labs/reduction/buggy/cpu_compute.cu" --performance off
check "a host function that launches no kernel is caught on a GPU" grep -q 'no kernel was launched' "$out/cpu.json"

grade sanitize "$root/tests/labs/reduction/buggy/missing_bounds_check.cu" --performance off --sanitize
check "--sanitize reports memcheck findings" grep -q 'memcheck: ' "$out/sanitize.json"
check "naming the source file and line" grep -Eq 'memcheck: [^"]* at missing_bounds_check.cu:[0-9]+' "$out/sanitize.json"

echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
