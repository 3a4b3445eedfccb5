// Correct but slow on purpose: one block of 1024 threads walks the whole input
// (grid-stride with a grid of one), then a shared-memory tree. A GPU has over
// a hundred multiprocessors; this uses one. Must lose the speed points.
constexpr int THREADS = 1024;

template <typename T>
__global__ void one_block_sum(const T* in, T* out, int n) {
  __shared__ T partial[THREADS];
  T acc = 0;
  for (int i = threadIdx.x; i < n; i += THREADS) acc += in[i];
  partial[threadIdx.x] = acc;
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) *out = partial[0];
}

void reduce_sum_int(const int* in, int* out, int n) { one_block_sum<int><<<1, THREADS>>>(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { one_block_sum<float><<<1, THREADS>>>(in, out, n); }
