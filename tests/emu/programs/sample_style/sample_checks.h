// Error checking in the manner of cuda-samples' Common/helper_cuda.h, written for
// this test: the checking macros exist only when the CUDA headers define the
// include guards helper_cuda.h tests (__DRIVER_TYPES_H__, __CUDA_RUNTIME_H__),
// so a program using them does not compile unless the emulator's headers do too.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifdef __DRIVER_TYPES_H__
template <class T> void check_call(T result, const char* call, const char* file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, static_cast<int>(result),
                 cudaGetErrorName(result), call);
    std::exit(EXIT_FAILURE);
  }
}
#define CHECK_CUDA(call) check_call((call), #call, __FILE__, __LINE__)
#define CHECK_LAST_CUDA_ERROR(what)                                                                   \
  do {                                                                                                \
    const cudaError_t e = cudaGetLastError();                                                         \
    if (e != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "%s(%d) : CUDA error : %s : (%d) %s.\n", __FILE__, __LINE__, what, (int)e, \
                   cudaGetErrorString(e));                                                            \
      std::exit(EXIT_FAILURE);                                                                        \
    }                                                                                                 \
  } while (0)
#endif

// FP32 cores per SM by compute capability (as NVIDIA documents them).
inline int cores_per_sm(int major, int minor) {
  const int version = (major << 4) + minor;
  switch (version) {
    case 0x70:
    case 0x72:
    case 0x75:
    case 0x80: return 64;
    case 0x86:
    case 0x87:
    case 0x89:
    case 0x90:
    case 0xa0:
    case 0xc0: return 128;
    default: return 128;
  }
}

#ifdef __CUDA_RUNTIME_H__
// Picks device 0 after checking that it may be used, and says what it is.
inline int pick_device() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  if (count == 0) {
    std::fprintf(stderr, "no CUDA device\n");
    std::exit(EXIT_FAILURE);
  }
  int mode = -1, major = 0, minor = 0, sms = 0, clock_khz = 0, integrated = -1;
  CHECK_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  if (mode == cudaComputeModeProhibited) {
    std::fprintf(stderr, "the device is in compute mode Prohibited\n");
    std::exit(EXIT_FAILURE);
  }
  CHECK_CUDA(cudaSetDevice(0));
  std::printf("Device 0: compute capability %d.%d, %s, %d SMs x %d cores\n", major, minor,
              integrated ? "integrated" : "discrete", sms, cores_per_sm(major, minor));
  return 0;
}
#endif
