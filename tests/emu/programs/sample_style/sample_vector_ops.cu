// A program in the style of the NVIDIA CUDA samples, run unmodified by `gpulab run`:
// device selection and error checks through a helper_cuda-like header, version
// queries, an occupancy-chosen block size, zero-copy (mapped) pinned memory,
// device-side malloc, half precision, a device assert that holds, clock64() and
// profiler ranges. With the argument `assert` the kernel's assert fails: the
// failing thread's message and a cudaErrorAssert from the next checked call.
#include <cuda_fp16.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>
#include <cstring>

#include "sample_checks.h"

__global__ void scale_add(const float* x, float* y, int n, float a, int limit, long long* cycles) {
  const long long start = clock64();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(i < limit);
    // A per-thread scratch buffer from the device heap.
    float* scratch = static_cast<float*>(malloc(2 * sizeof(float)));
    if (scratch) {
      scratch[0] = x[i];
      scratch[1] = __half2float(__hmul(__float2half(a), __float2half(1.0f)));
      y[i] = scratch[1] * scratch[0] + y[i];
      free(scratch);
    } else {
      y[i] = -1.0f;
    }
  }
  if (i == 0) *cycles = clock64() - start;
}

int main(int argc, char** argv) {
  const bool fail_assert = argc > 1 && std::strcmp(argv[1], "assert") == 0;
  std::printf("[sample_vector_ops] starting\n");
  pick_device();
  int driver = 0, runtime = 0;
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  std::printf("CUDA Driver Version / Runtime Version %d.%d / %d.%d\n", driver / 1000, (driver % 100) / 10,
              runtime / 1000, (runtime % 100) / 10);

  CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceMapHost));
  const int n = 50000;
  float *x = nullptr, *y = nullptr;
  CHECK_CUDA(cudaHostAlloc(&x, n * sizeof(float), cudaHostAllocMapped));
  CHECK_CUDA(cudaMallocHost(&y, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 100);
    y[i] = 1.0f;
  }
  float *d_x = nullptr, *d_y = nullptr;
  long long* d_cycles = nullptr;
  CHECK_CUDA(cudaHostGetDevicePointer(&d_x, x, 0));
  CHECK_CUDA(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(d_y, y, n * sizeof(float), cudaMemcpyHostToDevice));

  int min_grid = 0, block = 0;
  CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_add, 0, 256));
  const int grid = (n + block - 1) / block;
  std::printf("block size %d (occupancy), grid %d\n", block, grid);

  CHECK_CUDA(cudaProfilerStart());
  scale_add<<<grid, block>>>(d_x, d_y, n, 2.0f, fail_assert ? n / 2 : n, d_cycles);
  CHECK_LAST_CUDA_ERROR("scale_add launch");
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaProfilerStop());

  CHECK_CUDA(cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  long long cycles = 0;
  CHECK_CUDA(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 2.0f * (i % 100) + 1.0f;
  std::printf("thread 0 took %s clock64() ticks\n", cycles > 0 ? "a positive number of" : "no");
  CHECK_CUDA(cudaFree(d_y));
  CHECK_CUDA(cudaFree(d_cycles));
  CHECK_CUDA(cudaFreeHost(x));
  CHECK_CUDA(cudaFreeHost(y));
  std::printf("%d wrong\nResult = %s\n", wrong, wrong == 0 ? "PASS" : "FAIL");
  return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
