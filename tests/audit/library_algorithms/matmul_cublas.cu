// Library algorithm (matmul): the product through cuBLAS's cublasSgemm, no kernel of the
// submission's own. cuBLAS is not linked with the grader's harness, so on a GPU the link fails
// too; the audit, which reads the object before the link, says why.
#if __has_include(<cublas_v2.h>)
#include <cublas_v2.h>
#else  // a toolkit without cuBLAS's headers: declared as a student could
typedef struct cublasContext* cublasHandle_t;
typedef enum { CUBLAS_OP_N = 0 } cublasOperation_t;
extern "C" int cublasCreate_v2(cublasHandle_t* handle);
extern "C" int cublasSgemm_v2(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*,
                              const float*, int, const float*, int, const float*, float*, int);
#define cublasCreate cublasCreate_v2
#define cublasSgemm cublasSgemm_v2
#endif

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  static cublasHandle_t handle = nullptr;
  if (!handle) cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  // Row-major c = a b is column-major c^T = b^T a^T.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n);
}
