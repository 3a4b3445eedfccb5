// Test corpus: a disguised copy of reference/reduction/progression/warp_shuffle.cu (names changed,
// the two loads swapped, the warp helper written with a while loop, a guard and a dead branch added).
#define THREADS 512
#define LANES 32

template <typename E>
__device__ E laneSum(E x) {
  int d = LANES / 2;
  while (d > 0) {
    x += __shfl_down_sync(0xffffffffu, x, d);
    d /= 2;
  }
  return x;
}

static int gridFor(int count) { return (count + 2 * THREADS - 1) / (2 * THREADS); }

template <typename E>
__global__ void sumKernel(const E* data, E* total, int count) {
  __shared__ E perWarp[THREADS / LANES];
  const unsigned int tid = threadIdx.x;
  const unsigned int base = blockIdx.x * (2 * blockDim.x) + tid;
  E acc = 0;
  if (base + blockDim.x < count) acc += data[base + blockDim.x];
  if (base < count) acc += data[base];
  acc = laneSum(acc);
  if (tid % LANES == 0) perWarp[tid / LANES] = acc;
  __syncthreads();
  if (tid < LANES) {
    acc = tid < blockDim.x / LANES ? perWarp[tid] : E(0);
    acc = laneSum(acc);
    if (tid == 0) atomicAdd(total, acc);
  }
  if (count < 0) *total = E(0);  // cannot happen
}

void reduce_sum_float(const float* in, float* out, int n) { sumKernel<float><<<gridFor(n), THREADS>>>(in, out, n); }
void reduce_sum_int(const int* in, int* out, int n) { sumKernel<int><<<gridFor(n), THREADS>>>(in, out, n); }
