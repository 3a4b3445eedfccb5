#!/usr/bin/env bash
# One call on a GPU machine: checks every lab's reference and skeleton with
# the cuda backend (in the sandbox where bubblewrap can start there, which
# also checks the sandbox on a GPU), and the programs whose output was
# recorded on a GPU.
# Prepare here with `bash scripts/device-check.sh --prepare` (copies a stripped
# gpulab and the libraries it needs to .devbuild/), then on the GPU machine run
# `bash scripts/device-check.sh` from the repository root (results go to $OUT).
# DEVICE_STEPS picks steps (default all: "labs probes speed ownkernel sanitizer"; also
# "speedtable", "memory", "hosted", "counters", "gradetimes" and "emutests", below), so the work can be split
# over calls shorter than the device's per-call limit.
# ownkernel: every lab's answer computed on the CPU, the data brought to the host by each route, and
# the legitimate idioms (tests/own_kernel/own_kernel_exploits.sh, cuda backend), in $OUT/own-kernel.txt.
# emutests: the emulator's plain-CUDA tests (tests/emu/, built here by --prepare-emu-tests) run on
# the GPU, output in $OUT/emu-tests.txt.
# gradetimes: every lab's reference graded with the cuda backend on one CPU, speed included, every
# public, large and hidden case (bench/grading/grade_timings.sh, docs/performance.md "Grading one
# submission on one CPU"), output in $OUT/gradetimes.txt.
# counters: every reference and textbook kernel graded with --counters (its largest committed
# case under Nsight Compute), results in $OUT/counters/<lab>-<file>.json, for the emulator
# profile's agreement table (scripts/profile-agreement.sh compares them with the emulator).
# speedtable: every lab's reference and textbook kernels (reference/<lab>/
# progression/) graded with speed scored (no large or hidden cases), for the
# table of what each earns; SPEED_LABS picks labs, SPEED_FILES=reference
# only the references. With an earlier gpulab
# prepared by `bash scripts/device-check.sh --prepare-before CHECKOUT` (a
# built checkout of that version, copied to .devold/), each file is graded by
# both (the references only, unless SPEED_BEFORE=all), with the wall time of
# each grading, for a before/after table.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--prepare" ]; then
  mkdir -p .devbuild/lib
  strip -o .devbuild/gpulab build/grader/cli/gpulab
  # The shared libraries it links that a GPU machine may lack (libcrypto, date-tz, fmt); the
  # C and C++ runtimes are the machine's own (programs built there need its libstdc++).
  ldd build/grader/cli/gpulab | awk '/=> \// { print $3 }' \
    | grep -Ev '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} .devbuild/lib/
  # Bubblewrap, for GPU machines that lack it (the sandbox then runs there too):
  # the binary, its libraries, and a wrapper that finds them (GPULAB_BWRAP).
  mkdir -p .devbuild/bwrap
  cp /usr/bin/bwrap .devbuild/bwrap/bwrap.bin
  ldd /usr/bin/bwrap | awk '/=> \// { print $3 }' | grep -v 'libc.so' | xargs -I{} cp -L {} .devbuild/bwrap/
  printf '#!/bin/sh\nd=$(dirname "$0")\nLD_LIBRARY_PATH="$d" exec "$d/bwrap.bin" "$@"\n' >.devbuild/bwrap/bwrap
  chmod 755 .devbuild/bwrap .devbuild/bwrap/*
  echo "prepared .devbuild ($(du -sh .devbuild | cut -f1)); carry it to the device"
  exit 0
fi
if [ "${1:-}" = "--prepare-emu-tests" ]; then
  # The emulator's conformance tests that are plain CUDA (their first comment says "builds with
  # nvcc"), built here with nvcc for the GPU, for the emutests step: each must pass there too.
  rm -rf .devbuild/emu-tests && mkdir -p .devbuild/emu-tests
  nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
  built=0 failed=0
  for t in $(grep -l "builds with nvcc" tests/emu/*.cu); do
    name=$(basename "$t" .cu)
    if "$nvcc" -std=c++20 -O2 -gencode arch=compute_90,code=sm_90 -cudart static "$t" tests/catch_main.cpp \
      -o ".devbuild/emu-tests/$name" >".devbuild/emu-tests/$name.build.log" 2>&1; then
      built=$((built + 1))
    else
      failed=$((failed + 1))
      echo "$name: nvcc failed (.devbuild/emu-tests/$name.build.log)"
    fi
  done
  echo "built $built emulator tests with nvcc into .devbuild/emu-tests ($failed failed); carry .devbuild"
  [ "$failed" -eq 0 ]
  exit $?
fi
if [ "${1:-}" = "--prepare-before" ]; then
  before=${2:?usage: device-check.sh --prepare-before CHECKOUT (a checkout with build/grader/cli/gpulab)}
  rm -rf .devold && mkdir -p .devold
  strip -o .devold/gpulab "$before/build/grader/cli/gpulab"
  cp -r "$before/grader" "$before/assignments" "$before/reference" .devold/
  ln -s ../datasets .devold/datasets
  echo "prepared .devold from $before ($(git -C "$before" rev-parse --short HEAD 2>/dev/null), $(du -sh .devold | cut -f1)); carry it too"
  exit 0
fi
out=${OUT:-/tmp/device-check}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.devbuild/lib:${LD_LIBRARY_PATH:-}
export GPULAB_HOME=$PWD GPULAB_CACHE=/tmp/gpulab-cache
gpulab=$PWD/.devbuild/gpulab
if ! command -v bwrap >/dev/null && [ -x .devbuild/bwrap/bwrap ]; then export GPULAB_BWRAP=$PWD/.devbuild/bwrap/bwrap; fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
echo "bwrap: $(command -v bwrap || echo "${GPULAB_BWRAP:-none}"), prlimit: $(command -v prlimit || echo none)" | tee -a "$out/device.txt"
steps=${DEVICE_STEPS:-"labs probes speed ownkernel sanitizer"}
step() { [[ " $steps " == *" $1 "* ]]; }
status=0
if step labs; then
# Build every submission and generate the large datasets first, all labs at
# once (nvcc and the gold run on the CPUs; correctness only, so sharing the GPU
# is harmless); the graded runs below, one at a time, then reuse both caches.
started=$SECONDS
for lab_json in assignments/*/lab.json; do
  lab=$(basename "$(dirname "$lab_json")")
  "$gpulab" grade "$lab" "reference/$lab/$lab.cu" --backend cuda --performance off --no-hidden --no-sandbox \
    --format text --out /dev/null >/dev/null 2>&1 &
  "$gpulab" grade "$lab" "skeletons/$lab/$lab.cu" --backend cuda --performance off --no-large --no-hidden --no-sandbox \
    --format text --out /dev/null >/dev/null 2>&1 &
done
wait
echo "builds and datasets: $((SECONDS - started)) s"
for lab_json in assignments/*/lab.json; do
  lab=$(basename "$(dirname "$lab_json")")
  for who in reference skeletons; do
    src=$who/$lab/$lab.cu
    report=$(mktemp)
    "$gpulab" grade "$lab" "$src" --backend cuda --format text --out "$report" 2>"$report.err"
    rc=$?
    how=""
    if [ $rc -eq 5 ]; then  # the sandbox cannot start on this machine: trusted code, so grade without it
      head -1 "$report.err" >>"$out/device.txt"
      "$gpulab" grade "$lab" "$src" --backend cuda --format text --no-sandbox --out "$report" 2>"$report.err"
      how=" (without the sandbox)"
    fi
    echo "$lab $who$how: $(grep '^score' "$report" || tail -1 "$report.err") ($((SECONDS - started)) s)"
    { echo "=== $lab $who"; cat "$report" "$report.err"; } >>"$out/labs.txt"  # one file: few come back
    rm -f "$report" "$report.err"
  done
done
fi
if step probes; then
# Every probe's GPU output is compared with the recorded one where there is one (verdicts in
# $OUT/probes.txt) and kept, all in one file, $OUT/probes-all.txt ("=== NAME.txt" before each; to
# record expected/ for a new probe).
mkdir -p "$out/probes"
mf=tests/gpu/probe_multi_file
cm=tests/gpu/probe_compile_model
for probe in tests/gpu/probe_*.cu "$mf" "$cm"; do
  name=$(basename "$probe" .cu)
  args=("$probe")
  [ "$probe" = "$mf" ] && args=(-I "$mf/include" -D RADIUS=2 "$mf/main.cu" "$mf/host_stats.cpp" -- -n=1000 -verbose)
  [ "$probe" = "$cm" ] && args=(-I "$cm/include" "$cm/main.cu" "$cm/host_helpers.cpp")
  "$gpulab" run --backend cuda "${args[@]}" >"$out/probes/$name.txt" 2>"$out/probes/$name.err"
  if [ ! -f "tests/gpu/expected/$name.txt" ]; then
    verdict="recorded (no expected output yet)"
  elif diff -q "$out/probes/$name.txt" "tests/gpu/expected/$name.txt" >/dev/null; then
    verdict="same as recorded"
  else
    verdict="DIFFERS from tests/gpu/expected/$name.txt"
    status=1
  fi
  echo "$name: $verdict" | tee -a "$out/probes.txt"
done
# One file of every probe's output (few files come back from a call).
for f in "$out"/probes/*; do { echo "=== $(basename "$f")"; cat "$f"; } >>"$out/probes-all.txt"; done
rm -rf "$out/probes"
fi
if step speed; then
# Speed scoring, its defences and --sanitize (tests/gpu/speed_scoring.sh), logged in one file.
# Every file is built first, all at once (nvcc on the CPUs; correctness only).
for f in reference/reduction/reduction.cu tests/gpu/speed/*.cu tests/labs/reduction/buggy/cpu_compute.cu \
  tests/labs/reduction/buggy/missing_bounds_check.cu tests/labs/reduction/buggy/host_sum_empty_kernel.cu; do
  "$gpulab" grade reduction "$f" --backend cuda --part int --performance off --no-hidden --no-sandbox \
    --format text --out /dev/null >/dev/null 2>&1 &
done
wait
if bash tests/gpu/speed_scoring.sh "$gpulab" /tmp/speed-scoring >"$out/speed.txt" 2>&1; then
  echo "speed scoring: all checks pass"
else
  echo "speed scoring: FAILED (see speed.txt)"
  status=1
fi
# Result replay and L2 pinning (tests/gpu/speed_exploits.sh), in the same file.
if bash tests/gpu/speed_exploits.sh "$gpulab" cuda /tmp/speed-exploits >>"$out/speed.txt" 2>&1; then
  echo "speed exploits: all lose their speed points"
else
  echo "speed exploits: FAILED (see speed.txt)"
  status=1
fi
# In-process tampering (tests/gpu/tamper_exploits.sh): the audit, the system-call filter and
# the grader's own clock on a GPU, in its own file.
if bash tests/gpu/tamper_exploits.sh "$gpulab" cuda /tmp/tamper-exploits >"$out/tamper.txt" 2>&1; then
  echo "tamper exploits: all lose their points, each flagged with its reason"
else
  echo "tamper exploits: FAILED (see tamper.txt)"
  status=1
fi
grep -h '^== \|FAILED' "$out/speed.txt" "$out/tamper.txt"
for f in /tmp/speed-scoring/*.json /tmp/speed-exploits/*.json; do { echo "=== $f"; cat "$f"; } >>"$out/speed.txt"; done
for f in /tmp/tamper-exploits/*.json /tmp/tamper-exploits/*.log; do { echo "=== $f"; cat "$f"; } >>"$out/tamper.txt"; done
fi
if step ownkernel; then
# Results computed on the CPU earn nothing, by any route, in every lab; the idioms keep their points.
started=$SECONDS
if JOBS=${OWN_KERNEL_JOBS:-12} bash tests/own_kernel/own_kernel_exploits.sh "$gpulab" cuda /tmp/own-kernel \
  >"$out/own-kernel.txt" 2>&1; then
  echo "own kernel: every route earns nothing, every idiom keeps its points ($((SECONDS - started)) s)"
else
  echo "own kernel: FAILED ($((SECONDS - started)) s; see own-kernel.txt)"
  grep '^FAILED' "$out/own-kernel.txt" | head -20
  status=1
fi
# Each results file's feedback, for the record (few files come back).
for f in /tmp/own-kernel/*.json; do { echo "=== $f"; cat "$f"; } >>"$out/own-kernel.txt"; done
fi
if step emutests; then
# The emulator's plain-CUDA conformance tests, built by --prepare-emu-tests, run on the GPU: what
# each asserts of the emulator must hold on the hardware too. Output in $OUT/emu-tests.txt.
for t in .devbuild/emu-tests/*; do
  [ -x "$t" ] || continue
  { echo "=== $(basename "$t")"; timeout 300 "$t" 2>&1; echo "exit $?"; } >"/tmp/emu-test.log"
  cat /tmp/emu-test.log >>"$out/emu-tests.txt"
  result=$(grep -E '^(All tests passed|test cases:)' /tmp/emu-test.log | tail -1)
  echo "$(basename "$t"): ${result:-no summary, see emu-tests.txt}"
  grep -q '^exit 0$' /tmp/emu-test.log || status=1
done
fi
if step gradetimes; then
  # GRADE_LABS picks labs (default: every lab). The warm-ups run at once (a fresh machine's cache:
  # about 100 s per lab one after another, more than a call's 600 s for the five).
  # shellcheck disable=SC2086
  GPULAB=$gpulab BENCH_BACKEND=cuda BENCH_WORK=/tmp/gpulab-gradetimes BENCH_WARM_PARALLEL=1 bash bench/grading/grade_timings.sh \
    ${GRADE_LABS:-} 2>&1 | tee -a "$out/gradetimes.txt" || status=1
fi
if step speedtable; then
# Build every file first, all at once (nvcc on the CPUs), then grade one at a time on the GPU.
graders=("now|$gpulab|$PWD|/tmp/gpulab-cache")
[ -x .devold/gpulab ] && graders+=("before|$PWD/.devold/gpulab|$PWD/.devold|/tmp/gpulab-cache-before")
files=()
for lab in ${SPEED_LABS:-$(ls assignments)}; do
  files+=("$lab|reference/$lab/$lab.cu")
  [ "${SPEED_FILES:-all}" = reference ] && continue
  for f in reference/"$lab"/progression/*.cu; do files+=("$lab|$f"); done
done
started=$SECONDS
for g in "${graders[@]}"; do
  IFS='|' read -r who bin home cache <<<"$g"
  for lf in "${files[@]}"; do
    IFS='|' read -r lab file <<<"$lf"
    [ "$who" = before ] && [ "${SPEED_BEFORE:-reference}" = reference ] && [[ $file == */progression/* ]] && continue
    GPULAB_HOME=$home GPULAB_CACHE=$cache "$bin" grade "$lab" "$PWD/$file" --backend cuda --performance off \
      --no-large --no-hidden --no-sandbox --format text --out /dev/null >/dev/null 2>&1 &
  done
done
wait
echo "speedtable builds: $((SECONDS - started)) s"
mkdir -p /tmp/speedtable
# The table so far, rewritten after every grading (a call cut off at its limit still returns it).
speedtable() {
python3 - /tmp/speedtable >"$out/speedtable.md" <<'PY'
import json, os, sys
d = sys.argv[1]
secs = dict(l.split() for l in open(os.path.join(d, "seconds.txt")))
rows = {}
for name in sorted(secs):
    who, lab, file = name.split("-", 2)
    try:
        r = json.load(open(os.path.join(d, name + ".json")))
    except Exception as e:
        rows.setdefault((lab, file, "?"), {})[who] = ("no result", "", "", "", secs[name]); continue
    for p in r.get("parts", []):
        q = p.get("performance") or {}
        rate = q.get("gbps", q.get("gflops", 0))
        c = q.get("wall_clock") or {}
        clock = ("%.1f / %.1f / %.1f us" % (c["unexplained_per_call_s"] * 1e6, c["margin_s"] * 1e6,
                                            c["harness_per_call_s"] * 1e6)) if c else "-"
        rows.setdefault((lab, file, p["name"]), {})[who] = (
            q.get("status", "-"), "%g/%g" % (round(q.get("score", 0), 2), q.get("max_score", 0)),
            "%.2f" % q.get("ratio", 0), "%.0f %s" % (rate, q.get("rate_unit", "")), clock, secs[name])
whos = [w for w in ("before", "now") if any(w in v for v in rows.values())]
head = "| lab | file | part |" + "".join(
    " %s: status | speed points | ratio | rate | clock: unexplained / margin / harness per call | grading s |" % w
    for w in whos)
print(head); print("|" + "---|" * (3 + 6 * len(whos)))
for (lab, file, part), v in sorted(rows.items()):
    print("| %s | %s | %s |" % (lab, file, part) + "".join(
        " %s |" * 6 % v.get(w, ("-",) * 6) for w in whos))
PY
}
for lf in "${files[@]}"; do
  IFS='|' read -r lab file <<<"$lf"
  for g in "${graders[@]}"; do
    IFS='|' read -r who bin home cache <<<"$g"
    [ "$who" = before ] && [ "${SPEED_BEFORE:-reference}" = reference ] && [[ $file == */progression/* ]] && continue
    name=$who-$lab-$(basename "$file" .cu)
    t0=$(date +%s.%N)
    GPULAB_HOME=$home GPULAB_CACHE=$cache "$bin" grade "$lab" "$PWD/$file" --backend cuda --performance on \
      --no-large --no-hidden --no-sandbox --format json --out "/tmp/speedtable/$name.json" >/dev/null 2>&1
    echo "$name $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" >>/tmp/speedtable/seconds.txt
    speedtable
    echo "$name graded in $(tail -1 /tmp/speedtable/seconds.txt | cut -d" " -f2) s"
  done
done
cat "$out/speedtable.md"
fi
if step sanitizer; then
# compute-sanitizer's own output for each tool, for the parser's tests.
sanitizer=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/compute-sanitizer
samples=$("$gpulab" run --backend cuda --build-only tests/gpu/sanitizer_samples.cu | tail -1)
for tool in memcheck racecheck synccheck initcheck; do
  { echo "=== $tool"; "$sanitizer" --tool "$tool" "$samples" "$tool" 2>&1; } >>"$out/sanitizer.txt"
done
fi
if step memory; then
# The memory bomb (tests/hostile/memory_hog.cu: host memory touched 64 MiB at a time) on the cuda
# backend, under the part's limits of the hostile corpus: the resident-memory watch must stop it
# in every case within the time limit, and the reference must still score (the CUDA runtime's own
# memory fits the margin). Wall time and the results go to $OUT/memory.
mkdir -p "$out/memory"
{ cat tests/hostile/hostile_common.cuh; grep -v '#include "hostile_common.cuh"' tests/hostile/memory_hog.cu; } \
  >"$out/memory/reduction.cu"
for file in "$out/memory/reduction.cu" reference/reduction/reduction.cu; do
  name=$(basename "$(dirname "$file")")
  started=$SECONDS
  "$gpulab" grade reduction "$file" --backend cuda --performance off --no-large --format json \
    --out "$out/memory/$name.json" >"$out/memory/$name.log" 2>&1
  echo "memory: $file: exit $?, $((SECONDS - started)) s; $(grep -c 'held more than' "$out/memory/$name.json") cases stopped by the memory watch" \
    | tee -a "$out/memory/summary.txt"
done
fi
if step hosted; then
# What hosted autograders do on a GPU: Gradescope's leaderboard (--leaderboard: each part's
# throughput and time) from the reduction reference, and the isolation without namespaces
# (--sandbox user, as root, with gpulab and the lab copied into a folder private to root and
# bubblewrap made to fail): the reference must score full marks there too. Results in $OUT/hosted.
mkdir -p "$out/hosted"
"$gpulab" grade reduction reference/reduction/reduction.cu --backend cuda --no-large --no-hidden --leaderboard \
  --format gradescope --out "$out/hosted/leaderboard.json" >"$out/hosted/leaderboard.log" 2>&1
echo "hosted: leaderboard: exit $?; $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("leaderboard"))' "$out/hosted/leaderboard.json" 2>&1)"
if [ "$(id -u)" -eq 0 ]; then
  getent passwd gpulab-sandbox >/dev/null ||
    useradd --system --user-group --no-create-home --shell /usr/sbin/nologin gpulab-sandbox
  private=$(mktemp -d)  # 0700, root's
  mkdir -p "$private/home/datasets" "$private/home/reference" "$private/bin"
  cp -r grader assignments "$private/home/" && cp -r datasets/reduction "$private/home/datasets/" &&
    cp -r reference/reduction "$private/home/reference/" && cp "$gpulab" "$private/bin/gpulab"
  printf '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n' >/tmp/fake-bwrap && chmod 755 /tmp/fake-bwrap
  started=$SECONDS
  GPULAB_HOME=$private/home GPULAB_CACHE=$private/cache GPULAB_BWRAP=/tmp/fake-bwrap "$private/bin/gpulab" grade reduction \
    "$private/home/reference/reduction/reduction.cu" --backend cuda --no-large --no-hidden --sandbox auto --format text \
    --out "$out/hosted/user-sandbox.txt" >"$out/hosted/user-sandbox.log" 2>&1
  echo "hosted: --sandbox auto without namespaces, cuda: exit $?, $((SECONDS - started)) s; $(grep -E '^(score|isolation):' "$out/hosted/user-sandbox.txt" | tr '\n' ' ')"
  rm -rf "$private"
else
  echo "hosted: --sandbox user skipped (not root)"
fi
fi
if step counters; then
mkdir -p "$out/counters"
started=$SECONDS
files=()
for lab_json in assignments/*/lab.json; do
  lab=$(basename "$(dirname "$lab_json")")
  [[ -z "${COUNTER_LABS:-}" || " $COUNTER_LABS " == *" $lab "* ]] || continue
  files+=(reference/$lab/progression/*.cu "reference/$lab/$lab.cu")
done
# Builds in parallel (nvcc on the CPUs, committed cases only), then each file under ncu alone:
# Nsight Compute wants the GPU to itself. A file gets 150 s under ncu at most.
for src in "${files[@]}"; do
  "$gpulab" grade "$(echo "$src" | cut -d/ -f2)" "$src" --backend cuda --performance off --no-large --no-hidden \
    --no-sandbox --format json --out /dev/null >/dev/null 2>&1 &
  while [ "$(jobs -r | wc -l)" -ge 12 ]; do sleep 1; done
done
wait
echo "counters: builds in $((SECONDS - started)) s"
for src in "${files[@]}"; do
  lab=$(echo "$src" | cut -d/ -f2)
  name=$(basename "$src" .cu)
  t0=$SECONDS
  timeout 150 "$gpulab" grade "$lab" "$src" --backend cuda --counters --performance off --no-large --no-hidden \
    --no-sandbox --format json --out "$out/counters/$lab-$name.json" >"$out/counters/$lab-$name.log" 2>&1
  echo "counters: $lab $name: exit $?, $((SECONDS - t0)) s"
done
echo "counters: ${#files[@]} files in $((SECONDS - started)) s"
(cd "$out" && tar czf counters.tgz counters && rm -rf counters)
fi
exit $status
