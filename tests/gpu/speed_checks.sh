# Shell helpers shared by the speed tests (speed_scoring.sh, speed_exploits.sh, tamper_exploits.sh):
# a check counter, `grade` (the reduction lab's int part, as the caller's
# $gpulab, $backend, $out and extra options $extra set) and readers of the
# first "performance" object of the results file it writes. Sourced.
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# The value of a numeric or boolean field of the first "performance" object.
perf_field() { sed -n '/"performance": {/,/}/p' "$1" | sed -n "s/^ *\"$2\": \([-0-9.e+a-z]*\),\{0,1\}$/\1/p" | head -1; }
perf_feedback() { sed -n '/"performance": {/,/^ *}/p' "$1" | sed -n 's/^ *"feedback": "\(.*\)",\{0,1\}$/\1/p' | head -1; }
perf_status() { sed -n '/"performance": {/,/}/p' "$1" | sed -n 's/^ *"status": "\([a-z_]*\)",\{0,1\}$/\1/p' | head -1; }
# The part's total score (the first part's "score" after its cases), and the whole result's.
total_score() { sed -n 's/^  "score": \(.*\),$/\1/p' "$1" | head -1; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a >= b) }'; }
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a <= b) }'; }

# grade NAME FILE [options]: writes $out/NAME.json and .log and prints a summary line. On a GPU
# machine where the sandbox cannot start (said once), these trusted files are graded without it.
grade() {
  local name=$1 file=$2
  shift 2
  "$gpulab" grade reduction "$file" --backend "$backend" --part int --no-hidden --format json \
    --out "$out/$name.json" "${extra[@]}" "$@" >"$out/$name.log" 2>&1
  if [ $? -eq 5 ] && [ "$backend" = cuda ]; then
    [ -n "${sandbox_refused:-}" ] || { sandbox_refused=1; echo "sandbox refused here, grading without it: $(head -1 "$out/$name.log")"; }
    "$gpulab" grade reduction "$file" --backend "$backend" --part int --no-hidden --format json \
      --out "$out/$name.json" "${extra[@]}" "$@" --no-sandbox >"$out/$name.log" 2>&1
  fi
  [ -s "$out/$name.json" ] || { echo "== $name: no results file; gpulab said:"; tail -5 "$out/$name.log"; }
  echo "== $name: score $(total_score "$out/$name.json"), speed $(perf_status "$out/$name.json")" \
    "$(perf_field "$out/$name.json" score) points, ratio $(perf_field "$out/$name.json" ratio)"
  # Why a speed test failed, so that a check on it that fails says what the grader saw.
  [ "$(perf_status "$out/$name.json")" != failed ] || echo "   speed feedback: $(perf_feedback "$out/$name.json" | cut -c1-400)"
}

# speed_setup GPULAB emu|cuda [OUT_DIR]: what both exploit scripts start with. Sets gpulab, backend,
# out, extra (grade options), speed (the exploits' folder) and correct (the int part's correctness
# points). cuda: exits 77 where there is no GPU. emu: a project of links to this one ($root), with
# the reduction lab's timed case made small (n = 65536), as GPULAB_HOME.
speed_setup() {
  gpulab=$1
  backend=$2
  out=${3:-$(mktemp -d)}
  mkdir -p "$out"
  extra=()
  if [ "$backend" = cuda ]; then
    if ! nvidia-smi -L >/dev/null 2>&1; then
      echo "no NVIDIA GPU here: skipping"
      exit 77
    fi
  else
    speed_home=$(mktemp -d)
    trap 'rm -rf "$speed_home"' EXIT
    for d in grader reference skeletons datasets; do ln -s "$root/$d" "$speed_home/$d"; done
    mkdir -p "$speed_home/assignments/reduction"
    sed 's/"sizes": {"n": 67108864}/"sizes": {"n": 65536}/' "$root/assignments/reduction/lab.json" \
      >"$speed_home/assignments/reduction/lab.json"
    grep -q '"sizes": {"n": 65536}' "$speed_home/assignments/reduction/lab.json" ||
      { echo "could not shrink the timed case"; exit 1; }
    export GPULAB_HOME=$speed_home
    extra=(--performance on --no-large)
  fi
  speed=$root/tests/gpu/speed
  correct="35"
}
