#!/usr/bin/env bash
# The similarity benchmark of docs/performance.md: a class of COUNT mutated submissions of LAB
# (make_class.py), then `gpulab similarity` on it under /usr/bin/time -v; prints the wall time, the
# peak memory (maximum resident set size) and the summary line. Options after COUNT go to
# `gpulab similarity` (e.g. --common-fraction 1 to keep every fingerprint: the worst case).
# Usage: bench/similarity/bench_similarity.sh [LAB [COUNT [OPTIONS...]]]   (default: scan 1000)
#   GPULAB=path/to/gpulab (default build/grader/cli/gpulab), BENCH_WORK=folder (default: a new one in /tmp)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lab=${1:-scan}
count=${2:-1000}
shift $(($# < 2 ? $# : 2))
gpulab=${GPULAB:-$root/build/grader/cli/gpulab}
work=${BENCH_WORK:-$(mktemp -d /tmp/gpulab-similarity-bench-XXXXXX)}
rm -rf "$work/class" "$work/out"
python3 "$root/bench/similarity/make_class.py" "$lab" "$work/class" --count "$count"
echo "$(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v "$gpulab" similarity "$lab" "$work/class" --out "$work/out" "$@" 2>"$work/time.txt"
grep -E "Elapsed \(wall clock\)|Maximum resident set size|User time|System time" "$work/time.txt"
echo "csv rows: $(($(wc -l <"$work/out/similarity.csv") - 1)); pages: $(ls "$work/out/pairs" | wc -l); output: $(du -sh "$work/out" | cut -f1)"
echo "work folder: $work"
