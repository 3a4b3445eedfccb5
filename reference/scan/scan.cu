// Reference solution of the scan lab (hidden from students): a fast hierarchical
// scan used to check the datasets and as the performance baseline.
//
// Strategy (the course's hierarchical scan, arranged as "reduce, then scan"):
//   1. reduce_tiles: every block sums one tile of SCAN_TILE elements (each thread
//      first adds SCAN_ITEMS elements on its own, then a tree in shared memory)
//      and writes the tile's total to a block-sums array;
//   2. the block sums are scanned by the same routine, recursively (inclusive);
//   3. scan_tiles: every block scans its tile again, this time starting from the
//      scanned sum of all earlier tiles (the "add the block sums back" step,
//      folded into the second pass so the output is written only once).
// Inside a tile, each thread scans SCAN_ITEMS consecutive elements sequentially
// (thread coarsening), and the threads' totals are scanned with a double-buffered
// Kogge-Stone scan in shared memory. A single tile needs only step 3.
// Global traffic: read n, read n, write n. Tunables are the named constants below.
#include <cuda_runtime.h>

// Threads per block, elements each thread handles, and the tile a block covers.
constexpr int SCAN_THREADS = 256;
constexpr int SCAN_ITEMS = 8;
constexpr int SCAN_TILE = SCAN_THREADS * SCAN_ITEMS;
// Shared-memory padding: one extra slot every 32 elements, so that thread t
// reading element t * SCAN_ITEMS + k hits a different bank from thread t + 1.
constexpr int SCAN_PADDED_TILE = SCAN_TILE + SCAN_TILE / 32;

__device__ __forceinline__ int scan_pad(int i) { return i + (i >> 5); }

// Step 1: sums[b] = in[b * SCAN_TILE] + ... (the whole tile b, zeros past n).
template <class T>
__global__ void reduce_tiles(const T* in, T* sums, int n) {
  __shared__ T partial[SCAN_THREADS];
  const int t = threadIdx.x;
  const long long base = static_cast<long long>(blockIdx.x) * SCAN_TILE;
  T acc = T(0);
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    const long long idx = base + k * SCAN_THREADS + t;  // consecutive threads, consecutive addresses
    if (idx < n) acc += in[idx];
  }
  partial[t] = acc;
  // Tree without divergence: the active threads stay contiguous.
  for (int stride = SCAN_THREADS / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// Step 3 (and the whole job for a single tile): scan tile b of `in` into `out`,
// starting from carries[b - 1] (the inclusive scan of the tile sums) when
// carries is given. EXCLUSIVE selects y[i] = x[0] + ... + x[i-1].
// in and out may be the same array: each block reads its tile before writing it.
template <class T, bool EXCLUSIVE>
__global__ void scan_tiles(const T* in, T* out, int n, const T* carries) {
  __shared__ T tile[SCAN_PADDED_TILE];
  __shared__ T totals[2][SCAN_THREADS];  // Kogge-Stone double buffer
  const int t = threadIdx.x;
  const long long base = static_cast<long long>(blockIdx.x) * SCAN_TILE;

  // Coalesced load of the tile; zeros past the end of the input.
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    const int local = k * SCAN_THREADS + t;
    const long long idx = base + local;
    tile[scan_pad(local)] = idx < n ? in[idx] : T(0);
  }
  __syncthreads();

  // Each thread takes SCAN_ITEMS consecutive elements and sums them.
  T x[SCAN_ITEMS];
  T total = T(0);
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    x[k] = tile[scan_pad(t * SCAN_ITEMS + k)];
    total += x[k];
  }

  // Double-buffered Kogge-Stone scan of the thread totals: one barrier per step.
  int src = 0;
  totals[0][t] = total;
  for (int stride = 1; stride < SCAN_THREADS; stride *= 2) {
    __syncthreads();
    T v = totals[src][t];
    if (t >= stride) v += totals[src][t - stride];
    totals[1 - src][t] = v;
    src = 1 - src;
  }
  __syncthreads();

  // Start of this thread's run: earlier tiles + earlier threads of this tile.
  T run = (carries != nullptr && blockIdx.x > 0) ? carries[blockIdx.x - 1] : T(0);
  if (t > 0) run += totals[src][t - 1];
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    if (EXCLUSIVE) {
      tile[scan_pad(t * SCAN_ITEMS + k)] = run;
      run += x[k];
    } else {
      run += x[k];
      tile[scan_pad(t * SCAN_ITEMS + k)] = run;
    }
  }
  __syncthreads();

  // Coalesced store.
  for (int k = 0; k < SCAN_ITEMS; ++k) {
    const int local = k * SCAN_THREADS + t;
    const long long idx = base + local;
    if (idx < n) out[idx] = tile[scan_pad(local)];
  }
}

// The hierarchical scan for any n >= 1: one level per call, recursing on the
// tile sums (SCAN_TILE times fewer elements each level).
template <class T, bool EXCLUSIVE>
static void scan_device(const T* in, T* out, int n) {
  if (n <= 0) return;
  const int tiles = (n - 1) / SCAN_TILE + 1;
  if (tiles == 1) {
    scan_tiles<T, EXCLUSIVE><<<1, SCAN_THREADS>>>(in, out, n, nullptr);
    return;
  }
  T* sums = nullptr;
  cudaMalloc(&sums, static_cast<size_t>(tiles) * sizeof(T));
  reduce_tiles<T><<<tiles, SCAN_THREADS>>>(in, sums, n);
  scan_device<T, false>(sums, sums, tiles);  // inclusive scan of the tile sums, in place
  scan_tiles<T, EXCLUSIVE><<<tiles, SCAN_THREADS>>>(in, out, n, sums);
  cudaFree(sums);
}

void inclusive_scan(const float* in, float* out, int n) { scan_device<float, false>(in, out, n); }

void exclusive_scan(const int* in, int* out, int n) { scan_device<int, true>(in, out, n); }
