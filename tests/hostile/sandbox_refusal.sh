#!/usr/bin/env bash
# Where bubblewrap cannot run, gpulab refuses to grade (exit 5) with a message
# that says why (bwrap's own words) and how to proceed, writes no results, and
# grades only with an explicit --no-sandbox; `gpulab test` goes on with a note;
# --sandbox user refuses without its user or where gpulab's files are within
# that user's reach. The failing bwrap is simulated by GPULAB_BWRAP naming a
# script that fails as bwrap does in an unprivileged container, and by
# GPULAB_BWRAP naming a file that does not exist.
# Usage: sandbox_refusal.sh GPULAB PROJECT_ROOT WORK_DIR   (GPULAB_CACHE should be set)
set -u
gpulab=$1
root=$2
work=$3
failures=0
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# The stand-in lives where every user can run it: as root, gpulab starts bwrap as `nobody`, who
# cannot enter a checkout in a private folder (mktemp -d, /root), and would then report that.
bin=$(mktemp -d)
chmod 755 "$bin"
trap 'rm -rf "$bin"' EXIT
cat >"$bin/fake-bwrap" <<'SCRIPT'
#!/bin/sh
echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'." >&2
exit 1
SCRIPT
chmod 755 "$bin/fake-bwrap"
submission=$root/skeletons/reduction/reduction.cu

# 1. A bwrap that cannot create namespaces.
GPULAB_BWRAP=$bin/fake-bwrap "$gpulab" grade reduction "$submission" --no-large --out refused.json >refused.log 2>&1
rc=$?
check "grade exits 5 when the sandbox cannot start (got $rc)" test "$rc" -eq 5
check "the message says the sandbox cannot start" grep -q "the sandbox cannot start" refused.log
check "the message repeats bwrap's reason" grep -q "No permissions to creating new namespace" refused.log
check "the message says how to proceed: install bubblewrap" grep -q "apt-get install bubblewrap" refused.log
check "the message says how to proceed: user namespaces" grep -q "unprivileged_userns_clone" refused.log
check "the message names --no-sandbox" grep -q -- "--no-sandbox" refused.log
check "no results file is written" test ! -e refused.json

# 2. gpulab test (a student's own code, on their machine) goes on without it and says so.
GPULAB_BWRAP=$bin/fake-bwrap "$gpulab" test reduction "$submission" --no-large >test.log 2>&1
rc=$?
check "test of the skeleton exits 1 (graded, not full marks; got $rc)" test "$rc" -eq 1
check "test says it runs without the sandbox" grep -q "testing without the sandbox, which cannot start here" test.log
check "test still prints the score table" grep -q "score: 0 / 70" test.log

# 3. No bwrap at all.
GPULAB_BWRAP=$work/no-such-bwrap "$gpulab" grade reduction "$submission" --no-large --out missing.json >missing.log 2>&1
rc=$?
check "grade exits 5 without bwrap (got $rc)" test "$rc" -eq 5
check "the message names the missing bwrap" grep -q "no-such-bwrap', which is not an executable" missing.log
check "no results file is written without bwrap" test ! -e missing.json

# 4. --no-sandbox grades anyway (the skeleton scores 0, but it is graded).
GPULAB_BWRAP=$bin/fake-bwrap "$gpulab" grade reduction "$submission" --no-large --no-sandbox --out loose.json \
  >loose.log 2>&1
rc=$?
check "grade --no-sandbox exits 0 (got $rc)" test "$rc" -eq 0
check "grade --no-sandbox writes the results" grep -q '"tests"' loose.json
check "grade --no-sandbox reports the score" grep -q "score: 0 / 70" loose.log

# 5. --sandbox user / auto refuse with what to change (as root: the isolation needs root).
"$gpulab" grade reduction "$submission" --no-large --sandbox nonsense >bad-mode.log 2>&1
rc=$?
check "an unknown --sandbox is bad input, exit 2 (got $rc)" test "$rc" -eq 2
if [ "$(id -u)" -eq 0 ]; then
  GPULAB_SANDBOX_USER=no-such-user-for-gpulab "$gpulab" grade reduction "$submission" --no-large --sandbox user \
    --out nouser.json >nouser.log 2>&1
  rc=$?
  check "--sandbox user without its user exits 5 (got $rc)" test "$rc" -eq 5
  check "the message names the missing user and how to create it" \
    grep -q "the user 'no-such-user-for-gpulab', which submissions run as, does not exist.*useradd" nouser.log
  check "no results file without the user" test ! -e nouser.json
  # Where the user can enter this checkout, it could read its datasets: refused, with the list.
  # (A checkout inside a private folder, as CI's, is out of its reach: then it grades.)
  reachable=no
  if getent passwd gpulab-sandbox >/dev/null &&
    setpriv --reuid=gpulab-sandbox --regid=gpulab-sandbox --clear-groups test -x "$root" 2>/dev/null; then
    reachable=yes
  fi
  if [ "$reachable" = no ] && getent passwd gpulab-sandbox >/dev/null; then
    "$gpulab" grade reduction "$submission" --no-large --sandbox user --out private.json >private.log 2>&1
    rc=$?
    check "--sandbox user from a checkout out of the user's reach grades (exit 0, got $rc)" test "$rc" -eq 0
    check "and the results name the isolation" grep -q "Isolation: unprivileged user" private.json
  fi
  if [ "$reachable" = yes ]; then
    "$gpulab" grade reduction "$submission" --no-large --sandbox user --out open.json >open.log 2>&1
    rc=$?
    check "--sandbox user where gpulab's folder is within the user's reach exits 5 (got $rc)" test "$rc" -eq 5
    check "the message lists gpulab's folder" grep -q "  - $root (the gpulab folder" open.log
    check "the message says what to do" grep -q "chmod 700" open.log
    check "no results file when refused" test ! -e open.json
    GPULAB_BWRAP=$bin/fake-bwrap "$gpulab" grade reduction "$submission" --no-large --sandbox auto \
      --out auto.json >auto.log 2>&1
    rc=$?
    check "--sandbox auto, neither isolation possible: exit 5 (got $rc)" test "$rc" -eq 5
    check "auto says bubblewrap was tried first" grep -q "sandbox auto tried bubblewrap first" auto.log
  fi
else
  echo "skipped: the --sandbox user refusals (need root)"
fi

if [ "$failures" -ne 0 ]; then
  for f in *.log; do
    echo "---- $f"
    tail -c 3000 "$f"
  done
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
