#!/usr/bin/env bash
# The student kit: the archive's listing holds skeletons, assignments, public
# datasets and the grader, and no reference solution, project test, hidden
# seed or hidden dataset; unpacked in a clean folder it builds on its own, and
# its gpulab grades every skeleton (zero) and a correct solution (full marks).
# Usage: student_kit_test.sh GPULAB PROJECT_ROOT WORK_DIR
set -u
gpulab=$1
project=$2
work=$3
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else fail "$what"; fi
}

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
secret="kit-test-secret-$$-$RANDOM"
GPULAB_HIDDEN_SEED=$secret "$gpulab" bundle student --out kit.tar.gz >bundle.log 2>&1
check "kit written" test -s kit.tar.gz

tar tzf kit.tar.gz | sort >listing.txt
for lab in convolution histogram matmul reduction scan; do
  check "$lab: skeleton" grep -qx "gpulab-kit/skeletons/$lab/$lab.cu" listing.txt
  check "$lab: assignment" grep -qx "gpulab-kit/assignments/$lab/lab.json" listing.txt
  check "$lab: public datasets" grep -qx "gpulab-kit/datasets/$lab/manifest.json" listing.txt
done
check "the grader's sources" grep -qx 'gpulab-kit/grader/cli/main.cpp' listing.txt
check "no reference solution (reference/<lab>/*.cu)" bash -c "! grep -E '^gpulab-kit/reference/.*\\.cu$' listing.txt"
check "in reference/, only the CPU gold implementations" \
  bash -c "! grep -E '^gpulab-kit/reference/[^/]+/[^/]+$' listing.txt | grep -v '/gold.cpp$'"
check "none of the project's tests (their variants are solutions)" bash -c "! grep -q '^gpulab-kit/tests/' listing.txt"
check "no hidden seed file" bash -c "! grep -q 'hidden-seed' listing.txt"

mkdir clean && tar xzf kit.tar.gz -C clean
check "the secret seed appears nowhere" bash -c "! grep -rqF '$secret' clean"
check "every manifest is public" bash -c "! grep -l '\"hidden\": true' clean/gpulab-kit/datasets/*/manifest.json"

# Build from the clean folder, with nothing of the project in the environment.
unset GPULAB_HOME
export GPULAB_CACHE="$work/cache"
kit="$work/clean/gpulab-kit"
(cmake -S "$kit" -B "$kit/build" -G Ninja >configure.log 2>&1 && cmake --build "$kit/build" --target gpulab >build.log 2>&1)
check "the kit builds on its own (see $work/build.log)" test -x "$kit/build/grader/cli/gpulab"

cd "$kit" || exit 1
for lab in convolution histogram matmul reduction scan; do
  ./build/grader/cli/gpulab test $lab skeletons/$lab/$lab.cu --no-large >"$work/skeleton-$lab.txt" 2>&1
  rc=$?
  check "$lab: the skeleton is graded and fails cleanly (exit 1, got $rc)" test $rc -eq 1
  check "$lab: the skeleton scores 0" grep -q 'score: 0 / 70' "$work/skeleton-$lab.txt"
done
cp "$project/reference/histogram/progression/privatized_sectioned.cu" "$work/mine.cu"
./build/grader/cli/gpulab test histogram "$work/mine.cu" --no-large >"$work/mine.txt" 2>&1
rc=$?
check "a correct solution passes with the kit alone (exit 0, got $rc)" test $rc -eq 0
check "a correct solution scores full marks (70 on the emulator)" grep -q 'score: 70 / 70' "$work/mine.txt"

echo "$failures failure(s)"
if [ $failures -eq 0 ]; then cd / && rm -rf "$work"; fi  # a build and a cache: hundreds of MB, kept only on failure
exit $((failures > 0))
