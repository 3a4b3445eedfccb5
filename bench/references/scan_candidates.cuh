// A candidate single-pass scan for the scan reference's tuning bench
// (scan_variants.cu), aimed at the latency the reference loses at the
// hardware's edge (docs/performance.md, "### scan": DRAM 58.5%, SM 12.3%: each
// tile waits for its load, then for its predecessors' prefixes): a pipelined
// persistent kernel, 1.12-1.21x of CUB on the H200 at 2^28 and 2^28-5 for both
// scans with 256 x 32 tiles (2026-11-29, 15 runs). The forms that lost (a
// persistent kernel keeping tiles ahead without this pipeline, 0.25-0.37x; one
// tile per block with a look-back warp of its own, 0.86-0.95x) were removed;
// docs/performance.md ("Candidates of the night") keeps their numbers.
// Within a tile the arrangement is the reference's: each warp owns 32 x ITEMS
// consecutive elements, read in rounds of one 16-byte vector per lane (512
// contiguous bytes per warp and instruction), scanned in registers, rounds
// chained by their totals. Tiles that are not full, or pointers that are not
// 16-byte aligned, take guarded scalar loads and stores from global memory.
//
// No block relies on being scheduled in launch order: a block only ever waits
// for tiles numbered below one it holds, and every tile it holds was taken from
// the counter by a running block, which scans its tiles in increasing order --
// so the smallest unfinished tile can always finish (no deadlock), however many
// blocks are resident.
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace candidates {

// THREADS compute threads x ITEMS elements per thread per tile; STAGES shared
// buffers of one tile each (0: no persistence, no shared buffers); LOOKBACK_WARP
// adds a warp of its own for the look-back; MIN_BLOCKS for
// __launch_bounds__ (caps the registers so that that many blocks fit on an SM);
// BACKOFF_NS: the look-back's sleep before polling again (0: none).
template <int THREADS_, int ITEMS_, int STAGES_, bool LOOKBACK_WARP_, int MIN_BLOCKS_, int BACKOFF_NS_ = 0>
struct Design {
  static constexpr int THREADS = THREADS_, ITEMS = ITEMS_, STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int BACKOFF_NS = BACKOFF_NS_;
  static constexpr bool LOOKBACK_WARP = LOOKBACK_WARP_;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int WARPS = THREADS / 32;  // compute warps
  static constexpr int BLOCK = THREADS + (LOOKBACK_WARP ? 32 : 0);
  static constexpr int GROUPS = ITEMS / 4;  // 16-byte rounds per lane
  static constexpr int QUEUE = STAGES > 0 ? STAGES : 1;
  static_assert(ITEMS % 4 == 0, "whole 16-byte vectors per lane and round");
  static_assert(THREADS % 32 == 0 && WARPS <= 32, "whole warps, at most 32 compute warps");
  static_assert(STAGES == 0 || STAGES >= 2, "a persistent block keeps at least one tile ahead in flight");
};

// The reference's tile states, warp primitives and look-back (reference/scan/scan.cu, which
// scan_variants.cu includes in namespace `after` before this header).
using after::FLAG_AGGREGATE;
using after::FLAG_NONE;
using after::FLAG_PREFIX;
using after::FULL_MASK;
using after::look_back;
using after::publish;
using after::warp_inclusive_scan;
template <class T> using Types = after::ScanTypes<T>;
template <class T> __device__ __forceinline__ T warp_sum(T v) { return after::warp_total(v); }

// The cp.async copies of one full tile into a shared buffer, by the compute
// thread (warp, lane): the same vectors it reads back.
template <class D, class T>
__device__ __forceinline__ void prefetch_tile(T* buffer, const T* in, unsigned tile, int warp, int lane) {
  constexpr int WARP_ELEMS = 32 * D::ITEMS;
  const T* src = in + static_cast<long long>(tile) * D::TILE + warp * WARP_ELEMS + lane * 4;
  T* dst = buffer + warp * WARP_ELEMS + lane * 4;
#pragma unroll
  for (int j = 0; j < D::GROUPS; ++j) __pipeline_memcpy_async(dst + j * 128, src + j * 128, 16);
}

// The pipelined persistent kernel (Design with STAGES == 2 and LOOKBACK_WARP).
// A persistent form without this pipeline ran at only 0.25-0.37x of CUB: a
// block there held tiles it had taken but not yet reduced (the ones ahead), and
// every later tile's look-back waited for their aggregates, which came only
// after the block's current tile had finished its own look-back -- a chain
// through the blocks. Here no taken tile waits on a
// look-back before its aggregate is published: each iteration
//   A. takes the next tile `ahead` (counter, then a barrier to share it) and
//      starts copying it into the free buffer (cp.async);
//   B. the look-back warp finds the prefix of the current tile (whose aggregate
//      went out in the previous iteration), while the compute warps scan the
//      current tile from shared memory into registers, then wait for `ahead`
//      to land, add it up and publish its aggregate (the last compute warp to
//      finish, counted with a shared atomic, adds the warps' parts);
//   C. after one barrier, the current tile's inclusive prefix is published and
//      its elements stored.
// Each thread copies, reduces and scans the same 16-byte vectors of a tile, so
// no barrier is needed between a copy landing and its use.
template <class D, class T, bool EXCLUSIVE>
__global__ void __launch_bounds__(D::BLOCK, D::MIN_BLOCKS)
    pipelined_kernel(const T* __restrict__ in, T* __restrict__ out, int n, unsigned tiles, bool vector_ok,
                     unsigned long long* states, unsigned* counter) {
  static_assert(D::STAGES == 2 && D::LOOKBACK_WARP, "the current tile and the one ahead; a look-back warp");
  using V = typename Types<T>::vec;
  constexpr int WARPS = D::WARPS, GROUPS = D::GROUPS, WARP_ELEMS = 32 * D::ITEMS;
  extern __shared__ __align__(16) unsigned char stage_bytes[];  // 2 tiles
  __shared__ unsigned next_s;
  __shared__ T warp_sums_s[WARPS];   // the current tile's warp totals
  __shared__ T warp_parts_s[WARPS];  // the ahead tile's warp totals
  __shared__ T aggregate_s[2];       // [tile parity in this block's sequence]
  __shared__ T prefix_s;
  __shared__ unsigned arrived_s;
  T* const buffers = reinterpret_cast<T*>(stage_bytes);
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const bool compute = warp < WARPS;
  const auto prefetchable = [&](unsigned tile) {
    return static_cast<long long>(tile + 1) * D::TILE <= n && vector_ok;
  };
  // One compute thread's part of tile `tile` (in `buffer` if it was copied there).
  const auto load = [&](unsigned tile, const T* buffer, T (&x)[GROUPS][4]) {
    const long long warp_base = static_cast<long long>(tile) * D::TILE + static_cast<long long>(warp) * WARP_ELEMS;
    const bool copied = prefetchable(tile);
#pragma unroll
    for (int j = 0; j < GROUPS; ++j) {
      const long long first = warp_base + j * 128 + lane * 4;
      if (copied) {
        const V v = *reinterpret_cast<const V*>(buffer + warp * WARP_ELEMS + j * 128 + lane * 4);
        x[j][0] = v.x, x[j][1] = v.y, x[j][2] = v.z, x[j][3] = v.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) x[j][e] = first + e < n ? in[first + e] : T(0);
      }
    }
  };
  // Run by the compute warps: the tile's total, published as its aggregate (as
  // its prefix for tile 0) by the last warp to get here; kept in aggregate_s[slot].
  const auto reduce_and_publish = [&](unsigned tile, const T* buffer, int slot) {
    // One vector at a time (the current tile's scan holds most registers).
    T s = T(0);
    const long long warp_base = static_cast<long long>(tile) * D::TILE + static_cast<long long>(warp) * WARP_ELEMS;
    const bool copied = prefetchable(tile);
#pragma unroll 1
    for (int j = 0; j < GROUPS; ++j) {
      const long long first = warp_base + j * 128 + lane * 4;
      if (copied) {
        const V v = *reinterpret_cast<const V*>(buffer + warp * WARP_ELEMS + j * 128 + lane * 4);
        s += (v.x + v.y) + (v.z + v.w);
      } else {
        for (int e = 0; e < 4; ++e) s += first + e < n ? in[first + e] : T(0);
      }
    }
    s = warp_sum(s);
    unsigned done = 0;
    if (lane == 0) {
      warp_parts_s[warp] = s;
      __threadfence_block();
      done = atomicAdd(&arrived_s, 1u);
    }
    if (__shfl_sync(FULL_MASK, done, 0) == WARPS - 1) {
      __threadfence_block();
      const T part = lane < WARPS ? *reinterpret_cast<volatile T*>(&warp_parts_s[lane]) : T(0);
      const T aggregate = warp_sum(part);
      if (lane == 0) {
        arrived_s = 0;  // next used after the coming barrier
        aggregate_s[slot] = aggregate;
        publish(states, tile, tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, aggregate);
      }
    }
  };

  // The first tile: taken, copied, reduced.
  if (t == 0) {
    next_s = atomicAdd(counter, 1u);
    arrived_s = 0;
  }
  __syncthreads();
  unsigned tile = next_s;
  if (tile >= tiles) return;
  if (compute) {
    if (prefetchable(tile)) prefetch_tile<D>(buffers, in, tile, warp, lane);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    reduce_and_publish(tile, buffers, 0);
  }
  for (int it = 0;; ++it) {
    const int stage = it & 1;  // the current tile's buffer and aggregate slot
    T* const current = buffers + stage * D::TILE;
    T* const next = buffers + (stage ^ 1) * D::TILE;
    // A. The tile ahead.
    if (t == 0) next_s = atomicAdd(counter, 1u);
    __syncthreads();
    const unsigned ahead = next_s;
    if (compute) {
      if (ahead < tiles && prefetchable(ahead)) prefetch_tile<D>(next, in, ahead, warp, lane);
      __pipeline_commit();
    }
    // B. Scan the current tile; reduce the one ahead. The look-back meanwhile.
    T x[GROUPS][4];
    T before_in_warp[GROUPS];
    if (compute) {
      load(tile, current, x);
      T warp_total = T(0);
#pragma unroll
      for (int j = 0; j < GROUPS; ++j) {
#pragma unroll
        for (int e = 1; e < 4; ++e) x[j][e] += x[j][e - 1];
        const T incl = warp_inclusive_scan(x[j][3], lane);
        T excl = __shfl_up_sync(FULL_MASK, incl, 1);
        if (lane == 0) excl = T(0);
        before_in_warp[j] = warp_total + excl;
        warp_total += __shfl_sync(FULL_MASK, incl, 31);
      }
      if (lane == 0) warp_sums_s[warp] = warp_total;
      if (ahead < tiles) {
        __pipeline_wait_prior(0);
        reduce_and_publish(ahead, next, stage ^ 1);
      }
    } else {
      const T prefix = tile == 0 ? T(0) : look_back<T, D::BACKOFF_NS>(states, tile, lane);
      if (lane == 0) prefix_s = prefix;
    }
    __syncthreads();
    // C. Publish the current tile's inclusive prefix; add and store.
    if (t == 0 && tile != 0) publish(states, tile, FLAG_PREFIX, prefix_s + aggregate_s[stage]);
    if (compute) {
      const T earlier = warp_sum(lane < warp ? warp_sums_s[lane] : T(0));
      const T warp_prefix = prefix_s + earlier;
      const long long warp_base = static_cast<long long>(tile) * D::TILE + static_cast<long long>(warp) * WARP_ELEMS;
      const bool full = static_cast<long long>(tile + 1) * D::TILE <= n;
#pragma unroll
      for (int j = 0; j < GROUPS; ++j) {
        const T before = warp_prefix + before_in_warp[j];
        T y[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          if (EXCLUSIVE) y[e] = e == 0 ? before : before + x[j][e - 1];
          else y[e] = before + x[j][e];
        }
        const long long first = warp_base + j * 128 + lane * 4;
        if (full && vector_ok) {
          *reinterpret_cast<V*>(out + first) = V{y[0], y[1], y[2], y[3]};
        } else {
#pragma unroll
          for (int e = 0; e < 4; ++e)
            if (first + e < n) out[first + e] = y[e];
        }
      }
    }
    if (ahead >= tiles) break;
    tile = ahead;
  }
}

// The tile states and the tile counter, kept between calls (grown when needed).
inline unsigned long long* state_buffer(unsigned tiles) {
  static unsigned long long* buffer = nullptr;
  static unsigned capacity = 0;
  if (tiles > capacity) {
    if (buffer) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, (static_cast<size_t>(tiles) + 1) * sizeof(unsigned long long)) != cudaSuccess) return nullptr;
    capacity = tiles;
  }
  return buffer;
}

// max_blocks (0: no limit) caps the grid below the resident count, so that a
// test can make each block scan many tiles.
template <class D, class T, bool EXCLUSIVE>
void scan(const T* in, T* out, int n, unsigned max_blocks = 0) {
  if (n <= 0) return;
  const unsigned tiles = static_cast<unsigned>((static_cast<long long>(n) - 1) / D::TILE + 1);
  unsigned long long* state = state_buffer(tiles);
  if (!state) return;  // cudaMalloc failed: its error is what the caller sees
  cudaMemsetAsync(state, 0, (static_cast<size_t>(tiles) + 1) * sizeof(unsigned long long));
  const bool vector_ok = reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
  const auto kernel = pipelined_kernel<D, T, EXCLUSIVE>;
  const size_t shared = static_cast<size_t>(D::STAGES) * D::TILE * sizeof(T);
  unsigned grid = tiles;
  if constexpr (D::STAGES > 0) {
    // As many blocks as are resident at once (asked once per kernel).
    static unsigned resident = 0;
    if (resident == 0) {
      // 1 KB more than the buffers: the CPU emulator counts the kernel's
      // __shared__ variables against this limit too (a GPU does not).
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared) + 1024);
      int device = 0, sms = 0, per_sm = 0;
      cudaGetDevice(&device);
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, D::BLOCK, shared);
      resident = static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1));
    }
    if (resident < grid) grid = resident;
    if (max_blocks > 0 && max_blocks < grid) grid = max_blocks;
  }
  kernel<<<grid, D::BLOCK, shared>>>(in, out, n, tiles, vector_ok, state + 1, reinterpret_cast<unsigned*>(state));
}

template <class D> void inclusive_scan(const float* in, float* out, int n, unsigned max_blocks = 0) {
  scan<D, float, false>(in, out, n, max_blocks);
}
template <class D> void exclusive_scan(const int* in, int* out, int n, unsigned max_blocks = 0) {
  scan<D, int, true>(in, out, n, max_blocks);
}

// The shapes the bench times: 8192- and 4096-element tiles.
using Pipelined256x32 = Design<256, 32, 2, true, 3>;
using Pipelined256x16 = Design<256, 16, 2, true, 4>;
using Pipelined128x32 = Design<128, 32, 2, true, 5>;

}  // namespace candidates
