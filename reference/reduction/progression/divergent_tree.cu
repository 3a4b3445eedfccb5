// Course progression step, timed by `gpulab bench reduction --variants` (it must score
// full marks): the first tree of the lectures, with interleaved
// addressing -- only threads whose index is a multiple of 2 * stride add, so
// every warp diverges at every step. Slow on a GPU, but correct: divergence
// costs time, not correctness. One element per thread, one atomicAdd per block.
constexpr int BLOCK = 256;

template <typename T>
__global__ void divergent_tree(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  divergent_tree<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  divergent_tree<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
