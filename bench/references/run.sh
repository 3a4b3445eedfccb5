#!/usr/bin/env bash
# The GPU half of bench/references/build.sh: correctness at small and ragged
# sizes (--quick), the full tables, then Nsight Compute on the previous and the
# new reference kernels (SpeedOfLight, MemoryWorkloadAnalysis and the
# shared-memory bank conflicts, one launch each). Results in $OUT (default
# /tmp/refbench): tables.md, ncu.txt, log.txt (the device, the quick checks).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build-refs/refbench}
out=${OUT:-/tmp/refbench}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; date -u; git log -1 --format=%h 2>/dev/null; } >>"$out/log.txt" 2>&1
for lab in matmul scan histogram convolution; do
  echo "== $lab --quick" >>"$out/log.txt"
  timeout 60 "$bin/${lab}_variants" --quick --runs 3 >>"$out/log.txt" 2>&1 || echo "$lab --quick: exit $?" >>"$out/log.txt"
done
grep -c WRONG "$out/log.txt" | sed 's/^/quick WRONG rows: /'
for lab in matmul scan histogram convolution; do
  timeout 80 "$bin/${lab}_variants" --runs "${RUNS:-15}" 2>>"$out/log.txt" | tee -a "$out/tables.md" || echo "$lab: exit $?" | tee -a "$out/log.txt"
done
echo "tables done at ${SECONDS}s" >>"$out/log.txt"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
deadline=${DEADLINE:-360}  # seconds: the profiles left after it are skipped
# Launches to skip: matmul's first size is 2048^3 (the second, 4096^3, is profiled); with
# --only the convolution program launches the named implementation alone.
profile() {  # lab, --only name, kernel regex, launches to skip
  echo "=== $1 | $2 | $3" >>"$out/ncu.txt"
  if [ "$SECONDS" -ge "$deadline" ]; then echo "skipped: past ${deadline}s" >>"$out/ncu.txt"; return; fi
  timeout 45 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics "$metrics" \
    -k "regex:$3" --launch-skip "${4:-0}" --launch-count 1 "$bin/${1}_variants" --only "$2" >>"$out/ncu.txt" 2>&1 ||
    echo "ncu exit $?" >>"$out/ncu.txt"
}
profile matmul "reference (before)" matmul_register_tiled 1
profile matmul "reference (after)" sgemm_tiled 1
profile convolution "2d 7 reference (before)" conv2d_tiled
profile convolution "2d 7 reference (after)" conv2d_blocked
profile histogram "bytes reference (before)" histogram_kernel
profile histogram "bytes reference (after)" histogram_bytes_kernel
profile scan "inclusive reference (before)" single_pass_scan
profile scan "inclusive reference (after)" single_pass_scan
profile convolution "1d 15 reference (before)" conv1d_tiled
profile convolution "1d 15 reference (after)" conv1d_tiled
profile histogram "text reference (before)" histogram_kernel
profile histogram "text reference (after)" histogram_text_kernel
profile scan "exclusive reference (before)" single_pass_scan
profile scan "exclusive reference (after)" single_pass_scan
echo "profiles done at ${SECONDS}s" >>"$out/log.txt"
grep -E "^===|Duration|DRAM Throughput|Compute \(SM\) Throughput|Memory Throughput|bank_conflicts|inst_executed|sm__throughput" "$out/ncu.txt" | head -150
