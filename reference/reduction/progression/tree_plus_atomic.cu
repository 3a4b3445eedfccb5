// Course progression step, timed by `gpulab bench reduction --variants` (it must score
// full marks): the plain tree of the lectures. One element per
// thread is loaded into shared memory, a tree without divergence (sequential
// addressing: threads 0..stride-1 work) sums the block, and thread 0 adds the
// block sum to *out with one atomicAdd per block. Small blocks (64 threads) make
// the chain of float atomics long (n / 64 additions at 2^24 elements): this
// submission proves that the float bound accepts it.
constexpr int BLOCK = 64;

template <typename T>
__global__ void tree_atomic(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  tree_atomic<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  tree_atomic<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
