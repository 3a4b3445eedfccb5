// BUGGY submission (must lose points). Bug: cascading done halfway -- the grid
// is capped at 64 blocks (as for a grid-stride loop), but each thread still
// reads a single element instead of looping with i += blockDim.x * gridDim.x,
// so every element past the first 64 * 256 is never added.
constexpr int BLOCK = 256;
constexpr int MAX_BLOCKS = 64;

template <typename T>
__global__ void capped(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : T(0);  // BUG: should sum in[i], in[i + grid], ... while < n
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

static int blocks(int n) {
  const int b = (n + BLOCK - 1) / BLOCK;
  return b < MAX_BLOCKS ? b : MAX_BLOCKS;
}

void reduce_sum_int(const int* in, int* out, int n) { capped<int><<<blocks(n), BLOCK>>>(in, out, n); }

void reduce_sum_float(const float* in, float* out, int n) { capped<float><<<blocks(n), BLOCK>>>(in, out, n); }
