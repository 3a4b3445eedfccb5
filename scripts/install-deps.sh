#!/usr/bin/env bash
# Installs what gpulab needs on Debian/Ubuntu (as root, or through sudo).
#   install-deps.sh            everything: building, running, and the framework's own tests (CI)
#   install-deps.sh --runtime  only building and running gpulab (a Gradescope autograder, a student kit)
# CUDA is optional: with nvcc on PATH or in /usr/local/cuda the `cuda` backend is built too.
# bubblewrap (bwrap) and util-linux (prlimit) are the sandbox submissions are graded in (docs/security.md).
# libhowardhinnant-date-dev and tzdata: time zones of the course file (`gpulab batch --course`).
# libboost-context-dev: the emulator's fiber switch on machines other than x86-64 (x86-64 has gpulab's
# own; cmake -DGPULAB_EMU_FIBERS=boost asks for Boost's there too, and the tests build that way once).
set -euo pipefail
packages=(
  build-essential cmake ninja-build
  nlohmann-json3-dev libcli11-dev
  bubblewrap util-linux libfmt-dev libssl-dev
  libhowardhinnant-date-dev tzdata
)
if [ "$(uname -m)" != x86_64 ]; then packages+=(libboost-context-dev); fi
if [ "${1:-}" != "--runtime" ]; then
  # Tests: Catch2; a PNG decoder for the report's screenshot test (zlib); a headless
  # browser for that screenshot; a local Slurm for the batch-on-Slurm test; ccache, so the
  # tests that build gpulab from its packages reuse the main build; Boost.Context for the test of
  # the emulator's Boost fiber switch; the style checks (ctest -L style): clang-format for
  # scripts/format.sh, cppcheck for scripts/lint.sh.
  packages+=(git catch2 zlib1g-dev chromium slurm-wlm ccache libboost-context-dev clang-format cppcheck)
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
# The unprivileged user that submissions run as where gpulab runs as root and bubblewrap cannot
# create namespaces (--sandbox user/auto; docs/security.md). It owns nothing and cannot log in.
if ! getent passwd gpulab-sandbox >/dev/null; then
  "${sudo_cmd[@]}" useradd --system --user-group --no-create-home --shell /usr/sbin/nologin gpulab-sandbox \
    && echo "install-deps: created the user gpulab-sandbox (for --sandbox user)"
fi
