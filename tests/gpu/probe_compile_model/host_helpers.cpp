// A host source, compiled by the host compiler as plain C++: its helpers may carry the names of
// CUDA's device functions (umin, umax, __popc, saturate), as cuda-samples' mergeSort_host.cpp does.
// It includes cuda_runtime.h and gets the runtime API, as with nvcc.
#include <cuda_runtime.h>

#include <cstdio>

typedef unsigned int uint;
static uint umin(uint a, uint b) { return a < b ? a : b; }
static uint umax(uint a, uint b) { return a > b ? a : b; }
static int __popc(unsigned x) { return x == 0 ? 0 : 1 + __popc(x & (x - 1)); }
static float saturate(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

void report_host_helpers() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
#ifdef __CUDACC__
  const int cudacc = 1;
#else
  const int cudacc = 0;
#endif
  std::printf("host source: umin %u, umax %u, __popc %d, saturate %.1f, __CUDACC__ %d, device count %s %d\n",
              umin(3, 5), umax(3, 5), __popc(0xF0u), saturate(2.5f), cudacc, cudaGetErrorName(e), devices > 0);
}
