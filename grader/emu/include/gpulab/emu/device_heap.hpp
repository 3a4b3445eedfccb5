// malloc and free in kernels. On a GPU they draw from a device heap of
// cudaLimitMallocHeapSize bytes (8 MiB unless cudaDeviceSetLimit changes it
// before the first kernel that allocates) and malloc returns NULL once it is
// exhausted. Here malloc(n)/free(p) in a .cu file become calls that use such a
// heap while a GPU thread runs and the C library otherwise, so host code keeps
// its ordinary malloc. Included last by cuda_emulation.hpp: the macros must not
// reach the C library's own declarations, which are already seen by then (a
// later <malloc.h> still compiles: its declarations match these). `new` and
// `delete` in kernels use the host heap, without the limit.
#pragma once
#include <cstddef>
#include <cstdlib>

extern "C" void* gpulab_emu_malloc(size_t bytes) noexcept;
extern "C" void gpulab_emu_free(void* ptr) noexcept;
namespace std {
using ::gpulab_emu_free;
using ::gpulab_emu_malloc;
}  // namespace std

#define malloc(bytes) gpulab_emu_malloc(bytes)
#define free(ptr) gpulab_emu_free(ptr)
