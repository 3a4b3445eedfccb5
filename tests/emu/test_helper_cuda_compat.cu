// Conformance: what cuda-samples' Common/helper_cuda.h and deviceQuery-style
// programs rely on. The include-guard macros it tests (__CUDA_RUNTIME_H__ for
// findCudaDevice, __DRIVER_TYPES_H__ for checkCudaErrors), the version macros
// and calls of CUDA 13.0, the device attributes it reads (compute mode,
// integrated, clock rate, SM count, compute capability) with their values on
// an H100, error names for every code, and cuda_profiler_api.h.
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <string>

TEST_CASE("the include-guard and version macros helper_cuda.h tests are those of CUDA 13.0") {
#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__)
  FAIL("cuda_runtime.h must define __CUDA_RUNTIME_H__ and __DRIVER_TYPES_H__");
#endif
  CHECK(CUDART_VERSION == 13000);
  CHECK(__CUDACC_VER_MAJOR__ == 13);
  CHECK(__CUDACC_VER_MINOR__ == 0);
  int runtime = 0, driver = 0;
  CHECK(cudaRuntimeGetVersion(&runtime) == cudaSuccess);
  CHECK(runtime == CUDART_VERSION);
  CHECK(cudaDriverGetVersion(&driver) == cudaSuccess);
  CHECK(driver >= 13000);
  CHECK(cudaRuntimeGetVersion(nullptr) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("the enum values helper_cuda.h and host-memory code compare against are CUDA 13's") {
  CHECK(cudaComputeModeDefault == 0);
  CHECK(cudaComputeModeExclusive == 1);
  CHECK(cudaComputeModeProhibited == 2);
  CHECK(cudaComputeModeExclusiveProcess == 3);
  CHECK(cudaDevAttrClockRate == 13);
  CHECK(cudaDevAttrIntegrated == 18);
  CHECK(cudaDevAttrComputeMode == 20);
  CHECK(cudaDevAttrMultiProcessorCount == 16);
  CHECK(cudaDevAttrComputeCapabilityMajor == 75);
  CHECK(cudaDevAttrComputeCapabilityMinor == 76);
  CHECK(cudaErrorHostMemoryAlreadyRegistered == 712);
  CHECK(cudaErrorHostMemoryNotRegistered == 713);
  CHECK(cudaErrorAssert == 710);
  CHECK(cudaHostAllocMapped == 2);
  CHECK(cudaDeviceMapHost == 8);
}

TEST_CASE("findCudaDevice's attributes: compute mode default, discrete, sm_90, a clock rate") {
  int value = -1;
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrComputeMode, 0) == cudaSuccess);
  CHECK(value == cudaComputeModeDefault);
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrIntegrated, 0) == cudaSuccess);
  CHECK(value == 0);
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 0) == cudaSuccess);
  CHECK(value == 9);
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMinor, 0) == cudaSuccess);
  CHECK(value == 0);
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrClockRate, 0) == cudaSuccess);
  CHECK(value > 0);

  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  int sms = 0;
  REQUIRE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) == cudaSuccess);
  CHECK(sms == prop.multiProcessorCount);
  CHECK(prop.canMapHostMemory == 1);
  CHECK(prop.integrated == 0);
  CHECK(prop.unifiedAddressing == 1);
  CHECK(prop.canUseHostPointerForRegisteredMem == 1);
}

TEST_CASE("the attributes a deviceQuery prints agree with cudaGetDeviceProperties") {
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  const struct {
    cudaDeviceAttr attr;
    long long expected;
  } rows[] = {
      {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, static_cast<long long>(p.sharedMemPerMultiprocessor)},
      {cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock},
      {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
      {cudaDevAttrReservedSharedMemoryPerBlock, static_cast<long long>(p.reservedSharedMemPerBlock)},
      {cudaDevAttrCanMapHostMemory, p.canMapHostMemory},
      {cudaDevAttrUnifiedAddressing, p.unifiedAddressing},
      {cudaDevAttrManagedMemory, p.managedMemory},
      {cudaDevAttrConcurrentKernels, p.concurrentKernels},
      {cudaDevAttrAsyncEngineCount, p.asyncEngineCount},
  };
  for (const auto& row : rows) {
    int value = -1;
    INFO("attribute " << static_cast<int>(row.attr));
    REQUIRE(cudaDeviceGetAttribute(&value, row.attr, 0) == cudaSuccess);
    CHECK(value == row.expected);
  }
  CHECK(p.maxThreadsPerMultiProcessor == 2048);
  CHECK(p.maxBlocksPerMultiProcessor == 32);
  CHECK(p.regsPerMultiprocessor == 65536);
  // deviceQuery's texture rows, as an H100 reports them.
  CHECK(p.maxTexture1D == 131072);
  CHECK(p.maxTexture2D[0] == 131072);
  CHECK(p.maxTexture2D[1] == 65536);
  CHECK(p.maxTexture3D[2] == 16384);
  CHECK(p.maxTexture2DLayered[2] == 2048);
}

TEST_CASE("cudaGetErrorName and cudaGetErrorString know the host-memory and assert codes") {
  CHECK(std::string(cudaGetErrorName(cudaErrorHostMemoryAlreadyRegistered)) == "cudaErrorHostMemoryAlreadyRegistered");
  CHECK(std::string(cudaGetErrorName(cudaErrorHostMemoryNotRegistered)) == "cudaErrorHostMemoryNotRegistered");
  CHECK(std::string(cudaGetErrorName(cudaErrorSetOnActiveProcess)) == "cudaErrorSetOnActiveProcess");
  CHECK(std::string(cudaGetErrorName(cudaErrorAssert)) == "cudaErrorAssert");
  CHECK(std::string(cudaGetErrorString(cudaErrorHostMemoryNotRegistered)) ==
        "pointer does not correspond to a registered memory region");
  CHECK(std::string(cudaGetErrorString(cudaErrorHostMemoryAlreadyRegistered)) ==
        "part or all of the requested memory range is already mapped");
  CHECK(std::string(cudaGetErrorString(cudaErrorAssert)) == "device-side assert triggered");
}

TEST_CASE("cudaProfilerStart and cudaProfilerStop succeed") {
  CHECK(cudaProfilerStart() == cudaSuccess);
  CHECK(cudaProfilerStop() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}
