// Runtime API: the emulated device (properties, attributes), device-wide
// synchronisation, error strings, stream attributes. Streams, events and
// stream-ordered work are in stream_api.cpp.
#include <chrono>
#include <cstring>
#include <string>

#include "device_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
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
// Like destroying the context on a GPU: clears the sticky error and frees every allocation.
cudaError_t cudaDeviceReset() {
  wait_for_all();
  flush_device_output();
  reset_error_state();
  free_all_device_memory();
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

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (!p) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::strncpy(p->name, "gpulab CPU emulator (sm_90 limits)", sizeof p->name - 1);
  p->totalGlobalMem = 16ull << 30;
  p->sharedMemPerBlock = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = 2147483647;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->multiProcessorCount = static_cast<int>(worker_count());
  p->concurrentKernels = 1;
  p->asyncEngineCount = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 64;
  p->l2CacheSize = 4 * 1024 * 1024;
  p->persistingL2CacheMaxSize = 3 * 1024 * 1024;
  p->accessPolicyMaxWindowSize = 134213632;  // as CUDA reports for sm_80 and sm_90 devices
  p->maxThreadsPerMultiProcessor = 2048;
  p->sharedMemPerMultiprocessor = 233472;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel and grid.sync() are emulated
  p->sharedMemPerBlockOptin = 232448;
  p->maxBlocksPerMultiProcessor = 32;
  p->reservedSharedMemPerBlock = 1024;
  // What an H100 reports for the rest (host memory can be mapped, the device is discrete).
  p->integrated = 0;
  p->canMapHostMemory = 1;
  p->texturePitchAlignment = 32;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->concurrentManagedAccess = 1;
  p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->hostRegisterSupported = 1;
  p->memoryPoolsSupported = 1;
  p->clusterLaunch = 1;
  p->maxTexture1D = 131072;
  p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768, p->maxTexture2DLayered[2] = 2048;
  p->surfaceAlignment = 512;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  cudaDeviceProp p;
  const cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    // The emulated device has no clocks of its own: fixed values, so that programs printing them run.
    case cudaDevAttrClockRate: *value = 1000000; break;
    case cudaDevAttrMemoryClockRate: *value = 3200000; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = 1; break;
    case cudaDevAttrKernelExecTimeout: *value = 0; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrTccDriver: *value = p.tccDriver; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
    default: return set_last_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

namespace {
// cudaDeviceSetLimit's values, starting from what CUDA 13 reports on an sm_90 device.
size_t device_limits[] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
}  // namespace

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
