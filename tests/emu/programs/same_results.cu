// What compilers and architectures leave to their own defaults, pinned by the emulator's build
// flags so that a program prints the same on x86-64 and AArch64, built with g++ or clang++
// (grader/emu/CMakeLists.txt: GPULAB_EMU_COMPILE_FLAGS):
//   plain char is signed (-fsigned-char): the byte 200 reads as -56, as with nvcc on x86-64;
//   a*b + c is not fused into one rounding (-ffp-contract=off), while fmaf still is.
// With a = b = 1 + 2^-12 and c = -(1 + 2^-11), a*b rounds to 1 + 2^-11 and the sum is 0; fused,
// the 2^-24 that rounding dropped survives.
#include <cstdio>

__global__ void probe(const char* bytes, const float* v, int* c_out, float* f_out) {
  const char c = bytes[threadIdx.x];
  c_out[threadIdx.x] = c;  // -56 where char is signed, 200 where it is not
  f_out[0] = v[0] * v[1] + v[2];
  f_out[1] = fmaf(v[0], v[1], v[2]);
}

int main() {
  const char bytes[1] = {static_cast<char>(200)};
  const float v[3] = {1.0f + 1.0f / 4096, 1.0f + 1.0f / 4096, -(1.0f + 1.0f / 2048)};
  char* d_bytes;
  float *d_v, *d_f;
  int* d_c;
  cudaMalloc(&d_bytes, 1);
  cudaMalloc(&d_v, sizeof v);
  cudaMalloc(&d_f, 2 * sizeof(float));
  cudaMalloc(&d_c, sizeof(int));
  cudaMemcpy(d_bytes, bytes, 1, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v, sizeof v, cudaMemcpyHostToDevice);
  probe<<<1, 1>>>(d_bytes, d_v, d_c, d_f);
  int c = 0;
  float f[2] = {};
  cudaMemcpy(&c, d_c, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost);
  std::printf("same results: char %d, a*b+c %g, fmaf %g\n", c, f[0], f[1]);
  return 0;
}
