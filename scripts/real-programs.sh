#!/usr/bin/env bash
# Builds and runs real CUDA programs that nobody here wrote on the emulator, as a new user would,
# and prints pass or fail for each: the runtime-API NVIDIA cuda-samples and the OLCF CUDA training
# series' solutions. A program passes when it exits with 0 and its output shows its own check
# passed (its "Test passed", a right result); each run has 60 s (the build is not counted).
#
# Usage: scripts/real-programs.sh [--gpulab PATH] [--only NAME[,NAME...]] CHECKOUT...
#   CHECKOUT: a checkout (work tree) of github.com/NVIDIA/cuda-samples (it has Samples/ and
#   Common/) or of github.com/olcf/cuda-training-series (it has exercises/hw1/); programs of a
#   repository not given are skipped. Nothing is written into the checkouts.
# Environment: GPULAB_CACHE (a cache folder of its own by default), REAL_PROGRAMS_TIMEOUT (60).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
gpulab=$here/build/grader/cli/gpulab
only=""
samples="" olcf=""
while [ $# -gt 0 ]; do
  case $1 in
    --gpulab) gpulab=$2; shift 2 ;;
    --only) only=",$2,"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *)
      if [ -d "$1/Samples" ] && [ -d "$1/Common" ]; then samples=$(cd "$1" && pwd)
      elif [ -d "$1/exercises/hw1" ]; then olcf=$(cd "$1" && pwd)
      else echo "real-programs: '$1' is neither a cuda-samples nor a cuda-training-series checkout" >&2; exit 2
      fi
      shift ;;
  esac
done
if [ -z "$samples$olcf" ]; then
  echo "usage: scripts/real-programs.sh [--gpulab PATH] [--only NAMES] CHECKOUT... (see the top of this file)" >&2
  exit 2
fi
[ -x "$gpulab" ] || { echo "real-programs: no gpulab at $gpulab: build first (scripts/build.sh) or pass --gpulab" >&2; exit 2; }
gpulab=$(cd "$(dirname "$gpulab")" && pwd)/$(basename "$gpulab")  # the runs start in the program's folder
limit=${REAL_PROGRAMS_TIMEOUT:-60}
export GPULAB_CACHE=${GPULAB_CACHE:-${TMPDIR:-/tmp}/gpulab-real-programs-cache}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One program per line: NAME | REPO (samples, olcf) | FOLDER | SOURCES | ARGUMENTS | CHECK
# SOURCES are relative to FOLDER (and gpulab options such as -DNAME, as the exercise's instructions
# build it); CHECK is an extended regular expression the output must match (besides exit code 0),
# or "-" when the exit code is the program's own check. Every program here builds with CUDA 13.0's
# nvcc for sm_90 as it is.
programs=$(cat <<'EOF'
asyncAPI|samples|Samples/0_Introduction/asyncAPI|asyncAPI.cu||-
clock|samples|Samples/0_Introduction/clock|clock.cu||Average clocks/block
fp16ScalarProduct|samples|Samples/0_Introduction/fp16ScalarProduct|fp16ScalarProduct.cu||fp16ScalarProduct PASSED
matrixMul|samples|Samples/0_Introduction/matrixMul|matrixMul.cu||Result = PASS
mergeSort|samples|Samples/0_Introduction/mergeSort|main.cpp bitonic.cu mergeSort.cu mergeSort_host.cpp mergeSort_validate.cpp||Shutting down
simpleAWBarrier|samples|Samples/0_Introduction/simpleAWBarrier|simpleAWBarrier.cu||Result = PASSED
simpleAtomicIntrinsics|samples|Samples/0_Introduction/simpleAtomicIntrinsics|simpleAtomicIntrinsics.cu simpleAtomicIntrinsics_cpu.cpp||completed, returned OK
simpleAttributes|samples|Samples/0_Introduction/simpleAttributes|simpleAttributes.cu||-
simpleCallback|samples|Samples/0_Introduction/simpleCallback|simpleCallback.cu multithreading.cpp||-
simpleCooperativeGroups|samples|Samples/0_Introduction/simpleCooperativeGroups|simpleCooperativeGroups.cu||-
simpleHyperQ|samples|Samples/0_Introduction/simpleHyperQ|simpleHyperQ.cu||-
simpleMultiCopy|samples|Samples/0_Introduction/simpleMultiCopy|simpleMultiCopy.cu||-
simpleOccupancy|samples|Samples/0_Introduction/simpleOccupancy|simpleOccupancy.cu||Test PASSED
simplePrintf|samples|Samples/0_Introduction/simplePrintf|simplePrintf.cu||Value is:10
simpleStreams|samples|Samples/0_Introduction/simpleStreams|simpleStreams.cu||-
simpleTemplates|samples|Samples/0_Introduction/simpleTemplates|simpleTemplates.cu||-
simpleVoteIntrinsics|samples|Samples/0_Introduction/simpleVoteIntrinsics|simpleVoteIntrinsics.cu||-
simpleZeroCopy|samples|Samples/0_Introduction/simpleZeroCopy|simpleZeroCopy.cu||-
systemWideAtomics|samples|Samples/0_Introduction/systemWideAtomics|systemWideAtomics.cu||-
template|samples|Samples/0_Introduction/template|template.cu template_cpu.cpp||-
vectorAdd|samples|Samples/0_Introduction/vectorAdd|vectorAdd.cu||Test PASSED
convolutionSeparable|samples|Samples/2_Concepts_and_Techniques/convolutionSeparable|main.cpp convolutionSeparable.cu convolutionSeparable_gold.cpp||Test passed
histogram|samples|Samples/2_Concepts_and_Techniques/histogram|main.cpp histogram64.cu histogram256.cu histogram_gold.cpp||Test passed
reduction|samples|Samples/2_Concepts_and_Techniques/reduction|reduction.cpp reduction_kernel.cu||Test passed
reductionMultiBlockCG|samples|Samples/2_Concepts_and_Techniques/reductionMultiBlockCG|reductionMultiBlockCG.cu||-
scalarProd|samples|Samples/2_Concepts_and_Techniques/scalarProd|scalarProd.cu scalarProd_cpu.cpp||Test passed
scan|samples|Samples/2_Concepts_and_Techniques/scan|main.cpp scan.cu scan_gold.cpp||-
shfl_scan|samples|Samples/2_Concepts_and_Techniques/shfl_scan|shfl_scan.cu||-
sortingNetworks|samples|Samples/2_Concepts_and_Techniques/sortingNetworks|main.cpp bitonicSort.cu oddEvenMergeSort.cu sortingNetworks_validate.cpp||Shutting down
streamOrderedAllocation|samples|Samples/2_Concepts_and_Techniques/streamOrderedAllocation|streamOrderedAllocation.cu||streamOrderedAllocationPostSync PASSED
threadFenceReduction|samples|Samples/2_Concepts_and_Techniques/threadFenceReduction|threadFenceReduction.cu||-
inlinePTX|samples|Samples/2_Concepts_and_Techniques/inlinePTX|inlinePTX.cu||-
binaryPartitionCG|samples|Samples/3_CUDA_Features/binaryPartitionCG|binaryPartitionCG.cu||-
globalToShmemAsyncCopy|samples|Samples/3_CUDA_Features/globalToShmemAsyncCopy|globalToShmemAsyncCopy.cu||Result = PASS
graphMemoryNodes|samples|Samples/3_CUDA_Features/graphMemoryNodes|graphMemoryNodes.cu||Validation PASSED
jacobiCudaGraphs|samples|Samples/3_CUDA_Features/jacobiCudaGraphs|main.cpp jacobi.cu||-
newdelete|samples|Samples/3_CUDA_Features/newdelete|newdelete.cu||-
simpleCudaGraphs|samples|Samples/3_CUDA_Features/simpleCudaGraphs|simpleCudaGraphs.cu||-
warpAggregatedAtomicsCG|samples|Samples/3_CUDA_Features/warpAggregatedAtomicsCG|warpAggregatedAtomicsCG.cu||PASSED
StreamPriorities|samples|Samples/3_CUDA_Features/StreamPriorities|StreamPriorities.cu||-
alignedTypes|samples|Samples/6_Performance/alignedTypes|alignedTypes.cu||Test passed
transpose|samples|Samples/6_Performance/transpose|transpose.cu||Test passed
LargeKernelParameter|samples|Samples/6_Performance/LargeKernelParameter|LargeKernelParameter.cu||Test passed
deviceQuery|samples|Samples/1_Utilities/deviceQuery|deviceQuery.cpp||Result = PASS
BlackScholes|samples|Samples/5_Domain_Specific/BlackScholes|BlackScholes.cu BlackScholes_gold.cpp||Test passed
fastWalshTransform|samples|Samples/5_Domain_Specific/fastWalshTransform|fastWalshTransform.cu fastWalshTransform_gold.cpp||Test passed
simpleAssert|samples|Samples/0_Introduction/simpleAssert|simpleAssert.cu||simpleAssert completed, returned OK
simpleMultiGPU|samples|Samples/0_Introduction/simpleMultiGPU|simpleMultiGPU.cu||-
topologyQuery|samples|Samples/1_Utilities/topologyQuery|topologyQuery.cu||GPU0 <-> CPU
interval|samples|Samples/2_Concepts_and_Techniques/interval|interval.cu||Check against Host computation
eigenvalues|samples|Samples/2_Concepts_and_Techniques/eigenvalues|main.cu bisect_large.cu bisect_small.cu bisect_util.cu gerschgorin.cpp matlab.cpp||Test Succeeded!
binomialOptions|samples|Samples/5_Domain_Specific/binomialOptions|binomialOptions.cpp binomialOptions_gold.cpp binomialOptions_kernel.cu||Test passed
quasirandomGenerator|samples|Samples/5_Domain_Specific/quasirandomGenerator|quasirandomGenerator.cpp quasirandomGenerator_gold.cpp quasirandomGenerator_kernel.cu||-
SobolQRNG|samples|Samples/5_Domain_Specific/SobolQRNG|sobol.cpp sobol_gold.cpp sobol_gpu.cu sobol_primitives.cpp||L1-Error
dwtHaar1D|samples|Samples/5_Domain_Specific/dwtHaar1D|dwtHaar1D.cu||Test success!
p2pBandwidthLatencyTest|samples|Samples/5_Domain_Specific/p2pBandwidthLatencyTest|p2pBandwidthLatencyTest.cu||-
MC_EstimatePiInlineP|samples|Samples/2_Concepts_and_Techniques/MC_EstimatePiInlineP|src/main.cpp src/piestimator.cu src/test.cpp||Relative error
MC_SingleAsianOptionP|samples|Samples/2_Concepts_and_Techniques/MC_SingleAsianOptionP|src/main.cpp src/pricingengine.cu src/test.cpp||MonteCarloSingleAsianOptionP, Performance
hello|olcf|exercises/hw1|hello_solution.cu||Hello from block: 1, thread: 1
matrix_mul|olcf|exercises/hw1|matrix_mul_solution.cu||Success!
vector_add|olcf|exercises/hw1|vector_add_solution.cu||C\[0\] = [0-9]
matrix_mul_shared|olcf|exercises/hw2|matrix_mul_shared_solution.cu||Success!
stencil_1d|olcf|exercises/hw2|stencil_1d_solution.cu||Success!
vector_add_hw3|olcf|exercises/hw3|vector_add_solution.cu||C\[0\] = [0-9]
matrix_sums|olcf|exercises/hw4|matrix_sums_solution.cu||row sums correct!.*column sums correct!
matrix_sums_hw5|olcf|exercises/hw5|matrix_sums_solution.cu||row sums correct!.*column sums correct!
max_reduction|olcf|exercises/hw5|max_reduction_solution.cu||reduction output: ([0-9.]+), expected sum reduction output: [0-9.]+, expected max reduction output: \1([^0-9]|$)
reductions|olcf|exercises/hw5|reductions.cu||reduction warp shuffle sum correct!
linked_list|olcf|exercises/hw6|linked_list_solution.cu||key = 3
overlap|olcf|exercises/hw7|-DUSE_STREAMS overlap_solution.cu||streams elapsed time
transpose_naive|olcf|exercises/hw8/task1|task1_solution.cu||Total time GPU
transpose_smem|olcf|exercises/hw8/task2|task2_solution.cu||Total time GPU
transpose_smem_padded|olcf|exercises/hw8/task3|task3_solution.cu||Total time GPU
cooperative_groups|olcf|exercises/hw9|task1_solution.cu||group partial sum: 16
streams|olcf|exercises/hw10|-DUSE_STREAMS streams_solution.cu||streams elapsed time
managed_matrices|olcf|exercises/hw12|task1_solution.cu||Success!
series_sum|olcf|exercises/hw12|task2_solution.cu||Estimated value: 0.69[0-9]* Expected value: 0.693147
stream_capture|olcf|exercises/hw13/Solutions|axpy_stream_capture_solution.cu||Number of the nodes in the graph = [0-9]+
EOF
)

passed=0 failed=0 skipped=0
while IFS='|' read -r name repo folder sources args check; do
  [ -z "$name" ] && continue
  if [ -n "$only" ] && [[ $only != *",$name,"* ]]; then continue; fi
  case $repo in samples) root=$samples ;; olcf) root=$olcf ;; esac
  if [ -z "$root" ]; then skipped=$((skipped + 1)); continue; fi
  dir=$root/$folder
  files=()
  for s in $sources; do
    case $s in -*) files+=("$s") ;; *) files+=("$dir/$s") ;; esac
  done
  includes=()
  [ "$repo" = samples ] && includes=(-I "$samples/Common")
  out=$work/$name.txt
  # The build first, without the run's limit (a cold build of a sample takes tens of seconds).
  if ! "$gpulab" run --build-only "${includes[@]}" "${files[@]}" >"$out" 2>&1; then
    printf 'FAIL  %-28s does not build: %s\n' "$name" "$(grep -m1 -E 'error' "$out" | cut -c1-160)"
    failed=$((failed + 1))
    continue
  fi
  start=$(date +%s)
  # shellcheck disable=SC2086  # ARGUMENTS are words
  # With GNU time, the CPU time the run used is shown too (the machine may be shared).
  timer=()
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o "$work/$name.cpu")
  (cd "$dir" && "${timer[@]}" timeout "$limit" "$gpulab" run "${includes[@]}" "${files[@]}" -- $args) >"$out" 2>&1
  rc=$?
  seconds=$(($(date +%s) - start))
  cpu=""
  if [ -s "$work/$name.cpu" ]; then
    cpu=$(awk 'END { if (NF == 2) printf "%5.1f s CPU", $1 + $2 }' "$work/$name.cpu")
  fi
  why=""
  if [ $rc -eq 124 ]; then
    why="did not finish in ${limit} s ($cpu)"
  elif [ $rc -ne 0 ]; then
    why="exit code $rc: $(grep -m1 -iE 'error|fail|mismatch|wrong' "$out" | cut -c1-160)"
  elif [ "$check" != "-" ] && ! tr '\n' ' ' <"$out" | grep -qE "$check"; then
    why="its check did not pass: $(tail -n 2 "$out" | tr '\n' ' ' | cut -c1-160)"
  fi
  if [ -z "$why" ]; then
    printf 'pass  %-28s %3d s  %s\n' "$name" "$seconds" "$cpu"
    passed=$((passed + 1))
  else
    printf 'FAIL  %-28s %s\n' "$name" "$why"
    failed=$((failed + 1))
  fi
done <<<"$programs"
echo "real programs: $passed passed, $failed failed, $skipped skipped (repository not given)"
[ "$failed" -eq 0 ]
