// What kind of memory an address is, as CUDA tells them apart: device memory (a cudaMalloc-family
// allocation, or a __device__/__constant__ variable the program named to the runtime), managed
// memory, page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister), or pageable
// host memory (everything else). Copies take their direction from it, cudaPointerGetAttributes
// answers with it, and a launch's pointer arguments are checked with it.
#pragma once
#include <cstddef>

namespace gpulab::emu {

enum class MemoryKind { device, managed, page_locked, pageable };

// Looks nothing up that a launch replay would count as a change of device memory.
MemoryKind memory_kind(const void* p);
// Host code can read it directly (pageable, page-locked, managed): the side a copy's observer
// calls "host".
inline bool host_readable(MemoryKind k) { return k != MemoryKind::device; }

// __device__ and __constant__ variables are plain variables in the emulator, like the program's
// host variables: the runtime knows one as device memory once the program names it through the
// runtime (cudaGetSymbolAddress, cudaMemcpyToSymbol, cudaMemcpyFromSymbol).
void note_device_symbol(const void* symbol, size_t size);
bool is_device_symbol(const void* p);

}  // namespace gpulab::emu
