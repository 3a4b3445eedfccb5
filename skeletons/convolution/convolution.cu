// Convolution lab -- your starting point. Fill in the two kernels marked TODO
// (and, as a last step, move the mask to constant memory).
//
// The harness (not you) allocates the device buffers, copies the input and the
// mask to the GPU, fills `out` with NaN, calls your host functions below and
// compares `out` with a double-precision CPU result. You never write a main()
// and never copy data between host and device (except the mask into constant
// memory, step 3).
//
//   gpulab test convolution skeletons/convolution/convolution.cu    run the public tests
//   gpulab grade convolution skeletons/convolution/convolution.cu   see your score
//
// Both commands run on the CPU emulator when no GPU is found. The emulator
// fills every __shared__ array with garbage (NaN) before each block and checks
// every access, so a missing barrier or a halo cell you forgot to load shows up.
//
// Read assignments/convolution/README.md first: it explains ghost cells,
// tiling with halo cells, constant memory and why tiling saves bandwidth.
#include <cuda_runtime.h>

// The mask is odd-sized, 1 <= mask_width <= MAX_MASK_WIDTH.
#define MAX_MASK_WIDTH 15

// Step 3 (constant memory): every thread reads the same mask elements in the
// same order and no kernel writes them -- a perfect fit for constant memory,
// which is cached and broadcasts one value to a whole warp. Large enough for
// the biggest 2-D mask; the 1-D part uses the first mask_width entries.
__constant__ float M_c[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

// ---------------------------------------------------------------------------
// Part 1: 1-D convolution
// ---------------------------------------------------------------------------
//   out[i] = sum over j = 0 .. mask_width-1 of in[i + j - mask_width/2] * mask[j]
// where in[k] counts as 0 when k < 0 or k >= width ("ghost cells").

// Outputs per block: one output per thread.
#define TILE_SIZE 256

__global__ void convolution_1d_kernel(const float* in, const float* mask, float* out, int width, int mask_width) {
  // TODO (step 1, basic): one thread per output i = blockIdx.x * blockDim.x + threadIdx.x.
  //   - Start at in[i - mask_width/2] and accumulate mask_width products in a
  //     float. Skip (= add 0 for) the ghost cells outside 0..width-1.
  //   - The last block has threads with i >= width: they must not write.
  //
  // TODO (step 2, tiled with halo cells): every input element is read by up
  // to mask_width threads of the block. Load the block's input once into
  // shared memory and compute from there:
  //     __shared__ float tile[TILE_SIZE + MAX_MASK_WIDTH - 1];
  //   with n = mask_width/2, the block needs inputs
  //     blockIdx.x*TILE_SIZE - n  ..  blockIdx.x*TILE_SIZE + TILE_SIZE - 1 + n:
  //   - the left halo (n cells): loaded by the last n threads of the block,
  //   - the inner cells (TILE_SIZE cells): one per thread,
  //   - the right halo (n cells): loaded by the first n threads.
  //   Any of these cells outside the input is a ghost cell: store 0.0f (this
  //   includes inner cells past the end of the input in the last block).
  //   __syncthreads() -- then thread t computes from tile[t .. t + mask_width - 1].
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  // TODO (step 3): copy the mask into constant memory and read M_c[j] in the
  // kernel instead of mask[j]. The mask is already on the device, so this is
  // a device-to-device copy:
  //   cudaMemcpyToSymbol(M_c, mask, mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  const int blocks = (width + TILE_SIZE - 1) / TILE_SIZE;
  convolution_1d_kernel<<<blocks, TILE_SIZE>>>(in, mask, out, width, mask_width);
}

// ---------------------------------------------------------------------------
// Part 2: 2-D convolution
// ---------------------------------------------------------------------------
// `in` and `out` are height x width images stored row by row (row-major):
// pixel (row, col) is in[row * width + col]. The mask is mask_width x
// mask_width, row-major:
//   out[row][col] = sum over i, j of in[row + i - n][col + j - n] * mask[i][j]
// with n = mask_width/2 and in[..][..] = 0 outside the image (ghost cells).

// Each block computes an O_TILE_WIDTH x O_TILE_WIDTH tile of the output. It is
// launched with one thread per element of the INPUT tile,
//   BLOCK_WIDTH = O_TILE_WIDTH + mask_width - 1   threads in x and in y,
// so every thread loads one input element and only the first O_TILE_WIDTH x
// O_TILE_WIDTH threads compute an output.
#define O_TILE_WIDTH 16

__global__ void convolution_2d_kernel(const float* in, const float* mask, float* out, int height, int width,
                                      int mask_width) {
  // TODO (tiled with halo cells):
  //   __shared__ float tile[O_TILE_WIDTH + MAX_MASK_WIDTH - 1][O_TILE_WIDTH + MAX_MASK_WIDTH - 1];
  //   1. Output coordinates of this thread:
  //        row_o = blockIdx.y * O_TILE_WIDTH + threadIdx.y,  col_o = blockIdx.x * O_TILE_WIDTH + threadIdx.x
  //      and the input element it loads, shifted up and left by n = mask_width/2:
  //        row_i = row_o - n,  col_i = col_o - n
  //   2. tile[threadIdx.y][threadIdx.x] = in[row_i * width + col_i] if (row_i, col_i)
  //      is inside the image, else 0.0f (ghost cell).
  //   3. __syncthreads(): the whole input tile must be loaded before anyone reads it.
  //   4. Only threads with threadIdx.x < O_TILE_WIDTH and threadIdx.y < O_TILE_WIDTH
  //      compute:  sum over i, j of tile[threadIdx.y + i][threadIdx.x + j] * mask[i * mask_width + j]
  //   5. ... and only those whose (row_o, col_o) is inside the image write out.
  //
  // (A basic version first -- one thread per output, reading `in` directly
  // like step 1 of part 1 -- is a good way to check your indexing. Launch it
  // with 16 x 16 blocks and ceil(width/16) x ceil(height/16) of them.)
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  // TODO (step 3): as in part 1, copy the mask_width * mask_width mask into M_c.
  const int block_width = O_TILE_WIDTH + mask_width - 1;
  const dim3 block(block_width, block_width);
  const dim3 grid((width + O_TILE_WIDTH - 1) / O_TILE_WIDTH, (height + O_TILE_WIDTH - 1) / O_TILE_WIDTH);
  convolution_2d_kernel<<<grid, block>>>(in, mask, out, height, width, mask_width);
}
