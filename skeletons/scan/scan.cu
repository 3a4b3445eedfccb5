// Scan lab -- your starting point. Fill in the four kernels and the host steps marked TODO.
//
// The harness (not you) allocates the device buffers, copies the input, fills
// the output with garbage (NaN / 0xFFFFFFFF), calls your two host functions below
// and checks every output element. You never write a main(); you never copy the
// data between host and device.
//
//   gpulab test scan skeletons/scan/scan.cu    run the public tests, with hints
//   gpulab grade scan skeletons/scan/scan.cu   see your score
//
// Both commands run on the CPU emulator when no GPU is found. The emulator fills
// every __shared__ array with garbage (0xFF bytes) before each block and checks
// every access, so mistakes a GPU would hide show up here.
//
// Read assignments/scan/README.md first: it explains the three ideas you need --
// the Kogge-Stone scan with double buffering, the work-efficient (Brent-Kung)
// scan with its up-sweep and down-sweep, and the hierarchical scan for any n.
//
// Suggested order: part 1 for one block (the tiny tests, n <= BLOCK_SIZE, then
// pass), then the hierarchical steps of part 1, then part 2.
#include <cuda_runtime.h>

// Threads per block. A power of two (the trees below rely on it), at most 1024.
#define BLOCK_SIZE 512

// ---------------------------------------------------------------------------
// Part 1: inclusive scan of floats, out[i] = in[0] + ... + in[i]
// ---------------------------------------------------------------------------

// Step 1: every block scans its own BLOCK_SIZE elements (one per thread) with
// the Kogge-Stone algorithm, and writes the total of its block to block_sums.
__global__ void kogge_stone_block_scan(const float* in, float* out, float* block_sums, int n) {
  // TODO:
  //  1. Load: thread t of block b handles element i = b * blockDim.x + t.
  //     Copy in[i] to a shared array; a thread past the end (i >= n) stores 0
  //     instead -- it must still take part in every step below.
  //        __shared__ float buffer_a[BLOCK_SIZE], buffer_b[BLOCK_SIZE];
  //  2. Kogge-Stone: for stride = 1, 2, 4, ... < BLOCK_SIZE, every thread with
  //     t >= stride adds the value `stride` places to its left to its own; the
  //     others copy theirs unchanged. After the step with stride s, element t
  //     holds the sum of the (up to) 2s elements ending at t.
  //     Do NOT update one array in place: thread t would read element t - stride
  //     while thread t - stride is overwriting it. Double buffering: read every
  //     step from one buffer (source), write the other (destination), then swap
  //     the two pointers. One __syncthreads() per step, between the writes of a
  //     step and the reads of the next, is then enough.
  //        float* src = buffer_a;  float* dst = buffer_b;
  //  3. After the last step (and a barrier), src[t] is the inclusive scan of the
  //     block. Write it to out[i] -- only if i < n.
  //  4. The last thread of the block writes the block's total,
  //     src[BLOCK_SIZE - 1], to block_sums[blockIdx.x].
}

// Step 3: add the scanned block sums back. After step 2, scanned_sums[b] is the
// sum of every element of blocks 0..b; block b (b > 0) must add scanned_sums[b - 1]
// to each of its outputs.
__global__ void add_block_sums(float* out, const float* scanned_sums, int n) {
  // TODO: launched with the same grid as kogge_stone_block_scan, so block b
  // handles the same elements i = b * blockDim.x + t (check i < n; block 0 adds nothing).
}

void inclusive_scan(const float* in, float* out, int n) {
  const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  float* block_sums = nullptr;
  cudaMalloc(&block_sums, blocks * sizeof(float));

  // Step 1: scan every block and collect the block totals.
  kogge_stone_block_scan<<<blocks, BLOCK_SIZE>>>(in, out, block_sums, n);

  // TODO (the hierarchical scan) when there is more than one block:
  //  Step 2: scan the block sums. They are just another array of `blocks`
  //          floats, so the function you are writing can do it: allocate a
  //          second array `scanned_sums` and call
  //              inclusive_scan(block_sums, scanned_sums, blocks);
  //          (a recursion: it needs BLOCK_SIZE times fewer blocks every level,
  //          and ends at one block).
  //  Step 3: add_block_sums<<<blocks, BLOCK_SIZE>>>(out, scanned_sums, n);
  //  Free every array you allocated (kernel launches are asynchronous, but
  //  cudaFree waits for the kernels that use the memory to finish).

  cudaFree(block_sums);
}

// ---------------------------------------------------------------------------
// Part 2: exclusive scan of ints, out[0] = 0, out[i] = in[0] + ... + in[i - 1]
// ---------------------------------------------------------------------------

// Each block handles a section of 2 * BLOCK_SIZE elements, two per thread.
#define SECTION_SIZE (2 * BLOCK_SIZE)

// Step 1: every block computes the exclusive scan of its section with the
// work-efficient algorithm and writes the section's total to block_sums.
__global__ void work_efficient_block_scan(const int* in, int* out, int* block_sums, int n) {
  // TODO:
  //  1. Load: thread t copies elements 2t and 2t + 1 of the section
  //     (global index b * SECTION_SIZE + 2t and + 1) into
  //        __shared__ int temp[SECTION_SIZE];
  //     with 0 for every index >= n. Padding with zeros keeps the tree size a
  //     power of two whatever n is: the index formulas below need that.
  //  2. Up-sweep (a reduction tree, in place): levels with offset = 1, 2, 4, ...;
  //     SECTION_SIZE / 2 threads are active at the first level, half as many at
  //     each next one (thread t is active while t < the level's count):
  //        temp[offset * (2t + 2) - 1] += temp[offset * (2t + 1) - 1];
  //     with a __syncthreads() before each level. The last element,
  //     temp[SECTION_SIZE - 1], is now the sum of the whole section.
  //  3. Thread 0 saves that total to block_sums[blockIdx.x], then sets
  //     temp[SECTION_SIZE - 1] = 0 (the exclusive prefix of the whole section).
  //  4. Down-sweep (the reverse tree): levels with offset = SECTION_SIZE / 2,
  //     ..., 2, 1 and 1, 2, 4, ... active threads; each active thread takes the pair
  //        left = offset * (2t + 1) - 1,  right = offset * (2t + 2) - 1:
  //        int tmp = temp[left];  temp[left] = temp[right];  temp[right] += tmp;
  //     with a __syncthreads() before each level (and one after the last).
  //  5. temp now holds the exclusive scan of the section: write elements 2t
  //     and 2t + 1 to out (only indices < n).
}

// Step 3: offsets[b] is the sum of all sections before b (the exclusive scan of
// the block sums): add it to every output of section b.
__global__ void add_block_offsets(int* out, const int* offsets, int n) {
  // TODO: each block handles the SECTION_SIZE elements of its section
  // (two per thread), checking every index against n.
}

void exclusive_scan(const int* in, int* out, int n) {
  const int sections = (n + SECTION_SIZE - 1) / SECTION_SIZE;
  int* block_sums = nullptr;
  cudaMalloc(&block_sums, sections * sizeof(int));

  // Step 1: scan every section and collect the section totals.
  work_efficient_block_scan<<<sections, BLOCK_SIZE>>>(in, out, block_sums, n);

  // TODO (the hierarchical scan) when there is more than one section:
  //  Step 2: the offset of section b is the sum of the totals of sections
  //          0..b-1: the EXCLUSIVE scan of block_sums. Compute it into a second
  //          array with exclusive_scan itself.
  //  Step 3: add_block_offsets<<<sections, BLOCK_SIZE>>>(out, offsets, n);
  //  Free what you allocated.

  cudaFree(block_sums);
}
