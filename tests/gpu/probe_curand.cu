// Probe: cuRAND's device API as course programs use it (Monte Carlo estimates, random walks):
// the first numbers of XORWOW (curandState) and Philox4_32_10 for several seeds, subsequences and
// offsets, as integers, uniforms and normals. Recorded on a GPU (expected/probe_curand.txt), the
// emulator must print the same; normals to 5 digits (a GPU's __sincosf is an approximation).
#include <cstdio>

#include <curand_kernel.h>

template <class State>
__global__ void sample(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                       unsigned int* ints, float* uniforms, float* normals, double* doubles) {
  State s;
  curand_init(seed, subsequence, offset, &s);
  for (int i = 0; i < 4; ++i) ints[i] = curand(&s);
  for (int i = 0; i < 2; ++i) uniforms[i] = curand_uniform(&s);
  for (int i = 0; i < 3; ++i) normals[i] = curand_normal(&s);
  doubles[0] = curand_uniform_double(&s);
  doubles[1] = curand_normal_double(&s);
}

template <class State>
void print(const char* name, unsigned long long seed, unsigned long long subsequence, unsigned long long offset) {
  unsigned int* ints;
  float *uniforms, *normals;
  double* doubles;
  cudaMallocManaged(&ints, 4 * sizeof(unsigned int));
  cudaMallocManaged(&uniforms, 2 * sizeof(float));
  cudaMallocManaged(&normals, 3 * sizeof(float));
  cudaMallocManaged(&doubles, 2 * sizeof(double));
  sample<State><<<1, 1>>>(seed, subsequence, offset, ints, uniforms, normals, doubles);
  cudaDeviceSynchronize();
  std::printf("%s seed %llu subsequence %llu offset %llu: %08x %08x %08x %08x | %.9g %.9g | %.5f %.5f %.5f | %.17g %.5f\n",
              name, seed, subsequence, offset, ints[0], ints[1], ints[2], ints[3], uniforms[0], uniforms[1],
              normals[0], normals[1], normals[2], doubles[0], doubles[1]);
  cudaFree(ints);
  cudaFree(uniforms);
  cudaFree(normals);
  cudaFree(doubles);
}

int main() {
  const unsigned long long cases[][3] = {{0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 77, 5}, {0x123456789abcdefull, 1000003, 123456789}};
  for (const auto& c : cases) print<curandState>("xorwow", c[0], c[1], c[2]);
  for (const auto& c : cases) print<curandStatePhilox4_32_10_t>("philox", c[0], c[1], c[2]);
  return 0;
}
