// Hidden reference solution of the histogram lab (both parts): the baseline the
// grader times students against. It follows the course's pattern (README
// "1. A first parallel histogram": interleaved, coalesced partitioning; "2.
// Read-modify-write and atomic operations"; "3. Privatization": private
// copies, one merge per block) and carries privatization as far as each part
// allows:
//
// text (7 bins): privatized all the way to each thread's registers. A thread
//   counts its bytes in counters held in registers, no atomics and no memory
//   traffic per byte, and the counters meet only at the end (warp shuffles,
//   then one shared and one global atomic per bin and block). Registers
//   cannot be indexed by a value computed at run time, so the counters are
//   packed: four bits per bin in one 32-bit word, and a byte of bin b adds
//   1 << 4b to it. Four bytes' bins are computed at once on a 32-bit word
//   (byte-wise arithmetic, "SIMD within a register"): c - 'a' in each byte,
//   and every byte that is not a lower-case letter pushed to a shift of 32 or
//   more, which adds nothing. The 4-bit counters are emptied into 8-bit ones
//   every 8 bytes (before they can overflow), and those into 32-bit ones every
//   240 bytes. About five instructions per byte whatever the text is.
//
// bytes (256 bins): too many bins for registers, so a private histogram per
//   block in shared memory, counted with shared-memory atomics:
//   * Lane-private columns: the table is hist[bin][32], and lane l of every
//     warp counts into column l. The 32 atomics of one warp instruction then
//     go to 32 different addresses in 32 different banks, whatever the bytes
//     are: no serialization on equal bins, no bank conflicts (threads of
//     different warps share a column, so the increments stay atomic).
//   * Runs of equal bytes count at once: when the 16 bytes a lane loaded are
//     all equal it adds 16 with one atomic, and when that holds for the whole
//     warp with one value, lane 0 adds 16 x 32.
//
// Both parts read the input as 16-byte vectors, several per thread before
// using any (UNROLL), so that enough loads are in flight to keep the memory
// busy, with a grid of a few blocks per SM: zeroing and merging the private
// copies is paid once per block. Tuning knobs are the template arguments of
// the shapes below (measured on an H200, docs/performance.md).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr int LANES = 32;
constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int TEXT_BINS = 7;    // a-d, e-h, i-l, m-p, q-t, u-x, y-z
constexpr int BYTE_BINS = 256;  // one per byte value

// Threads per block, blocks per SM the grid is sized for, 16-byte vectors each
// thread loads before counting them.
template <int BLOCK_, int BLOCKS_PER_SM_, int UNROLL_> struct HistShape {
  static constexpr int BLOCK = BLOCK_, BLOCKS_PER_SM = BLOCKS_PER_SM_, UNROLL = UNROLL_;
};
using TextShape = HistShape<256, 8, 2>;
using BytesShape = HistShape<1024, 2, 2>;

// Bytes each thread should count at least before another block is worth launching.
constexpr int MIN_BYTES_PER_THREAD = 256;

int sm_count() {
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) {
      sms = 1;
    }
  }
  return sms;
}

template <class Shape> int grid_for(size_t n) {
  const size_t per_block = static_cast<size_t>(Shape::BLOCK) * MIN_BYTES_PER_THREAD;
  size_t blocks = (n + per_block - 1) / per_block;
  const size_t cap = static_cast<size_t>(sm_count()) * Shape::BLOCKS_PER_SM;
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  return static_cast<int>(blocks);
}

// The interleaved walk over whole 16-byte vectors shared by both parts: in
// each round the grid reads UNROLL contiguous stretches, each thread one vector
// of each (coalesced). count(q, valid) is called for every vector, by all 32
// lanes of a warp together (the bytes part lets the lanes vote), with valid
// false past the end. Returns nothing; bytes before the first 16-byte boundary
// and after the last whole vector are the caller's.
template <int UNROLL, class Count>
__device__ __forceinline__ void for_each_vector(const uint4* vec, size_t vecs, Count count) {
  const size_t lane = threadIdx.x % LANES;
  const size_t warp_first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x - lane;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t v0 = warp_first; v0 < vecs; v0 += UNROLL * stride) {
    uint4 q[UNROLL];
    bool valid[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {  // all loads first: UNROLL in flight
      const size_t v = v0 + u * stride + lane;
      valid[u] = v < vecs;
      q[u] = valid[u] ? vec[v] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) count(q[u], valid[u]);
  }
}

// ---- text: counters in registers ---------------------------------------------------------------

// The shift of each byte's 4-bit counter, for the four bytes of w at once:
// 4 * ((c - 'a') / 4) for a lower-case letter c, 32 or more for anything else.
__device__ __forceinline__ unsigned letter_shifts(unsigned w) {
  constexpr unsigned HIGH = 0x80808080u, LOW7 = 0x7F7F7F7Fu;
  // d = c - 'a' in each byte, without borrows between bytes.
  const unsigned d = ((w | HIGH) - 0x61616161u) ^ (~w & HIGH);
  // High bit of each byte set where d >= 26 (not a letter): (d mod 128) + 102
  // reaches 128 exactly when d mod 128 >= 26, or d itself is >= 128.
  const unsigned not_letter = (((d & LOW7) + 0x66666666u) | d) & HIGH;
  // Multiples of 4 (the counter's first bit), plus 32 for non-letters.
  return (d & 0xFCFCFCFCu) | (not_letter >> 2);
}

// 1 << s, and 0 for s >= 32 (PTX's shift; C++ leaves that case undefined).
__device__ __forceinline__ unsigned shift_one(unsigned s) {
  unsigned r;
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(1u), "r"(s));
  return r;
}

// Adds the four bytes' counts of one word to the 4-bit counters.
__device__ __forceinline__ void count_letters(unsigned& nibbles, unsigned w) {
  const unsigned s = letter_shifts(w);
  nibbles += shift_one(s & 0xFFu);
  nibbles += shift_one(__byte_perm(s, 0, 0x4441));
  nibbles += shift_one(__byte_perm(s, 0, 0x4442));
  nibbles += shift_one(__byte_perm(s, 0, 0x4443));
}

// Packed counters of one thread: 4 bits per bin (at most 8 counts: emptied
// every 2 words), 8 bits per bin (even bins in `even`, odd in `odd`; at most
// 8 x 30 counts: emptied every 15 vectors) and 32 bits per bin.
struct LetterCounts {
  unsigned nibbles = 0, even = 0, odd = 0;
  unsigned total[TEXT_BINS] = {};
  int vectors = 0;  // since the 8-bit counters were emptied

  __device__ __forceinline__ void spill_nibbles() {
    even += nibbles & 0x0F0F0F0Fu;        // bins 0, 2, 4, 6 in bytes 0..3
    odd += (nibbles >> 4) & 0x0F0F0F0Fu;  // bins 1, 3, 5 (byte 3: nothing)
    nibbles = 0;
  }
  __device__ __forceinline__ void spill_bytes() {
#pragma unroll
    for (int b = 0; b < TEXT_BINS; ++b) total[b] += ((b % 2 ? odd : even) >> (8 * (b / 2))) & 0xFFu;
    even = odd = 0;
    vectors = 0;
  }
  __device__ __forceinline__ void add_vector(const uint4& q) {
    count_letters(nibbles, q.x);
    count_letters(nibbles, q.y);
    spill_nibbles();
    count_letters(nibbles, q.z);
    count_letters(nibbles, q.w);
    spill_nibbles();
    if (++vectors == 15) spill_bytes();
  }
  __device__ __forceinline__ void add_byte(unsigned c) {  // a word of one byte and three zeros (not letters)
    count_letters(nibbles, c);
    spill_nibbles();
    spill_bytes();
  }
};

template <class Shape>
__global__ void __launch_bounds__(Shape::BLOCK)
    histogram_text_kernel(const unsigned char* __restrict__ data, unsigned int* bins, size_t n) {
  __shared__ unsigned int block_bins[TEXT_BINS];
  if (threadIdx.x < TEXT_BINS) block_bins[threadIdx.x] = 0;
  __syncthreads();

  LetterCounts counts;
  const size_t tid = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // The bytes before the first 16-byte boundary, one per thread.
  size_t head = (16 - (reinterpret_cast<uintptr_t>(data) & 15u)) & 15u;
  if (head > n) head = n;
  if (tid < head) counts.add_byte(data[tid]);
  const size_t vecs = (n - head) / 16;
  for_each_vector<Shape::UNROLL>(reinterpret_cast<const uint4*>(data + head), vecs, [&](const uint4& q, bool valid) {
    if (valid) counts.add_vector(q);
  });
  const size_t tail = head + vecs * 16;  // the bytes after the last whole vector
  if (tail + tid < n) counts.add_byte(data[tail + tid]);
  counts.spill_nibbles();
  counts.spill_bytes();

  // Merge: a warp adds up its lanes' counters with shuffles, lane 0 adds them
  // to the block's, and one thread per bin adds the block's to the result.
#pragma unroll
  for (int b = 0; b < TEXT_BINS; ++b) {
    unsigned v = counts.total[b];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
    if (threadIdx.x % LANES == 0 && v != 0) atomicAdd(&block_bins[b], v);
  }
  __syncthreads();
  if (threadIdx.x < TEXT_BINS && block_bins[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], block_bins[threadIdx.x]);
}

// ---- bytes: a private histogram per block in shared memory -------------------------------------

__device__ __forceinline__ void count_byte(unsigned* hist, int lane, unsigned c, unsigned times) {
  atomicAdd(&hist[c * LANES + lane], times);
}

template <class Shape>
__global__ void __launch_bounds__(Shape::BLOCK)
    histogram_bytes_kernel(const unsigned char* __restrict__ data, unsigned int* bins, size_t n) {
  __shared__ unsigned int hist[BYTE_BINS * LANES];
  __shared__ unsigned int totals[BYTE_BINS];
  const int lane = threadIdx.x % LANES, warp = threadIdx.x / LANES;

  // 1. Zero the private histogram (shared memory starts with garbage).
  for (int i = threadIdx.x; i < BYTE_BINS * LANES; i += blockDim.x) hist[i] = 0;
  for (int i = threadIdx.x; i < BYTE_BINS; i += blockDim.x) totals[i] = 0;
  __syncthreads();

  // 2. Count. The bytes before the first 16-byte boundary one by one.
  const size_t tid = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t head = (16 - (reinterpret_cast<uintptr_t>(data) & 15u)) & 15u;
  if (head > n) head = n;
  if (tid < head) count_byte(hist, lane, data[tid], 1);
  const size_t vecs = (n - head) / 16;
  for_each_vector<Shape::UNROLL>(reinterpret_cast<const uint4*>(data + head), vecs, [&](const uint4& q, bool valid) {
    const unsigned first = q.x & 0xFFu;
    const bool run = valid && q.x == first * 0x01010101u && q.y == q.x && q.z == q.x && q.w == q.x;
    // The whole warp holds one run of a single value: one atomic for 512 bytes.
    const unsigned lane0_first = __shfl_sync(FULL_MASK, first, 0);
    if (__all_sync(FULL_MASK, run && first == lane0_first)) {
      if (lane == 0) count_byte(hist, 0, first, 16 * LANES);
      return;
    }
    if (!valid) return;
    if (run) {
      count_byte(hist, lane, first, 16);
      return;
    }
    const unsigned words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      count_byte(hist, lane, words[i] & 0xFFu, 1);
      count_byte(hist, lane, (words[i] >> 8) & 0xFFu, 1);
      count_byte(hist, lane, (words[i] >> 16) & 0xFFu, 1);
      count_byte(hist, lane, words[i] >> 24, 1);
    }
  });
  const size_t tail = head + vecs * 16;  // the bytes after the last whole vector
  if (tail + tid < n) count_byte(hist, lane, data[tail + tid], 1);
  __syncthreads();

  // 3. Merge: a warp sums one row of 32 columns with shuffles and adds it to
  //    the block's total of that bin; then one global atomic per bin and block
  //    (skipped for empty bins).
  for (int row = warp; row < BYTE_BINS; row += Shape::BLOCK / LANES) {
    unsigned int v = hist[row * LANES + lane];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
    if (lane == 0 && v != 0) atomicAdd(&totals[row], v);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BYTE_BINS; b += blockDim.x)
    if (totals[b] != 0) atomicAdd(&bins[b], totals[b]);
}

template <class Shape> void text_with(const char* text, unsigned int* bins, size_t n) {
  if (n == 0) return;
  histogram_text_kernel<Shape>
      <<<grid_for<Shape>(n), Shape::BLOCK>>>(reinterpret_cast<const unsigned char*>(text), bins, n);
}

template <class Shape> void bytes_with(const unsigned char* data, unsigned int* bins, size_t n) {
  if (n == 0) return;
  histogram_bytes_kernel<Shape><<<grid_for<Shape>(n), Shape::BLOCK>>>(data, bins, n);
}

}  // namespace

void histogram_text(const char* text, unsigned int* bins, size_t n) { text_with<TextShape>(text, bins, n); }

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) { bytes_with<BytesShape>(data, bins, n); }
