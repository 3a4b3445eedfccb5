// The emulated device as the runtime describes it: cudaGetDeviceProperties and
// cudaDeviceGetAttribute, every field and attribute of CUDA 13.0. An H100's (sm_90) values
// where they are properties of the chip (limits, shared memory, textures, features); the
// emulator's own where the emulator differs or has no such thing: its name, memory size, SM
// count (its worker threads), L2 size (which the grader flushes between timed runs), clocks, PCI
// and NUMA location, and the features it does not emulate (IPC, GPUDirect RDMA, MPS), which
// read 0 so that programs skip them.
#include <cstring>

#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "worker_pool.hpp"

using namespace gpulab::emu;

namespace {
// The emulated device has no clocks of its own: fixed values, so that programs printing them run.
constexpr int kClockRateKHz = 1000000;
constexpr int kMemoryClockRateKHz = 3200000;
// The widest 1D texture bound to linear memory that sm_90 allows (2^28 elements).
constexpr int kMaxTexture1DLinear = 268435456;
}  // namespace

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
  p->texturePitchAlignment = 32;
  p->multiProcessorCount = static_cast<int>(worker_count());
  p->integrated = 0;
  p->canMapHostMemory = 1;
  // Texture and surface limits of sm_90 (the emulator has no texture units; programs size by these).
  p->maxTexture1D = 131072;
  p->maxTexture1DMipmap = 32768;
  p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
  p->maxTexture2DMipmap[0] = p->maxTexture2DMipmap[1] = 32768;
  p->maxTexture2DLinear[0] = 131072, p->maxTexture2DLinear[1] = 65000, p->maxTexture2DLinear[2] = 2097120;
  p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
  p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192, p->maxTexture3DAlt[2] = 32768;
  p->maxTextureCubemap = 32768;
  p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
  p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768, p->maxTexture2DLayered[2] = 2048;
  p->maxTextureCubemapLayered[0] = 32768, p->maxTextureCubemapLayered[1] = 2046;
  p->maxSurface1D = 32768;
  p->maxSurface2D[0] = 131072, p->maxSurface2D[1] = 65536;
  p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
  p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
  p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768, p->maxSurface2DLayered[2] = 2048;
  p->maxSurfaceCubemap = 32768;
  p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
  p->surfaceAlignment = 512;
  p->concurrentKernels = 1;
  p->asyncEngineCount = 1;
  p->unifiedAddressing = 1;
  p->memoryBusWidth = 64;
  p->l2CacheSize = 4 * 1024 * 1024;
  p->persistingL2CacheMaxSize = 3 * 1024 * 1024;
  p->maxThreadsPerMultiProcessor = 2048;
  p->streamPrioritiesSupported = 1;
  p->globalL1CacheSupported = 1;
  p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = 233472;
  p->regsPerMultiprocessor = 65536;
  p->managedMemory = 1;
  p->concurrentManagedAccess = 1;
  p->computePreemptionSupported = 1;
  p->canUseHostPointerForRegisteredMem = 1;
  p->cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel and grid.sync() are emulated
  p->sharedMemPerBlockOptin = 232448;
  p->maxBlocksPerMultiProcessor = 32;
  p->accessPolicyMaxWindowSize = 134217728;  // 128 MiB, as an H200 reports it (CUDA 13.0, driver 580)
  p->reservedSharedMemPerBlock = 1024;
  p->hostRegisterSupported = 1;
  p->sparseCudaArraySupported = 1;
  p->hostRegisterReadOnlySupported = 1;
  p->timelineSemaphoreInteropSupported = 1;
  p->memoryPoolsSupported = 1;  // cudaMallocAsync and memory pools are emulated
  p->deferredMappingCudaArraySupported = 1;
  p->clusterLaunch = 1;
  p->unifiedFunctionPointers = 1;
  p->deviceNumaConfig = 0;  // cudaDeviceNumaConfigNone
  p->deviceNumaId = -1;
  p->hostNumaId = -1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  cudaDeviceProp p;
  const cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = static_cast<int>(p.maxThreadsPerBlock); break;
    case cudaDevAttrMaxBlockDimX: *value = static_cast<int>(p.maxThreadsDim[0]); break;
    case cudaDevAttrMaxBlockDimY: *value = static_cast<int>(p.maxThreadsDim[1]); break;
    case cudaDevAttrMaxBlockDimZ: *value = static_cast<int>(p.maxThreadsDim[2]); break;
    case cudaDevAttrMaxGridDimX: *value = static_cast<int>(p.maxGridSize[0]); break;
    case cudaDevAttrMaxGridDimY: *value = static_cast<int>(p.maxGridSize[1]); break;
    case cudaDevAttrMaxGridDimZ: *value = static_cast<int>(p.maxGridSize[2]); break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = static_cast<int>(p.warpSize); break;
    case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: *value = static_cast<int>(p.regsPerBlock); break;
    case cudaDevAttrClockRate: *value = static_cast<int>(kClockRateKHz); break;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case cudaDevAttrGpuOverlap: *value = static_cast<int>(1); break;
    case cudaDevAttrMultiProcessorCount: *value = static_cast<int>(p.multiProcessorCount); break;
    case cudaDevAttrKernelExecTimeout: *value = static_cast<int>(0); break;
    case cudaDevAttrIntegrated: *value = static_cast<int>(p.integrated); break;
    case cudaDevAttrCanMapHostMemory: *value = static_cast<int>(p.canMapHostMemory); break;
    case cudaDevAttrComputeMode: *value = static_cast<int>(cudaComputeModeDefault); break;
    case cudaDevAttrMaxTexture1DWidth: *value = static_cast<int>(p.maxTexture1D); break;
    case cudaDevAttrMaxTexture2DWidth: *value = static_cast<int>(p.maxTexture2D[0]); break;
    case cudaDevAttrMaxTexture2DHeight: *value = static_cast<int>(p.maxTexture2D[1]); break;
    case cudaDevAttrMaxTexture3DWidth: *value = static_cast<int>(p.maxTexture3D[0]); break;
    case cudaDevAttrMaxTexture3DHeight: *value = static_cast<int>(p.maxTexture3D[1]); break;
    case cudaDevAttrMaxTexture3DDepth: *value = static_cast<int>(p.maxTexture3D[2]); break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *value = static_cast<int>(p.maxTexture2DLayered[0]); break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *value = static_cast<int>(p.maxTexture2DLayered[1]); break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *value = static_cast<int>(p.maxTexture2DLayered[2]); break;
    case cudaDevAttrSurfaceAlignment: *value = static_cast<int>(p.surfaceAlignment); break;
    case cudaDevAttrConcurrentKernels: *value = static_cast<int>(p.concurrentKernels); break;
    case cudaDevAttrEccEnabled: *value = static_cast<int>(p.ECCEnabled); break;
    case cudaDevAttrPciBusId: *value = static_cast<int>(p.pciBusID); break;
    case cudaDevAttrPciDeviceId: *value = static_cast<int>(p.pciDeviceID); break;
    case cudaDevAttrTccDriver: *value = static_cast<int>(p.tccDriver); break;
    case cudaDevAttrMemoryClockRate: *value = static_cast<int>(kMemoryClockRateKHz); break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = static_cast<int>(p.memoryBusWidth); break;
    case cudaDevAttrL2CacheSize: *value = static_cast<int>(p.l2CacheSize); break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = static_cast<int>(p.maxThreadsPerMultiProcessor); break;
    case cudaDevAttrAsyncEngineCount: *value = static_cast<int>(p.asyncEngineCount); break;
    case cudaDevAttrUnifiedAddressing: *value = static_cast<int>(p.unifiedAddressing); break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *value = static_cast<int>(p.maxTexture1DLayered[0]); break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *value = static_cast<int>(p.maxTexture1DLayered[1]); break;
    case cudaDevAttrMaxTexture2DGatherWidth: *value = static_cast<int>(p.maxTexture2DGather[0]); break;
    case cudaDevAttrMaxTexture2DGatherHeight: *value = static_cast<int>(p.maxTexture2DGather[1]); break;
    case cudaDevAttrMaxTexture3DWidthAlt: *value = static_cast<int>(p.maxTexture3DAlt[0]); break;
    case cudaDevAttrMaxTexture3DHeightAlt: *value = static_cast<int>(p.maxTexture3DAlt[1]); break;
    case cudaDevAttrMaxTexture3DDepthAlt: *value = static_cast<int>(p.maxTexture3DAlt[2]); break;
    case cudaDevAttrPciDomainId: *value = static_cast<int>(p.pciDomainID); break;
    case cudaDevAttrTexturePitchAlignment: *value = static_cast<int>(p.texturePitchAlignment); break;
    case cudaDevAttrMaxTextureCubemapWidth: *value = static_cast<int>(p.maxTextureCubemap); break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *value = static_cast<int>(p.maxTextureCubemapLayered[0]); break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *value = static_cast<int>(p.maxTextureCubemapLayered[1]); break;
    case cudaDevAttrMaxSurface1DWidth: *value = static_cast<int>(p.maxSurface1D); break;
    case cudaDevAttrMaxSurface2DWidth: *value = static_cast<int>(p.maxSurface2D[0]); break;
    case cudaDevAttrMaxSurface2DHeight: *value = static_cast<int>(p.maxSurface2D[1]); break;
    case cudaDevAttrMaxSurface3DWidth: *value = static_cast<int>(p.maxSurface3D[0]); break;
    case cudaDevAttrMaxSurface3DHeight: *value = static_cast<int>(p.maxSurface3D[1]); break;
    case cudaDevAttrMaxSurface3DDepth: *value = static_cast<int>(p.maxSurface3D[2]); break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *value = static_cast<int>(p.maxSurface1DLayered[0]); break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *value = static_cast<int>(p.maxSurface1DLayered[1]); break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *value = static_cast<int>(p.maxSurface2DLayered[0]); break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *value = static_cast<int>(p.maxSurface2DLayered[1]); break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *value = static_cast<int>(p.maxSurface2DLayered[2]); break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *value = static_cast<int>(p.maxSurfaceCubemap); break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *value = static_cast<int>(p.maxSurfaceCubemapLayered[0]); break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *value = static_cast<int>(p.maxSurfaceCubemapLayered[1]); break;
    case cudaDevAttrMaxTexture1DLinearWidth: *value = static_cast<int>(kMaxTexture1DLinear); break;
    case cudaDevAttrMaxTexture2DLinearWidth: *value = static_cast<int>(p.maxTexture2DLinear[0]); break;
    case cudaDevAttrMaxTexture2DLinearHeight: *value = static_cast<int>(p.maxTexture2DLinear[1]); break;
    case cudaDevAttrMaxTexture2DLinearPitch: *value = static_cast<int>(p.maxTexture2DLinear[2]); break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *value = static_cast<int>(p.maxTexture2DMipmap[0]); break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *value = static_cast<int>(p.maxTexture2DMipmap[1]); break;
    case cudaDevAttrComputeCapabilityMajor: *value = static_cast<int>(p.major); break;
    case cudaDevAttrComputeCapabilityMinor: *value = static_cast<int>(p.minor); break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *value = static_cast<int>(p.maxTexture1DMipmap); break;
    case cudaDevAttrStreamPrioritiesSupported: *value = static_cast<int>(p.streamPrioritiesSupported); break;
    case cudaDevAttrGlobalL1CacheSupported: *value = static_cast<int>(p.globalL1CacheSupported); break;
    case cudaDevAttrLocalL1CacheSupported: *value = static_cast<int>(p.localL1CacheSupported); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = static_cast<int>(p.regsPerMultiprocessor); break;
    case cudaDevAttrManagedMemory: *value = static_cast<int>(p.managedMemory); break;
    case cudaDevAttrIsMultiGpuBoard: *value = static_cast<int>(p.isMultiGpuBoard); break;
    case cudaDevAttrMultiGpuBoardGroupID: *value = static_cast<int>(p.multiGpuBoardGroupID); break;
    case cudaDevAttrHostNativeAtomicSupported: *value = static_cast<int>(p.hostNativeAtomicSupported); break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = static_cast<int>(2); break;
    case cudaDevAttrPageableMemoryAccess: *value = static_cast<int>(p.pageableMemoryAccess); break;
    case cudaDevAttrConcurrentManagedAccess: *value = static_cast<int>(p.concurrentManagedAccess); break;
    case cudaDevAttrComputePreemptionSupported: *value = static_cast<int>(p.computePreemptionSupported); break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      *value = static_cast<int>(p.canUseHostPointerForRegisteredMem);
      break;
    case cudaDevAttrCooperativeLaunch: *value = static_cast<int>(p.cooperativeLaunch); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCanFlushRemoteWrites: *value = static_cast<int>(0); break;
    case cudaDevAttrHostRegisterSupported: *value = static_cast<int>(p.hostRegisterSupported); break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
      *value = static_cast<int>(p.pageableMemoryAccessUsesHostPageTables);
      break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = static_cast<int>(p.directManagedMemAccessFromHost); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = static_cast<int>(p.maxBlocksPerMultiProcessor); break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = static_cast<int>(p.persistingL2CacheMaxSize); break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = static_cast<int>(p.accessPolicyMaxWindowSize); break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrSparseCudaArraySupported: *value = static_cast<int>(p.sparseCudaArraySupported); break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = static_cast<int>(p.hostRegisterReadOnlySupported); break;
    case cudaDevAttrTimelineSemaphoreInteropSupported:
      *value = static_cast<int>(p.timelineSemaphoreInteropSupported);
      break;
    case cudaDevAttrMemoryPoolsSupported: *value = static_cast<int>(p.memoryPoolsSupported); break;
    case cudaDevAttrGPUDirectRDMASupported: *value = static_cast<int>(p.gpuDirectRDMASupported); break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
      *value = static_cast<int>(p.gpuDirectRDMAFlushWritesOptions);
      break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *value = static_cast<int>(p.gpuDirectRDMAWritesOrdering); break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *value = static_cast<int>(p.memoryPoolSupportedHandleTypes); break;
    case cudaDevAttrClusterLaunch: *value = static_cast<int>(p.clusterLaunch); break;
    case cudaDevAttrDeferredMappingCudaArraySupported:
      *value = static_cast<int>(p.deferredMappingCudaArraySupported);
      break;
    case cudaDevAttrIpcEventSupport: *value = static_cast<int>(p.ipcEventSupported); break;
    case cudaDevAttrMemSyncDomainCount: *value = static_cast<int>(4); break;
    case cudaDevAttrNumaConfig: *value = static_cast<int>(p.deviceNumaConfig); break;
    case cudaDevAttrNumaId: *value = static_cast<int>(p.deviceNumaId); break;
    case cudaDevAttrMpsEnabled: *value = static_cast<int>(p.mpsEnabled); break;
    case cudaDevAttrHostNumaId: *value = static_cast<int>(p.hostNumaId); break;
    case cudaDevAttrD3D12CigSupported: *value = static_cast<int>(0); break;
    case cudaDevAttrVulkanCigSupported: *value = static_cast<int>(0); break;
    case cudaDevAttrGpuPciDeviceId: *value = static_cast<int>(p.gpuPciDeviceID); break;
    case cudaDevAttrGpuPciSubsystemId: *value = static_cast<int>(p.gpuPciSubsystemID); break;
    case cudaDevAttrHostNumaMemoryPoolsSupported: *value = static_cast<int>(0); break;
    case cudaDevAttrHostNumaMultinodeIpcSupported: *value = static_cast<int>(p.hostNumaMultinodeIpcSupported); break;
    case cudaDevAttrHostMemoryPoolsSupported: *value = static_cast<int>(0); break;
    case cudaDevAttrOnlyPartialHostNativeAtomicSupported: *value = static_cast<int>(0); break;
    default: return set_last_error(cudaErrorInvalidValue);  // a reserved attribute, or none of CUDA's
  }
  return cudaSuccess;
}
