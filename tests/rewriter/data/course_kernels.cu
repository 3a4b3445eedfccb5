// Course-style CUDA file used by the rewriter's compile tests: a 1-D tiled convolution with a
// __constant__ mask, a tiled matrix multiplication with 2-D shared tiles and a sum reduction with
// dynamic (extern) shared memory. The /*@@...@@*/ markers are replaced by the tests.
#include <algorithm>
#include <cstdio>

#define MASK_WIDTH 5
#define TILE 16
#define BLOCK 256
#define CHECK_LAUNCH(kernel, n) kernel<<<((n) + BLOCK - 1) / BLOCK, \
                                        BLOCK>>>(n)

__constant__ float M[MASK_WIDTH];
__shared__ int file_scope_counter;     // namespace scope: left for the emulator headers
extern __shared__ float file_scope_smem[];

namespace helpers {
extern __shared__ double namespace_smem[];
struct Pair { int key; float value; };
inline int div_up(int a, int b) { return (a + b - 1) / b; }
}  // namespace helpers

// 1-D tiled convolution: the edge threads also load the halo cells.
__global__ void convolution_1d_tiled(const float* N, float* P, int width) {
    __shared__ float N_ds[BLOCK + MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = MASK_WIDTH / 2;
    int halo_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n) {
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_left < 0) ? 0 : N[halo_left];
    }
    N_ds[n + threadIdx.x] = i < width ? N[i] : 0.0f;
    int halo_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n) {
        N_ds[n + blockDim.x + threadIdx.x] = (halo_right >= width) ? 0 : N[halo_right];
    }
    __syncthreads();
    float Pvalue = 0;
    for (int j = 0; j < MASK_WIDTH; j++) Pvalue += N_ds[threadIdx.x + j] * M[j];
    if (i < width) P[i] = Pvalue;
}

// Tiled matrix multiplication C = A * B (n x n), one TILE x TILE tile per block.
__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    float __shared__
        Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    /*@@KERNEL_ERROR@@*/
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = (row < n && t * TILE + threadIdx.x < n) ? A[row * n + t * TILE + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < n && t * TILE + threadIdx.y < n) ? B[(t * TILE + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = sum;
}

template <typename T>
struct Accum { using type = T; };

template <typename T>
__device__ void warp_reduce(volatile T* s, unsigned tid) {
    s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];  s[tid] += s[tid + 2];  s[tid] += s[tid + 1];
}

// Sum reduction: each block reduces 2 * BLOCK_SIZE elements in dynamic shared memory.
template <typename T, unsigned BLOCK_SIZE>
__global__ void reduce_sum(const T* in, T* out, unsigned n) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* sdata = reinterpret_cast<T*>(smem_raw);
    static __shared__ volatile unsigned int blocks_done;
    __shared__ helpers::Pair best[2], *best_ptr;
    __shared__ typename Accum<T>::type warp_sums[BLOCK_SIZE / 32];
    __shared__ T last;
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK_SIZE * 2) + threadIdx.x;
    sdata[tid] = (i < n ? in[i] : T(0)) + (i + BLOCK_SIZE < n ? in[i + BLOCK_SIZE] : T(0));
    __syncthreads();
    for (unsigned s = BLOCK_SIZE / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid % 32 == 0) warp_sums[tid / 32] = sdata[tid];
    if (tid < 32) warp_reduce<T>(sdata, tid);
    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
        blocks_done = blocks_done + 1;
        best[0].value = file_scope_smem[0] + static_cast<float>(helpers::namespace_smem[0]);
        best_ptr = &best[0];
        last = sdata[0] + warp_sums[0];
    }
}

extern "C" {
__global__ void fill(float* p, float value, int n) {
    __shared__ float cache[BLOCK];
    cache[threadIdx.x] = value;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = cache[threadIdx.x];
}
}

__global__ void count_positive(int n) {
    if (threadIdx.x == 0 && n > 0) file_scope_counter = n;
}

// Warp collectives in uniform code: the region form keeps each thread's value and gives back its
// result as the call's type (a double, a float, a vote's unsigned and int).
__global__ void warp_mix(const double* in, double* out, unsigned* votes) {
    double v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    const float f = static_cast<float>(threadIdx.x);
    float g = __shfl_xor_sync(0xffffffffu, f, 3, 16);
    unsigned b = __ballot_sync(0xffffffffu, v > 0.0);
    __syncwarp();
    if (__all_sync(0xffffffffu, g >= 0.0f)) votes[threadIdx.x] = b;
    out[threadIdx.x] = v + g;
}

void run_all(const float* d_in, float* d_out, const float* dA, const float* dB, float* dC, int width, int n,
             cudaStream_t stream) {
    convolution_1d_tiled<<<(width + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, width);
    dim3 block(TILE, TILE);
    dim3 grid(helpers::div_up(n, TILE),
              helpers::div_up(n, TILE));
    matmul_tiled<<<grid,
                   block>>>(dA, dB,
                            dC, n);
    /*@@HOST_ERROR@@*/
    const unsigned blocks = std::min<int>((width + 2 * BLOCK - 1) / (2 * BLOCK), 1024);
    reduce_sum<float, BLOCK><<<blocks, BLOCK, BLOCK * sizeof(float), stream>>>(d_in, d_out, width);
    for (int pass = 0; pass < 2; ++pass)
        if (pass == 1)
            reduce_sum<float, BLOCK>
                <<<1, BLOCK, BLOCK * sizeof(float)>>>
                (d_out, d_out, blocks);
    CHECK_LAUNCH(count_positive, width);
    fill<<<helpers::div_up(n, BLOCK), BLOCK, 0, stream>>>(dC, 1.0f, n);
    std::printf("launched <<<%d, %d>>>\n", 1, BLOCK);  // a comment with k<<<1, 1>>>() in it
}
