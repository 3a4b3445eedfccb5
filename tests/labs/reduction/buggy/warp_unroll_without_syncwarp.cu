// BUGGY submission (must lose points). Bug: the old "unroll the last warp" trick
// without warp synchronization -- once 64 values are left, warp 0 finishes with
// six unrolled `p[t] += p[t + offset]` steps on a volatile pointer and no
// __syncwarp(), relying on the 32 lanes running in lockstep. Since Volta (CC 7.0)
// lanes of a warp are scheduled independently, so a lane may read p[t + offset]
// before its owner has written it: a data race. (The fix: __syncwarp() between
// the steps, or __shfl_down_sync.) On a real GPU the race often stays hidden (an
// H100 gave full marks); the emulator, which runs the lanes one at a time,
// exposes it, and the lab's tests run there.
constexpr int BLOCK = 256;

template <typename T>
__device__ void warp_reduce(volatile T* p, unsigned int t) {
  p[t] += p[t + 32];  // BUG: no __syncwarp() between these steps
  p[t] += p[t + 16];
  p[t] += p[t + 8];
  p[t] += p[t + 4];
  p[t] += p[t + 2];
  p[t] += p[t + 1];
}

template <typename T>
__global__ void tree_unrolled(const T* in, T* out, int n) {
  __shared__ T partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 32; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t < 32) warp_reduce(partial, t);
  if (t == 0) atomicAdd(out, partial[0]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  tree_unrolled<int><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}

void reduce_sum_float(const float* in, float* out, int n) {
  tree_unrolled<float><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
}
