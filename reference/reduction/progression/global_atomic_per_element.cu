// Course progression step, timed by `gpulab bench reduction --variants` (it must score
// full marks): the course's first correct reduction -- every
// thread adds its element straight to *out with atomicAdd. The atomics on one
// address are serialized, so it is slow, and for floats it is one sequential
// chain of n additions (the least accurate taught order): this submission
// proves that the float bound still accepts it at 2^24 all-positive values.
constexpr int BLOCK = 256;

template <typename T>
__global__ void atomic_per_element(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  atomic_per_element<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  atomic_per_element<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
