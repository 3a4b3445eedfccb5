// Reference tuning for the matmul lab: cuBLAS pedantic SGEMM (the bench's
// baseline), the previous reference and candidate tile shapes of the new one
// (the reference's kernels with other Configs; the kernel with its barrier in
// each tile's last k step, other orders of the multiply-adds, b copied element
// by element instead of padded, measured on 2026-11-30, lost and were removed:
// docs/performance.md keeps their numbers) at
// the bench's sizes, the ragged one, an aligned one with edge tiles and the
// grader's timed size; every output compared with cuBLAS's. Built by bench/references/build.sh.
#include <cublas_v2.h>

// The references' own headers first, so that none is first included inside
// the namespaces below.
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common.cuh"

namespace before {
#include "before/matmul.cu"
}
namespace after {
#include "../../reference/matmul/matmul.cu"
}

using namespace refbench;

template <class C> Impl candidate(const char* name, const float* a, const float* b, float* c, int m, int n, int k) {
  return {name, [=] { after::launch_any<C>(a, b, c, m, n, k); }};
}

int main(int argc, char** argv) {
  const Options o = Options::parse(argc, argv);
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
  struct Size {
    const char* label;
    int m, n, k;
  };
  std::vector<Size> sizes = {{"2048^3 (graded)", 2048, 2048, 2048},
                             {"4096^3", 4096, 4096, 4096},
                             {"ragged 4097x4095x4093", 4097, 4095, 4093},
                             {"edges 4097x4096x4093", 4097, 4096, 4093},
                             {"8192^3", 8192, 8192, 8192}};
  if (o.quick)
    sizes = {{"ragged 257x255x253", 257, 255, 253}, {"edges 257x256x253", 257, 256, 253}, {"512^3", 512, 512, 512}};
  header("matmul", "cuBLAS");
  for (const Size& s : sizes) {
    float *a, *b, *c, *ref;
    CHECK_CUDA(cudaMalloc(&a, sizeof(float) * s.m * s.k));
    CHECK_CUDA(cudaMalloc(&b, sizeof(float) * s.k * s.n));
    CHECK_CUDA(cudaMalloc(&c, sizeof(float) * s.m * s.n));
    CHECK_CUDA(cudaMalloc(&ref, sizeof(float) * s.m * s.n));
    fill_uniform(a, size_t(s.m) * s.k, -1, 1, 1);
    fill_uniform(b, size_t(s.k) * s.n, -1, 1, 2);
    const int m = s.m, n = s.n, k = s.k;
    const float one = 1.f, zero = 0.f;
    auto cublas = [&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, ref, n); };
    using namespace after;
    std::vector<Impl> impls = {
        {"reference (before)", [=] { before::matmul(a, b, c, m, n, k); }},
        {"reference (after)", [=] { after::matmul(a, b, c, m, n, k); }},
        // Around the reference's 128 x 256 x 16, 16 x 8 per thread, warps of 64 x 64, 4 stages.
        candidate<Config<128, 256, 16, 64, 64, 5, 1, 16, 8>>("128x256x16 16x8 s5", a, b, c, m, n, k),
        candidate<Config<128, 256, 16, 32, 128, 4, 1, 16, 8>>("128x256x16 16x8 w32x128 s4", a, b, c, m, n, k),
        // The previous reference's tile (128 x 128, 8 x 8 per thread), for every size above the SM count.
        candidate<Config<128, 128, 16, 32, 64, 3, 2>>("128x128x16 8x8 s3", a, b, c, m, n, k),
    };
    const double flops = 2.0 * m * n * k;
    cublas();
    CHECK_CUDA(cudaDeviceSynchronize());
    if (!o.only.empty()) {
      for (Impl& i : impls)
        if (i.name == o.only) {
          i.run();
          CHECK_CUDA(cudaDeviceSynchronize());
        }
      if (o.only == "cuBLAS") {
        cublas();
        CHECK_CUDA(cudaDeviceSynchronize());
      }
    } else {
      const double base = time_ms(cublas, o.runs);
      row("tiled", s.label, "cuBLAS", base, base, flops / 1e3, "TFLOP/s", "-");
      for (Impl& i : impls) {
        CHECK_CUDA(cudaMemset(c, 0xFF, sizeof(float) * m * n));  // NaN: unwritten outputs fail
        const double ms = time_ms(i.run, o.runs);
        const double err = relative_diff(c, ref, size_t(m) * n);
        char ok[64];
        std::snprintf(ok, sizeof ok, "%s (%.1e)", err < 1e-4 ? "ok" : "WRONG", err);
        row("tiled", s.label, i.name, ms, base, flops / 1e3, "TFLOP/s", ok);
      }
    }
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(ref);
  }
  return 0;
}
