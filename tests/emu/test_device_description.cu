// Conformance: CUDA 13.0's device description, whole. Every cudaDeviceAttr enumerator (with its
// value) and every cudaDeviceProp field exists (this file compiles against CUDA 13's headers as
// against the emulator's), cudaDeviceGetAttribute answers every attribute and agrees with the
// property it mirrors, and the properties of the chip are an H100's (sm_90). The values that
// belong to a machine (memory size, SM count, clocks, PCI and NUMA location) are the emulator's own
// and are only checked to be sane.
#include <catch2/catch.hpp>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

namespace {
struct Attribute {
  cudaDeviceAttr attr;
  int value;
  const char* name;
};
// CUDA 13.0's enumerators (driver_types.h), the reserved ones aside.
const Attribute attributes[] = {
    {cudaDevAttrMaxThreadsPerBlock, 1, "cudaDevAttrMaxThreadsPerBlock"},
    {cudaDevAttrMaxBlockDimX, 2, "cudaDevAttrMaxBlockDimX"},
    {cudaDevAttrMaxBlockDimY, 3, "cudaDevAttrMaxBlockDimY"},
    {cudaDevAttrMaxBlockDimZ, 4, "cudaDevAttrMaxBlockDimZ"},
    {cudaDevAttrMaxGridDimX, 5, "cudaDevAttrMaxGridDimX"},
    {cudaDevAttrMaxGridDimY, 6, "cudaDevAttrMaxGridDimY"},
    {cudaDevAttrMaxGridDimZ, 7, "cudaDevAttrMaxGridDimZ"},
    {cudaDevAttrMaxSharedMemoryPerBlock, 8, "cudaDevAttrMaxSharedMemoryPerBlock"},
    {cudaDevAttrTotalConstantMemory, 9, "cudaDevAttrTotalConstantMemory"},
    {cudaDevAttrWarpSize, 10, "cudaDevAttrWarpSize"},
    {cudaDevAttrMaxPitch, 11, "cudaDevAttrMaxPitch"},
    {cudaDevAttrMaxRegistersPerBlock, 12, "cudaDevAttrMaxRegistersPerBlock"},
    {cudaDevAttrClockRate, 13, "cudaDevAttrClockRate"},
    {cudaDevAttrTextureAlignment, 14, "cudaDevAttrTextureAlignment"},
    {cudaDevAttrGpuOverlap, 15, "cudaDevAttrGpuOverlap"},
    {cudaDevAttrMultiProcessorCount, 16, "cudaDevAttrMultiProcessorCount"},
    {cudaDevAttrKernelExecTimeout, 17, "cudaDevAttrKernelExecTimeout"},
    {cudaDevAttrIntegrated, 18, "cudaDevAttrIntegrated"},
    {cudaDevAttrCanMapHostMemory, 19, "cudaDevAttrCanMapHostMemory"},
    {cudaDevAttrComputeMode, 20, "cudaDevAttrComputeMode"},
    {cudaDevAttrMaxTexture1DWidth, 21, "cudaDevAttrMaxTexture1DWidth"},
    {cudaDevAttrMaxTexture2DWidth, 22, "cudaDevAttrMaxTexture2DWidth"},
    {cudaDevAttrMaxTexture2DHeight, 23, "cudaDevAttrMaxTexture2DHeight"},
    {cudaDevAttrMaxTexture3DWidth, 24, "cudaDevAttrMaxTexture3DWidth"},
    {cudaDevAttrMaxTexture3DHeight, 25, "cudaDevAttrMaxTexture3DHeight"},
    {cudaDevAttrMaxTexture3DDepth, 26, "cudaDevAttrMaxTexture3DDepth"},
    {cudaDevAttrMaxTexture2DLayeredWidth, 27, "cudaDevAttrMaxTexture2DLayeredWidth"},
    {cudaDevAttrMaxTexture2DLayeredHeight, 28, "cudaDevAttrMaxTexture2DLayeredHeight"},
    {cudaDevAttrMaxTexture2DLayeredLayers, 29, "cudaDevAttrMaxTexture2DLayeredLayers"},
    {cudaDevAttrSurfaceAlignment, 30, "cudaDevAttrSurfaceAlignment"},
    {cudaDevAttrConcurrentKernels, 31, "cudaDevAttrConcurrentKernels"},
    {cudaDevAttrEccEnabled, 32, "cudaDevAttrEccEnabled"},
    {cudaDevAttrPciBusId, 33, "cudaDevAttrPciBusId"},
    {cudaDevAttrPciDeviceId, 34, "cudaDevAttrPciDeviceId"},
    {cudaDevAttrTccDriver, 35, "cudaDevAttrTccDriver"},
    {cudaDevAttrMemoryClockRate, 36, "cudaDevAttrMemoryClockRate"},
    {cudaDevAttrGlobalMemoryBusWidth, 37, "cudaDevAttrGlobalMemoryBusWidth"},
    {cudaDevAttrL2CacheSize, 38, "cudaDevAttrL2CacheSize"},
    {cudaDevAttrMaxThreadsPerMultiProcessor, 39, "cudaDevAttrMaxThreadsPerMultiProcessor"},
    {cudaDevAttrAsyncEngineCount, 40, "cudaDevAttrAsyncEngineCount"},
    {cudaDevAttrUnifiedAddressing, 41, "cudaDevAttrUnifiedAddressing"},
    {cudaDevAttrMaxTexture1DLayeredWidth, 42, "cudaDevAttrMaxTexture1DLayeredWidth"},
    {cudaDevAttrMaxTexture1DLayeredLayers, 43, "cudaDevAttrMaxTexture1DLayeredLayers"},
    {cudaDevAttrMaxTexture2DGatherWidth, 45, "cudaDevAttrMaxTexture2DGatherWidth"},
    {cudaDevAttrMaxTexture2DGatherHeight, 46, "cudaDevAttrMaxTexture2DGatherHeight"},
    {cudaDevAttrMaxTexture3DWidthAlt, 47, "cudaDevAttrMaxTexture3DWidthAlt"},
    {cudaDevAttrMaxTexture3DHeightAlt, 48, "cudaDevAttrMaxTexture3DHeightAlt"},
    {cudaDevAttrMaxTexture3DDepthAlt, 49, "cudaDevAttrMaxTexture3DDepthAlt"},
    {cudaDevAttrPciDomainId, 50, "cudaDevAttrPciDomainId"},
    {cudaDevAttrTexturePitchAlignment, 51, "cudaDevAttrTexturePitchAlignment"},
    {cudaDevAttrMaxTextureCubemapWidth, 52, "cudaDevAttrMaxTextureCubemapWidth"},
    {cudaDevAttrMaxTextureCubemapLayeredWidth, 53, "cudaDevAttrMaxTextureCubemapLayeredWidth"},
    {cudaDevAttrMaxTextureCubemapLayeredLayers, 54, "cudaDevAttrMaxTextureCubemapLayeredLayers"},
    {cudaDevAttrMaxSurface1DWidth, 55, "cudaDevAttrMaxSurface1DWidth"},
    {cudaDevAttrMaxSurface2DWidth, 56, "cudaDevAttrMaxSurface2DWidth"},
    {cudaDevAttrMaxSurface2DHeight, 57, "cudaDevAttrMaxSurface2DHeight"},
    {cudaDevAttrMaxSurface3DWidth, 58, "cudaDevAttrMaxSurface3DWidth"},
    {cudaDevAttrMaxSurface3DHeight, 59, "cudaDevAttrMaxSurface3DHeight"},
    {cudaDevAttrMaxSurface3DDepth, 60, "cudaDevAttrMaxSurface3DDepth"},
    {cudaDevAttrMaxSurface1DLayeredWidth, 61, "cudaDevAttrMaxSurface1DLayeredWidth"},
    {cudaDevAttrMaxSurface1DLayeredLayers, 62, "cudaDevAttrMaxSurface1DLayeredLayers"},
    {cudaDevAttrMaxSurface2DLayeredWidth, 63, "cudaDevAttrMaxSurface2DLayeredWidth"},
    {cudaDevAttrMaxSurface2DLayeredHeight, 64, "cudaDevAttrMaxSurface2DLayeredHeight"},
    {cudaDevAttrMaxSurface2DLayeredLayers, 65, "cudaDevAttrMaxSurface2DLayeredLayers"},
    {cudaDevAttrMaxSurfaceCubemapWidth, 66, "cudaDevAttrMaxSurfaceCubemapWidth"},
    {cudaDevAttrMaxSurfaceCubemapLayeredWidth, 67, "cudaDevAttrMaxSurfaceCubemapLayeredWidth"},
    {cudaDevAttrMaxSurfaceCubemapLayeredLayers, 68, "cudaDevAttrMaxSurfaceCubemapLayeredLayers"},
    {cudaDevAttrMaxTexture1DLinearWidth, 69, "cudaDevAttrMaxTexture1DLinearWidth"},
    {cudaDevAttrMaxTexture2DLinearWidth, 70, "cudaDevAttrMaxTexture2DLinearWidth"},
    {cudaDevAttrMaxTexture2DLinearHeight, 71, "cudaDevAttrMaxTexture2DLinearHeight"},
    {cudaDevAttrMaxTexture2DLinearPitch, 72, "cudaDevAttrMaxTexture2DLinearPitch"},
    {cudaDevAttrMaxTexture2DMipmappedWidth, 73, "cudaDevAttrMaxTexture2DMipmappedWidth"},
    {cudaDevAttrMaxTexture2DMipmappedHeight, 74, "cudaDevAttrMaxTexture2DMipmappedHeight"},
    {cudaDevAttrComputeCapabilityMajor, 75, "cudaDevAttrComputeCapabilityMajor"},
    {cudaDevAttrComputeCapabilityMinor, 76, "cudaDevAttrComputeCapabilityMinor"},
    {cudaDevAttrMaxTexture1DMipmappedWidth, 77, "cudaDevAttrMaxTexture1DMipmappedWidth"},
    {cudaDevAttrStreamPrioritiesSupported, 78, "cudaDevAttrStreamPrioritiesSupported"},
    {cudaDevAttrGlobalL1CacheSupported, 79, "cudaDevAttrGlobalL1CacheSupported"},
    {cudaDevAttrLocalL1CacheSupported, 80, "cudaDevAttrLocalL1CacheSupported"},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor, 81, "cudaDevAttrMaxSharedMemoryPerMultiprocessor"},
    {cudaDevAttrMaxRegistersPerMultiprocessor, 82, "cudaDevAttrMaxRegistersPerMultiprocessor"},
    {cudaDevAttrManagedMemory, 83, "cudaDevAttrManagedMemory"},
    {cudaDevAttrIsMultiGpuBoard, 84, "cudaDevAttrIsMultiGpuBoard"},
    {cudaDevAttrMultiGpuBoardGroupID, 85, "cudaDevAttrMultiGpuBoardGroupID"},
    {cudaDevAttrHostNativeAtomicSupported, 86, "cudaDevAttrHostNativeAtomicSupported"},
    {cudaDevAttrSingleToDoublePrecisionPerfRatio, 87, "cudaDevAttrSingleToDoublePrecisionPerfRatio"},
    {cudaDevAttrPageableMemoryAccess, 88, "cudaDevAttrPageableMemoryAccess"},
    {cudaDevAttrConcurrentManagedAccess, 89, "cudaDevAttrConcurrentManagedAccess"},
    {cudaDevAttrComputePreemptionSupported, 90, "cudaDevAttrComputePreemptionSupported"},
    {cudaDevAttrCanUseHostPointerForRegisteredMem, 91, "cudaDevAttrCanUseHostPointerForRegisteredMem"},
    {cudaDevAttrCooperativeLaunch, 95, "cudaDevAttrCooperativeLaunch"},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin, 97, "cudaDevAttrMaxSharedMemoryPerBlockOptin"},
    {cudaDevAttrCanFlushRemoteWrites, 98, "cudaDevAttrCanFlushRemoteWrites"},
    {cudaDevAttrHostRegisterSupported, 99, "cudaDevAttrHostRegisterSupported"},
    {cudaDevAttrPageableMemoryAccessUsesHostPageTables, 100, "cudaDevAttrPageableMemoryAccessUsesHostPageTables"},
    {cudaDevAttrDirectManagedMemAccessFromHost, 101, "cudaDevAttrDirectManagedMemAccessFromHost"},
    {cudaDevAttrMaxBlocksPerMultiprocessor, 106, "cudaDevAttrMaxBlocksPerMultiprocessor"},
    {cudaDevAttrMaxPersistingL2CacheSize, 108, "cudaDevAttrMaxPersistingL2CacheSize"},
    {cudaDevAttrMaxAccessPolicyWindowSize, 109, "cudaDevAttrMaxAccessPolicyWindowSize"},
    {cudaDevAttrReservedSharedMemoryPerBlock, 111, "cudaDevAttrReservedSharedMemoryPerBlock"},
    {cudaDevAttrSparseCudaArraySupported, 112, "cudaDevAttrSparseCudaArraySupported"},
    {cudaDevAttrHostRegisterReadOnlySupported, 113, "cudaDevAttrHostRegisterReadOnlySupported"},
    {cudaDevAttrTimelineSemaphoreInteropSupported, 114, "cudaDevAttrTimelineSemaphoreInteropSupported"},
    {cudaDevAttrMemoryPoolsSupported, 115, "cudaDevAttrMemoryPoolsSupported"},
    {cudaDevAttrGPUDirectRDMASupported, 116, "cudaDevAttrGPUDirectRDMASupported"},
    {cudaDevAttrGPUDirectRDMAFlushWritesOptions, 117, "cudaDevAttrGPUDirectRDMAFlushWritesOptions"},
    {cudaDevAttrGPUDirectRDMAWritesOrdering, 118, "cudaDevAttrGPUDirectRDMAWritesOrdering"},
    {cudaDevAttrMemoryPoolSupportedHandleTypes, 119, "cudaDevAttrMemoryPoolSupportedHandleTypes"},
    {cudaDevAttrClusterLaunch, 120, "cudaDevAttrClusterLaunch"},
    {cudaDevAttrDeferredMappingCudaArraySupported, 121, "cudaDevAttrDeferredMappingCudaArraySupported"},
    {cudaDevAttrIpcEventSupport, 125, "cudaDevAttrIpcEventSupport"},
    {cudaDevAttrMemSyncDomainCount, 126, "cudaDevAttrMemSyncDomainCount"},
    {cudaDevAttrNumaConfig, 130, "cudaDevAttrNumaConfig"},
    {cudaDevAttrNumaId, 131, "cudaDevAttrNumaId"},
    {cudaDevAttrMpsEnabled, 133, "cudaDevAttrMpsEnabled"},
    {cudaDevAttrHostNumaId, 134, "cudaDevAttrHostNumaId"},
    {cudaDevAttrD3D12CigSupported, 135, "cudaDevAttrD3D12CigSupported"},
    {cudaDevAttrVulkanCigSupported, 138, "cudaDevAttrVulkanCigSupported"},
    {cudaDevAttrGpuPciDeviceId, 139, "cudaDevAttrGpuPciDeviceId"},
    {cudaDevAttrGpuPciSubsystemId, 140, "cudaDevAttrGpuPciSubsystemId"},
    {cudaDevAttrHostNumaMemoryPoolsSupported, 142, "cudaDevAttrHostNumaMemoryPoolsSupported"},
    {cudaDevAttrHostNumaMultinodeIpcSupported, 143, "cudaDevAttrHostNumaMultinodeIpcSupported"},
    {cudaDevAttrHostMemoryPoolsSupported, 144, "cudaDevAttrHostMemoryPoolsSupported"},
    {cudaDevAttrOnlyPartialHostNativeAtomicSupported, 147, "cudaDevAttrOnlyPartialHostNativeAtomicSupported"}};

int attribute(cudaDeviceAttr a) {
  int v = -12345;
  REQUIRE(cudaDeviceGetAttribute(&v, a, 0) == cudaSuccess);
  return v;
}
}  // namespace

TEST_CASE("nvcc's macros for a .cu file, with CUDA 13.0's values") {
#if !defined(__CUDACC__) || !defined(__NVCC__)
  FAIL("a .cu file is compiled with __CUDACC__ and __NVCC__ defined");
#endif
  CHECK(__CUDACC_VER_MAJOR__ == 13);
  CHECK(__CUDACC_VER_MINOR__ == 0);
  CHECK(__CUDACC_VER_BUILD__ == 88);
  CHECK(__CUDA_API_VER_MAJOR__ == 13);
  CHECK(__CUDA_API_VER_MINOR__ == 0);
  CHECK(__NVCC_DIAG_PRAGMA_SUPPORT__ == 1);
  CHECK(__CUDACC_DEVICE_ATOMIC_BUILTINS__ == 1);
#ifdef __CUDA_ARCH__
  FAIL("host code sees __CUDA_ARCH__ undefined");
#endif
}

TEST_CASE("every cudaDeviceAttr of CUDA 13 has CUDA's value and an answer") {
  for (const Attribute& a : attributes) {
    INFO(a.name);
    CHECK(static_cast<int>(a.attr) == a.value);
    int v = -12345;
    CHECK(cudaDeviceGetAttribute(&v, a.attr, 0) == cudaSuccess);
    CHECK(v != -12345);
  }
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMax, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
}

TEST_CASE("every cudaDeviceProp field of CUDA 13 exists, in a struct of CUDA's size") {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  (void)sizeof(p.name);
  (void)sizeof(p.uuid);
  (void)sizeof(p.luid);
  (void)sizeof(p.luidDeviceNodeMask);
  (void)sizeof(p.totalGlobalMem);
  (void)sizeof(p.sharedMemPerBlock);
  (void)sizeof(p.regsPerBlock);
  (void)sizeof(p.warpSize);
  (void)sizeof(p.memPitch);
  (void)sizeof(p.maxThreadsPerBlock);
  (void)sizeof(p.maxThreadsDim);
  (void)sizeof(p.maxGridSize);
  (void)sizeof(p.totalConstMem);
  (void)sizeof(p.major);
  (void)sizeof(p.minor);
  (void)sizeof(p.textureAlignment);
  (void)sizeof(p.texturePitchAlignment);
  (void)sizeof(p.multiProcessorCount);
  (void)sizeof(p.integrated);
  (void)sizeof(p.canMapHostMemory);
  (void)sizeof(p.maxTexture1D);
  (void)sizeof(p.maxTexture1DMipmap);
  (void)sizeof(p.maxTexture2D);
  (void)sizeof(p.maxTexture2DMipmap);
  (void)sizeof(p.maxTexture2DLinear);
  (void)sizeof(p.maxTexture2DGather);
  (void)sizeof(p.maxTexture3D);
  (void)sizeof(p.maxTexture3DAlt);
  (void)sizeof(p.maxTextureCubemap);
  (void)sizeof(p.maxTexture1DLayered);
  (void)sizeof(p.maxTexture2DLayered);
  (void)sizeof(p.maxTextureCubemapLayered);
  (void)sizeof(p.maxSurface1D);
  (void)sizeof(p.maxSurface2D);
  (void)sizeof(p.maxSurface3D);
  (void)sizeof(p.maxSurface1DLayered);
  (void)sizeof(p.maxSurface2DLayered);
  (void)sizeof(p.maxSurfaceCubemap);
  (void)sizeof(p.maxSurfaceCubemapLayered);
  (void)sizeof(p.surfaceAlignment);
  (void)sizeof(p.concurrentKernels);
  (void)sizeof(p.ECCEnabled);
  (void)sizeof(p.pciBusID);
  (void)sizeof(p.pciDeviceID);
  (void)sizeof(p.pciDomainID);
  (void)sizeof(p.tccDriver);
  (void)sizeof(p.asyncEngineCount);
  (void)sizeof(p.unifiedAddressing);
  (void)sizeof(p.memoryBusWidth);
  (void)sizeof(p.l2CacheSize);
  (void)sizeof(p.persistingL2CacheMaxSize);
  (void)sizeof(p.maxThreadsPerMultiProcessor);
  (void)sizeof(p.streamPrioritiesSupported);
  (void)sizeof(p.globalL1CacheSupported);
  (void)sizeof(p.localL1CacheSupported);
  (void)sizeof(p.sharedMemPerMultiprocessor);
  (void)sizeof(p.regsPerMultiprocessor);
  (void)sizeof(p.managedMemory);
  (void)sizeof(p.isMultiGpuBoard);
  (void)sizeof(p.multiGpuBoardGroupID);
  (void)sizeof(p.hostNativeAtomicSupported);
  (void)sizeof(p.pageableMemoryAccess);
  (void)sizeof(p.concurrentManagedAccess);
  (void)sizeof(p.computePreemptionSupported);
  (void)sizeof(p.canUseHostPointerForRegisteredMem);
  (void)sizeof(p.cooperativeLaunch);
  (void)sizeof(p.sharedMemPerBlockOptin);
  (void)sizeof(p.pageableMemoryAccessUsesHostPageTables);
  (void)sizeof(p.directManagedMemAccessFromHost);
  (void)sizeof(p.maxBlocksPerMultiProcessor);
  (void)sizeof(p.accessPolicyMaxWindowSize);
  (void)sizeof(p.reservedSharedMemPerBlock);
  (void)sizeof(p.hostRegisterSupported);
  (void)sizeof(p.sparseCudaArraySupported);
  (void)sizeof(p.hostRegisterReadOnlySupported);
  (void)sizeof(p.timelineSemaphoreInteropSupported);
  (void)sizeof(p.memoryPoolsSupported);
  (void)sizeof(p.gpuDirectRDMASupported);
  (void)sizeof(p.gpuDirectRDMAFlushWritesOptions);
  (void)sizeof(p.gpuDirectRDMAWritesOrdering);
  (void)sizeof(p.memoryPoolSupportedHandleTypes);
  (void)sizeof(p.deferredMappingCudaArraySupported);
  (void)sizeof(p.ipcEventSupported);
  (void)sizeof(p.clusterLaunch);
  (void)sizeof(p.unifiedFunctionPointers);
  (void)sizeof(p.deviceNumaConfig);
  (void)sizeof(p.deviceNumaId);
  (void)sizeof(p.mpsEnabled);
  (void)sizeof(p.hostNumaId);
  (void)sizeof(p.gpuPciDeviceID);
  (void)sizeof(p.gpuPciSubsystemID);
  (void)sizeof(p.hostNumaMultinodeIpcSupported);
  (void)sizeof(p.reserved);
  // CUDA 13.0's layout: 1008 bytes on x86-64 (and AArch64).
  CHECK(sizeof(cudaDeviceProp) == 1008);
}

TEST_CASE("the attributes agree with the properties they mirror") {
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(attribute(cudaDevAttrMaxThreadsPerBlock) == p.maxThreadsPerBlock);
  CHECK(attribute(cudaDevAttrMaxBlockDimZ) == p.maxThreadsDim[2]);
  CHECK(attribute(cudaDevAttrMaxGridDimY) == p.maxGridSize[1]);
  CHECK(attribute(cudaDevAttrMultiProcessorCount) == p.multiProcessorCount);
  CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) == static_cast<int>(p.sharedMemPerBlockOptin));
  CHECK(attribute(cudaDevAttrMaxTexture2DLinearPitch) == p.maxTexture2DLinear[2]);
  CHECK(attribute(cudaDevAttrMaxSurfaceCubemapLayeredLayers) == p.maxSurfaceCubemapLayered[1]);
  CHECK(attribute(cudaDevAttrMemoryPoolsSupported) == p.memoryPoolsSupported);
  CHECK(attribute(cudaDevAttrNumaId) == p.deviceNumaId);
  CHECK(attribute(cudaDevAttrHostNumaId) == p.hostNumaId);
  CHECK(attribute(cudaDevAttrClusterLaunch) == p.clusterLaunch);
  CHECK(attribute(cudaDevAttrL2CacheSize) == p.l2CacheSize);
}

TEST_CASE("the chip's properties are an H100's") {
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(p.major == 9);
  CHECK(p.minor == 0);
  CHECK(p.warpSize == 32);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.maxThreadsPerMultiProcessor == 2048);
  CHECK(p.maxBlocksPerMultiProcessor == 32);
  CHECK(p.regsPerBlock == 65536);
  CHECK(p.regsPerMultiprocessor == 65536);
  CHECK(p.sharedMemPerBlock == 49152);
  CHECK(p.sharedMemPerBlockOptin == 232448);
  CHECK(p.sharedMemPerMultiprocessor == 233472);
  CHECK(p.reservedSharedMemPerBlock == 1024);
  CHECK(p.totalConstMem == 65536);
  CHECK(p.maxGridSize[0] == 2147483647);
  CHECK(p.maxTexture1D == 131072);
  CHECK(p.maxTexture2D[1] == 65536);
  CHECK(p.maxTexture3D[2] == 16384);
  CHECK(p.maxTexture2DLayered[2] == 2048);
  CHECK(p.maxSurface2D[0] == 131072);
  CHECK(p.surfaceAlignment == 512);
  CHECK(p.textureAlignment == 512);
  CHECK(p.texturePitchAlignment == 32);
  CHECK(p.accessPolicyMaxWindowSize == 134217728);
  CHECK(p.cooperativeLaunch == 1);
  CHECK(p.clusterLaunch == 1);
  CHECK(p.memoryPoolsSupported == 1);
  CHECK(p.managedMemory == 1);
  CHECK(p.concurrentManagedAccess == 1);
  CHECK(p.unifiedAddressing == 1);
  CHECK(p.canMapHostMemory == 1);
  CHECK(p.integrated == 0);
  CHECK(attribute(cudaDevAttrSingleToDoublePrecisionPerfRatio) == 2);
  CHECK(attribute(cudaDevAttrMemSyncDomainCount) == 4);
  CHECK(attribute(cudaDevAttrComputeMode) == cudaComputeModeDefault);
}

TEST_CASE("what the emulator does not emulate reads 0, and its own values are sane") {
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(p.ipcEventSupported == 0);
  CHECK(p.gpuDirectRDMASupported == 0);
  CHECK(p.memoryPoolSupportedHandleTypes == 0);
  CHECK(p.mpsEnabled == 0);
  CHECK(p.multiProcessorCount >= 1);
  CHECK(p.totalGlobalMem > 0);
  CHECK(std::strlen(p.name) > 0);
  CHECK(attribute(cudaDevAttrClockRate) > 0);
}

TEST_CASE("the C++ overloads CUDA 13's cuda_runtime.h still declares") {
  cudaEvent_t e = nullptr;
  CHECK(cudaEventCreate(&e, cudaEventDisableTiming) == cudaSuccess);
  CHECK(cudaEventDestroy(e) == cudaSuccess);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
}
