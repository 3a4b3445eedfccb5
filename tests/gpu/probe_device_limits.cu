// Prints the device attributes that are properties of the chip (sm_90: limits, shared memory,
// textures and surfaces, features), the same on every H100 and H200, so that the emulator's values
// can be checked against a GPU's. Attributes of a machine (SM count, clocks, memory, L2 size, PCI
// and NUMA location, ECC, what the driver enables) are left out: the emulator has its own.
#include <cstdio>

struct Attribute {
  cudaDeviceAttr attr;
  const char* name;
};

int main() {
  const Attribute attributes[] = {
    {cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock"},
    {cudaDevAttrMaxBlockDimX, "MaxBlockDimX"},
    {cudaDevAttrMaxBlockDimY, "MaxBlockDimY"},
    {cudaDevAttrMaxBlockDimZ, "MaxBlockDimZ"},
    {cudaDevAttrMaxGridDimX, "MaxGridDimX"},
    {cudaDevAttrMaxGridDimY, "MaxGridDimY"},
    {cudaDevAttrMaxGridDimZ, "MaxGridDimZ"},
    {cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock"},
    {cudaDevAttrTotalConstantMemory, "TotalConstantMemory"},
    {cudaDevAttrWarpSize, "WarpSize"},
    {cudaDevAttrMaxPitch, "MaxPitch"},
    {cudaDevAttrMaxRegistersPerBlock, "MaxRegistersPerBlock"},
    {cudaDevAttrTextureAlignment, "TextureAlignment"},
    {cudaDevAttrGpuOverlap, "GpuOverlap"},
    {cudaDevAttrIntegrated, "Integrated"},
    {cudaDevAttrCanMapHostMemory, "CanMapHostMemory"},
    {cudaDevAttrMaxTexture1DWidth, "MaxTexture1DWidth"},
    {cudaDevAttrMaxTexture2DWidth, "MaxTexture2DWidth"},
    {cudaDevAttrMaxTexture2DHeight, "MaxTexture2DHeight"},
    {cudaDevAttrMaxTexture3DWidth, "MaxTexture3DWidth"},
    {cudaDevAttrMaxTexture3DHeight, "MaxTexture3DHeight"},
    {cudaDevAttrMaxTexture3DDepth, "MaxTexture3DDepth"},
    {cudaDevAttrMaxTexture2DLayeredWidth, "MaxTexture2DLayeredWidth"},
    {cudaDevAttrMaxTexture2DLayeredHeight, "MaxTexture2DLayeredHeight"},
    {cudaDevAttrMaxTexture2DLayeredLayers, "MaxTexture2DLayeredLayers"},
    {cudaDevAttrSurfaceAlignment, "SurfaceAlignment"},
    {cudaDevAttrConcurrentKernels, "ConcurrentKernels"},
    {cudaDevAttrMaxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor"},
    {cudaDevAttrUnifiedAddressing, "UnifiedAddressing"},
    {cudaDevAttrMaxTexture1DLayeredWidth, "MaxTexture1DLayeredWidth"},
    {cudaDevAttrMaxTexture1DLayeredLayers, "MaxTexture1DLayeredLayers"},
    {cudaDevAttrMaxTexture2DGatherWidth, "MaxTexture2DGatherWidth"},
    {cudaDevAttrMaxTexture2DGatherHeight, "MaxTexture2DGatherHeight"},
    {cudaDevAttrMaxTexture3DWidthAlt, "MaxTexture3DWidthAlt"},
    {cudaDevAttrMaxTexture3DHeightAlt, "MaxTexture3DHeightAlt"},
    {cudaDevAttrMaxTexture3DDepthAlt, "MaxTexture3DDepthAlt"},
    {cudaDevAttrTexturePitchAlignment, "TexturePitchAlignment"},
    {cudaDevAttrMaxTextureCubemapWidth, "MaxTextureCubemapWidth"},
    {cudaDevAttrMaxTextureCubemapLayeredWidth, "MaxTextureCubemapLayeredWidth"},
    {cudaDevAttrMaxTextureCubemapLayeredLayers, "MaxTextureCubemapLayeredLayers"},
    {cudaDevAttrMaxSurface1DWidth, "MaxSurface1DWidth"},
    {cudaDevAttrMaxSurface2DWidth, "MaxSurface2DWidth"},
    {cudaDevAttrMaxSurface2DHeight, "MaxSurface2DHeight"},
    {cudaDevAttrMaxSurface3DWidth, "MaxSurface3DWidth"},
    {cudaDevAttrMaxSurface3DHeight, "MaxSurface3DHeight"},
    {cudaDevAttrMaxSurface3DDepth, "MaxSurface3DDepth"},
    {cudaDevAttrMaxSurface1DLayeredWidth, "MaxSurface1DLayeredWidth"},
    {cudaDevAttrMaxSurface1DLayeredLayers, "MaxSurface1DLayeredLayers"},
    {cudaDevAttrMaxSurface2DLayeredWidth, "MaxSurface2DLayeredWidth"},
    {cudaDevAttrMaxSurface2DLayeredHeight, "MaxSurface2DLayeredHeight"},
    {cudaDevAttrMaxSurface2DLayeredLayers, "MaxSurface2DLayeredLayers"},
    {cudaDevAttrMaxSurfaceCubemapWidth, "MaxSurfaceCubemapWidth"},
    {cudaDevAttrMaxSurfaceCubemapLayeredWidth, "MaxSurfaceCubemapLayeredWidth"},
    {cudaDevAttrMaxSurfaceCubemapLayeredLayers, "MaxSurfaceCubemapLayeredLayers"},
    {cudaDevAttrMaxTexture1DLinearWidth, "MaxTexture1DLinearWidth"},
    {cudaDevAttrMaxTexture2DLinearWidth, "MaxTexture2DLinearWidth"},
    {cudaDevAttrMaxTexture2DLinearHeight, "MaxTexture2DLinearHeight"},
    {cudaDevAttrMaxTexture2DLinearPitch, "MaxTexture2DLinearPitch"},
    {cudaDevAttrMaxTexture2DMipmappedWidth, "MaxTexture2DMipmappedWidth"},
    {cudaDevAttrMaxTexture2DMipmappedHeight, "MaxTexture2DMipmappedHeight"},
    {cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor"},
    {cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor"},
    {cudaDevAttrMaxTexture1DMipmappedWidth, "MaxTexture1DMipmappedWidth"},
    {cudaDevAttrStreamPrioritiesSupported, "StreamPrioritiesSupported"},
    {cudaDevAttrGlobalL1CacheSupported, "GlobalL1CacheSupported"},
    {cudaDevAttrLocalL1CacheSupported, "LocalL1CacheSupported"},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor"},
    {cudaDevAttrMaxRegistersPerMultiprocessor, "MaxRegistersPerMultiprocessor"},
    {cudaDevAttrManagedMemory, "ManagedMemory"},
    {cudaDevAttrSingleToDoublePrecisionPerfRatio, "SingleToDoublePrecisionPerfRatio"},
    {cudaDevAttrConcurrentManagedAccess, "ConcurrentManagedAccess"},
    {cudaDevAttrComputePreemptionSupported, "ComputePreemptionSupported"},
    {cudaDevAttrCanUseHostPointerForRegisteredMem, "CanUseHostPointerForRegisteredMem"},
    {cudaDevAttrCooperativeLaunch, "CooperativeLaunch"},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin"},
    {cudaDevAttrHostRegisterSupported, "HostRegisterSupported"},
    {cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor"},
    {cudaDevAttrMaxAccessPolicyWindowSize, "MaxAccessPolicyWindowSize"},
    {cudaDevAttrReservedSharedMemoryPerBlock, "ReservedSharedMemoryPerBlock"},
    {cudaDevAttrSparseCudaArraySupported, "SparseCudaArraySupported"},
    {cudaDevAttrHostRegisterReadOnlySupported, "HostRegisterReadOnlySupported"},
    {cudaDevAttrMemoryPoolsSupported, "MemoryPoolsSupported"},
    {cudaDevAttrClusterLaunch, "ClusterLaunch"},
    {cudaDevAttrDeferredMappingCudaArraySupported, "DeferredMappingCudaArraySupported"},
    {cudaDevAttrMemSyncDomainCount, "MemSyncDomainCount"}};
  int failed = 0;
  for (const Attribute& a : attributes) {
    int value = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&value, a.attr, 0);
    if (e != cudaSuccess) {
      std::printf("%s: %s\n", a.name, cudaGetErrorName(e));
      ++failed;
      continue;
    }
    std::printf("%s %d\n", a.name, value);
  }
  cudaDeviceProp p;
  const cudaError_t e = cudaGetDeviceProperties(&p, 0);
  std::printf("properties: %s, sm_%d%d, sizeof %zu\n", cudaGetErrorName(e), p.major, p.minor, sizeof p);
  return failed;
}
