// Library baseline of the matmul lab for `gpulab bench` (cuda backend only,
// linked with -lcublas): cuBLAS SGEMM in CUBLAS_PEDANTIC_MATH mode, i.e. plain
// fp32 arithmetic with no TF32 tensor-core shortcut -- the same arithmetic the
// lab's kernels do, so the comparison is fair.
// cuBLAS is column-major: a row-major c = a * b is the column-major
// c^T = b^T * a^T, so b goes first and the roles of m and n swap.
#include <cublas_v2.h>

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  static cublasHandle_t handle = nullptr;
  if (!handle) {
    cublasCreate(&handle);
    cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
  }
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n);
}
