// Buggy submission (must lose points): WORK-EFFICIENT SCAN THAT ASSUMES A POWER-OF-TWO SIZE.
// A recursive hierarchical Blelloch (up-sweep / down-sweep) scan whose block
// kernel sizes its tree by the number of elements actually present in the
// section (len = min(SECTION, n - base)) instead of the power-of-two SECTION.
// The tree's index arithmetic is only right for a power of two, so the last,
// partial section (and any n < SECTION that is not a power of two) comes out wrong.
#include <cuda_runtime.h>

#define BLOCK 256
#define SECTION (2 * BLOCK)

// Exclusive scan of one section; sums[b] receives the section total (if sums != nullptr).
template <class T>
__global__ void prescan(const T* in, T* out, T* sums, int n, bool inclusive) {
  __shared__ T temp[SECTION];
  const int t = threadIdx.x;
  const long long base = static_cast<long long>(blockIdx.x) * SECTION;
  const long long a = base + 2 * t, b = base + 2 * t + 1;
  const int len = n - base < SECTION ? static_cast<int>(n - base) : SECTION;  // BUG: tree size need not be a power of two
  const T xa = a < n ? in[a] : T(0);
  const T xb = b < n ? in[b] : T(0);
  temp[2 * t] = xa;
  temp[2 * t + 1] = xb;

  int offset = 1;
  for (int d = len >> 1; d > 0; d >>= 1) {  // up-sweep: build the sums up the tree
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  __syncthreads();
  if (t == 0) {
    if (sums != nullptr) sums[blockIdx.x] = temp[len - 1];
    temp[len - 1] = T(0);  // clear the root
  }
  for (int d = 1; d < len; d *= 2) {  // down-sweep: swap and add on the way down
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      const T tmp = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += tmp;
    }
  }
  __syncthreads();
  if (a < n) out[a] = inclusive ? temp[2 * t] + xa : temp[2 * t];
  if (b < n) out[b] = inclusive ? temp[2 * t + 1] + xb : temp[2 * t + 1];
}

// out of section b += scanned[b] (scanned is the exclusive scan of the section totals).
template <class T>
__global__ void add_offsets(T* out, const T* scanned, int n) {
  const long long base = static_cast<long long>(blockIdx.x) * SECTION;
  const T add = scanned[blockIdx.x];
  for (int k = threadIdx.x; k < SECTION; k += BLOCK) {
    if (base + k < n) out[base + k] += add;
  }
}

template <class T>
void scan_recursive(const T* in, T* out, int n, bool inclusive) {
  const int sections = (n + SECTION - 1) / SECTION;
  if (sections == 1) {
    prescan<T><<<1, BLOCK>>>(in, out, nullptr, n, inclusive);
    return;
  }
  T* sums;
  cudaMalloc(&sums, sections * sizeof(T));
  prescan<T><<<sections, BLOCK>>>(in, out, sums, n, inclusive);
  scan_recursive<T>(sums, sums, sections, false);  // exclusive scan of the totals, in place
  add_offsets<T><<<sections, BLOCK>>>(out, sums, n);
  cudaFree(sums);
}

void inclusive_scan(const float* in, float* out, int n) { scan_recursive(in, out, n, true); }
void exclusive_scan(const int* in, int* out, int n) { scan_recursive(in, out, n, false); }
