// A kernel whose threads each keep 64 batches of asynchronous copies in flight: the emulator's
// tables of them grow on the heap while the kernel runs. The checking build must report nothing
// (they are the emulator's memory, not accesses of the kernel), also when every thread of the
// process shares glibc's main heap (MALLOC_ARENA_MAX=1, as CTest runs it), where the emulator's
// allocations cannot be told from the program's by address.
#include <cuda_pipeline.h>

#include <cstdio>

constexpr int kInFlight = 64;
constexpr int kBlocks = 4;

__global__ void many_in_flight(const float* in, float* out) {
  __shared__ float s[kInFlight][128];
  for (int r = 0; r < kInFlight; ++r) {
    __pipeline_memcpy_async(&s[r][threadIdx.x], in + (blockIdx.x * kInFlight + r) * 128 + threadIdx.x, 4);
    __pipeline_commit();
  }
  __pipeline_wait_prior(0);
  __syncthreads();
  float sum = 0;
  for (int r = 0; r < kInFlight; ++r) sum += s[r][127 - threadIdx.x];
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}

int main() {
  const int n = kBlocks * kInFlight * 128;
  static float h[n], o[kBlocks * 128];
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 7);
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof o);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  many_in_flight<<<kBlocks, 128>>>(in, out);
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b) {
    for (int t = 0; t < 128; ++t) {
      float want = 0;
      for (int r = 0; r < kInFlight; ++r) want += h[(b * kInFlight + r) * 128 + 127 - t];
      if (o[b * 128 + t] != want) ++wrong;
    }
  }
  std::printf("copies in flight: %d wrong, %s\n", wrong, cudaGetErrorString(cudaGetLastError()));
  return wrong != 0;
}
