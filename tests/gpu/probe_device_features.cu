// Prints what device-side features give a kernel, as samples and course
// exercises use them: malloc/new on the device heap sized by
// cudaDeviceSetLimit, umin/umax, clock64, half-precision arithmetic, and a
// failing device assert, which stops the kernel and makes the runtime return
// cudaErrorAssert from then on. Run on a GPU, its output is recorded in
// expected/; the emulator must print the same lines (the assert message itself
// goes to stderr and is not compared).
#include <cuda_fp16.h>

#include <cassert>
#include <cstdio>

__global__ void heap_user(int* result, int count) {
  int* mine = static_cast<int*>(malloc(count * sizeof(int)));
  if (mine == nullptr) {
    result[threadIdx.x] = -1;
    return;
  }
  for (int i = 0; i < count; ++i) mine[i] = i + static_cast<int>(threadIdx.x);
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += mine[i];
  free(mine);
  int* one = new int(sum);
  result[threadIdx.x] = *one;
  delete one;
}

__global__ void huge_request(int* got) {
  void* p = malloc(size_t(1) << 40);  // far beyond any heap: malloc returns null
  *got = p == nullptr ? 0 : 1;
  free(p);
}

__global__ void integer_and_clock(unsigned* out, long long* ticks) {
  out[0] = umin(7u, 3u);
  out[1] = umax(7u, 3u);
  out[2] = min(-4, 9);
  out[3] = max(2u, 11u);
  const long long a = clock64();
  int spin = 0;
  for (int i = 0; i < 1000; ++i) spin += i;
  const long long b = clock64();
  ticks[0] = b >= a ? 1 : 0;
  ticks[1] = spin;
  const clock_t c = clock();
  ticks[2] = c >= 0 ? 1 : 0;
}

__global__ void half_math(float* out) {
  const __half a = __float2half(1.5f);
  const __half b = __float2half(0.333333f);
  out[0] = __half2float(__hadd(a, b));
  out[1] = __half2float(__hmul(a, b));
  out[2] = __half2float(a * b + a);
  out[3] = __half2float(__float2half(65519.0f));  // rounds to 65504, the largest half
  out[4] = __half2float(__float2half(70000.0f));  // overflows to infinity
  const __half2 pair = __floats2half2_rn(2.0f, -0.5f);
  const __half2 twice = __hadd2(pair, pair);
  out[5] = __low2float(twice);
  out[6] = __high2float(twice);
  out[7] = __hlt(a, b) ? 1.0f : 0.0f;
}

__global__ void checked_index(const int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);  // fails for the threads past n
  (void)data[i < n ? i : 0];
}

int main() {
  size_t heap = 0;
  std::printf("set heap 1 MiB: %s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20)));
  const cudaError_t got = cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);  // before reading heap
  std::printf("get heap: %s, %zu\n", cudaGetErrorName(got), heap);
  int* result = nullptr;
  cudaMallocManaged(&result, 64 * sizeof(int));
  heap_user<<<1, 64>>>(result, 100);
  std::printf("heap kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int right = 0;
  for (int t = 0; t < 64; ++t) right += result[t] == 4950 + 100 * t;
  std::printf("heap sums right: %d of 64\n", right);
  huge_request<<<1, 1>>>(result);
  cudaDeviceSynchronize();
  std::printf("huge device malloc returned null: %s\n", result[0] == 0 ? "yes" : "no");

  unsigned* out = nullptr;
  long long* ticks = nullptr;
  cudaMallocManaged(&out, 4 * sizeof(unsigned));
  cudaMallocManaged(&ticks, 3 * sizeof(long long));
  integer_and_clock<<<1, 1>>>(out, ticks);
  cudaDeviceSynchronize();
  std::printf("umin %u umax %u min %d max %u\n", out[0], out[1], static_cast<int>(out[2]), out[3]);
  std::printf("clock64 monotonic: %lld, spin %lld, clock non-negative: %lld\n", ticks[0], ticks[1], ticks[2]);

  float* h = nullptr;
  cudaMallocManaged(&h, 8 * sizeof(float));
  half_math<<<1, 1>>>(h);
  cudaDeviceSynchronize();
  std::printf("half: %.6f %.6f %.6f %.1f %f %.2f %.2f %.0f\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);

  checked_index<<<2, 64>>>(result, 100);
  std::printf("assert kernel launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  int* more = nullptr;
  std::printf("then cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&more, 16)));
  std::printf("then synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
