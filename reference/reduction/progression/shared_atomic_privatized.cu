// Course progression step, timed by `gpulab bench reduction --variants` (it must score
// full marks): output privatization. Each block accumulates
// into one __shared__ variable with shared-memory atomics (initialised by thread
// 0, with a barrier before and after the accumulation), then thread 0 adds the
// block's sum to *out with one global atomicAdd.
constexpr int BLOCK = 256;

template <typename T>
__global__ void privatized(const T* in, T* out, int n) {
  __shared__ T block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&block_sum, in[i]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, block_sum);
}

void reduce_sum_int(const int* in, int* out, int n) {
  privatized<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  privatized<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
