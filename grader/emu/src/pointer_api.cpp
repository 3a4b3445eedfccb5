// Runtime API: what an address is (cudaPointerGetAttributes) and the addresses of device variables
// (cudaGetSymbolAddress), answered as CUDA 13 answers on an H200
// (tests/gpu/expected/probe_copy_kinds.txt): pageable host memory (malloc, the stack, a host
// variable) is "unregistered" with no device pointer; page-locked memory is "host" and, with unified
// addressing, its own device pointer; cudaMalloc memory (interior pointers too) and __device__
// variables are "device" with no host pointer; managed memory is both.
#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "memory_kinds.hpp"

using namespace gpulab::emu;

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (!attributes) return set_last_error(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  attributes->device = -2;  // CUDA documents no value for unregistered memory
  if (!ptr) return cudaSuccess;
  void* p = const_cast<void*>(ptr);
  switch (memory_kind(ptr)) {
    case MemoryKind::pageable:
      attributes->type = cudaMemoryTypeUnregistered;
      attributes->hostPointer = p;
      break;
    case MemoryKind::page_locked:
      attributes->type = cudaMemoryTypeHost;
      attributes->device = 0;
      attributes->devicePointer = p;
      attributes->hostPointer = p;
      break;
    case MemoryKind::device:
      attributes->type = cudaMemoryTypeDevice;
      attributes->device = 0;
      attributes->devicePointer = p;
      break;
    case MemoryKind::managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->device = 0;
      attributes->devicePointer = p;
      attributes->hostPointer = p;
      break;
  }
  return cudaSuccess;
}

cudaError_t cudaGetSymbolAddressImpl(void** dev_ptr, const void* symbol, size_t size) {
  if (!dev_ptr) return set_last_error(cudaErrorInvalidValue);
  note_device_symbol(symbol, size);
  *dev_ptr = const_cast<void*>(symbol);
  return cudaSuccess;
}
