// The CUDA runtime API functions the emulator implements (host side).
// Definitions live in grader/emu/src/; each returns the code CUDA 13 returns.
#pragma once
#include <cstddef>
#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/stream_api.hpp"

// Allocations remember where they were made, for out-of-bounds reports.
cudaError_t cudaMalloc(void** ptr, size_t size, const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMalloc(T** ptr, size_t size, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), size, file, line);
}
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal,
                              const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMallocManaged(T** ptr, size_t size, unsigned int flags = cudaMemAttachGlobal,
                                     const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), size, flags, file, line);
}
cudaError_t cudaMallocHost(void** ptr, size_t size);
template <class T> inline cudaError_t cudaMallocHost(T** ptr, size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), size);
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0);
// Between devices: the emulator has device 0 only (another is cudaErrorInvalidDevice).
cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p);
cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream = 0);
cudaError_t cudaMemset(void* ptr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = 0);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaThreadSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
cudaError_t cudaCtxResetPersistingL2Cache();
cudaError_t cudaFuncSetCacheConfigImpl(const void* func, cudaFuncCache config);
cudaError_t cudaFuncSetAttributeImpl(const void* func, cudaFuncAttribute attr, int value);
// A kernel's attributes. Kernels are not compiled for a GPU here: its registers are taken as 32
// and its static shared memory as 0 (as occupancy assumes), at most 1024 threads a block, PTX and
// binary version 90, and the dynamic shared memory it may ask for (48 KiB unless raised).
cudaError_t cudaFuncGetAttributesImpl(cudaFuncAttributes* attributes, const void* func, bool typed);
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* func) {
  return cudaFuncGetAttributesImpl(attributes, func, false);
}
template <class F> inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, F* func) {
  return cudaFuncGetAttributesImpl(attributes, reinterpret_cast<const void*>(func), true);
}
template <class F> inline cudaError_t cudaFuncSetCacheConfig(F* func, cudaFuncCache config) {
  return cudaFuncSetCacheConfigImpl(reinterpret_cast<const void*>(func), config);
}
template <class F> inline cudaError_t cudaFuncSetAttribute(F* func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttributeImpl(reinterpret_cast<const void*>(func), attr, value);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
// Stream priorities: an H100's range, 0 (least) to -5 (greatest). Every stream's work goes through
// the one queue here, so a priority is remembered but changes no order.
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue* value);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
// The C++ overload CUDA 13's cuda_runtime.h keeps for cudaEventCreateWithFlags.
inline cudaError_t cudaEventCreate(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreateWithFlags(event, flags);
}
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

namespace gpulab::emu {
// cudaLaunchKernel / cudaLaunchCooperativeKernel of a kernel known only by its address, which must
// be one the program registered (kernel_registry.hpp); `call` is the call's arguments as written.
cudaError_t launch_by_address(bool cooperative, const char* call, const char* file, int line, const void* kernel,
                              dim3 grid, dim3 block, void** args, size_t shared_bytes, cudaStream_t stream);
// Copies to/from a __constant__ or __device__ variable known by address and size.
cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind);
cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind);
}  // namespace gpulab::emu

template <class T>
inline cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return gpulab::emu::copy_to_symbol((void*)&symbol, sizeof(T), src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return gpulab::emu::copy_from_symbol(dst, (const void*)&symbol, sizeof(T), count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, size_t count, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
// Names a __device__ or __constant__ variable to the runtime as device memory (its address then
// counts as device memory in copies, cudaPointerGetAttributes and a kernel's arguments).
cudaError_t cudaGetSymbolAddressImpl(void** dev_ptr, const void* symbol, size_t size);
template <class T> inline cudaError_t cudaGetSymbolAddress(void** dev_ptr, T& symbol) {
  return cudaGetSymbolAddressImpl(dev_ptr, (const void*)&symbol, sizeof(T));
}
template <class T> inline cudaError_t cudaGetSymbolSize(size_t* size, const T&) {
  if (!size) return cudaErrorInvalidValue;
  *size = sizeof(T);
  return cudaSuccess;
}

// Pinned and mapped host memory (host_memory_api.cpp). The emulated device reads host memory
// directly, so a mapped allocation's device pointer is its host address, as with unified
// addressing on a GPU; what is checked is the bookkeeping CUDA does (flags, registrations).
// cudaMallocHost, cudaHostAlloc and cudaFreeHost are declared with the other memory calls above.
template <class T> inline cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
inline cudaError_t cudaMallocHost(void** ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(ptr, size, flags);
}
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned int flags);
template <class T> inline cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned int flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host_ptr);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);

// Versions (compat_api.cpp): those of the CUDA 13.0 toolkit and driver the emulator stands for.
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
// Peer access (compat_api.cpp): there is one emulated device, so no peer to access; a program
// that checks, as multi-GPU samples do, finds none and goes its one-device way. A copy "between
// peers" that names device 0 twice is a device-to-device copy.
enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int src_device, int dst_device);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t count);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t count,
                                cudaStream_t stream = 0);

// Occupancy (occupancy_api.cpp), computed for the emulated device's sm_90 limits. Kernels are
// not compiled for a GPU here, so their register use and static shared memory are unknown:
// registers are assumed not to limit (at most 32 per thread, which lets 2048 threads fit on an
// SM) and only the dynamic shared memory passed in counts.
namespace gpulab::emu {
cudaError_t occupancy_blocks_per_sm(int* blocks, const void* kernel, int block_size, size_t dynamic_shared);
cudaError_t occupancy_best_block_size(int* min_grid_size, int* block_size, const void* kernel,
                                      size_t (*shared_for_block_size)(const void* context, int block_size),
                                      const void* context, int block_size_limit);
cudaError_t occupancy_available_shared(size_t* bytes, const void* kernel, int blocks, int block_size);
}  // namespace gpulab::emu

template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, T func, int block_size,
                                                                 size_t dynamic_shared) {
  return gpulab::emu::occupancy_blocks_per_sm(num_blocks, reinterpret_cast<const void*>(func), block_size,
                                              dynamic_shared);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* num_blocks, T func, int block_size,
                                                                          size_t dynamic_shared, unsigned int) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, func, block_size, dynamic_shared);
}
template <class UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, T func,
                                                                  UnaryFunction shared_for_block_size,
                                                                  int block_size_limit = 0) {
  return gpulab::emu::occupancy_best_block_size(
      min_grid_size, block_size, reinterpret_cast<const void*>(func),
      [](const void* f, int threads) { return static_cast<size_t>((*static_cast<const UnaryFunction*>(f))(threads)); },
      &shared_for_block_size, block_size_limit);
}
template <class UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int* min_grid_size, int* block_size, T func,
                                                                           UnaryFunction shared_for_block_size,
                                                                           int block_size_limit = 0, unsigned int = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(min_grid_size, block_size, func, shared_for_block_size,
                                                        block_size_limit);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, T func,
                                                      size_t dynamic_shared = 0, int block_size_limit = 0) {
  return gpulab::emu::occupancy_best_block_size(
      min_grid_size, block_size, reinterpret_cast<const void*>(func),
      [](const void* bytes, int) { return *static_cast<const size_t*>(bytes); }, &dynamic_shared, block_size_limit);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* min_grid_size, int* block_size, T func,
                                                               size_t dynamic_shared = 0, int block_size_limit = 0,
                                                               unsigned int = 0) {
  return cudaOccupancyMaxPotentialBlockSize(min_grid_size, block_size, func, dynamic_shared, block_size_limit);
}
template <class T>
inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, T func, int num_blocks, int block_size) {
  return gpulab::emu::occupancy_available_shared(bytes, reinterpret_cast<const void*>(func), num_blocks, block_size);
}
