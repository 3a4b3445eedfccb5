// Reference tuning for the convolution lab: a device-to-device copy of the
// input (the bench's baseline: the ratio is the fraction of copy bandwidth),
// the previous reference and candidate shapes of the new one, 1-D at 2^28 for
// every mask width and 2-D at 8192^2 for 5x5 and 7x7, plus ragged sizes (the
// 2-D strip-walking candidates measured on 2026-11-29 lost and were removed);
// outputs compared with the previous reference's. Built by build.sh.
// The references' own headers first, so that none is first included inside
// the namespaces below.
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common.cuh"

namespace before {
#include "before/convolution.cu"
}
namespace after {
#include "../../reference/convolution/convolution.cu"
}

using namespace refbench;

int main(int argc, char** argv) {
  const Options o = Options::parse(argc, argv);
  const size_t cells = o.quick ? (size_t(1) << 20) : (size_t(1) << 28);
  float *in, *out, *ref, *mask;
  CHECK_CUDA(cudaMalloc(&in, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&ref, cells * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&mask, 225 * sizeof(float)));
  fill_uniform(in, cells, -1, 1, 5);
  fill_uniform(mask, 225, -1, 1, 6);
  header("convolution", "memcpy");
  using namespace after;
  auto check = [&](size_t n) {
    const double err = relative_diff(out, ref, n);
    static char ok[64];
    std::snprintf(ok, sizeof ok, "%s (%.1e)", err < 1e-5 ? "ok" : "WRONG", err);
    return ok;
  };
  // 1-D
  struct Case1 {
    int width, w;
  };
  std::vector<Case1> c1;
  for (int w = 1; w <= 15; w += 2) c1.push_back({int(cells), w});
  c1.push_back({int(cells) - 3, 7});
  for (const Case1& c : c1) {
    const int width = c.width, w = c.w;
    auto copy = [=] { cudaMemcpyAsync(out, in, size_t(width) * sizeof(float), cudaMemcpyDeviceToDevice); };
    std::vector<Impl> impls = {{"reference (before)", [=] { before::convolution_1d(in, mask, out, width, w); }},
                               {"reference (after)", [=] { after::convolution_1d(in, mask, out, width, w); }},
                               {"1d 256x4", [=] { convolution_1d_with<Shape1D<256, 4>>(in, mask, out, width, w); }},
                               {"1d 256x8", [=] { convolution_1d_with<Shape1D<256, 8>>(in, mask, out, width, w); }},
                               {"1d 128x8", [=] { convolution_1d_with<Shape1D<128, 8>>(in, mask, out, width, w); }},
                               {"1d 512x4", [=] { convolution_1d_with<Shape1D<512, 4>>(in, mask, out, width, w); }},
                               {"1d 256x2", [=] { convolution_1d_with<Shape1D<256, 2>>(in, mask, out, width, w); }},
                               {"1d 128x16", [=] { convolution_1d_with<Shape1D<128, 16>>(in, mask, out, width, w); }}};
    before::convolution_1d(in, mask, ref, width, w);
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::string label = "width=" + std::to_string(width) + " mask " + std::to_string(w);
    if (!o.only.empty()) {
      for (Impl& i : impls)
        if ("1d " + std::to_string(w) + " " + i.name == o.only) {
          i.run();
          CHECK_CUDA(cudaDeviceSynchronize());
        }
      continue;
    }
    const double base = time_ms(copy, o.runs);
    row("1d", label, "memcpy", base, base, 8.0 * width, "GB/s", "-");
    for (Impl& i : impls) {
      CHECK_CUDA(cudaMemset(out, 0xFF, size_t(width) * sizeof(float)));
      const double ms = time_ms(i.run, o.runs);
      row("1d", label, i.name, ms, base, 8.0 * width, "GB/s", check(width));
    }
  }
  // 2-D
  struct Case2 {
    int h, wd, w;
  };
  std::vector<Case2> c2;
  const int side = o.quick ? 1024 : 8192;
  c2 = {{side, side, 5}, {side, side, 7}, {side - 1, side - 2, 7}, {side, side, 3}, {side, side, 15}};
  for (const Case2& c : c2) {
    const int h = c.h, wd = c.wd, w = c.w;
    const size_t n = size_t(h) * wd;
    auto copy = [=] { cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice); };
    std::vector<Impl> impls = {{"reference (before)", [=] { before::convolution_2d(in, mask, out, h, wd, w); }},
                               {"reference (after)", [=] { after::convolution_2d(in, mask, out, h, wd, w); }}};
    before::convolution_2d(in, mask, ref, h, wd, w);
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::string label =
        std::to_string(h) + "x" + std::to_string(wd) + " mask " + std::to_string(w) + "x" + std::to_string(w);
    if (!o.only.empty()) {
      for (Impl& i : impls)
        if ("2d " + std::to_string(w) + " " + i.name == o.only && h == side && wd == side) {
          i.run();
          CHECK_CUDA(cudaDeviceSynchronize());
        }
      continue;
    }
    const double base = time_ms(copy, o.runs);
    row("2d", label, "memcpy", base, base, 8.0 * n, "GB/s", "-");
    for (Impl& i : impls) {
      CHECK_CUDA(cudaMemset(out, 0xFF, n * sizeof(float)));
      const double ms = time_ms(i.run, o.runs);
      row("2d", label, i.name, ms, base, 8.0 * n, "GB/s", check(n));
    }
  }
  return 0;
}
