#!/usr/bin/env bash
# Makes this Linux machine run aarch64 Linux programs through qemu-user (binfmt_misc), so that a
# cross-built gpulab can start the programs it builds, as it does on an arm64 machine. Needs root
# and qemu-user (Debian: qemu-user); idempotent. Exit 0 when aarch64 programs run, else 77 with
# the reason (the caller skips its test).
set -uo pipefail
qemu=$(command -v qemu-aarch64 || true)
if [ -z "$qemu" ]; then
  echo "skip: qemu-aarch64 is not installed (Debian: apt-get install qemu-user)"
  exit 77
fi
misc=/proc/sys/fs/binfmt_misc
if [ ! -e "$misc/register" ]; then
  if [ "$(id -u)" -ne 0 ] || ! mount -t binfmt_misc binfmt_misc "$misc" 2>/dev/null; then
    echo "skip: binfmt_misc is not mounted at $misc and cannot be mounted here (needs root)"
    exit 77
  fi
fi
if ! grep -qs '^enabled' "$misc/qemu-aarch64" && ! grep -qs '^enabled' "$misc/gpulab-qemu-aarch64"; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "skip: aarch64 programs are not registered with binfmt_misc, and registering needs root"
    exit 77
  fi
  # ELF64, little-endian, e_machine 0xb7 (AArch64). F: the interpreter is opened now, so programs
  # in other mount namespaces (sandboxes) run too.
  magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
  mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
  if ! printf ':gpulab-qemu-aarch64:M::%s:%s:%s:F\n' "$magic" "$mask" "$qemu" >"$misc/register" 2>/dev/null; then
    echo "skip: cannot register qemu-aarch64 with binfmt_misc"
    exit 77
  fi
fi
exit 0
