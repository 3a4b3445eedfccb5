// BUGGY submission (must lose points). Bug: missing __syncthreads() inside the
// tree loop -- a thread may read partial[t + stride] before the thread that owns
// it has finished the previous step (a data race in shared memory). The barrier
// after the loads is there; only the one between tree steps is missing.
constexpr int BLOCK = 256;

template <typename T>
__global__ void tree_atomic(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    // BUG: no __syncthreads() here
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  tree_atomic<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  tree_atomic<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
