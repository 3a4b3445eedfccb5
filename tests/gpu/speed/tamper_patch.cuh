// The code patch of the tampering exploits (tamper_*.cu): the first bytes of
// cudaEventElapsedTime become a jump to a function that reports a sixteenth
// of the call's wall time (tamper_common.cuh). Each exploit writes the patch
// by its own route; this holds the bytes (x86-64: movabs rax, imm64; jmp rax).
// Elsewhere the exploits still make their forbidden call, and the patch is left
// out.
#pragma once
#include <cstdint>
#include <cstring>

#include "tamper_common.cuh"

inline cudaError_t lying_elapsed(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = lying_milliseconds();
  return cudaSuccess;
}

inline void* timer_address() { return reinterpret_cast<void*>(&cudaEventElapsedTime); }

constexpr size_t kPatchBytes = 12;
inline void patch_bytes(unsigned char (&code)[kPatchBytes]) {
  const auto target = reinterpret_cast<uint64_t>(&lying_elapsed);
  code[0] = 0x48;
  code[1] = 0xB8;
  std::memcpy(code + 2, &target, sizeof target);
  code[10] = 0xFF;
  code[11] = 0xE0;
}
