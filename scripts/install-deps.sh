#!/usr/bin/env bash
# Installs what gpulab needs on Debian/Ubuntu, x86-64 or arm64 (as root, or through sudo).
#   install-deps.sh               everything: building, running, and the framework's own tests (CI)
#   install-deps.sh --runtime     only building and running gpulab (a Gradescope autograder, a student kit)
#   install-deps.sh --cross-arm64 only the aarch64 cross toolchain, arm64 libraries and qemu-user that
#                                 tests/platforms/arm64_qemu.sh uses (Debian on x86-64; part of the default)
# On macOS it installs nothing and names the Homebrew packages instead (docs/platforms.md).
# CUDA is optional: with nvcc in $CUDA_HOME, on PATH or in /usr/local/cuda the `cuda` backend is built too.
# bubblewrap (bwrap) and util-linux (prlimit) are the sandbox submissions are graded in (docs/security.md).
# libhowardhinnant-date-dev and tzdata: time zones of the course file (`gpulab batch --course`).
# libboost-context-dev: the emulator's fiber switch on machines other than x86-64 and AArch64 (those
# have gpulab's own; cmake -DGPULAB_EMU_FIBERS=boost asks for Boost's there too, and the tests build
# that way once).
set -euo pipefail
mode=${1:-all}
case "$mode" in
  all | --runtime | --cross-arm64) ;;
  *)
    echo "install-deps: unknown option '$mode': use --runtime, --cross-arm64 or nothing (everything)" >&2
    exit 2
    ;;
esac
if [ "$(uname -s)" = Darwin ]; then
  cat <<'MAC'
install-deps: on macOS, install gpulab's dependencies with Homebrew (https://brew.sh):
  brew install cmake ninja nlohmann-json cli11 fmt openssl@3 howard-hinnant-date llvm
Xcode's command line tools (xcode-select --install) give the compiler, clang++; llvm gives
llvm-symbolizer for the profile's source lines. There is no sandbox (bubblewrap) on macOS:
`gpulab test` and `gpulab run` work without one; grade a class on Linux. docs/platforms.md says
what has run on a Mac so far.
MAC
  exit 0
fi
if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "install-deps: this script knows Debian and Ubuntu (apt); elsewhere install the packages it lists by hand" >&2
  exit 1
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
machine=$(uname -m)

install_missing() {  # packages...
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}"
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
  else
    echo "install-deps: all packages present ($*)"
  fi
}

# The aarch64 cross build of the tests: Debian's cross g++, qemu-user, and the arm64 builds of the
# libraries gpulab links (multiarch: dpkg --add-architecture arm64). Debian's own archive serves
# arm64; an Ubuntu x86-64 mirror does not (it needs ports.ubuntu.com), so there it is skipped and
# the test skips itself.
cross_arm64() {
  if [ "$machine" != x86_64 ]; then
    echo "install-deps: --cross-arm64 is for x86-64 machines (this one is $machine: build natively)"
    return 0
  fi
  if ! grep -qs '^ID=debian' /etc/os-release; then
    echo "install-deps: the arm64 cross packages are set up for Debian only; tests/platforms/arm64_qemu.sh will skip"
    return 0
  fi
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "install-deps: adding the arm64 architecture (multiarch) for the cross build's libraries"
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
  fi
  install_missing g++-aarch64-linux-gnu qemu-user libc6:arm64 libstdc++6:arm64 libfmt-dev:arm64 libssl-dev:arm64 \
    libhowardhinnant-date-dev:arm64
}

if [ "$mode" = --cross-arm64 ]; then
  cross_arm64
  exit 0
fi

packages=(
  build-essential cmake ninja-build
  nlohmann-json3-dev libcli11-dev
  bubblewrap util-linux libfmt-dev libssl-dev
  libhowardhinnant-date-dev tzdata
)
case "$machine" in
  x86_64 | aarch64 | arm64) ;;
  *) packages+=(libboost-context-dev) ;;
esac
if [ "$mode" != "--runtime" ]; then
  # Tests: Catch2; a PNG decoder for the report's screenshot test (zlib); a headless
  # browser for that screenshot; a local Slurm for the batch-on-Slurm test; ccache, so the
  # tests that build gpulab from its packages reuse the main build; Boost.Context for the test of
  # the emulator's Boost fiber switch; the style checks (ctest -L style): clang-format for
  # scripts/format.sh, cppcheck for scripts/lint.sh; clang and llvm for the clang build and the
  # Mach-O objects of the fiber switch (tests/platforms), binutils' addr2line's stand-in
  # llvm-symbolizer included.
  packages+=(git catch2 zlib1g-dev chromium slurm-wlm ccache libboost-context-dev clang-format cppcheck clang llvm)
fi
install_missing "${packages[@]}"
if [ "$mode" != "--runtime" ]; then cross_arm64; fi
# The unprivileged user that submissions run as where gpulab runs as root and bubblewrap cannot
# create namespaces (--sandbox user/auto; docs/security.md). It owns nothing and cannot log in.
if ! getent passwd gpulab-sandbox >/dev/null; then
  "${sudo_cmd[@]}" useradd --system --user-group --no-create-home --shell /usr/sbin/nologin gpulab-sandbox \
    && echo "install-deps: created the user gpulab-sandbox (for --sandbox user)"
fi
