// Reference tuning for the convolution lab: a device-to-device copy of the
// input (the bench's baseline: the ratio is the fraction of copy bandwidth),
// the previous reference and the current one, 1-D at 2^28 for every mask width
// and 2-D at 8192^2 for 5x5 and 7x7, plus ragged sizes, and what a copy of a
// 7x7 mask into constant memory alone costs (the operation the references
// before 2026-11-30 put in front of every call); outputs compared with the
// previous reference's. `--2d` times the 2-D cases only. Built by build.sh.
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
  bool only_2d = false;
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--2d")) only_2d = true;
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
  auto check_at = [&](const float* got, const float* want, size_t n) {
    const double err = relative_diff(got, want, n);
    static char ok[64];
    std::snprintf(ok, sizeof ok, "%s (%.1e)", err < 1e-5 ? "ok" : "WRONG", err);
    return ok;
  };
  auto check = [&](size_t n) { return check_at(out, ref, n); };
  // 1-D
  struct Case1 {
    int width, w;
  };
  std::vector<Case1> c1;
  for (int w = 1; w <= 15; w += 2) c1.push_back({int(cells), w});
  c1.push_back({int(cells) - 3, 7});
  if (only_2d) c1.clear();
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
    // Not with --only: the profile must catch the named implementation's launch.
    if (o.only.empty()) before::convolution_1d(in, mask, ref, width, w);
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
    int h, wd, w, shift;  // shift: the arrays start `shift` floats past an aligned address
  };
  std::vector<Case2> c2;
  const int side = o.quick ? 1024 : 8192;
  float* const in_base = in;
  float* const out_base = out;
  float* const ref_base = ref;
  c2 = {{side, side, 5, 0},      {side, side, 7, 0},         {side - 1, side - 2, 7, 0}, {side - 3, side - 68, 7, 0},
        {side - 3, side - 68, 5, 0}, {side - 1, side - 4, 7, 1}, {side, side, 3, 0},         {side, side, 15, 0},
        {33, 36, 7, 0},              {5, 132, 5, 0},             {2, 4, 7, 0}};
  for (const Case2& c : c2) {
    const int h = c.h, wd = c.wd, w = c.w;
    float* const in = in_base + c.shift;
    float* const out = out_base + c.shift;
    float* const ref = ref_base + c.shift;
    const size_t n = size_t(h) * wd;
    auto copy = [=] { cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice); };
    std::vector<Impl> impls = {{"reference (before)", [=] { before::convolution_2d(in, mask, out, h, wd, w); }},
                               {"reference (after)", [=] { after::convolution_2d(in, mask, out, h, wd, w); }}};
    if (h == side && wd == side && w == 7 && !c.shift)
      impls.push_back({"mask copy alone", [=] {
                         cudaMemcpyToSymbolAsync(c_mask, mask, 49 * sizeof(float), 0, cudaMemcpyDeviceToDevice);
                       }});
    if (o.only.empty()) before::convolution_2d(in, mask, ref, h, wd, w);  // as in 1-D
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::string label = std::to_string(h) + "x" + std::to_string(wd) + " mask " + std::to_string(w) + "x" +
                              std::to_string(w) + (c.shift ? " (arrays 4 bytes off)" : "");
    if (!o.only.empty()) {
      for (Impl& i : impls)
        if ("2d " + std::to_string(w) + " " + i.name == o.only && h == side && wd == side && !c.shift) {
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
      row("2d", label, i.name, ms, base, 8.0 * n, "GB/s", i.name == "mask copy alone" ? "-" : check_at(out, ref, n));
    }
  }
  return 0;
}
