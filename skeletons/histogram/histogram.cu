// Histogram lab -- your starting point. Fill in the two kernels marked TODO.
//
// The harness (not you) allocates the device buffers, copies the input, zeroes
// the bins, calls your two host functions below and checks the bins exactly.
// You never write a main(); you never copy data between host and device.
//
//   gpulab test histogram skeletons/histogram/histogram.cu    run the public tests
//   gpulab grade histogram skeletons/histogram/histogram.cu   see your score
//
// Both commands run on the CPU emulator when no GPU is found. The emulator
// fills every __shared__ array with garbage (0xFF bytes) before each block and
// checks every access, so mistakes a GPU would hide show up here.
//
// Read assignments/histogram/README.md first: it explains the three ideas you
// need -- interleaved partitioning, atomic operations, privatization.
#include <cuda_runtime.h>

#include <cstddef>

// Threads per block. A multiple of 32 (the warp size); 128, 256 or 512 are good choices.
#define BLOCK_SIZE 256

// Upper bound on the number of blocks. With a grid-stride loop (see below) a
// thread may count more than one byte, so we do not need one thread per byte.
#define MAX_BLOCKS 1024

#define TEXT_BINS 7    // a-d, e-h, i-l, m-p, q-t, u-x, y-z
#define BYTE_BINS 256  // one bin per byte value

// ---------------------------------------------------------------------------
// Part 1: letter histogram of a text
// ---------------------------------------------------------------------------
// bins[0] counts the letters a, b, c, d; bins[1] counts e..h; ... bins[6]
// counts y and z. Only LOWER-CASE letters count: 'A', '7', '!', '\n' and every
// byte >= 128 (accented letters in UTF-8) are ignored.
//
// Careful: `char` is signed on most compilers, so the byte 0xE9 reads as -23.
// Convert each byte to `unsigned char` before you compute with it.
__global__ void histogram_text_kernel(const char* text, unsigned int* bins, size_t n) {
  // TODO (step 1, global atomics): count every lower-case letter of text[0..n).
  //
  //  * Interleaved partitioning: thread i of the whole grid handles bytes
  //      i, i + stride, i + 2*stride, ...   with stride = blockDim.x * gridDim.x.
  //    In each round, neighbouring threads read neighbouring bytes: the loads of
  //    a warp are coalesced. (Giving each thread its own contiguous section,
  //    "sectioned partitioning", is also correct but its loads are scattered.)
  //  * The loop condition is your bounds check: n is often not a multiple of
  //    the number of threads (n may even be 1).
  //  * For a letter c, the bin is (c - 'a') / 4. Many threads increment the same
  //    bin at once: `bins[b]++` is a read-modify-write that loses updates when
  //    two threads interleave. Use atomicAdd(&bins[b], 1u).
  //
  // TODO (step 2, privatization): the 7 global counters are a hot spot: every
  // thread of the grid competes for them. Give each block its own private copy:
  //    __shared__ unsigned int bins_s[TEXT_BINS];
  //  1. zero bins_s (shared memory starts with garbage!), then __syncthreads();
  //  2. count with atomicAdd(&bins_s[b], 1u) -- shared-memory atomics are fast
  //     and only the threads of this block compete;
  //  3. __syncthreads(): every thread of the block must have finished counting;
  //  4. merge: a few threads add bins_s[...] to the global bins with atomicAdd
  //     (other blocks are merging into the same global bins).
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  // Enough blocks for one byte per thread, but no more than MAX_BLOCKS:
  // beyond that, your grid-stride loop makes each thread count several bytes.
  size_t blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  histogram_text_kernel<<<(unsigned int)blocks, BLOCK_SIZE>>>(text, bins, n);
}

// ---------------------------------------------------------------------------
// Part 2: histogram of bytes
// ---------------------------------------------------------------------------
// bins[v] counts the bytes equal to v, for v = 0..255.
__global__ void histogram_bytes_kernel(const unsigned char* data, unsigned int* bins, size_t n) {
  // TODO: the same pattern as part 1 with 256 bins. Start with global atomics,
  // then privatize in shared memory:
  //    __shared__ unsigned int bins_s[BYTE_BINS];
  // There may be fewer threads in a block than bins, so zeroing and merging
  // are loops:   for (int b = threadIdx.x; b < BYTE_BINS; b += blockDim.x) ...
  // Test with data where every byte is equal: all threads then hit the same
  // counter, which is where privatization pays off most.
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  size_t blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  if (blocks < 1) blocks = 1;
  histogram_bytes_kernel<<<(unsigned int)blocks, BLOCK_SIZE>>>(data, bins, n);
}
