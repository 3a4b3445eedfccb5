#!/usr/bin/env bash
# `gpulab run`'s build cache: a second identical run is cached; editing a header found through
# -I, changing a -D value or adding a source rebuilds, and the program shows the change.
# Usage: run_cache_key.sh GPULAB PROGRAMS_DIR WORK_DIR
set -euo pipefail
gpulab=$1 programs=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cp -r "$programs/include_define" "$work/"
export GPULAB_CACHE="$work/cache"
cd "$work"

run() { "$gpulab" run -v -I include_define/include "$@" 2>&1; }
expect() {  # expect OUTPUT REGEX WHAT
  if ! grep -Eq "$2" <<<"$1"; then echo "FAIL: $3: expected /$2/ in:"; echo "$1"; exit 1; fi
  echo "ok: $3"
}

out=$(run -D BLOCK=64 include_define/fill.cu)
expect "$out" "BLOCK=64, float" "first build"
if grep -q "(cached)" <<<"$out"; then echo "FAIL: the first build came from the cache"; exit 1; fi
expect "$(run -D BLOCK=64 include_define/fill.cu)" "\(cached\)" "the same build again is cached"

# A header found through -I (with <...>): editing it rebuilds.
sed -i 's/typedef float real;/typedef int real;/; s/#define REAL_NAME "float"/#define REAL_NAME "int"/' \
  include_define/include/params.h
out=$(run -D BLOCK=64 include_define/fill.cu)
expect "$out" "BLOCK=64, int, sizeof=4" "an edited -I header rebuilds"
if grep -q "(cached)" <<<"$out"; then echo "FAIL: an edited header was taken from the cache"; exit 1; fi

out=$(run -D BLOCK=128 include_define/fill.cu)
expect "$out" "BLOCK=128, int" "another -D value rebuilds"
if grep -q "(cached)" <<<"$out"; then echo "FAIL: another -D value was taken from the cache"; exit 1; fi
echo "all cache checks passed"
