// Reference solution of the scan lab (hidden from students): a single-pass scan
// with decoupled look-back in persistent, pipelined blocks, the baseline the
// grader times students against.
//
// Why single pass: a scan must read n elements and write n. The course's
// hierarchical scan (README "5. The hierarchical scan": scan the blocks, scan
// the block sums, add them back) reads the input twice or writes the output
// twice: 3n of memory traffic. Here every element is read once and written once
// (2n), the least possible, in one kernel launch (README "Going further" names
// the idea). The techniques, each explained where the code uses it:
//
//   1. Tiles in start order: blocks take tile numbers from a global counter
//      (atomicAdd), so a block only ever waits for tiles taken before its own
//      (README "Going further"). Every taken tile belongs to a running block,
//      which handles its tiles in order, so the smallest unfinished tile can
//      always finish: no deadlock, however many blocks the GPU runs at once.
//   2. Thread coarsening: a tile is THREADS x ITEMS elements; each warp owns
//      32 x ITEMS consecutive ones, read in rounds of one 16-byte vector per
//      lane (512 contiguous bytes per warp and instruction), scanned in
//      registers and combined with a Kogge-Stone warp scan on shuffles
//      (README "2. The Kogge-Stone scan" and "Going further").
//   3. Decoupled look-back: each tile publishes its total ("aggregate"), then
//      its inclusive prefix; a tile's prefix is found by adding the aggregates
//      of the tiles before it back to the nearest published prefix.
//   4. Persistent, pipelined blocks: as many blocks as fit on the GPU at once,
//      each scanning tile after tile. While a block scans its current tile,
//      the next one is already on its way into shared memory (asynchronous
//      copies into a second buffer: the double buffering of README section 2,
//      applied to whole tiles), and the next tile's total is added up and
//      published as soon as it has landed, a tile ahead of its prefix. One
//      extra warp does the look-back for the current tile meanwhile, so the
//      memory system always has a tile in flight.
//   5. Every hand-off between threads goes through a barrier (README section
//      2, "The trap", and "Hints"): __syncthreads() for the whole block, twice
//      a tile, and for the compute warps alone a named barrier
//      (__barrier_sync_count(1, threads): beyond the README, one of the 16
//      hardware barriers of a block, counting only the warps that use it),
//      after which thread 0 publishes the next tile's total without waiting
//      for the look-back warp (1.15x of CUB against 1.04x with that total
//      published after the next __syncthreads(), on an H200). Between blocks,
//      tile states are published with single volatile 64-bit stores and read
//      with volatile loads.
//
// The float part adds the prefix chain in a different order than a sequential
// sum; the lab's float bound covers it (see gold.cpp).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

// THREADS compute threads (plus one look-back warp) and ITEMS elements per
// compute thread (THREADS x ITEMS per tile); MIN_BLOCKS blocks per SM for
// __launch_bounds__ (it caps the registers so that they fit); BACKOFF_NS: how
// long the look-back sleeps before polling again a tile that has not published
// yet (0: at once).
template <int THREADS_, int ITEMS_, int MIN_BLOCKS_, int BACKOFF_NS_>
struct ScanShape {
  static constexpr int THREADS = THREADS_, ITEMS = ITEMS_, MIN_BLOCKS = MIN_BLOCKS_, BACKOFF_NS = BACKOFF_NS_;
  static constexpr int TILE = THREADS * ITEMS;
  static constexpr int WARPS = THREADS / 32;       // compute warps
  static constexpr int BLOCK = THREADS + 32;       // and the look-back warp
  static constexpr int GROUPS = ITEMS / 4;         // 16-byte rounds per lane
  static constexpr int WARP_ELEMS = 32 * ITEMS;    // consecutive elements per warp
  static_assert(ITEMS % 4 == 0, "whole 16-byte vectors per lane and round");
  static_assert(THREADS % 32 == 0 && WARPS <= 32, "whole warps, at most 32 compute warps");
};
// 8192-element tiles of 256 + 32 threads, 3 blocks per SM: 1.15x / 1.14x of CUB
// on an H200 at 2^28 elements (inclusive / exclusive; 1.22x / 1.14x at 2^28 - 5;
// 256 x 16 and 128 x 32 tiles 1.04x and 1.08x, 2 blocks per SM 1.08x, a 100 ns
// back-off no different: docs/performance.md).
using Shape = ScanShape<256, 32, 3, 0>;

constexpr unsigned FULL_MASK = 0xffffffffu;

// Tile states: the flag in the high 32 bits, the value's bits in the low 32.
constexpr unsigned long long FLAG_NONE = 0;       // not published yet
constexpr unsigned long long FLAG_AGGREGATE = 1;  // value = the tile's own total
constexpr unsigned long long FLAG_PREFIX = 2;     // value = total of this tile and all before it

template <class T> struct ScanTypes;
template <> struct ScanTypes<float> {
  using vec = float4;
  __device__ static unsigned bits(float v) { return __float_as_uint(v); }
  __device__ static float value(unsigned b) { return __uint_as_float(b); }
};
template <> struct ScanTypes<int> {
  using vec = int4;
  __device__ static unsigned bits(int v) { return static_cast<unsigned>(v); }
  __device__ static int value(unsigned b) { return static_cast<int>(b); }
};

// Value and flag share one 64-bit word, written in one volatile store and read
// in one volatile load, so a reader never sees a flag without its value (and
// volatile keeps the compiler from caching a polled word in a register).
template <class T>
__device__ __forceinline__ void publish(unsigned long long* states, unsigned tile, unsigned long long flag, T v) {
  const unsigned long long word = (flag << 32) | ScanTypes<T>::bits(v);
  *reinterpret_cast<volatile unsigned long long*>(&states[tile]) = word;
}

// Sum over the warp, the result in every lane (butterfly).
template <class T>
__device__ __forceinline__ T warp_total(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(FULL_MASK, v, offset);
  return v;
}

// Inclusive scan over the warp (Kogge-Stone with shuffles).
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T v, int lane) {
  for (int offset = 1; offset < 32; offset *= 2) {
    const T up = __shfl_up_sync(FULL_MASK, v, offset);
    if (lane >= offset) v += up;
  }
  return v;
}

// 3. The look-back, run by all 32 lanes of one warp: the sum of every tile
// before `tile`. The warp looks at the 32 preceding tiles together: if one of
// them has published its inclusive prefix, the result is that prefix plus the
// aggregates of the tiles between; otherwise it adds all 32 aggregates and
// looks 32 tiles further back. It waits only while a tile of the window has
// published nothing yet (every such tile has been taken: it will publish).
template <class T, int BACKOFF_NS>
__device__ T look_back(unsigned long long* states, unsigned tile, int lane) {
  T exclusive = T(0);
  long long last = static_cast<long long>(tile) - 1;  // the nearest tile of the window
  for (;;) {
    const long long mine = last - lane;  // lane 0 looks at the nearest tile
    unsigned long long word;
    for (;;) {
      word = mine >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&states[mine]) : (FLAG_PREFIX << 32);
      if (!__any_sync(FULL_MASK, (word >> 32) == FLAG_NONE)) break;
      if (BACKOFF_NS > 0) __nanosleep(BACKOFF_NS);
    }
    T v = ScanTypes<T>::value(static_cast<unsigned>(word));
    const unsigned prefixes = __ballot_sync(FULL_MASK, (word >> 32) == FLAG_PREFIX);
    if (prefixes) {
      // Stop at the nearest tile that knows its inclusive prefix.
      const int stop = __ffs(prefixes) - 1;
      if (lane > stop) v = T(0);
      return exclusive + warp_total(v);
    }
    exclusive += warp_total(v);
    last -= 32;
  }
}

// Where the 16-byte vector of round j of compute thread (warp, lane) starts,
// counted from the start of its tile (2.: the same in global and shared memory).
template <class S>
__device__ __forceinline__ int vector_offset(int warp, int lane, int j) {
  return warp * S::WARP_ELEMS + j * 128 + lane * 4;
}

// Whether the whole tile lies inside the array (all but the last, partial one).
template <class S>
__device__ __forceinline__ bool full_tile(unsigned tile, int n) {
  return static_cast<long long>(tile + 1) * S::TILE <= n;
}

// The last, partial tile (see copy_tile), out of line so that this path, taken
// once per launch, does not cost the main loop registers (spills).
template <class S, class T>
__device__ __noinline__ void copy_last_tile(T* buffer, const T* in, int n, long long tile_base, int warp, int lane) {
  const int left = static_cast<int>(n - tile_base);  // elements of this tile inside the array
#pragma unroll 4
  for (int k = 0; k < S::ITEMS; ++k) {
    const int at = warp * S::WARP_ELEMS + k * 32 + lane;
    buffer[at] = at < left ? in[tile_base + at] : T(0);
  }
  __syncwarp();  // the warp's lanes read each other's elements
}

// 4. Start copying this thread's vectors of a full tile into `buffer`
// (cp.async: the copy runs while the thread goes on; __pipeline_wait_prior
// waits for it). Each thread later reads exactly the vectors it copied, so the
// copy needs no barrier before its use. The last, partial tile is copied by
// each warp element by element instead (consecutive lanes on consecutive
// elements), with zeros past the end of the array (the identity of +: README
// "3." pads the same way), then __syncwarp(), since its lanes read each
// other's elements. Tiles go through shared memory when the arrays are 16-byte
// aligned (vector_ok); otherwise every element is read from global memory with
// a bounds test.
template <class S, class T>
__device__ __forceinline__ void copy_tile(T* buffer, const T* in, int n, unsigned tile, int warp, int lane) {
  const long long tile_base = static_cast<long long>(tile) * S::TILE;
  if (full_tile<S>(tile, n)) {
#pragma unroll
    for (int j = 0; j < S::GROUPS; ++j) {
      const int at = vector_offset<S>(warp, lane, j);
      __pipeline_memcpy_async(buffer + at, in + tile_base + at, 16);
    }
  } else {
    copy_last_tile<S>(buffer, in, n, tile_base, warp, lane);
  }
}

// This thread's elements of a tile: x[j] = the 4 elements of round j.
template <class S, class T>
__device__ __forceinline__ void load_part(T (&x)[S::GROUPS][4], const T* buffer, bool in_buffer, const T* in,
                                          int n, unsigned tile, int warp, int lane) {
  using V = typename ScanTypes<T>::vec;
  const long long tile_base = static_cast<long long>(tile) * S::TILE;
#pragma unroll
  for (int j = 0; j < S::GROUPS; ++j) {
    const int at = vector_offset<S>(warp, lane, j);
    if (in_buffer) {
      const V v = *reinterpret_cast<const V*>(buffer + at);
      x[j][0] = v.x, x[j][1] = v.y, x[j][2] = v.z, x[j][3] = v.w;
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) x[j][e] = tile_base + at + e < n ? in[tile_base + at + e] : T(0);
    }
  }
}

// 3. and 5. The tile's total, added up by the compute warps (each lane its
// vectors, a butterfly over the warp), each warp's part left in parts[warp];
// after the next __syncthreads() thread 0 adds the parts up (publish_total).
template <class S, class T>
__device__ void add_up_part(const T* buffer, bool in_buffer, const T* in, int n, unsigned tile, int warp, int lane,
                            T* parts) {
  using V = typename ScanTypes<T>::vec;
  const long long tile_base = static_cast<long long>(tile) * S::TILE;
  T s = T(0);
#pragma unroll 1  // one vector at a time: the current tile's scan holds most registers
  for (int j = 0; j < S::GROUPS; ++j) {
    const int at = vector_offset<S>(warp, lane, j);
    if (in_buffer) {
      const V v = *reinterpret_cast<const V*>(buffer + at);
      s += (v.x + v.y) + (v.z + v.w);
    } else {
      for (int e = 0; e < 4; ++e) s += tile_base + at + e < n ? in[tile_base + at + e] : T(0);
    }
  }
  s = warp_total(s);
  if (lane == 0) parts[warp] = s;
}

// The tile's total from the compute warps' parts (written before a barrier),
// published as its aggregate (as its prefix for tile 0) and kept in *aggregate
// for the look-back warp.
template <class S, class T>
__device__ void publish_total(const T* parts, unsigned tile, T* aggregate, unsigned long long* states) {
  T total = T(0);
  for (int w = 0; w < S::WARPS; ++w) total += parts[w];
  *aggregate = total;
  publish(states, tile, tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, total);
}

template <class S, class T, bool EXCLUSIVE>
__global__ void __launch_bounds__(S::BLOCK, S::MIN_BLOCKS)
    single_pass_scan(const T* __restrict__ in, T* __restrict__ out, int n, unsigned tiles, bool vector_ok,
                     unsigned long long* states, unsigned* counter) {
  using V = typename ScanTypes<T>::vec;
  extern __shared__ __align__(16) unsigned char buffer_bytes[];  // two tiles: current and next
  __shared__ unsigned tile_s[2];      // tile numbers, by the parity of the step that took them
  __shared__ T round_totals_s[S::WARPS][S::GROUPS];  // each warp's totals of its rounds
  __shared__ T warp_sums_s[S::WARPS];  // the current tile's warp totals
  __shared__ T parts_s[S::WARPS];      // the next tile's warp totals
  __shared__ T aggregate_s[2];         // the totals of the tiles in the two buffers
  __shared__ T prefix_s;               // the current tile's exclusive prefix
  T* const buffers = reinterpret_cast<T*>(buffer_bytes);
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const bool computes = warp < S::WARPS;  // the last warp looks back

  // 1. The first tile; the compute warps copy it in and publish its aggregate.
  if (t == 0) tile_s[0] = atomicAdd(counter, 1u);
  __syncthreads();
  unsigned tile = tile_s[0];
  if (tile >= tiles) return;  // the whole block: more blocks than tiles
  if (computes) {
    if (vector_ok) copy_tile<S>(buffers, in, n, tile, warp, lane);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    add_up_part<S>(buffers, vector_ok, in, n, tile, warp, lane, parts_s);
  }
  __syncthreads();
  if (t == 0) publish_total<S>(parts_s, tile, &aggregate_s[0], states);

  // 4. One step per tile: `tile` is in buffer `slot` and its aggregate is out.
  for (int step = 0;; ++step) {
    const int slot = step & 1;
    T* const current = buffers + slot * S::TILE;
    T* const upcoming = buffers + (slot ^ 1) * S::TILE;
    // A. Take the next tile. tile_s has two slots because no barrier lies
    //    between the read of the block's first number (above the loop) and the
    //    first step's write; this way each write lands in the slot read two
    //    barriers before.
    if (t == 0) tile_s[slot ^ 1] = atomicAdd(counter, 1u);
    __syncthreads();
    const unsigned next = tile_s[slot ^ 1];
    T x[S::GROUPS][4];
    T before_in_warp[S::GROUPS];  // the warp's elements before this lane's 4 of round j
    if (computes) {
      // B. Start copying the next tile into the free buffer, scan the current
      //    one, then add up the next one as soon as it has landed and publish
      //    its aggregate. Within a warp (2.): each lane scans its 4 elements of
      //    a round, a warp scan of the lanes' totals gives each lane the sum of
      //    the earlier lanes, and the rounds are chained by their totals, which
      //    lane 31 hands to the warp through shared memory (one __syncwarp()
      //    instead of one shuffle per round).
      if (next < tiles && vector_ok) copy_tile<S>(upcoming, in, n, next, warp, lane);
      __pipeline_commit();
      load_part<S>(x, current, vector_ok, in, n, tile, warp, lane);
#pragma unroll
      for (int j = 0; j < S::GROUPS; ++j) {
#pragma unroll
        for (int e = 1; e < 4; ++e) x[j][e] += x[j][e - 1];
        const T incl = warp_inclusive_scan(x[j][3], lane);
        // Exclusive over the lanes = inclusive minus the lane's own total (README "4.").
        before_in_warp[j] = incl - x[j][3];
        if (lane == 31) round_totals_s[warp][j] = incl;  // the round's total
      }
      __syncwarp();  // lane 31's round totals are written
      T warp_sum = T(0);
#pragma unroll
      for (int j = 0; j < S::GROUPS; ++j) {
        before_in_warp[j] += warp_sum;
        warp_sum += round_totals_s[warp][j];
      }
      if (lane == 0) warp_sums_s[warp] = warp_sum;
      if (next < tiles) {
        __pipeline_wait_prior(0);
        add_up_part<S>(upcoming, vector_ok, in, n, next, warp, lane, parts_s);
        // 5. The compute warps' barrier (named barrier 1, S::WARPS warps):
        //    their parts are written; the look-back warp is not waited for.
        __barrier_sync_count(1, S::WARPS * 32);
        if (t == 0) publish_total<S>(parts_s, next, &aggregate_s[slot ^ 1], states);
      }
    } else {
      // B'. Meanwhile the look-back warp finds the current tile's prefix and
      //     publishes its inclusive prefix at once (tile 0 published its own
      //     with its total). Its aggregate was written before the barrier above.
      T prefix = T(0);
      if (tile != 0) {
        prefix = look_back<T, S::BACKOFF_NS>(states, tile, lane);
        if (lane == 0) publish(states, tile, FLAG_PREFIX, prefix + aggregate_s[slot]);
      }
      if (lane == 0) prefix_s = prefix;
    }
    __syncthreads();
    // C. Add everything before each element and store (README "4." for the
    //    exclusive shift: element i gets the inclusive value of element i - 1).
    if (computes) {
      T before_warp = prefix_s;
      for (int w = 0; w < warp; ++w) before_warp += warp_sums_s[w];
      const long long tile_base = static_cast<long long>(tile) * S::TILE;
      const bool vectors = vector_ok && full_tile<S>(tile, n);
#pragma unroll
      for (int j = 0; j < S::GROUPS; ++j) {
        const T before = before_warp + before_in_warp[j];
        T y[4];
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          if (EXCLUSIVE) y[e] = e == 0 ? before : before + x[j][e - 1];
          else y[e] = before + x[j][e];
        }
        const long long first = tile_base + vector_offset<S>(warp, lane, j);
        if (vectors) {
          *reinterpret_cast<V*>(out + first) = V{y[0], y[1], y[2], y[3]};
        } else {
#pragma unroll
          for (int e = 0; e < 4; ++e)
            if (first + e < n) out[first + e] = y[e];
        }
      }
    }
    if (next >= tiles) break;
    tile = next;
  }
}

// The tile states and the tile counter, kept between calls (grown when needed).
static unsigned long long* scan_state(unsigned tiles) {
  static unsigned long long* buffer = nullptr;
  static unsigned capacity = 0;
  if (tiles > capacity) {
    if (buffer) cudaFree(buffer);
    buffer = nullptr;
    if (cudaMalloc(&buffer, (static_cast<size_t>(tiles) + 1) * sizeof(unsigned long long)) != cudaSuccess) {
      capacity = 0;
      return nullptr;
    }
    capacity = tiles;
  }
  return buffer;
}

template <class S, class T, bool EXCLUSIVE>
static void scan_device(const T* in, T* out, int n) {
  if (n <= 0) return;
  const unsigned tiles = static_cast<unsigned>((static_cast<long long>(n) - 1) / S::TILE + 1);
  unsigned long long* state = scan_state(tiles);
  if (!state) return;  // cudaMalloc failed: its error is what the caller sees
  // state[0] holds the tile counter, state[1..tiles] the tile states: all zero.
  cudaMemsetAsync(state, 0, (static_cast<size_t>(tiles) + 1) * sizeof(unsigned long long));
  // 16-byte vector accesses need 16-byte aligned rows of the tile.
  const bool vector_ok = (reinterpret_cast<uintptr_t>(in) % 16 == 0) && (reinterpret_cast<uintptr_t>(out) % 16 == 0);
  const auto kernel = single_pass_scan<S, T, EXCLUSIVE>;
  const size_t shared = 2 * static_cast<size_t>(S::TILE) * sizeof(T);
  // 4. As many blocks as are resident at once (asked once per kernel); fewer when there are fewer tiles.
  static unsigned resident = 0;
  if (resident == 0) {
    // The two buffers are more dynamic shared memory than a kernel gets by default (48 KB).
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared));
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, S::BLOCK, shared);
    resident = static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1));
  }
  const unsigned grid = tiles < resident ? tiles : resident;
  single_pass_scan<S, T, EXCLUSIVE><<<grid, S::BLOCK, shared>>>(in, out, n, tiles, vector_ok, state + 1,
                                                               reinterpret_cast<unsigned*>(state));
}

void inclusive_scan(const float* in, float* out, int n) { scan_device<Shape, float, false>(in, out, n); }

void exclusive_scan(const int* in, int* out, int n) { scan_device<Shape, int, true>(in, out, n); }
