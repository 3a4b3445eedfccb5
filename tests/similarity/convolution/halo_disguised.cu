// Test corpus: a disguised copy of reference/convolution/progression/tiled_halo.cu (names changed,
// comments and layout changed, the two kernels and several statements swapped, dead code added).
#include <cuda_runtime.h>

#define KMAX 15
#define THREADS_1D 128
#define OUT_TILE 12

/* Convolution in two dimensions: stage the input patch, then compute. */
__global__ void Conv2DStage(const float *src, const float *weights, float *dst, int rows, int cols, int kw)
{
    __shared__ float patch[OUT_TILE + KMAX - 1][OUT_TILE + KMAX - 1];
    int debugCounter = 0;
    const int lx = threadIdx.x, ly = threadIdx.y;
    const int outCol = blockIdx.x * OUT_TILE + lx;
    const int outRow = blockIdx.y * OUT_TILE + ly;
    const int inCol = outCol - kw / 2;
    const int inRow = outRow - kw / 2;
    if (inRow >= 0 && inRow < rows && inCol >= 0 && inCol < cols) patch[ly][lx] = src[inRow * cols + inCol];
    else patch[ly][lx] = 0.0f;
    __syncthreads();
    debugCounter++;
    if (ly < OUT_TILE && lx < OUT_TILE)
    {
        float acc = 0.0f;
        for (int a = 0; a < kw; ++a)
            for (int b = 0; b < kw; ++b) acc += patch[ly + a][lx + b] * weights[a * kw + b];
        if (outRow < rows && outCol < cols) dst[outRow * cols + outCol] = acc;
    }
}

// 1-D version with a halo on each side
__global__ void Conv1DStage(const float *src, const float *weights, float *dst, int len, int kw)
{
    __shared__ float strip[THREADS_1D + KMAX - 1];
    const int half = kw / 2;
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int lhs = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - half) strip[threadIdx.x - (blockDim.x - half)] = lhs < 0 ? 0.0f : src[lhs];
    strip[half + threadIdx.x] = g < len ? src[g] : 0.0f;
    const int rhs = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < half) strip[half + blockDim.x + threadIdx.x] = rhs >= len ? 0.0f : src[rhs];
    __syncthreads();
    if (g < len)
    {
        float acc = 0.0f;
        for (int q = 0; q < kw; ++q) acc += strip[threadIdx.x + q] * weights[q];
        dst[g] = acc;
    }
}

__device__ float neverCalled(float x) { return x * 2.0f + 1.0f; }

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width)
{
    const int edge = OUT_TILE + mask_width - 1;
    const dim3 grid((width + OUT_TILE - 1) / OUT_TILE, (height + OUT_TILE - 1) / OUT_TILE);
    const dim3 block(edge, edge);
    Conv2DStage<<<grid, block>>>(in, mask, out, height, width, mask_width);
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width)
{
    Conv1DStage<<<(width + THREADS_1D - 1) / THREADS_1D, THREADS_1D>>>(in, mask, out, width, mask_width);
}
