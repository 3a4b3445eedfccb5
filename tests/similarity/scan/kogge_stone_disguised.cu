// Test corpus: a disguised copy of reference/scan/progression/hierarchical_kogge_stone.cu (names
// changed, the kernels in reverse order behind declarations, comments rewritten, the shift test
// rewritten with the branches swapped, a statistics counter added that nothing reads).
#include <cuda_runtime.h>

#define TPB 512

template <class E> __device__ E blockScanKS(E value, E (*ping)[TPB]);

template <class E>
__global__ void fixUp(E* dst, const E* totals, int count) {
  const long long g = static_cast<long long>(blockIdx.x) * TPB + threadIdx.x;
  if (blockIdx.x > 0 && g < count) dst[g] += totals[blockIdx.x - 1];
}

__device__ unsigned int g_launches;

// scans the array of block totals with a single block, TPB entries per round
template <class E>
__global__ void scanTotals(E* totals, int howMany) {
  __shared__ E ping[2][TPB];
  __shared__ E running;
  if (threadIdx.x == 0) running = E(0);
  for (int base = 0; base < howMany; base += TPB) {
    const int g = base + threadIdx.x;
    const E s = blockScanKS(g < howMany ? totals[g] : E(0), ping);
    const E r = running;
    if (g < howMany) totals[g] = s + r;
    __syncthreads();
    if (threadIdx.x == TPB - 1) running = r + s;
  }
}

template <class E>
__global__ void scanTiles(const E* src, E* dst, E* totals, int count, bool exclusive) {
  __shared__ E ping[2][TPB];
  const long long g = static_cast<long long>(blockIdx.x) * TPB + threadIdx.x;
  E v = E(0);
  if (!exclusive) {
    if (g < count) v = src[g];
  } else if (g > 0 && g - 1 < count) {
    v = src[g - 1];
  }
  const E s = blockScanKS(v, ping);
  if (g < count) dst[g] = s;
  if (threadIdx.x == TPB - 1) totals[blockIdx.x] = s;
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(&g_launches, 1u);
}

template <class E>
__device__ E blockScanKS(E value, E (*ping)[TPB]) {
  const int me = threadIdx.x;
  int src = 0;
  ping[0][me] = value;
  for (int d = 1; d < TPB; d *= 2) {
    __syncthreads();
    E acc = ping[src][me];
    if (me >= d) acc += ping[src][me - d];
    ping[1 - src][me] = acc;
    src = 1 - src;
  }
  __syncthreads();
  return ping[src][me];
}

template <class E>
void threeKernelScan(const E* src, E* dst, int count, bool exclusive) {
  E* totals;
  const int tiles = (count + TPB - 1) / TPB;
  cudaMalloc(&totals, tiles * sizeof(E));
  scanTiles<E><<<tiles, TPB>>>(src, dst, totals, count, exclusive);
  if (tiles > 1) {
    scanTotals<E><<<1, TPB>>>(totals, tiles);
    fixUp<E><<<tiles, TPB>>>(dst, totals, count);
  }
  cudaFree(totals);
}

void exclusive_scan(const int* in, int* out, int n) { threeKernelScan(in, out, n, true); }
void inclusive_scan(const float* in, float* out, int n) { threeKernelScan(in, out, n, false); }
