#!/usr/bin/env bash
# The per-lab grading benchmark of docs/performance.md ("Grading one submission on one CPU"):
# each lab's reference graded on the emulator on one CPU (taskset -c CPU), every public, large
# and hidden case (GPULAB_HIDDEN_SEED set), as a new submission (a one-line unique edit, so both
# of its builds compile) after one warm-up grading that fills the cache with the large public and
# the hidden datasets and the harness's own objects (Gradescope's setup.sh does the same when its
# image is built; BENCH_WARM_HIDDEN=0 leaves the hidden ones to the measured grading). Prints each lab's `gpulab grade --timings` breakdown, its score, its wall time and the
# machine's load average before and after (other work on the machine slows it down).
# Usage: bench/grading/grade_timings.sh [LAB...]   (default: every lab)
#   GPULAB=path/to/gpulab (default build/grader/cli/gpulab), BENCH_WORK=folder (default: a new
#   one in /tmp), BENCH_CPU=the CPU to pin to (default 0), BENCH_REPEAT=gradings per lab (default 1),
#   BENCH_BACKEND=emu|cuda (default: gpulab's own choice, cuda where a GPU is), BENCH_WARM_PARALLEL=1
#   (every warm-up at once, before the measured gradings)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gpulab=${GPULAB:-$root/build/grader/cli/gpulab}
work=${BENCH_WORK:-$(mktemp -d /tmp/gpulab-grade-bench-XXXXXX)}
cpu=${BENCH_CPU:-0}
repeat=${BENCH_REPEAT:-1}
mkdir -p "$work"
export GPULAB_CACHE="$work/cache"
export GPULAB_HIDDEN_SEED=${GPULAB_HIDDEN_SEED:-grade-timings-bench}
labs=("$@")
if [ ${#labs[@]} -eq 0 ]; then
  for d in "$root"/assignments/*/; do labs+=("$(basename "$d")"); done
fi
echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, cache $GPULAB_CACHE"
warm_hidden=()
[ "${BENCH_WARM_HIDDEN:-1}" = 1 ] || warm_hidden=(--no-hidden)
backend=()
[ -z "${BENCH_BACKEND:-}" ] || backend=(--backend "$BENCH_BACKEND")
# Warm-up: the large public datasets and the harness's objects, as an installed image has them.
warm_up() {
  nice -n 10 "$gpulab" grade "$1" "$root/reference/$1/$1.cu" "${backend[@]}" "${warm_hidden[@]}" --format text \
    --out "$work/$1-warmup.txt" 2>/dev/null || { echo "$1: the warm-up grading failed (see $work/$1-warmup.txt)"; return 1; }
}
# BENCH_WARM_PARALLEL=1: every lab's warm-up at once first (a fresh many-core machine builds its
# cache in the time of the slowest lab instead of the sum), then the measured gradings one by one.
if [ "${BENCH_WARM_PARALLEL:-0}" = 1 ]; then
  started=$SECONDS
  pids=()
  for lab in "${labs[@]}"; do warm_up "$lab" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || exit 1; done
  echo "warm-ups of ${#labs[@]} labs at once: $((SECONDS - started)) s"
fi
for lab in "${labs[@]}"; do
  [ "${BENCH_WARM_PARALLEL:-0}" = 1 ] || warm_up "$lab" || exit 1
  for i in $(seq 1 "$repeat"); do
    mkdir -p "$work/$lab-$i"
    cp "$root/reference/$lab/$lab.cu" "$work/$lab-$i/$lab.cu"
    echo "// grade_timings.sh $(date +%s%N)" >>"$work/$lab-$i/$lab.cu"
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    taskset -c "$cpu" "$gpulab" grade "$lab" "$work/$lab-$i/$lab.cu" "${backend[@]}" --timings --format text \
      --out "$work/$lab-$i/result.txt" 2>"$work/$lab-$i/timings.txt" || true
    end=$(date +%s.%N)
    load_after=$(cut -d' ' -f1 /proc/loadavg)
    echo "== $lab (grading $i): $(tail -1 "$work/$lab-$i/timings.txt"), wall $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s," \
      "load average $load_before before, $load_after after"
    grep -v '^  [a-z0-9]* *\(hidden \)\?dataset ' "$work/$lab-$i/timings.txt" | grep -v '^score:' || true
    # A score short of full: every line of the report but the passed cases, to say why.
    if ! grep -qE '^score: ([0-9.]+) / \1$' "$work/$lab-$i/result.txt"; then
      echo "-- $lab (grading $i): not a full score; the report without its passed cases:"
      grep -v '^  ok ' "$work/$lab-$i/result.txt" | head -60
    fi
  done
done
