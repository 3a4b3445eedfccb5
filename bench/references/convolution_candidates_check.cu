// Correctness of the 2-D candidates in convolution_candidates.cuh without a GPU:
// random inputs, a double-precision CPU gold result, every path of the
// candidate (border tiles, interior "lean" tiles, the reference's fallback for
// arrays 4 bytes off) at sizes with interior and ragged tiles. On the emulator:
//   gpulab run -I . bench/references/convolution_candidates_check.cu
//   gpulab run --race-check -I . bench/references/convolution_candidates_check.cu small
// (`small`: two sizes only, for the slower checking build).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
namespace after {
#include "reference/convolution/convolution.cu"
#include "bench/references/convolution_candidates.cuh"
}  // namespace after
using namespace after;
int fails = 0;
template <class F> void check(const char* name, int h, int w, int mw, int shift, F run) {
  std::vector<float> in(size_t(h) * w), mask(mw * mw), out(size_t(h) * w);
  srand(h * 131 + w * 7 + mw);
  for (auto& x : in) x = rand() / float(RAND_MAX) * 2 - 1;
  for (auto& x : mask) x = rand() / float(RAND_MAX) * 2 - 1;
  float *din, *dout, *dmask;
  cudaMalloc(&din, (in.size() + 8) * 4);
  cudaMalloc(&dout, (in.size() + 8) * 4);
  cudaMalloc(&dmask, mask.size() * 4);
  cudaMemcpy(din + shift, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dmask, mask.data(), mask.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xFF, (in.size() + 8) * 4);
  run(din + shift, dmask, dout + shift, h, w, mw);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(out.data(), dout + shift, out.size() * 4, cudaMemcpyDeviceToHost);
  double worst = 0;
  const int r = mw / 2;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int i = 0; i < mw; ++i)
        for (int j = 0; j < mw; ++j) {
          const int yy = y + i - r, xx = x + j - r;
          if (yy >= 0 && yy < h && xx >= 0 && xx < w) s += double(in[size_t(yy) * w + xx]) * mask[i * mw + j];
        }
      const double d = std::fabs(out[size_t(y) * w + x] - s);
      worst = d == d ? std::fmax(worst, d) : INFINITY;
    }
  const bool ok = e == cudaSuccess && worst < 1e-4;
  fails += !ok;
  std::printf("%-22s %5dx%-5d mask %2d shift %d: %s (max error %.1e)\n", name, h, w, mw, shift, ok ? "ok" : "WRONG",
              worst);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dmask);
}
int main(int argc, char** argv) {
  const int sizes[][2] = {{200, 400}, {77, 300}, {160, 524}, {33, 36}, {2, 4}, {5, 132}};
  if (argc > 1 && std::string(argv[1]) == "small") {
    check("by4 lean", 120, 400, 7, 0, convolution_2d_blocked<8, 4, 5, true>);
    check("by8 lean", 100, 400, 5, 0, convolution_2d_blocked<8, 8, 2, true>);
    return fails;
  }
  for (auto& s : sizes)
    for (int mw : {5, 7}) {
      check("by4", s[0], s[1], mw, 0, convolution_2d_blocked<8, 4, 5>);
      check("by4 lean", s[0], s[1], mw, 0, convolution_2d_blocked<8, 4, 5, true>);
      check("by8 lean", s[0], s[1], mw, 0, convolution_2d_blocked<8, 8, 2, true>);
    }
  check("by4 lean", 101, 302, 7, 0, convolution_2d_blocked<8, 4, 5, true>);
  check("by4 lean", 100, 300, 7, 1, convolution_2d_blocked<8, 4, 5, true>);
  std::printf("%s\n", fails ? "SOME WRONG" : "all ok");
  return fails != 0;
}
