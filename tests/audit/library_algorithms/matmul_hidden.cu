// Library algorithm (matmul): cuBLAS's GEMM behind a macro, a typedef'd function pointer and a
// wrapper function, declared by hand, so that neither the host function nor any #include names it.
typedef struct cublasContext* Handle;
extern "C" int cublasCreate_v2(Handle*);
extern "C" int cublasSgemm_v2(Handle, int, int, int, int, int, const float*, const float*, int, const float*, int,
                              const float*, float*, int);

#define LIBRARY_PRODUCT cublasSgemm_v2
typedef int (*product_fn)(Handle, int, int, int, int, int, const float*, const float*, int, const float*, int,
                          const float*, float*, int);

namespace {
product_fn pick() { return &LIBRARY_PRODUCT; }

void multiply(const float* a, const float* b, float* c, int m, int n, int k) {
  static Handle handle = nullptr;
  if (!handle) cublasCreate_v2(&handle);
  const float one = 1.0f, zero = 0.0f;
  pick()(handle, 0, 0, n, m, k, &one, b, n, a, k, &zero, c, n);
}
}  // namespace

void matmul(const float* a, const float* b, float* c, int m, int n, int k) { multiply(a, b, c, m, n, k); }
