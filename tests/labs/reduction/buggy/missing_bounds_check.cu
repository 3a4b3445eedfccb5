// BUGGY submission (must lose points). Bug: missing bounds check -- every thread
// loads in[i] without testing i < n, so the last block (whenever n is not a
// multiple of the block size) reads past the end of the input. Otherwise the
// correct tree of the lectures: shared memory, no divergence, one atomicAdd
// per block.
constexpr int BLOCK = 256;

template <typename T>
__global__ void tree_atomic(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = in[i];  // BUG: no `i < n ? in[i] : 0`
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
