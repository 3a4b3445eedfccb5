#!/usr/bin/env bash
# Gradescope runs this once, as root, in /autograder/source, when it builds the
# autograder's image: install the packages, build gpulab, and check that the
# lab's reference solution scores full marks, hidden cases included (which also
# generates the large public datasets and, where the bundle holds the hidden
# seed, the hidden ones once, into the cache every submission then reads).
#
# For testing outside Gradescope: GPULAB_AUTOGRADER_ROOT replaces /autograder,
# GPULAB_SKIP_INSTALL=1 skips the package installation.
set -euo pipefail
root="${GPULAB_AUTOGRADER_ROOT:-/autograder}"
src="$root/source"
# shellcheck source=/dev/null
source "$src/autograder.conf"

if [ "${GPULAB_SKIP_INSTALL:-0}" != 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  bash "$src/scripts/install-deps.sh" --runtime
  # Ubuntu 22.04 (Gradescope's base image) has CMake 3.22 and g++ 11; gpulab needs
  # CMake >= 3.25 and is developed with g++ 12.
  cmake_version=$(cmake --version | head -1 | awk '{print $3}')
  if [ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -1)" != 3.25 ]; then
    apt-get install -y -qq python3-pip
    python3 -m pip install --quiet 'cmake>=3.25'
    hash -r
  fi
  if [ "$(g++ -dumpversion | cut -d. -f1)" -lt 12 ] && apt-cache show g++-12 >/dev/null 2>&1; then
    apt-get install -y -qq g++-12
    export CXX=g++-12
  fi
fi

# Isolation where bubblewrap cannot create namespaces (Gradescope's Docker image): submissions run
# as this unprivileged user (--sandbox auto), and nothing of the autograder is within its reach.
if ! getent passwd gpulab-sandbox >/dev/null; then
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin gpulab-sandbox
fi
chmod 700 "$root"

cmake -S "$src" -B "$src/build" -G Ninja -DGPULAB_BUILD_TESTS=OFF \
  ${CXX:+-DCMAKE_CXX_COMPILER="$CXX"} >/dev/null
cmake --build "$src/build" --target gpulab

export GPULAB_HOME="$src"
export GPULAB_CACHE="$root/gpulab-cache"
if [ -f "$src/hidden-seed" ]; then
  export "$GPULAB_HIDDEN_SEED_ENV=$(cat "$src/hidden-seed")"
fi
"$src/build/grader/cli/gpulab" grade "$GPULAB_LAB" "$src/reference/$GPULAB_LAB/$GPULAB_LAB.cu" \
  --backend "$GPULAB_BACKEND" --sandbox auto "${GPULAB_GRADE_ARGS[@]}" --format text \
  --out "$root/reference-check.txt"
if ! grep -q "^score: \(.*\) / \1$" "$root/reference-check.txt"; then
  cat "$root/reference-check.txt"
  echo "setup.sh: the reference solution of $GPULAB_LAB does not score full marks here; the autograder is not usable" >&2
  exit 1
fi
echo "setup.sh: gpulab built, the reference of $GPULAB_LAB scores full marks ($(grep -m1 '^isolation:' "$root/reference-check.txt"))"
