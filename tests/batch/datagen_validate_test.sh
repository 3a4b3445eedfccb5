#!/usr/bin/env bash
# TA tools on the histogram lab: `gpulab datagen --hidden` takes its seed from
# the secret in the environment variable lab.json names (never printed; the
# same secret gives the same cases, another secret other cases, unlike the
# public ones), and `gpulab validate` accepts what datagen wrote and rejects a
# damaged file (hash) and an expected output the gold does not compute, even
# with its hash made to match.
# Usage: datagen_validate_test.sh GPULAB WORK_DIR
set -u
gpulab=$1
work=$2
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

env -u GPULAB_HIDDEN_SEED "$gpulab" datagen histogram --hidden --part bytes --out none >none.log 2>&1
rc=$?
check "--hidden without the secret: exit 2 (got $rc)" test $rc -eq 2
check "--hidden without the secret names the variable" grep -q 'GPULAB_HIDDEN_SEED' none.log
GPULAB_HIDDEN_SEED=alpha "$gpulab" datagen histogram --hidden --seed 5 --out x >mixed.log 2>&1
check "--hidden with --seed is refused" bash -c "test $? -eq 2 && grep -q 'does not go with' mixed.log"

GPULAB_HIDDEN_SEED=alpha "$gpulab" datagen histogram --hidden --part bytes --out a1 >a1.log 2>&1
check "--hidden with the secret writes cases" test -s a1/manifest.json
check "the manifest is marked hidden" grep -q '"hidden": true' a1/manifest.json
check "the output does not print the seed" bash -c "! grep -Eq 'seed [0-9]' a1.log && grep -q 'hidden seed from GPULAB_HIDDEN_SEED' a1.log"
check "every family, the large ones too" grep -q 'bytes-large_uniform-1' a1/manifest.json
GPULAB_HIDDEN_SEED=alpha "$gpulab" datagen histogram --hidden --part bytes --out a2 >/dev/null 2>&1
check "the same secret gives the same cases" diff -rq a1 a2
GPULAB_HIDDEN_SEED=beta "$gpulab" datagen histogram --hidden --part bytes --out b1 >/dev/null 2>&1
check "another secret gives other cases" bash -c "! cmp -s a1/bytes-odd_prime-1/input_data.npy b1/bytes-odd_prime-1/input_data.npy"
"$gpulab" datagen histogram --part bytes --out public >/dev/null 2>&1
check "hidden cases differ from the public ones" bash -c "! cmp -s a1/bytes-odd_prime-1/input_data.npy public/bytes-odd_prime-1/input_data.npy"
rm -rf a2 b1

"$gpulab" validate histogram a1 >valid.log 2>&1
rc=$?
check "validate accepts datagen's cases (rc $rc)" test $rc -eq 0
check "validate recomputed every case with the gold" grep -Eq 'gold recomputed for ([0-9]+) cases' valid.log
check "the reference passes every case" grep -Eq '^reference solution: ([0-9]+) of \1 cases pass$' valid.log

# A damaged file: its hash no longer matches the manifest.
cp -r public damaged
printf '\x01' | dd of=damaged/bytes-tiny-2/expected_bins.npy bs=1 seek=200 conv=notrunc 2>/dev/null
"$gpulab" validate histogram damaged --no-reference >damaged.log 2>&1
check "a damaged file is rejected, by name" bash -c "test $? -eq 1 && grep -q 'bytes-tiny-2/expected_bins.npy' damaged.log"

# A wrong expected output with a hash made to match: only recomputing with the gold catches it.
cp -r public forged
file=forged/bytes-tiny-2/expected_bins.npy
old=$(sha256sum "$file" | cut -d' ' -f1)
printf '\x07' | dd of="$file" bs=1 seek=200 conv=notrunc 2>/dev/null
new=$(sha256sum "$file" | cut -d' ' -f1)
sed -i "s/$old/$new/" forged/manifest.json
"$gpulab" validate histogram forged >forged.log 2>&1
rc=$?
check "a forged expected output is rejected (rc $rc)" test $rc -eq 1
check "the gold names the forged case" grep -q 'case bytes-tiny-2: bytes-tiny-2/expected_bins.npy: element .* differs (bit for bit)' forged.log

rm -rf a1 public damaged forged
echo "$failures failure(s)"
exit $((failures > 0))
