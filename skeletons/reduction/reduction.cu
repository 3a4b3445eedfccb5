// Reduction lab -- your starting point. Fill in the TODOs to compute the sum of
// n numbers on the GPU, first for ints (part "int"), then for floats (part
// "float"). The kernel is a template, so the same code serves both parts.
//
// What you write, and what the grader gives you:
//   - reduce_sum_int / reduce_sum_float are called by the grader's harness with
//     DEVICE pointers: `in` already holds the n inputs on the GPU, `*out` is one
//     number on the GPU that arrives set to 0. Do not copy the input to the CPU
//     and sum it there: the point is to compute on the GPU.
//   - There is no main() in this file: the harness provides it.
//   - Test:  gpulab test reduction skeletons/reduction/reduction.cu
//     Score: gpulab grade reduction skeletons/reduction/reduction.cu
//     (both run on the CPU emulator when there is no GPU).
//
// As given, this file compiles and runs, and every test fails with
// "not implemented" values (NaN / -2147483648) in place of the sum. Read
// assignments/reduction/README.md first: its sections 4 to 8 explain each step
// below (the "README §" notes). Suggested order: steps 1, 2, 3 and 4 with one
// element per thread; then cascading (raise ELEMENTS_PER_THREAD); then the
// warp shuffles of step 3b. Test after each one.
#include <cuda_runtime.h>

#include <climits>
#include <cmath>

// ---------------------------------------------------------------------------
// Launch configuration. Keep these as named constants: you will want to try
// other values when you measure your kernel on a GPU.
// ---------------------------------------------------------------------------

// Threads per block. The tree in step 3 halves the number of active threads at
// every step, so keep it a power of two (and a multiple of the warp size, 32).
constexpr int BLOCK_SIZE = 256;

// Cascading (step 1, README §6): roughly how many input elements each thread
// adds up on its own before the threads of a block cooperate. 1 means "one
// element per thread", the plain tree of README §4. Start with 1; once your
// kernel passes, raise it (8, 32, ...): the grid-stride loop of step 1 stays
// correct for any value, and fewer, busier threads are faster.
constexpr int ELEMENTS_PER_THREAD = 1;

// Threads of a warp.
constexpr int WARP_SIZE = 32;

// ---------------------------------------------------------------------------
// The placeholder that makes an unfinished kernel fail clearly. *out arrives
// as 0 and some datasets really do sum to 0, so a kernel that writes nothing
// would pass them by accident. Until you replace it, the kernel stores a value
// no dataset can sum to. DELETE the line that uses it once you write step 4.
// ---------------------------------------------------------------------------
template <typename T> __device__ T not_implemented();
template <> __device__ int not_implemented<int>() { return INT_MIN; }
template <> __device__ float not_implemented<float>() { return NAN; }

// ---------------------------------------------------------------------------
// Step 3b (README §7; do it after the rest works): the last 32 partial sums of
// a block, summed inside one warp with shuffles instead of shared memory.
//
// __shfl_down_sync(mask, v, offset) returns the value of `v` held by the lane
// `offset` places above the calling lane, in the same warp, with no shared
// memory and no __syncthreads(). Adding it for offset = 16, 8, 4, 2, 1 is a
// tree of depth 5 over the 32 lanes: afterwards lane 0 holds the warp's sum.
// Every lane of the warp must execute the same shuffles (mask 0xffffffff).
// ---------------------------------------------------------------------------
template <typename T>
__device__ T warp_reduce_sum(T value) {
  // TODO: for offset = WARP_SIZE / 2, ..., 2, 1:
  //         value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

// ---------------------------------------------------------------------------
// The kernel: each block sums its share of the input and adds that block sum
// to *out with one atomicAdd.
// ---------------------------------------------------------------------------
template <typename T>
__global__ void reduce_kernel(const T* in, T* out, int n) {
  // One partial sum per thread of the block, shared by the block.
  __shared__ T partial[BLOCK_SIZE];
  const unsigned int t = threadIdx.x;

  // Step 1 -- load, with cascading (README §4 and §6).
  // TODO: each thread adds up its elements in a private variable (a register),
  //   starting from 0, with a grid-stride loop:
  //       i = blockIdx.x * blockDim.x + t;  then  i += blockDim.x * gridDim.x
  //   while i < n. Consecutive threads read consecutive elements at every
  //   round (coalesced loads), the loop adapts to any n, and the `i < n` test
  //   is your bounds check: the last block is usually not full.
  T sum = 0;

  // Step 2 -- share (README §4).
  // TODO: store the private sum in partial[t], then wait until every thread of
  //   the block has stored its value (__syncthreads()) before anyone reads it.
  partial[t] = sum;

  // Step 3 -- tree reduction in shared memory, without divergence (README §5).
  // TODO: halve the number of active threads at every step and keep them
  //   contiguous (threads 0..stride-1 work, the others wait), so that whole
  //   warps are either busy or idle:
  //       for (stride = blockDim.x / 2; stride > 0; stride /= 2)
  //         if (t < stride) partial[t] += partial[t + stride];
  //         __syncthreads();   // every step reads what the previous step wrote
  //   Do NOT use the interleaved version (if (t % (2 * stride) == 0)): it is
  //   correct but makes every warp diverge.
  //   Step 3b: once it works, stop the loop when 32 values are left and let
  //   warp 0 finish with warp_reduce_sum(partial[t] + partial[t + 32]) -- but
  //   check the README's warning about the old "volatile" warp unrolling.

  // Step 4 -- one atomic per block (README §4 and §8).
  // TODO: thread 0 adds the block's sum (partial[0]) to *out with atomicAdd.
  //   Only one thread per block, after the tree is complete.
  (void)in;
  (void)n;
  if (blockIdx.x == 0 && t == 0) *out = not_implemented<T>();  // TODO: delete this line
}

// ---------------------------------------------------------------------------
// Host functions: launch the kernel. They receive device pointers.
// ---------------------------------------------------------------------------

// Enough blocks that each thread sums about ELEMENTS_PER_THREAD elements, and
// at least one. (With cascading you can also cap the number of blocks: the
// grid-stride loop makes any grid size correct.)
static int grid_size(int n) {
  const int per_block = BLOCK_SIZE * ELEMENTS_PER_THREAD;
  const int blocks = (n + per_block - 1) / per_block;
  return blocks > 0 ? blocks : 1;
}

void reduce_sum_int(const int* in, int* out, int n) {
  reduce_kernel<int><<<grid_size(n), BLOCK_SIZE>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  reduce_kernel<float><<<grid_size(n), BLOCK_SIZE>>>(in, out, n);
}
