# Shared by the shell tests (sourced): `check WHAT COMMAND...` runs the command
# and prints "ok: WHAT" or "FAIL: WHAT", counting failures; `finish [DIR]`
# prints the count, removes DIR (the test's work folder) when nothing failed,
# and exits non-zero if anything did.
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
finish() {
  echo "$failures failure(s)"
  if [ $failures -eq 0 ] && [ -n "${1:-}" ]; then cd / && rm -rf "$1"; fi
  exit $((failures > 0))
}
