#!/usr/bin/env bash
# A library algorithm that computes the lab's answer earns nothing until the instructor has looked
# (lab.json's "library_algorithms", docs/security.md "What a finding costs"): graded, its right
# outputs fail as library_algorithm with the audit's sentence, its speed is not timed (0 speed
# points), and it is listed for review in every report: the results file (json), Gradescope's
# results.json, the text report, gradebook.csv and report.html.
# Usage: library_grading.sh GPULAB emu|cuda [OUT_DIR]
#   emu:  matmul through a CUTLASS device-level GEMM (tests/audit/library_algorithms/matmul_cutlass.cu,
#         CUTLASS's names written out: it builds and runs on the emulator), graded alone in every
#         format and in a class with the reference and a hand-declared cublasSgemm (which does not
#         link: the audit's sentence is in its results all the same); and `gpulab test` of a CUB
#         one-liner, which the emulator cannot compile: the student is told which library is
#         missing and that the lab counts it as no kernel of theirs;
#   cuda: on a GPU, the reduction lab's CUB one-liner graded with speed (it scored 100/100 before
#         the rule), the reference beside it, and cublasSgemm for matmul, which does not link;
#         exits 77 where there is no GPU.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
exploits=$root/tests/audit/library_algorithms
gpulab=$1
backend=$2
out=${3:-$(mktemp -d)}
mkdir -p "$out"
if [ "$backend" = cuda ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no NVIDIA GPU here: skipping"
  exit 77
fi
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
says() { grep -qF -- "$2" "$1"; }
# A field of a results file, by a Python expression over it (r).
field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null; }
is() { [ "$(field "$1" "$2")" = "$3" ]; }

# grade LAB NAME FILE FORMAT [options]: writes $out/NAME.json (in FORMAT: json, gradescope, text) and NAME.log.
grade() {
  local lab=$1 name=$2 file=$3 format=$4
  shift 4
  "$gpulab" grade "$lab" "$file" --backend "$backend" --no-large --no-hidden --format "$format" \
    --out "$out/$name.json" "$@" >"$out/$name.log" 2>&1
  if [ $? -eq 5 ] && [ "$backend" = cuda ]; then  # a GPU machine where the sandbox cannot start
    "$gpulab" grade "$lab" "$file" --backend "$backend" --no-large --no-hidden --format "$format" \
      --out "$out/$name.json" "$@" --no-sandbox >"$out/$name.log" 2>&1
  fi
  [ -s "$out/$name.json" ] || { echo "== $name: no results file; gpulab said:"; tail -5 "$out/$name.log"; }
}

# Every case of every part failed as library_algorithm with the audit's sentence, 0 points.
held_cases() {
  is "$1" "all(c['failure_kind'] == 'library_algorithm' and 'your outputs match the expected ones, but the audit of your compiled file found that it' in c['feedback'] and \"Your points are held for the instructor's review\" in c['feedback'] for p in r['parts'] for c in p['cases']) and sum(len(p['cases']) for p in r['parts']) > 0" True
}
# Every part's speed not timed, 0 of its points, in the library's words.
speed_lost() {
  is "$1" "all(p['performance']['status'] == 'failed' and p['performance']['score'] == 0 and p['performance']['max_score'] > 0 and \"A library's speed earns no speed points\" in p['performance']['feedback'] for p in r['parts'])" True
}

if [ "$backend" = emu ]; then
  # 1. A CUTLASS GEMM, graded alone: the json results.
  grade matmul cutlass "$exploits/matmul_cutlass.cu" json --performance on
  f=$out/cutlass.json
  check "cutlass: compiled" is "$f" "r['compiled']" True
  check "cutlass: 0 points" is "$f" "r['score'] == 0" True
  check "cutlass: every right output held as library_algorithm" held_cases "$f"
  check "cutlass: its speed not timed, 0 speed points" speed_lost "$f"
  check "cutlass: the audit names the CUTLASS GEMM" \
    is "$f" "any(a['kind'] == 'library_algorithm' and 'cutlass::' in a['symbol'] and 'a CUTLASS GEMM' in a['sentence'] and 'this lab asks you to write the matrix-multiply kernel yourself' in a['sentence'] for a in r['audit'])" True
  check "cutlass: for review" is "$f" "any('a CUTLASS GEMM' in n['reason'] for n in r['review'])" True
  # The same grading in Gradescope's format and as text.
  grade matmul cutlass_gradescope "$exploits/matmul_cutlass.cu" gradescope --performance on
  check "cutlass: Gradescope's audit test says a library algorithm" \
    is "$out/cutlass_gradescope.json" "any(t['name'] == 'Audit of your compiled file' and 'calls a library algorithm that computes what this lab asks you to write yourself' in t['output'] and 'a CUTLASS GEMM' in t['output'] for t in r['tests'])" True
  check "cutlass: Gradescope's score 0" is "$out/cutlass_gradescope.json" "r['score'] == 0" True
  grade matmul cutlass_text "$exploits/matmul_cutlass.cu" text --performance on
  check "cutlass: the text report lists it, held for review" says "$out/cutlass_text.json" "the audit of your compiled file (its points are held for review):"
  check "cutlass: the text report's sentence" says "$out/cutlass_text.json" "a CUTLASS GEMM (its device-level operator and the kernel it launches)"

  # 2. A class: the reference, the CUTLASS GEMM, a hand-declared cublasSgemm (no cuBLAS in the link).
  rm -rf "$out/class" "$out/batch"
  mkdir -p "$out/class/ada" "$out/class/bob" "$out/class/carol"
  cp "$root/reference/matmul/matmul.cu" "$out/class/ada/"
  cp "$exploits/matmul_cutlass.cu" "$out/class/bob/matmul.cu"
  cp "$exploits/matmul_hidden.cu" "$out/class/carol/matmul.cu"
  "$gpulab" batch matmul "$out/class" --out "$out/batch" --backend emu --no-large --no-hidden --no-similarity \
    --jobs 2 >"$out/batch.log" 2>&1
  check "batch exits 0" test $? -eq 0
  book=$out/batch/gradebook.csv
  check "ada (the reference): full marks, nothing for review" grep -qE '^ada,70,70,70,graded,,,' "$book"
  check "bob: 0, failure class library_algorithm, for review" grep -qE '^bob,0,0,70,graded,library_algorithm,for review: submission,' "$book"
  check "carol: does not link, for review" grep -qE '^carol,0,0,70,compile_error,compile_error,for review: submission,' "$book"
  check "carol: the audit's sentence is in her results" \
    is "$out/batch/carol.json" "any(a['kind'] == 'library_algorithm' and a['symbol'] == 'cublasSgemm_v2' and 'calls cublasSgemm_v2, cuBLAS\\'s matrix multiply (GEMM)' in a['sentence'] for a in r['audit'])" True
  check "carol: the link's error, and why the call earns nothing anyway" \
    is "$out/batch/carol.json" "'undefined reference to' in r['compile_output'] and 'gpulab: cublasSgemm_v2 is in a library the grader does not link' in r['compile_output']" True
  html=$out/batch/report.html
  check "report.html: For review" says "$html" "<h2>For review</h2>"
  check "report.html: bob's CUTLASS GEMM" says "$html" "a CUTLASS GEMM"
  check "report.html: carol's cublasSgemm" grep -qE "calls cublasSgemm_v2, cuBLAS(&#39;|&#x27;|')s matrix multiply" "$html"

  # 3. `gpulab test` of a CUB one-liner on the emulator: no CUB there, said plainly, no points.
  (cd "$out" && "$gpulab" test reduction "$exploits/reduction_cub.cu" --backend emu >"$out/test_cub.log" 2>&1)
  check "gpulab test: a CUB one-liner fails" test $? -ne 0
  check "gpulab test: the emulator has no CUB" says "$out/test_cub.log" "cub/cub.cuh is the CUDA toolkit's header for CUB, which the emulator does not provide"
  check "gpulab test: the lab's rule" says "$out/test_cub.log" "this lab asks you to write the reduction kernel yourself"
else
  # 1. The reduction lab's CUB one-liner, with speed (it scored 100/100 before the rule).
  grade reduction cub "$exploits/reduction_cub.cu" json
  f=$out/cub.json
  check "cub: compiled" is "$f" "r['compiled']" True
  check "cub: 0 points" is "$f" "r['score'] == 0" True
  check "cub: every right output held as library_algorithm" held_cases "$f"
  check "cub: its speed not timed, 0 speed points" speed_lost "$f"
  check "cub: the audit names cub::DeviceReduce::Sum" \
    is "$f" "any(a['kind'] == 'library_algorithm' and a['symbol'] == 'cub::DeviceReduce::Sum' and a['where'].startswith('in function reduce_sum_int') for a in r['audit'])" True
  grade reduction thrust "$exploits/reduction_thrust.cu" json
  check "thrust: 0 points, held" held_cases "$out/thrust.json"
  grade reduction reference "$root/reference/reduction/reduction.cu" json
  check "the reference: every point, nothing for review" is "$out/reference.json" "r['score'] == r['max_score'] and not r['review'] and not r['audit']" True
  # 2. cublasSgemm for matmul: cuBLAS is not linked with the harness; the audit says why first.
  grade matmul cublas "$exploits/matmul_cublas.cu" json
  f=$out/cublas.json
  check "cublas: does not link" is "$f" "r['compiled']" False
  check "cublas: the audit's sentence" \
    is "$f" "any(a['kind'] == 'library_algorithm' and a['symbol'] == 'cublasSgemm_v2' and \"cuBLAS's matrix multiply (GEMM)\" in a['sentence'] for a in r['audit'])" True
  check "cublas: for review" is "$f" "any('cublasSgemm_v2' in n['reason'] for n in r['review'])" True
  check "cublas: the link's error says why the call earns nothing anyway" \
    is "$f" "'gpulab: cublasSgemm_v2 is in a library the grader does not link' in r['compile_output']" True
fi

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
