// Lab: scan. Legitimate: a three-phase scan (a block scan in shared memory, the block sums scanned
// on the host, then added back by a kernel) that also prints its first few results for debugging,
// copying back only those. Every correctness point kept.
#include <cstdio>
#include <vector>

constexpr int kBlock = 1024;

template <typename T>
__global__ void block_scan(const T* in, T* out, T* block_sums, int n, bool exclusive) {
  __shared__ T tile[kBlock];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  const T x = i < n ? in[i] : T(0);
  tile[threadIdx.x] = x;
  __syncthreads();
  for (int offset = 1; offset < kBlock; offset *= 2) {
    const T add = threadIdx.x >= offset ? tile[threadIdx.x - offset] : T(0);
    __syncthreads();
    tile[threadIdx.x] += add;
    __syncthreads();
  }
  if (i < n) out[i] = exclusive ? tile[threadIdx.x] - x : tile[threadIdx.x];
  if (threadIdx.x == kBlock - 1) block_sums[blockIdx.x] = tile[threadIdx.x];
}

template <typename T>
__global__ void add_offsets(T* out, const T* offsets, int n) {
  const int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) out[i] += offsets[blockIdx.x];
}

template <typename T, typename Wide>
void scan(const T* in, T* out, int n, bool exclusive) {
  const int blocks = (n + kBlock - 1) / kBlock;
  T* sums = nullptr;
  cudaMalloc(&sums, blocks * sizeof(T));
  block_scan<<<blocks, kBlock>>>(in, out, sums, n, exclusive);
  std::vector<T> host(blocks);
  cudaMemcpy(host.data(), sums, blocks * sizeof(T), cudaMemcpyDeviceToHost);
  Wide running = 0;
  for (T& s : host) {
    const Wide before = running;
    running += s;
    s = static_cast<T>(before);
  }
  cudaMemcpy(sums, host.data(), blocks * sizeof(T), cudaMemcpyHostToDevice);
  add_offsets<<<blocks, kBlock>>>(out, sums, n);
  cudaFree(sums);
  // Debugging: the first few results.
  T first[4] = {};
  const int shown = n < 4 ? n : 4;
  cudaMemcpy(first, out, shown * sizeof(T), cudaMemcpyDeviceToHost);
  for (int i = 0; i < shown; ++i) std::printf("out[%d] = %g\n", i, static_cast<double>(first[i]));
}

void inclusive_scan(const float* in, float* out, int n) { scan<float, double>(in, out, n, false); }
void exclusive_scan(const int* in, int* out, int n) { scan<int, long long>(in, out, n, true); }
