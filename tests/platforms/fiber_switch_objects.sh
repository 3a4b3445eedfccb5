#!/usr/bin/env bash
# The fiber switches' object code for the platforms this machine cannot run: clang compiles
# grader/emu/src/fiber_switch_{x86_64,aarch64}.cpp for ELF (Linux) and Mach-O (macOS, no SDK
# needed: the files use only the compiler's own headers), and this checks that
#   - each object defines the switch and trampoline under its format's symbol names
#     (Mach-O: a leading underscore), and the other architecture's file compiles to nothing;
#   - the Mach-O and ELF switches are the same instructions (the ELF one is the one run by the
#     emulator's tests, natively and under qemu-user), so Mach-O adds only directives;
#   - the AArch64 switch never names x18/w18, the platform register Apple reserves.
# Usage: fiber_switch_objects.sh SOURCE_DIR WORK_DIR. Exit 77 (skipped) without clang and llvm-objdump.
set -uo pipefail
src=$1/grader/emu/src
work=$2
clang=$(command -v clang++ || command -v clang++-14 || true)
objdump=$(command -v llvm-objdump || command -v llvm-objdump-14 || true)
nm=$(command -v llvm-nm || command -v llvm-nm-14 || true)
if [ -z "$clang" ] || [ -z "$objdump" ] || [ -z "$nm" ]; then
  echo "skip: needs clang++, llvm-objdump and llvm-nm (Debian: clang, llvm)"
  exit 77
fi
mkdir -p "$work"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# The instructions of one function, without addresses, labels or alignment padding (what
# differs by format): from the symbol's address to the next symbol's, by llvm-nm's addresses
# (Mach-O objects label the section's start "ltmp0", which hides the symbol from objdump).
instructions() {  # object symbol
  local start stop
  start=$("$nm" -n "$1" | awk -v s="$2" '$3 == s { print $1 }')
  [ -n "$start" ] || return 0
  stop=$("$nm" -n "$1" | awk -v a="$start" '$1 > a && $2 ~ /^[Tt]$/ { print $1; exit }')
  "$objdump" -d --no-show-raw-insn --no-leading-addr --start-address=0x"$start" \
    ${stop:+--stop-address=0x$stop} "$1" 2>/dev/null |
    grep -E '^\s+[a-z]' | sed -E 's/\s+/ /g; s/<[^>]*>//g; s/ $//' | grep -vE '^ (nop|int3|udf)' || true
}
for arch in x86_64 aarch64; do
  for format in linux-gnu apple-macos13; do
    target=$arch-$format
    [ "$arch" = aarch64 ] && [ "$format" = apple-macos13 ] && target=arm64-apple-macos13
    prefix=""
    [ "$format" = apple-macos13 ] && prefix=_
    for file in x86_64 aarch64; do
      obj=$work/$file.$target.o
      if ! "$clang" --target="$target" -std=c++20 -O2 -ffreestanding -nostdinc++ -Wall -Wextra -Werror \
           -c "$src/fiber_switch_$file.cpp" -o "$obj" 2>"$work/$file.$target.log"; then
        fail "fiber_switch_$file.cpp does not compile for $target: $(cat "$work/$file.$target.log")"
        continue
      fi
      symbols=$("$nm" "$obj" 2>/dev/null)
      if [ "$file" = "$arch" ]; then
        for sym in gpulab_fiber_jump gpulab_fiber_trampoline; do
          grep -qE " T $prefix$sym\$" <<<"$symbols" || fail "$target: $obj defines no $prefix$sym"
        done
      elif grep -q gpulab_fiber <<<"$symbols"; then
        fail "$target: fiber_switch_$file.cpp should compile to nothing for $arch"
      fi
    done
  done
done
for pair in "x86_64 x86_64-linux-gnu x86_64-apple-macos13" "aarch64 aarch64-linux-gnu arm64-apple-macos13"; do
  read -r arch elf macho <<<"$pair"
  for sym in gpulab_fiber_jump gpulab_fiber_trampoline; do
    a=$(instructions "$work/$arch.$elf.o" "$sym")
    b=$(instructions "$work/$arch.$macho.o" "_$sym")
    if [ -z "$a" ]; then
      fail "$elf: no instructions found for $sym"
    elif [ "$a" != "$b" ]; then
      fail "$sym differs between $elf and $macho:"$'\n'"$(diff <(echo "$a") <(echo "$b"))"
    else
      echo "ok: $sym is the same $(wc -l <<<"$a") instructions for $elf and $macho"
    fi
  done
done
for target in aarch64-linux-gnu arm64-apple-macos13; do
  p=""
  [ "$target" = arm64-apple-macos13 ] && p=_
  code=$(instructions "$work/aarch64.$target.o" "${p}gpulab_fiber_jump"; instructions "$work/aarch64.$target.o" "${p}gpulab_fiber_trampoline")
  if grep -qwE '[xw]18' <<<"$code"; then fail "$target: the AArch64 switch uses x18"; else echo "ok: $target: no x18"; fi
  for reg in x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 d8 d9 d10 d11 d12 d13 d14 d15; do
    [ "$(grep -cw "$reg" <<<"$code")" -ge 2 ] || fail "$target: $reg is not both saved and restored"
  done
done
echo "$failures failure(s)"
exit $((failures > 0))
