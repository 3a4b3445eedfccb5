// Test corpus: a disguised copy of reference/scan/progression/hierarchical_brent_kung.cu (names
// changed, comments removed, the fix-up kernel written with an if around its loop instead of an early
// return, the host code's statements reordered, an unused clamp helper added).
#include <cuda_runtime.h>

#define NT 512
#define SPAN (2 * NT)

template <class V>
__device__ V clampTo(V x, V hi) { return x > hi ? hi : x; }

template <class V>
__device__ void bkScan(V* s) {
  for (int st = 1; st <= NT; st *= 2) {
    __syncthreads();
    const int at = (threadIdx.x + 1) * st * 2 - 1;
    if (at < SPAN) s[at] += s[at - st];
  }
  for (int st = SPAN / 4; st > 0; st /= 2) {
    __syncthreads();
    const int at = (threadIdx.x + 1) * st * 2 - 1;
    if (at + st < SPAN) s[at + st] += s[at];
  }
  __syncthreads();
}

template <class V>
__global__ void addTotals(V* dst, const V* totals, int count) {
  const long long first = static_cast<long long>(blockIdx.x) * SPAN;
  if (blockIdx.x != 0) {
    const V plus = totals[blockIdx.x - 1];
    for (int q = threadIdx.x; q < SPAN; q += NT) {
      if (first + q < count) dst[first + q] += plus;
    }
  }
}

template <class V>
__global__ void scanSpans(const V* src, V* dst, V* totals, int count, bool excl) {
  __shared__ V s[SPAN];
  const long long first = static_cast<long long>(blockIdx.x) * SPAN;
  for (int q = threadIdx.x; q < SPAN; q += NT) s[q] = first + q < count ? src[first + q] : V(0);
  bkScan(s);
  for (int q = threadIdx.x; q < SPAN; q += NT) {
    if (first + q < count) dst[first + q] = excl ? (q > 0 ? s[q - 1] : V(0)) : s[q];
  }
  if (threadIdx.x == 0) totals[blockIdx.x] = s[SPAN - 1];
}

template <class V>
__global__ void scanTotals(V* totals, int howMany) {
  __shared__ V s[SPAN];
  V run = V(0);
  for (int from = 0; from < howMany; from += SPAN) {
    for (int q = threadIdx.x; q < SPAN; q += NT) s[q] = from + q < howMany ? totals[from + q] : V(0);
    bkScan(s);
    for (int q = threadIdx.x; q < SPAN; q += NT) {
      if (from + q < howMany) totals[from + q] = s[q] + run;
    }
    run += s[SPAN - 1];
    __syncthreads();
  }
}

template <class V>
void scanAll(const V* src, V* dst, int count, bool excl) {
  V* totals;
  const int spans = (count + SPAN - 1) / SPAN;
  cudaMalloc(&totals, spans * sizeof(V));
  scanSpans<V><<<spans, NT>>>(src, dst, totals, count, excl);
  if (spans > 1) {
    scanTotals<V><<<1, NT>>>(totals, spans);
    addTotals<V><<<spans, NT>>>(dst, totals, count);
  }
  cudaFree(totals);
}

void exclusive_scan(const int* in, int* out, int n) { scanAll(in, out, n, true); }
void inclusive_scan(const float* in, float* out, int n) { scanAll(in, out, n, false); }
