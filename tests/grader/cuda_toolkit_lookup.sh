#!/usr/bin/env bash
# The CUDA toolkit is found where it is, not guessed from where nvcc was found
# (cmake/cuda_toolkit.cmake): with only a wrapper script named nvcc on PATH
# (/usr/local/bin/nvcc that execs the toolkit's, as on machines whose PATH lacks
# /usr/local/cuda/bin), the lookup still names the toolkit's own nvcc and the
# folder that holds libcudart_static.a (the cuda backend links it and the audit
# protects its names); CUDA_HOME alone finds the toolkit; an nvcc that cannot
# say where its toolkit is disables the cuda backend with a warning instead of
# a backend that cannot link or audit.
# Usage: cuda_toolkit_lookup.sh NVCC WORK_DIR   (exit 77: no nvcc here, skipped)
set -u
nvcc=$1
work=$2
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  echo "skipped: this build has no nvcc"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
rm -rf "$work" && mkdir -p "$work/bin-wrapper" "$work/bin-broken"
# A PATH with the system's tools and none of CUDA's folders.
base_path=/usr/bin:/bin
# probe NAME PATH [VAR=VALUE...]: configures the probe project and prints its found.txt.
probe() {
  local name=$1 path=$2
  shift 2
  rm -rf "$work/$name"
  env -u CUDA_HOME -u CUDA_PATH PATH="$path" "$@" cmake -S "$here/cuda_toolkit_probe" -B "$work/$name" \
    >"$work/$name.log" 2>&1 || {
    fail "$name: cmake failed: $(tail -5 "$work/$name.log")"
    return
  }
  cat "$work/$name/found.txt"
}
value() { sed -n "s/^$1=//p"; }

# 1. A wrapper script on PATH, outside the toolkit.
printf '#!/bin/sh\nexec "%s" "$@"\n' "$nvcc" >"$work/bin-wrapper/nvcc"
chmod +x "$work/bin-wrapper/nvcc"
found=$(probe wrapper "$work/bin-wrapper:$base_path")
found_nvcc=$(value nvcc <<<"$found")
libraries=$(value libraries <<<"$found")
if [ "$found_nvcc" = "$work/bin-wrapper/nvcc" ] || [ -z "$found_nvcc" ]; then
  fail "wrapper on PATH: the lookup named '$found_nvcc', not the toolkit's own nvcc"
elif [ ! -f "$libraries/libcudart_static.a" ]; then
  fail "wrapper on PATH: no libcudart_static.a in '$libraries' (nvcc: $found_nvcc)"
elif [ "$(realpath "$found_nvcc")" != "$(realpath "$nvcc")" ]; then
  fail "wrapper on PATH: found $found_nvcc, which is not $nvcc"
else
  echo "ok: a wrapper named nvcc on PATH: the toolkit's $found_nvcc, libraries in $libraries"
fi

# 2. No nvcc on PATH; CUDA_HOME names the toolkit.
toolkit=$(dirname "$(dirname "$(realpath "$nvcc")")")
found=$(probe cuda_home "$base_path" CUDA_HOME="$toolkit")
if [ -f "$(value libraries <<<"$found")/libcudart_static.a" ] && [ -x "$(value nvcc <<<"$found")" ]; then
  echo "ok: CUDA_HOME=$toolkit alone finds $(value nvcc <<<"$found")"
else
  fail "CUDA_HOME=$toolkit: the lookup found '$found'"
fi

# 3. An nvcc that cannot say where its toolkit is: no cuda backend, and a warning that says why.
printf '#!/bin/sh\necho "nvcc: broken" >&2\nexit 1\n' >"$work/bin-broken/nvcc"
chmod +x "$work/bin-broken/nvcc"
found=$(probe broken "$work/bin-broken:$base_path")
if [ -n "$(value nvcc <<<"$found")" ]; then
  fail "a broken nvcc: the lookup still named '$(value nvcc <<<"$found")'"
elif ! grep -q "did not say where its toolkit is" "$work/broken.log"; then
  fail "a broken nvcc: no warning in cmake's output: $(tail -5 "$work/broken.log")"
else
  echo "ok: an nvcc that cannot say where its toolkit is disables the cuda backend, with a warning"
fi

[ "$failures" -eq 0 ] || exit 1
