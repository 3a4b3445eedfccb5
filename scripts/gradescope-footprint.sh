#!/usr/bin/env bash
# Whether each lab's grading fits Gradescope's default autograder resources:
# every lab's reference is graded on the emulator with the large public and the
# hidden cases, on one CPU (taskset) in a memory cgroup of MEM_MB (default 768,
# Gradescope's default), after one warm-up grading that generates the large
# public datasets (setup.sh does that when the image is built). Prints a
# Markdown table: score, grading wall time, the cgroup's peak memory (page
# cache included, as Docker counts it) and how often the limit was hit.
# Needs root and the cgroup v1 memory controller (/sys/fs/cgroup/memory).
# Usage: bash scripts/gradescope-footprint.sh [LAB...]   (GPULAB, MEM_MB, GPULAB_CACHE override)
set -uo pipefail
cd "$(dirname "$0")/.."
gpulab=${GPULAB:-$PWD/build/grader/cli/gpulab}
mem_mb=${MEM_MB:-768}
labs=${*:-$(ls assignments)}
cg=/sys/fs/cgroup/memory/gpulab-footprint-$$
if ! mkdir "$cg" 2>/dev/null; then
  echo "gradescope-footprint: cannot create a memory cgroup in /sys/fs/cgroup/memory (run as root, cgroup v1)" >&2
  exit 2
fi
trap 'rmdir "$cg" 2>/dev/null' EXIT
echo $((mem_mb << 20)) >"$cg/memory.limit_in_bytes"
export GPULAB_HIDDEN_SEED=${GPULAB_HIDDEN_SEED:-footprint-secret}
# A private cache of its own (mktemp -d: mode 0700), removed at the end unless GPULAB_CACHE is given.
if [ -z "${GPULAB_CACHE:-}" ]; then
  GPULAB_CACHE=$(mktemp -d)
  trap 'rmdir "$cg" 2>/dev/null; rm -rf "$GPULAB_CACHE"' EXIT
fi
export GPULAB_CACHE
echo "| lab | score | grading (s) | peak memory (MiB) | limit hit |"
echo "|---|---|---|---|---|"
for lab in $labs; do
  "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend emu --no-hidden --format text --out /dev/null >/dev/null 2>&1
  echo 0 >"$cg/memory.max_usage_in_bytes"
  echo 0 >"$cg/memory.failcnt"
  start=$(date +%s.%N)
  bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec taskset -c 0 "$@"' _ "$cg" \
    "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend emu --format text --out "/tmp/footprint-$lab.txt" \
    >/dev/null 2>"/tmp/footprint-$lab.log"
  status=$?
  end=$(date +%s.%N)
  score=$(grep -m1 '^score:' "/tmp/footprint-$lab.txt" 2>/dev/null | cut -d' ' -f2-)
  [ $status -eq 0 ] || score="exit $status: $(tail -1 "/tmp/footprint-$lab.log")"
  printf '| %s | %s | %s | %d | %d |\n' "$lab" "${score:-none}" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" \
    $(($(cat "$cg/memory.max_usage_in_bytes") >> 20)) "$(cat "$cg/memory.failcnt")"
done
