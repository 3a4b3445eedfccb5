#!/usr/bin/env bash
# On a GPU: the speed score ranks submissions fairly and cannot be gamed, and
# --sanitize names kernels and source lines. Grades the reduction lab's int
# part with the cuda backend:
#   the reference (fast)                      -> speed scored, near full marks
#   speed/reduction_one_block.cu (slow)       -> speed scored, near zero
#   speed/reduction_nonblocking.cu            -> speed scored, ratio not inflated
#   speed/reduction_caching.cu                -> speed failed (the fresh-input call)
#   tests/labs/reduction/buggy/cpu_compute.cu -> "no kernel was launched"
#   buggy/missing_bounds_check.cu --sanitize  -> memcheck finding with kernel and line
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
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# The value of a numeric field of the first "performance" object in a results file.
perf_field() { sed -n '/"performance": {/,/}/p' "$1" | sed -n "s/^ *\"$2\": \([-0-9.e+]*\),\{0,1\}$/\1/p" | head -1; }
perf_status() { sed -n '/"performance": {/,/}/p' "$1" | sed -n 's/^ *"status": "\([a-z_]*\)",\{0,1\}$/\1/p' | head -1; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

grade() {  # grade NAME FILE [extra options]
  local name=$1 file=$2
  shift 2
  "$gpulab" grade reduction "$file" --backend cuda --part int --no-hidden --format json --out "$out/$name.json" "$@" \
    >"$out/$name.log" 2>&1
  if [ $? -eq 5 ]; then  # the sandbox cannot start on this machine (said once); these files are trusted
    [ -n "${sandbox_refused:-}" ] || { sandbox_refused=1; echo "sandbox refused here, grading without it: $(head -1 "$out/$name.log")"; }
    "$gpulab" grade reduction "$file" --backend cuda --part int --no-hidden --format json --out "$out/$name.json" "$@" \
      --no-sandbox >"$out/$name.log" 2>&1
  fi
  [ -s "$out/$name.json" ] || { echo "== $name: no results file; gpulab said:"; tail -5 "$out/$name.log"; }
  echo "== $name: score $(sed -n 's/^  "score": \(.*\),$/\1/p' "$out/$name.json" | head -1), speed $(perf_status "$out/$name.json") ratio $(perf_field "$out/$name.json" ratio)"
}

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

grade caching "$root/tests/gpu/speed/reduction_caching.cu"
check "a submission returning cached results fails the speed test" test "$(perf_status "$out/caching.json")" = failed
check "and is told why" grep -q 'keep results from an earlier call' "$out/caching.json"

grade cpu "$root/tests/labs/reduction/buggy/cpu_compute.cu" --performance off
check "a host function that launches no kernel is caught on a GPU" grep -q 'no kernel was launched' "$out/cpu.json"

grade sanitize "$root/tests/labs/reduction/buggy/missing_bounds_check.cu" --performance off --sanitize
check "--sanitize reports memcheck findings" grep -q 'memcheck: ' "$out/sanitize.json"
check "naming the source file and line" grep -Eq 'memcheck: [^"]* at missing_bounds_check.cu:[0-9]+' "$out/sanitize.json"

echo "$failures check(s) failed"
[ "$failures" -eq 0 ]
