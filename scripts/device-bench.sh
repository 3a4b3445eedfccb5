#!/usr/bin/env bash
# One call on a GPU machine: `gpulab bench` for the labs (with the course's
# progression), then every reference graded with the cuda backend (the
# gold-checked datasets, large ones included). Builds nothing here: prepare
# with `bash scripts/device-bench.sh --prepare` (a stripped gpulab, the
# libraries it needs and bubblewrap, in .devbuild/, by device-check.sh --prepare), carry the tree
# to the GPU machine and run `bash scripts/device-bench.sh` from its root.
# Results go to $OUT (bench.md, every lab's Markdown table; grade.txt; device.txt;
# emulator.md, the emulator's barrier-free kernels against serial C++ on the
# machine's CPUs, all workers and one, three runs each).
# Environment: BENCH_LABS (default: all five; empty: none), BENCH_ARGS (default --variants),
# BENCH_EXTRA_DIR (files <lab>_*.cu there are timed too), BENCH_GRADE=0 skips grading,
# BENCH_EMULATOR=0 skips the emulator's benchmark, BENCH_REFERENCES=1 also runs the reference
# tuning programs (bench/references: every candidate shape, the previous references and Nsight
# Compute on each reference kernel; about 2 minutes) into $OUT/refs (tables.md, ncu.txt, log.txt);
# `--prepare` builds them when BENCH_REFERENCES=1 is set there too (a few minutes of nvcc).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--prepare" ]; then
  # gpulab, the libraries it needs and bubblewrap for the sandbox, as device-check.sh has them.
  bash scripts/device-check.sh --prepare >/dev/null || exit 1
  # The emulator's benchmark, built here (the GPU machine has no emulator toolchain to build it).
  cp "$(build/grader/cli/gpulab run --build-only --no-cache bench/emulator/barrier_free_bench.cu | tail -1)" \
    .devbuild/barrier_free_bench
  if [ "${BENCH_REFERENCES:-0}" = 1 ]; then bash bench/references/build.sh .devbuild/refbench >/dev/null || exit 1; fi
  echo "prepared .devbuild ($(du -sh .devbuild | cut -f1)); carry it to the device"
  exit 0
fi
out=${OUT:-/tmp/device-bench}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.devbuild/lib:${LD_LIBRARY_PATH:-}
export GPULAB_HOME=$PWD GPULAB_CACHE=${GPULAB_CACHE:-/tmp/gpulab-cache}
# Grading runs in the bubblewrap sandbox: the copy device-check.sh --prepare puts in .devbuild
# where the machine has none.
if ! command -v bwrap >/dev/null && [ -x .devbuild/bwrap/bwrap ]; then
  export GPULAB_BWRAP=$PWD/.devbuild/bwrap/bwrap
fi
gpulab=$PWD/.devbuild/gpulab
labs=${BENCH_LABS-"reduction scan histogram convolution matmul"}  # set but empty: no lab
args=${BENCH_ARGS---variants}  # set but empty: no extra arguments
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; nvcc --version | tail -1; date -u; } \
  | tee "$out/device.txt"

extra_files() {
  [ -n "${BENCH_EXTRA_DIR:-}" ] && ls "$BENCH_EXTRA_DIR/$1"_*.cu 2>/dev/null
  return 0
}

# Compile every lab's implementations at once (nvcc is the slow part; the machine has cores),
# and the grading builds too (a grade of the small cases compiles what the full grade reuses).
for lab in $labs; do
  # shellcheck disable=SC2046,SC2086
  "$gpulab" bench "$lab" $args $(extra_files "$lab") --build-only >"$out/build-$lab.log" 2>&1 &
  if [ "${BENCH_GRADE:-1}" != 0 ]; then
    "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend cuda --no-large --no-hidden >/dev/null 2>&1 &
  fi
done
wait
status=0
for lab in $labs; do
  # shellcheck disable=SC2046,SC2086
  timeout 420 "$gpulab" bench "$lab" $args $(extra_files "$lab") --format markdown --out "/tmp/bench-$lab.md" \
    2>>"$out/bench-log.txt" || { echo "gpulab bench $lab: exit $?"; tail -5 "$out/build-$lab.log"; status=1; }
  # One file for all labs: the device tool brings back at most 8 files.
  { echo "## $lab"; echo; cat "/tmp/bench-$lab.md" 2>/dev/null; echo; } | tee -a "$out/bench.md"
done
rm -f "$out"/build-*.log
if [ "${BENCH_GRADE:-1}" != 0 ]; then
  for lab in $labs; do
    report=$(mktemp)
    "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend cuda --no-hidden --format text --out "$report" \
      2>"$report.err"
    echo "$lab reference, cuda backend: $(grep '^score' "$report" || echo "no score: $(tail -3 "$report.err")")"
    { echo "=== $lab"; cat "$report" "$report.err"; } >>"$out/grade.txt"
    rm -f "$report" "$report.err"
  done
fi
if [ "${BENCH_REFERENCES:-0}" = 1 ]; then
  OUT="$out/refs" bash bench/references/run.sh .devbuild/refbench || status=1
fi
if [ "${BENCH_EMULATOR:-1}" != 0 ] && [ -x .devbuild/barrier_free_bench ]; then
  {
    echo "# emulator, barrier-free kernels ($(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2))"
    for workers in "" 1; do
      for run in 1 2 3; do
        echo
        GPULAB_EMU_WORKERS=$workers .devbuild/barrier_free_bench
      done
    done
  } >"$out/emulator.md" 2>&1
  cat "$out/emulator.md"
fi
exit $status
