// Prints what a program written against an error-checking helper header in the
// style of cuda-samples' helper_cuda.h sees: that header defines its checking
// macros only where the runtime's own include guards (__DRIVER_TYPES_H__,
// __CUDA_RUNTIME_H__) are defined, reads versions and device attributes, and
// reports a failed launch. Run on a GPU, its output is recorded in expected/;
// the emulator must print the same lines.
#include <cstdio>
#include <cstdlib>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

// ---- the helper header's pattern (written for this probe) ----
#ifdef __DRIVER_TYPES_H__
static const char* error_enum(cudaError_t e) { return cudaGetErrorName(e); }
#endif
#ifdef __CUDA_RUNTIME_H__
#define CHECK(call) check_result((call), #call)
#define LAST_ERROR(what) last_error(what)
template <typename T>
static void check_result(T result, const char* call) {
  if (result) std::printf("CHECK failed: %s returned %d (%s)\n", call, static_cast<int>(result), error_enum(result));
}
static void last_error(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) std::printf("%s: error %d (%s): %s\n", what, static_cast<int>(e), error_enum(e),
                                    cudaGetErrorString(e));
}
#endif
// ---- end of the helper header's pattern ----

__global__ void fill(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

int main() {
#if defined(CHECK) && defined(LAST_ERROR)
  std::printf("helper macros defined: yes\n");
#else
  std::printf("helper macros defined: no\n");
  return 1;
#endif
  std::printf("CUDART_VERSION >= 12000: %s\n", CUDART_VERSION >= 12000 ? "yes" : "no");
  int runtime = 0, driver = 0;
  CHECK(cudaRuntimeGetVersion(&runtime));
  CHECK(cudaDriverGetVersion(&driver));
  std::printf("runtime version equals CUDART_VERSION: %s\n", runtime == CUDART_VERSION ? "yes" : "no");
  std::printf("driver version >= runtime version: %s\n", driver >= runtime ? "yes" : "no");

  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  std::printf("devices: at least one: %s\n", count >= 1 ? "yes" : "no");
  CHECK(cudaSetDevice(0));
  int major = 0, minor = 0, mode = -1, integrated = -1, clock_khz = 0, sms = 0, warp = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0));
  CHECK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  CHECK(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0));
  std::printf("compute capability %d.%d, warp size %d\n", major, minor, warp);
  std::printf("compute mode default: %s, prohibited: %s\n", mode == cudaComputeModeDefault ? "yes" : "no",
              mode == cudaComputeModeProhibited ? "yes" : "no");
  std::printf("integrated: %d, clock rate positive: %s, SMs positive: %s\n", integrated, clock_khz > 0 ? "yes" : "no",
              sms > 0 ? "yes" : "no");
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("prop agrees with attributes: %s\n",
              prop.major == major && prop.minor == minor && prop.multiProcessorCount == sms ? "yes" : "no");
  CHECK(cudaProfilerStart());

  int* out = nullptr;
  CHECK(cudaMalloc(&out, 256 * sizeof(int)));
  fill<<<2, 128>>>(out, 7);
  LAST_ERROR("fill <<<2, 128>>>");
  CHECK(cudaDeviceSynchronize());
  int host[256] = {};
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  int sevens = 0;
  for (int v : host) sevens += v == 7;
  std::printf("fill wrote %d of 256\n", sevens);

  fill<<<1, 2048>>>(out, 1);  // too many threads per block: the launch fails
  LAST_ERROR("fill <<<1, 2048>>>");
  CHECK(cudaMemcpy(host, out, sizeof host, static_cast<cudaMemcpyKind>(42)));  // not a copy direction
  LAST_ERROR("after the bad memcpy kind");
  CHECK(cudaProfilerStop());
  CHECK(cudaFree(out));
  std::printf("done\n");
  return 0;
}
