// Reference tuning for the scan lab: CUB's DeviceScan (the bench's baseline),
// the previous reference (one tile per block), the current one (persistent,
// pipelined blocks) and other shapes of its kernel (the candidates measured on
// 2026-11-29 were removed, the pipelined one once it became the reference:
// docs/performance.md keeps their numbers),
// at the bench's size and a ragged one; outputs compared with CUB's (ints exactly, floats
// within 1e-5 of the largest value). Built by bench/references/build.sh.
#include <cub/device/device_scan.cuh>

// The references' own headers first, so that none is first included inside
// the namespaces below.
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common.cuh"

namespace before {
#include "before/scan.cu"
}
namespace after {
#include "../../reference/scan/scan.cu"
}

using namespace refbench;

int main(int argc, char** argv) {
  const Options o = Options::parse(argc, argv);
  std::vector<int> sizes = {1 << 28, (1 << 28) - 5};
  if (o.quick) sizes = {1 << 20, 1000003};
  void* temp = nullptr;
  size_t temp_bytes = 0;
  header("scan", "CUB");
  for (int n : sizes) {
    float *fin, *fout, *fref;
    int *iin, *iout, *iref;
    CHECK_CUDA(cudaMalloc(&fin, sizeof(float) * n));
    CHECK_CUDA(cudaMalloc(&fout, sizeof(float) * n));
    CHECK_CUDA(cudaMalloc(&fref, sizeof(float) * n));
    CHECK_CUDA(cudaMalloc(&iin, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&iout, sizeof(int) * n));
    CHECK_CUDA(cudaMalloc(&iref, sizeof(int) * n));
    fill_uniform(fin, n, 0, 1, 3);
    fill_int(iin, n, -100, 100, 4);
    size_t need = 0;
    cub::DeviceScan::InclusiveSum(nullptr, need, fin, fref, n);
    if (need > temp_bytes) {
      cudaFree(temp);
      CHECK_CUDA(cudaMalloc(&temp, need));
      temp_bytes = need;
    }
    cub::DeviceScan::ExclusiveSum(nullptr, need, iin, iref, n);
    if (need > temp_bytes) {
      cudaFree(temp);
      CHECK_CUDA(cudaMalloc(&temp, need));
      temp_bytes = need;
    }
    auto cub_incl = [&] {
      size_t b = temp_bytes;
      cub::DeviceScan::InclusiveSum(temp, b, fin, fref, n);
    };
    auto cub_excl = [&] {
      size_t b = temp_bytes;
      cub::DeviceScan::ExclusiveSum(temp, b, iin, iref, n);
    };
    using namespace after;
    // Other shapes of the reference's kernel: compute threads, items per thread,
    // blocks per SM (__launch_bounds__), look-back back-off in ns.
#define SHAPES(X) X(256, 32, 3, 100) X(256, 16, 4, 0) X(128, 32, 5, 0) X(256, 24, 4, 0) X(256, 32, 2, 0)
#define INCL(T, I, M, B)                                                                \
  {"threads " #T " items " #I " blocks/SM " #M " backoff " #B,                           \
   [=] { scan_device<ScanShape<T, I, M, B>, float, false>(fin, fout, n); }},
#define EXCL(T, I, M, B)                                                                \
  {"threads " #T " items " #I " blocks/SM " #M " backoff " #B,                           \
   [=] { scan_device<ScanShape<T, I, M, B>, int, true>(iin, iout, n); }},
    std::vector<Impl> incl = {{"reference (before)", [=] { before::inclusive_scan(fin, fout, n); }},
                              {"reference (after)", [=] { after::inclusive_scan(fin, fout, n); }},
                              SHAPES(INCL)};
    std::vector<Impl> excl = {{"reference (before)", [=] { before::exclusive_scan(iin, iout, n); }},
                              {"reference (after)", [=] { after::exclusive_scan(iin, iout, n); }},
                              SHAPES(EXCL)};
    cub_incl();
    cub_excl();
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::string label = "n=" + std::to_string(n);
    if (!o.only.empty()) {
      for (Impl& i : incl)
        if ("inclusive " + i.name == o.only) i.run();
      for (Impl& i : excl)
        if ("exclusive " + i.name == o.only) i.run();
      if (o.only == "inclusive CUB") cub_incl();
      if (o.only == "exclusive CUB") cub_excl();
      CHECK_CUDA(cudaDeviceSynchronize());
      continue;
    }
    const double bytes = 8.0 * n;
    double base = time_ms(cub_incl, o.runs);
    row("inclusive", label, "CUB", base, base, bytes, "GB/s", "-");
    for (Impl& i : incl) {
      CHECK_CUDA(cudaMemset(fout, 0xFF, sizeof(float) * n));
      const double ms = time_ms(i.run, o.runs);
      const double err = relative_diff(fout, fref, n);
      char ok[64];
      std::snprintf(ok, sizeof ok, "%s (%.1e)", err < 1e-5 ? "ok" : "WRONG", err);
      row("inclusive", label, i.name, ms, base, bytes, "GB/s", ok);
    }
    base = time_ms(cub_excl, o.runs);
    row("exclusive", label, "CUB", base, base, bytes, "GB/s", "-");
    for (Impl& i : excl) {
      CHECK_CUDA(cudaMemset(iout, 0xFF, sizeof(int) * n));
      const double ms = time_ms(i.run, o.runs);
      row("exclusive", label, i.name, ms, base, bytes, "GB/s",
          same_bytes(iout, iref, sizeof(int) * n) ? "ok" : "WRONG");
    }
    cudaFree(fin), cudaFree(fout), cudaFree(fref), cudaFree(iin), cudaFree(iout), cudaFree(iref);
  }
  return 0;
}
