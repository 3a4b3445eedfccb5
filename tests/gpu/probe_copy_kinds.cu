// Prints what the CUDA runtime answers when a copy's declared kind and its pointers disagree:
// cudaMemcpy between pageable host memory (malloc), page-locked host memory (cudaMallocHost),
// device memory (cudaMalloc) and managed memory (cudaMallocManaged), with every cudaMemcpyKind,
// and whether the bytes arrived; then what cudaPointerGetAttributes says of each kind of memory.
// Run on a GPU, its output is recorded in expected/; the emulator must print the same lines.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memories.cuh"

namespace {
using probe::fill;
using probe::holds;
using probe::kBytes;
using probe::Memory;

const char* kind_name(cudaMemcpyKind k) {
  switch (k) {
    case cudaMemcpyHostToHost: return "HostToHost";
    case cudaMemcpyHostToDevice: return "HostToDevice";
    case cudaMemcpyDeviceToHost: return "DeviceToHost";
    case cudaMemcpyDeviceToDevice: return "DeviceToDevice";
    default: return "Default";
  }
}

const char* type_name(cudaMemoryType t) {
  switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
  }
  return "?";
}

void attributes(const char* what, const void* p) {
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  std::printf("%-34s %-28s type %s, device pointer %s, host pointer %s\n", what, cudaGetErrorName(e),
              type_name(a.type), a.devicePointer == nullptr ? "null" : a.devicePointer == p ? "same" : "other",
              a.hostPointer == nullptr ? "null" : a.hostPointer == p ? "same" : "other");
  cudaGetLastError();
}

__device__ int on_device_symbol[16];
int in_host_static[16];
}  // namespace

int main() {
  probe::Memories owned;
  Memory (&memories)[4] = owned.all;
  const cudaMemcpyKind kinds[5] = {cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                   cudaMemcpyDeviceToDevice, cudaMemcpyDefault};
  std::printf("cudaMemcpy of %zu bytes: destination <- source, kind: error, bytes arrived\n", kBytes);
  for (const Memory& dst : memories) {
    for (const Memory& src : memories) {
      if (&dst == &src) continue;
      for (cudaMemcpyKind kind : kinds) {
        fill(src, 0x5A);
        fill(dst, 0x00);
        const cudaError_t e = cudaMemcpy(dst.ptr, src.ptr, kBytes, kind);
        const cudaError_t last = cudaGetLastError();
        cudaDeviceSynchronize();
        std::printf("%-8s <- %-8s %-14s %-28s last %-28s arrived %s\n", dst.name, src.name, kind_name(kind),
                    cudaGetErrorName(e), cudaGetErrorName(last), holds(dst, 0x5A) ? "yes" : "no");
      }
    }
  }

  int on_stack[16] = {};
  char* registered = static_cast<char*>(std::aligned_alloc(4096, 4096));
  cudaHostRegister(registered, 4096, cudaHostRegisterDefault);
  void* symbol = nullptr;
  cudaGetSymbolAddress(&symbol, on_device_symbol);
  std::printf("cudaPointerGetAttributes: error, type, devicePointer, hostPointer\n");
  attributes("pageable (malloc)", memories[0].ptr);
  attributes("host stack", on_stack);
  attributes("host static", in_host_static);
  attributes("pinned (cudaMallocHost)", memories[1].ptr);
  attributes("registered (cudaHostRegister)", registered);
  attributes("device (cudaMalloc)", memories[2].ptr);
  attributes("device, 10 bytes in", memories[2].ptr + 10);
  attributes("managed (cudaMallocManaged)", memories[3].ptr);
  attributes("__device__ symbol", symbol);
  attributes("null", nullptr);
  cudaHostUnregister(registered);
  std::free(registered);
  return 0;
}
