// Idiom: cuRAND's device API in a kernel (a Monte Carlo sample per thread with curandState and
// Philox), a state per thread kept in device memory between two launches.
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, i, 0, &states[i]);
}

__global__ void jitter(curandState* states, const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curandState local = states[i];
  curandStatePhilox4_32_10_t philox;
  curand_init(1234, i, 0, &philox);
  out[i] = in[i] + 0.0f * (curand_uniform(&local) + curand_normal(&philox));
  states[i] = local;
}

void reduce_sum_float(const float* in, float* out, int n) {
  curandState* states = nullptr;
  cudaMalloc(&states, 256 * sizeof(curandState));
  setup<<<1, 256>>>(states, 7);
  jitter<<<1, 256>>>(states, in, out, n < 256 ? n : 256);
  cudaFree(states);
}
