// Idiom (cuda only: the emulator has no CUB): a hierarchical scan of the submission's own built
// from CUB's block-level collectives (cub::BlockLoad, cub::BlockScan, cub::BlockStore) and a warp
// scan: not a library algorithm of the scan lab, which names only device-wide scans.
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_scan.cuh>

namespace {
constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

template <class T, bool Inclusive>
__global__ void scan_tiles(const T* in, T* out, T* tile_sums, int n) {
  using Load = cub::BlockLoad<T, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using Scan = cub::BlockScan<T, kThreads>;
  using Store = cub::BlockStore<T, kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } storage;
  const int base = blockIdx.x * kTile, valid = min(kTile, n - base);
  T items[kItems];
  Load(storage.load).Load(in + base, items, valid, T{});
  __syncthreads();
  T total;
  if (Inclusive) Scan(storage.scan).InclusiveSum(items, items, total);
  else Scan(storage.scan).ExclusiveSum(items, items, total);
  __syncthreads();
  Store(storage.store).Store(out + base, items, valid);
  if (threadIdx.x == 0) tile_sums[blockIdx.x] = total;
}

// One warp scans the tile sums (at most 32 tiles per pass of this small idiom), then adds them.
template <class T>
__global__ void add_tile_offsets(T* out, const T* tile_sums, int tiles, int n) {
  using WarpScan = cub::WarpScan<T>;
  __shared__ typename WarpScan::TempStorage warp_storage;
  __shared__ T offsets[32];
  if (threadIdx.x < 32) {
    const T sum = threadIdx.x < tiles ? tile_sums[threadIdx.x] : T{};
    T offset;
    WarpScan(warp_storage).ExclusiveSum(sum, offset);
    offsets[threadIdx.x] = offset;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] += offsets[i / kTile];
}

template <class T, bool Inclusive>
void scan(const T* in, T* out, int n) {
  const int tiles = (n + kTile - 1) / kTile;  // this idiom handles up to 32 tiles
  T* sums = nullptr;
  cudaMalloc(&sums, tiles * sizeof(T));
  scan_tiles<T, Inclusive><<<tiles, kThreads>>>(in, out, sums, n);
  add_tile_offsets<T><<<1, 256>>>(out, sums, tiles, n);
  cudaFree(sums);
}
}  // namespace

void inclusive_scan(const float* in, float* out, int n) { scan<float, true>(in, out, n); }
void exclusive_scan(const int* in, int* out, int n) { scan<int, false>(in, out, n); }
