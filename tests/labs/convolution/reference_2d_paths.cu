// The convolution reference's 2-D paths against a double-precision result
// computed here, on the emulator: random inputs at sizes that give the 5 x 5
// and 7 x 7 register-blocked kernels (conv2d_blocked<5>, one tile a block, and
// conv2d_blocked<7>, persistent, double-buffered; both read the mask into
// registers) interior tiles (copied without range tests) and border tiles on
// every side, ragged last tiles, one or several tiles a block, an image with
// more rows of tiles than a grid's y dimension allows (two launches), and the
// cases that take conv2d_tiled instead (width % 4 != 0, arrays 4 bytes off).
// The grader's small cases barely reach conv2d_blocked (one 1 x 100 5 x 5 case; no 7 x 7 mask with
// width % 4 == 0). Run by the test suite, plain and with the checking build:
//   gpulab run tests/labs/convolution/reference_2d_paths.cu
//   gpulab run --race-check tests/labs/convolution/reference_2d_paths.cu small
// (`small`: four sizes only, for the slower checking build). Prints "all ok"
// or "SOME WRONG" and exits 1 if any output is wrong.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../../../reference/convolution/convolution.cu"

int fails = 0;

void check(int h, int w, int mw, int shift) {
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
  convolution_2d(din + shift, dmask, dout + shift, h, w, mw);
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
  std::printf("%5dx%-5d mask %2d shift %d: %s (max error %.1e%s%s)\n", h, w, mw, shift, ok ? "ok" : "WRONG", worst,
              e == cudaSuccess ? "" : ", ", e == cudaSuccess ? "" : cudaGetErrorString(e));
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dmask);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "small") {
    check(300, 1028, 7, 0);  // interior and border tiles, 90 tiles: several a block
    check(33, 36, 7, 0);    // one ragged tile
    check(77, 300, 7, 1);   // arrays 4 bytes off: conv2d_tiled
    check(100, 392, 5, 0);  // 5 x 5: interior and border tiles, ragged last row of tiles
  } else {
    const int sizes[][2] = {{200, 400}, {77, 300}, {160, 524}, {33, 36}, {2, 4}, {5, 132}, {1, 4}, {300, 1028}};
    for (auto& s : sizes)
      for (int mw : {5, 7}) check(s[0], s[1], mw, 0);
    for (int mw : {5, 7}) {
      check(101, 302, mw, 0);  // width % 4 != 0: conv2d_tiled
      check(100, 300, mw, 1);  // arrays 4 bytes off: conv2d_tiled
    }
    // More than 65535 rows of 32-row tiles (a grid's y limit): the 5 x 5 kernel (one tile a block)
    // takes a second launch for the rows of tiles past the first 65535.
    check(65538 * 32 - 7, 4, 5, 0);
  }
  std::printf("%s\n", fails ? "SOME WRONG" : "all ok");
  return fails != 0;
}
