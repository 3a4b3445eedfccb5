// Test corpus: a disguised copy of reference/reduction/progression/two_pass.cu (names changed, the
// helper moved after its users behind a declaration, host code reordered, dead code added).
#include <cuda_runtime.h>

constexpr int kLastThreads = 1024;
constexpr int kThreads = 256;

template <typename V> __device__ V treeSum(V* scratch);

// pass 2: one block adds up the per-block results
template <typename V>
__global__ void secondPass(const V* partials, V* result, int howMany) {
  __shared__ V scratch[kLastThreads];
  V acc = 0;
  for (int j = threadIdx.x; j < howMany; j += blockDim.x) acc += partials[j];
  scratch[threadIdx.x] = acc;
  acc = treeSum(scratch);
  if (threadIdx.x == 0) *result = acc;
}

// pass 1: every block writes its own sum
template <typename V>
__global__ void firstPass(const V* src, V* partials, int count) {
  __shared__ V scratch[kThreads];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[threadIdx.x] = g < count ? src[g] : V(0);
  const V total = treeSum(scratch);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <typename V>
__device__ V treeSum(V* scratch) {
  const unsigned int me = threadIdx.x;
  int iterations = 0;
  __syncthreads();
  for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
    if (me < half) scratch[me] += scratch[me + half];
    __syncthreads();
    iterations++;
  }
  return scratch[0];
}

template <typename V>
static void runTwoPasses(const V* src, V* dst, int count) {
  V* partials = nullptr;
  const int nb = (count + kThreads - 1) / kThreads;
  cudaMalloc(&partials, nb * sizeof(V));
  firstPass<V><<<nb, kThreads>>>(src, partials, count);
  secondPass<V><<<1, kLastThreads>>>(partials, dst, nb);
  cudaFree(partials);
}

void reduce_sum_float(const float* in, float* out, int n) { runTwoPasses(in, out, n); }
void reduce_sum_int(const int* in, int* out, int n) { runTwoPasses(in, out, n); }
