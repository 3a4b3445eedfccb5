// Library algorithm (scan): cub::DeviceScan behind a namespace alias, a typedef, a macro and a
// wrapper function in a namespace of the submission's own.
#include <cub/cub.cuh>

namespace mine {
namespace lib = ::cub;
typedef lib::DeviceScan Prefix;
#define RUN_PREFIX(call, ...) Prefix::call(__VA_ARGS__)

template <bool Inclusive, class T>
void prefix(const T* in, T* out, int n) {
  size_t bytes = 0;
  void* scratch = nullptr;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) cudaMalloc(&scratch, bytes);
    if constexpr (Inclusive) RUN_PREFIX(InclusiveSum, scratch, bytes, in, out, n);
    else RUN_PREFIX(ExclusiveSum, scratch, bytes, in, out, n);
  }
  cudaFree(scratch);
}
}  // namespace mine

void inclusive_scan(const float* in, float* out, int n) { mine::prefix<true>(in, out, n); }
void exclusive_scan(const int* in, int* out, int n) { mine::prefix<false>(in, out, n); }
