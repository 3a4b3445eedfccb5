// Candidate single-pass scans for the scan reference's tuning bench
// (scan_variants.cu), aimed at the latency the reference loses at the
// hardware's edge (docs/performance.md, "### scan": DRAM 58.5%, SM 12.3%: each
// tile waits for its load, then for its predecessors' prefixes).
//
// Two kernels. pipelined_kernel (below scan_kernel; the Pipelined* designs) is
// the one that won on the H200 (2026-11-29, n = 2^28 and 2^28-5, 15 runs):
// 256x32 at 1.12-1.21x of CUB for both scans (256x16 1.02-1.10x, 128x32
// 1.06-1.13x), against 0.91-0.98x for the reference. scan_kernel's persistent
// form lost (0.25-0.37x: see pipelined_kernel) and its one-tile look-back warp
// form too (0.86-0.95x).
// scan_kernel: two independent features chosen by the Design parameters:
//   * STAGES >= 2: a persistent kernel. The grid is as many blocks as fit on the
//     GPU at once; each block takes tile numbers from the global counter in
//     order and keeps STAGES - 1 tiles AHEAD of the one it scans in flight:
//     their input is copied into shared buffers with cp.async (16-byte copies,
//     each thread copying exactly the vectors it later reads, so no barrier is
//     needed between a copy landing and its use) while the block scans the
//     current tile and waits for its look-back. The DRAM pipe keeps reading
//     while a tile waits for its predecessors.
//     STAGES == 0: one tile per block, loaded straight into registers (as the
//     reference does; grid = number of tiles).
//   * LOOKBACK_WARP: one extra warp per block does the decoupled look-back from
//     the moment the tile number is known, while the other warps load and scan
//     the tile (the local scan does not need the prefix; only the final add
//     does). The last compute warp to finish its part (a shared atomic counts
//     them) adds the warps' totals and publishes the tile's aggregate at once;
//     after one barrier the prefix is published and every warp adds it.
//     Without it, warp 0 does the look-back after the tile's local scan (as the
//     reference does).
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

constexpr unsigned FULL_MASK = 0xffffffffu;
// Tile states: the flag in the high 32 bits, the value's bits in the low 32.
constexpr unsigned long long FLAG_NONE = 0;
constexpr unsigned long long FLAG_AGGREGATE = 1;
constexpr unsigned long long FLAG_PREFIX = 2;

template <class T> struct Types;
template <> struct Types<float> {
  using vec = float4;
  __device__ static unsigned bits(float v) { return __float_as_uint(v); }
  __device__ static float value(unsigned b) { return __uint_as_float(b); }
};
template <> struct Types<int> {
  using vec = int4;
  __device__ static unsigned bits(int v) { return static_cast<unsigned>(v); }
  __device__ static int value(unsigned b) { return static_cast<int>(b); }
};

template <class T>
__device__ __forceinline__ void publish(unsigned long long* states, unsigned tile, unsigned long long flag, T v) {
  const unsigned long long word = (flag << 32) | Types<T>::bits(v);
  *reinterpret_cast<volatile unsigned long long*>(&states[tile]) = word;
}

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(FULL_MASK, v, offset);
  return v;
}

template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T v, int lane) {
  for (int offset = 1; offset < 32; offset *= 2) {
    const T up = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

// Run by all 32 lanes of one warp: the sum of every tile before `tile`
// (windows of 32 tiles, stopping at the nearest one with its prefix published).
template <class T, int BACKOFF_NS>
__device__ T look_back(unsigned long long* states, unsigned tile, int lane) {
  T exclusive = T(0);
  long long last = static_cast<long long>(tile) - 1;
  for (;;) {
    const long long mine = last - lane;
    unsigned long long word;
    for (;;) {
      word = mine >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&states[mine]) : (FLAG_PREFIX << 32);
      if (!__any_sync(FULL_MASK, (word >> 32) == FLAG_NONE)) break;
      if (BACKOFF_NS > 0) __nanosleep(BACKOFF_NS);
    }
    T v = Types<T>::value(static_cast<unsigned>(word));
    const unsigned prefixes = __ballot_sync(FULL_MASK, (word >> 32) == FLAG_PREFIX);
    if (prefixes) {
      const int stop = __ffs(prefixes) - 1;
      if (lane > stop) v = T(0);
      return exclusive + warp_sum(v);
    }
    exclusive += warp_sum(v);
    last -= 32;
  }
}

// The cp.async copies of one full tile into a shared buffer, by the compute
// thread (warp, lane): the same vectors it reads back in scan_kernel.
template <class D, class T>
__device__ __forceinline__ void prefetch_tile(T* buffer, const T* in, unsigned tile, int warp, int lane) {
  constexpr int WARP_ELEMS = 32 * D::ITEMS;
  const T* src = in + static_cast<long long>(tile) * D::TILE + warp * WARP_ELEMS + lane * 4;
  T* dst = buffer + warp * WARP_ELEMS + lane * 4;
#pragma unroll
  for (int j = 0; j < D::GROUPS; ++j) __pipeline_memcpy_async(dst + j * 128, src + j * 128, 16);
}

template <class D, class T, bool EXCLUSIVE>
__global__ void __launch_bounds__(D::BLOCK, D::MIN_BLOCKS)
    scan_kernel(const T* __restrict__ in, T* __restrict__ out, int n, unsigned tiles, bool vector_ok,
                unsigned long long* states, unsigned* counter) {
  using V = typename Types<T>::vec;
  constexpr int WARPS = D::WARPS, GROUPS = D::GROUPS, WARP_ELEMS = 32 * D::ITEMS;
  extern __shared__ __align__(16) unsigned char stage_bytes[];  // STAGES tiles (persistent only)
  __shared__ unsigned queue_s[D::QUEUE];                        // the first tiles taken
  __shared__ unsigned next_s[2];                                // the tile taken during an iteration
  __shared__ T warp_sums_s[2][WARPS];                           // [iteration parity][warp]
  __shared__ T aggregate_s[2];
  __shared__ T prefix_s[2];
  __shared__ unsigned arrived_s;  // compute warps done with their part of the tile (look-back warp only)
  T* const buffers = reinterpret_cast<T*>(stage_bytes);
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const bool compute = warp < WARPS;

  if (t == 0) {
    for (int s = 0; s < D::QUEUE; ++s) queue_s[s] = atomicAdd(counter, 1u);
    arrived_s = 0;
  }
  __syncthreads();
  unsigned queue[D::QUEUE];  // tiles held by this block, in increasing order; queue[0] is scanned now
#pragma unroll
  for (int s = 0; s < D::QUEUE; ++s) queue[s] = queue_s[s];
  const auto prefetchable = [&](unsigned tile) {
    return tile < tiles && static_cast<long long>(tile + 1) * D::TILE <= n && vector_ok;
  };
  if constexpr (D::STAGES > 0) {
    if (compute) {
#pragma unroll
      for (int s = 0; s + 1 < D::STAGES; ++s) {
        if (prefetchable(queue[s])) prefetch_tile<D>(buffers + s * D::TILE, in, queue[s], warp, lane);
        __pipeline_commit();
      }
    }
  }

  int stage = 0;  // the buffer of queue[0]
  for (int it = 0;; ++it) {
    const unsigned tile = queue[0];
    if (tile >= tiles) break;  // the same in every thread (the queue came through shared memory)
    const int p = it & 1;
    unsigned taken = 0;
    if constexpr (D::STAGES > 0) {
      if (t == 0) taken = atomicAdd(counter, 1u);  // its result is only needed at the iteration's end
      if (compute) {
        const unsigned ahead = queue[D::STAGES - 1];
        int ahead_stage = stage + D::STAGES - 1;
        if (ahead_stage >= D::STAGES) ahead_stage -= D::STAGES;
        if (prefetchable(ahead)) prefetch_tile<D>(buffers + ahead_stage * D::TILE, in, ahead, warp, lane);
        __pipeline_commit();
        __pipeline_wait_prior(D::STAGES - 1);  // this thread's copies of `tile` have landed
      }
    }
    const bool full = static_cast<long long>(tile + 1) * D::TILE <= n;
    const long long warp_base = static_cast<long long>(tile) * D::TILE + static_cast<long long>(warp) * WARP_ELEMS;

    T x[GROUPS][4];
    T before_in_warp[GROUPS];
    if (compute) {
#pragma unroll
      for (int j = 0; j < GROUPS; ++j) {
        const long long first = warp_base + j * 128 + lane * 4;
        if (D::STAGES > 0 && full && vector_ok) {
          const V v = *reinterpret_cast<const V*>(buffers + stage * D::TILE + warp * WARP_ELEMS + j * 128 + lane * 4);
          x[j][0] = v.x, x[j][1] = v.y, x[j][2] = v.z, x[j][3] = v.w;
        } else if (full && vector_ok) {
          const V v = *reinterpret_cast<const V*>(in + first);
          x[j][0] = v.x, x[j][1] = v.y, x[j][2] = v.z, x[j][3] = v.w;
        } else {
#pragma unroll
          for (int e = 0; e < 4; ++e) x[j][e] = first + e < n ? in[first + e] : T(0);
        }
      }
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
      if constexpr (D::LOOKBACK_WARP) {
        // The last compute warp to get here adds all the warps' totals and
        // publishes the tile's aggregate at once.
        unsigned done = 0;
        if (lane == 0) {
          warp_sums_s[p][warp] = warp_total;
          __threadfence_block();
          done = atomicAdd(&arrived_s, 1u);
        }
        if (__shfl_sync(FULL_MASK, done, 0) == WARPS - 1) {
          __threadfence_block();
          const T s = lane < WARPS ? *reinterpret_cast<volatile T*>(&warp_sums_s[p][lane]) : T(0);
          const T aggregate = warp_sum(s);
          if (lane == 0) {
            arrived_s = 0;  // next used after the barrier below
            aggregate_s[p] = aggregate;
            publish(states, tile, tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, aggregate);
          }
        }
      } else {
        if (lane == 0) warp_sums_s[p][warp] = warp_total;
      }
    } else if constexpr (D::LOOKBACK_WARP) {
      // The look-back warp: the sum of every earlier tile, while the compute
      // warps load and scan this one.
      const T prefix = tile == 0 ? T(0) : look_back<T, D::BACKOFF_NS>(states, tile, lane);
      if (lane == 0) prefix_s[p] = prefix;
    }

    if constexpr (!D::LOOKBACK_WARP) {
      // The reference's order: warp 0 adds the totals, publishes, looks back.
      __syncthreads();
      if (warp == 0) {
        const T aggregate = warp_sum(lane < WARPS ? warp_sums_s[p][lane] : T(0));
        T prefix = T(0);
        if (tile == 0) {
          if (lane == 0) publish(states, 0, FLAG_PREFIX, aggregate);
        } else {
          if (lane == 0) publish(states, tile, FLAG_AGGREGATE, aggregate);
          prefix = look_back<T, D::BACKOFF_NS>(states, tile, lane);
          if (lane == 0) publish(states, tile, FLAG_PREFIX, prefix + aggregate);
        }
        if (lane == 0) prefix_s[p] = prefix;
      }
    }
    if (t == 0) next_s[p] = taken;
    __syncthreads();
    if constexpr (D::LOOKBACK_WARP) {
      if (t == 0 && tile != 0) publish(states, tile, FLAG_PREFIX, prefix_s[p] + aggregate_s[p]);
    }

    if (compute) {
      // Everything before this warp's stretch: the tile's prefix and the totals
      // of the earlier warps.
      const T earlier = warp_sum(lane < warp ? warp_sums_s[p][lane] : T(0));
      const T warp_prefix = prefix_s[p] + earlier;
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

    if constexpr (D::STAGES == 0) {
      break;  // one tile per block
    } else {
#pragma unroll
      for (int s = 0; s + 1 < D::STAGES; ++s) queue[s] = queue[s + 1];
      queue[D::STAGES - 1] = next_s[p];  // written before the barrier above; rewritten two iterations on
      stage = stage + 1 == D::STAGES ? 0 : stage + 1;
    }
  }
  if constexpr (D::STAGES > 0) {
    if (compute) __pipeline_wait_prior(0);  // no copy outlives the block
  }
}


// The pipelined persistent kernel (Design with STAGES == 2 and LOOKBACK_WARP).
// Measured on the H200 (2026-11-29), scan_kernel's persistent form ran at only
// 0.25-0.37x of CUB: a block there holds tiles it has taken but not yet
// reduced (the ones ahead), and every later tile's look-back waits for their
// aggregates, which come only after the block's current tile has finished its
// own look-back -- a chain through the blocks. Here no taken tile waits on a
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

// max_blocks (persistent kernels only; 0: no limit) caps the grid below the
// resident count, so that a test can make each block scan many tiles.
template <class D, class T, bool EXCLUSIVE, bool PIPELINED = false>
void scan(const T* in, T* out, int n, unsigned max_blocks = 0) {
  if (n <= 0) return;
  const unsigned tiles = static_cast<unsigned>((static_cast<long long>(n) - 1) / D::TILE + 1);
  unsigned long long* state = state_buffer(tiles);
  if (!state) return;  // cudaMalloc failed: its error is what the caller sees
  cudaMemsetAsync(state, 0, (static_cast<size_t>(tiles) + 1) * sizeof(unsigned long long));
  const bool vector_ok = reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
  auto kernel = scan_kernel<D, T, EXCLUSIVE>;
  if constexpr (PIPELINED) kernel = pipelined_kernel<D, T, EXCLUSIVE>;
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
template <class D> void pipelined_inclusive_scan(const float* in, float* out, int n, unsigned max_blocks = 0) {
  scan<D, float, false, true>(in, out, n, max_blocks);
}
template <class D> void pipelined_exclusive_scan(const int* in, int* out, int n, unsigned max_blocks = 0) {
  scan<D, int, true, true>(in, out, n, max_blocks);
}

// The candidates the bench times.
// One tile per block (as the reference) with the look-back in a warp of its own.
using LookbackWarp256x32 = Design<256, 32, 0, true, 2>;
// The pipelined persistent kernel (pipelined_kernel), 8192- and 4096-element tiles.
using Pipelined256x32 = Design<256, 32, 2, true, 3>;
using Pipelined256x16 = Design<256, 16, 2, true, 4>;
using Pipelined128x32 = Design<128, 32, 2, true, 5>;
// scan_kernel's persistent forms (0.25-0.37x of CUB on the H200: see
// pipelined_kernel), kept for the emulator checks and a later comparison.
using Persistent256x32 = Design<256, 32, 2, false, 3>;
using PersistentLookback256x16s3 = Design<256, 16, 3, true, 4>;

}  // namespace candidates
