#!/usr/bin/env bash
# Runs a command and requires its stdout to equal an expected file.
# Usage: compare_output.sh [--skip-without-gpu] EXPECTED COMMAND...
# With --skip-without-gpu it exits 77 (CTest's skip code here) where no NVIDIA GPU is present.
set -u
if [ "${1:-}" = "--skip-without-gpu" ]; then
  shift
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no NVIDIA GPU here: skipping"
    exit 77
  fi
fi
expected=$1
shift
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
"$@" >"$actual"
rc=$?
if ! diff -u "$expected" "$actual"; then
  echo "output of '$*' (exit code $rc) differs from $expected (diff above: - expected, + actual)"
  exit 1
fi
