// Runtime API: device-wide synchronisation, limits, error strings, stream
// attributes. The emulated device's properties and attributes are in
// device_properties.cpp; streams, events and stream-ordered work in stream_api.cpp.
#include <array>
#include <chrono>
#include <cstring>
#include <string>

#include "device_heap_state.hpp"
#include "device_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/kernel_registry.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_limits.hpp"
#include "stream_handles.hpp"
#include "stream_queue.hpp"
#include "worker_pool.hpp"

using namespace gpulab::emu;

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define GPULAB_NAME(x) \
  case x: return #x;
    GPULAB_NAME(cudaSuccess)
    GPULAB_NAME(cudaErrorInvalidValue)
    GPULAB_NAME(cudaErrorMemoryAllocation)
    GPULAB_NAME(cudaErrorInitializationError)
    GPULAB_NAME(cudaErrorInvalidConfiguration)
    GPULAB_NAME(cudaErrorInvalidPitchValue)
    GPULAB_NAME(cudaErrorInvalidSymbol)
    GPULAB_NAME(cudaErrorInvalidDevicePointer)
    GPULAB_NAME(cudaErrorInvalidMemcpyDirection)
    GPULAB_NAME(cudaErrorInvalidDeviceFunction)
    GPULAB_NAME(cudaErrorUnsupportedLimit)
    GPULAB_NAME(cudaErrorPeerAccessUnsupported)
    GPULAB_NAME(cudaErrorPeerAccessAlreadyEnabled)
    GPULAB_NAME(cudaErrorPeerAccessNotEnabled)
    GPULAB_NAME(cudaErrorNoDevice)
    GPULAB_NAME(cudaErrorInvalidDevice)
    GPULAB_NAME(cudaErrorInvalidResourceHandle)
    GPULAB_NAME(cudaErrorIllegalState)
    GPULAB_NAME(cudaErrorNotReady)
    GPULAB_NAME(cudaErrorIllegalAddress)
    GPULAB_NAME(cudaErrorLaunchOutOfResources)
    GPULAB_NAME(cudaErrorLaunchTimeout)
    GPULAB_NAME(cudaErrorAssert)
    GPULAB_NAME(cudaErrorSetOnActiveProcess)
    GPULAB_NAME(cudaErrorHostMemoryAlreadyRegistered)
    GPULAB_NAME(cudaErrorHostMemoryNotRegistered)
    GPULAB_NAME(cudaErrorMisalignedAddress)
    GPULAB_NAME(cudaErrorLaunchFailure)
    GPULAB_NAME(cudaErrorCooperativeLaunchTooLarge)
    GPULAB_NAME(cudaErrorNotSupported)
    GPULAB_NAME(cudaErrorStreamCaptureUnsupported)
    GPULAB_NAME(cudaErrorStreamCaptureInvalidated)
    GPULAB_NAME(cudaErrorStreamCaptureUnmatched)
    GPULAB_NAME(cudaErrorStreamCaptureUnjoined)
    GPULAB_NAME(cudaErrorGraphExecUpdateFailure)
    GPULAB_NAME(cudaErrorUnknown)
#undef GPULAB_NAME
  }
  return "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorUnsupportedLimit: return "limit is not supported on this architecture";
    case cudaErrorPeerAccessUnsupported: return "peer access is not supported between these two devices";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorSetOnActiveProcess: return "cannot set while device is active in this process";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorStreamCaptureUnmatched: return "capture was not initiated in this stream";
    case cudaErrorStreamCaptureUnjoined: return "capturing stream has unjoined work";
    case cudaErrorGraphExecUpdateFailure:
      return "the graph update was not performed because it included changes which violated constraints specific to "
             "instantiated graph update";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}

cudaError_t cudaGetLastError() { return take_last_error(); }
cudaError_t cudaPeekAtLastError() { return peek_last_error(); }

cudaError_t cudaDeviceSynchronize() {
  wait_for_all();
  flush_device_output();
  return synchronize_errors();
}
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
namespace {
// cudaDeviceSetLimit's values, starting from what CUDA 13 reports on an sm_90 device (the printf
// FIFO's 8,650,752 bytes as an H200 reports it, CUDA 13.0, driver 580); cudaDeviceReset restores them.
constexpr std::array<size_t, 7> kDefaultLimits = {1024, 8650752, 8 << 20, 2, 2048, 64, 0};
std::array<size_t, 7> device_limits = kDefaultLimits;
}  // namespace

// Like destroying the context on a GPU: clears the sticky error, frees every allocation and the
// device heap, and restores every limit's default.
cudaError_t cudaDeviceReset() {
  wait_for_all();
  flush_device_output();
  reset_error_state();
  free_all_device_memory();
  reset_device_heap();
  device_limits = kDefaultLimits;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return set_last_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return set_last_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : set_last_error(cudaErrorInvalidDevice); }

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return set_last_error(cudaErrorUnsupportedLimit);
  if (limit == cudaLimitMaxL2FetchGranularity && value > 128) return set_last_error(cudaErrorInvalidValue);
  if (limit == cudaLimitPersistingL2CacheSize) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    if (value > static_cast<size_t>(p.persistingL2CacheMaxSize))
      value = static_cast<size_t>(p.persistingL2CacheMaxSize);
  }
  // As on a GPU: the heap's size is fixed once a kernel has allocated from it (until cudaDeviceReset).
  if (limit == cudaLimitMallocHeapSize && device_heap_in_use()) {
    return refuse_call("cudaDeviceSetLimit", cudaErrorInvalidValue,
                       "cudaLimitMallocHeapSize cannot change once a kernel has called malloc; set it before the "
                       "first kernel that allocates (a GPU refuses it too), or after cudaDeviceReset");
  }
  // Measured on an H200 (CUDA 13.0, driver 580): a 1 MiB heap reads back as 4 MiB, its smallest size.
  if (limit == cudaLimitMallocHeapSize && value < (size_t{4} << 20)) value = size_t{4} << 20;
  device_limits[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return set_last_error(cudaErrorUnsupportedLimit);
  *value = device_limits[limit];
  return cudaSuccess;
}

// Demotes persisting L2 lines to normal on a GPU; nothing is cached here.
cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }
cudaError_t cudaFuncSetCacheConfigImpl(const void*, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaFuncSetAttributeImpl(const void*, cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || value > 232448) return set_last_error(cudaErrorInvalidValue);
    // Kernels are not told apart here: the largest limit asked for applies to every kernel.
    if (static_cast<size_t>(value) > max_dynamic_shared_bytes())
      raise_max_dynamic_shared_bytes(static_cast<size_t>(value));
  }
  return cudaSuccess;
}

// `typed`: called with the kernel itself (a function pointer of its type), which needs no
// registration; an untyped address must be a kernel the program registered (launch by address).
cudaError_t cudaFuncGetAttributesImpl(cudaFuncAttributes* attributes, const void* func, bool typed) {
  if (!attributes) return set_last_error(cudaErrorInvalidValue);
  if (!func || (!typed && !find_registered_kernel(func))) return set_last_error(cudaErrorInvalidDeviceFunction);
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = 1024;
  attributes->numRegs = 32;
  attributes->ptxVersion = 90;
  attributes->binaryVersion = 90;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_shared_bytes());
  attributes->preferredShmemCarveout = -1;
  return cudaSuccess;
}

namespace {
cudaAccessPolicyWindow default_stream_window{};
cudaAccessPolicyWindow* window_of(cudaStream_t s) {
  return s && s != cudaStreamLegacy && s != cudaStreamPerThread ? &s->window : &default_stream_window;
}
}  // namespace

cudaError_t cudaStreamSetAttribute(cudaStream_t s, cudaStreamAttrID attr, const cudaStreamAttrValue* value) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  if (attr != cudaStreamAttributeAccessPolicyWindow) return cudaSuccess;
  const cudaAccessPolicyWindow& w = value->accessPolicyWindow;
  if (w.hitRatio < 0 || w.hitRatio > 1 || w.missProp == cudaAccessPropertyPersisting) {
    return set_last_error(cudaErrorInvalidValue);
  }
  *window_of(s) = w;
  return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t s, cudaStreamAttrID attr, cudaStreamAttrValue* value) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  std::memset(value, 0, sizeof *value);
  if (attr == cudaStreamAttributeAccessPolicyWindow) value->accessPolicyWindow = *window_of(s);
  return cudaSuccess;
}
