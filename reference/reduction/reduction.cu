// Hidden reference solution of the reduction lab (both parts): the baseline the
// grader times students against, and the proof that every dataset can be passed.
// It is the course's final pattern -- algorithm cascading (each thread first sums
// many elements on its own, reading the input interleaved so that loads are
// coalesced), then a tree inside the block with no divergence, done with warp
// shuffles, then one atomicAdd per block -- plus what makes it fast: a grid sized
// to the device (a few resident blocks per SM, so threads are few and busy),
// 16-byte vector loads, four of them in flight per thread.
// Tuning knobs are the named constants below.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

// Threads per block (a multiple of 32, at most 1024).
constexpr int RED_BLOCK = 256;
// Resident blocks per SM the grid is sized for; more blocks only add atomics.
constexpr int RED_BLOCKS_PER_SM = 8;
// Hard cap on the grid, whatever the device says.
constexpr int RED_MAX_BLOCKS = 4096;
// Elements each thread should sum at least before another block is worth launching.
constexpr int RED_MIN_ELEMS_PER_THREAD = 32;

constexpr int WARP = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;

// Integers are accumulated as unsigned: wrap-around addition is associative, so
// the result is exact whenever the true sum fits in an int, even if a partial
// sum on the way would not (signed overflow would be undefined behaviour).
template <class T> struct Acc;
template <> struct Acc<int> { using type = unsigned int; using vec = int4; };
template <> struct Acc<float> { using type = float; using vec = float4; };

// Tree reduction inside one warp: after log2(32) = 5 steps lane 0 holds the sum
// of the 32 lanes. Shuffles need no shared memory and no __syncthreads.
template <class A>
__device__ __forceinline__ A warp_sum(A v) {
  for (int offset = WARP / 2; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

// The four lanes of a 16-byte vector, added pairwise.
template <class A, class V>
__device__ __forceinline__ A vec_sum(const V& p) {
  return (static_cast<A>(p.x) + static_cast<A>(p.y)) + (static_cast<A>(p.z) + static_cast<A>(p.w));
}

template <class T>
__global__ void reduce_kernel(const T* in, T* out, size_t n) {
  using A = typename Acc<T>::type;
  using V = typename Acc<T>::vec;
  __shared__ A warp_sums[RED_BLOCK / WARP];

  const size_t tid = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;

  // 1. Cascading: each thread sums its share of the input. In each round the
  //    whole grid reads one contiguous stretch of 16-byte vectors (coalesced).
  //    The elements before the first 16-byte boundary and after the last whole
  //    vector are read one by one.
  A acc0 = 0, acc1 = 0;
  size_t head = ((16 - (reinterpret_cast<uintptr_t>(in) & 15u)) & 15u) / sizeof(T);
  if (head > n) head = n;
  if (tid < head) acc0 += static_cast<A>(in[tid]);
  const size_t vecs = (n - head) / 4;
  const V* vin = reinterpret_cast<const V*>(in + head);
  size_t v = tid;
  for (; v + 3 * stride < vecs; v += 4 * stride) {  // four independent 16-byte loads in flight
    const V p = vin[v];
    const V q = vin[v + stride];
    const V r = vin[v + 2 * stride];
    const V s = vin[v + 3 * stride];
    acc0 += vec_sum<A>(p) + vec_sum<A>(q);
    acc1 += vec_sum<A>(r) + vec_sum<A>(s);
  }
  for (; v < vecs; v += stride) acc0 += vec_sum<A>(vin[v]);
  const size_t tail = head + vecs * 4;
  if (tail + tid < n) acc1 += static_cast<A>(in[tail + tid]);
  A sum = acc0 + acc1;

  // 2. Tree inside the block: each warp reduces itself with shuffles, its lane 0
  //    parks the warp's sum in shared memory, and after one barrier the first
  //    warp reduces those sums the same way. Active threads stay contiguous.
  const int lane = threadIdx.x % WARP;
  const int warp = threadIdx.x / WARP;
  sum = warp_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < RED_BLOCK / WARP ? warp_sums[lane] : A(0);
    sum = warp_sum(sum);
    // 3. One atomic per block combines the block sums (*out arrives zeroed).
    if (lane == 0) atomicAdd(reinterpret_cast<A*>(out), sum);
  }
}

// Enough blocks to fill the device, but never more than the input can keep busy.
static int reduce_blocks(size_t n) {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) {
      sms = 1;
    }
  }
  const size_t per_block = static_cast<size_t>(RED_BLOCK) * RED_MIN_ELEMS_PER_THREAD;
  size_t blocks = (n + per_block - 1) / per_block;
  const size_t cap = static_cast<size_t>(sms) * RED_BLOCKS_PER_SM;
  if (blocks > cap) blocks = cap;
  if (blocks > RED_MAX_BLOCKS) blocks = RED_MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  return static_cast<int>(blocks);
}

void reduce_sum_int(const int* in, int* out, int n) {
  if (n <= 0) return;
  reduce_kernel<int><<<reduce_blocks(n), RED_BLOCK>>>(in, out, static_cast<size_t>(n));
}

void reduce_sum_float(const float* in, float* out, int n) {
  if (n <= 0) return;
  reduce_kernel<float><<<reduce_blocks(n), RED_BLOCK>>>(in, out, static_cast<size_t>(n));
}
